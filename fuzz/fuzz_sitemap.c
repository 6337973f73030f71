/* Sitemap reading (parser/sitemap.c): the input is the body of an
 * application/xml record, gzip when it starts with gzip's magic bytes.
 * Whatever it holds, the output keeps the protocol's limits: at most
 * SITEMAP_MAX_URLS links, and lastmods parallel to them. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "links.h"
#include "rec.h"
#include "sitemap.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sitemap *s;
	static lnk *l;
	if (!s) {
		s = sitemap_new();
		l = lnk_new();
	}
	rec_build b;
	rec_build_init(&b);
	rec_put_str(&b, "url", "http://example.org/sitemap.xml");
	rec_put_str(&b, "ctype", "application/xml");
	rec_put_bin(&b, "body", data, size);
	msgpack_sbuffer raw;
	msgpack_sbuffer_init(&raw);
	rec_build_finish(&b, NULL, NULL, &raw);
	msgpack_zone z;
	msgpack_zone_init(&z, 4096);
	msgpack_object in;
	size_t at = 0;
	if (msgpack_unpack(raw.data, raw.size, &at, &z, &in) != MSGPACK_UNPACK_SUCCESS)
		abort();
	if (!sitemap_candidate(&in))
		abort();
	rec_build_reset(&b);
	const char *u = "http://example.org/sitemap.xml";
	if (sitemap_put(s, l, &b, &in, u, strlen(u)) == SITEMAP_OK) {
		msgpack_sbuffer out;
		msgpack_sbuffer_init(&out);
		rec_build_finish(&b, NULL, NULL, &out);
		msgpack_zone z2;
		msgpack_zone_init(&z2, 4096);
		msgpack_object o;
		at = 0;
		if (msgpack_unpack(out.data, out.size, &at, &z2, &o) != MSGPACK_UNPACK_SUCCESS)
			abort();
		const msgpack_object *links = rec_get(&o, "links");
		const msgpack_object *sm = rec_get(&o, "sitemap");
		const msgpack_object *lm = sm ? rec_get(sm, "lastmods") : NULL;
		if (!links || links->type != MSGPACK_OBJECT_ARRAY ||
		    links->via.array.size > SITEMAP_MAX_URLS ||
		    (lm && lm->via.array.size != links->via.array.size))
			abort();
		msgpack_zone_destroy(&z2);
		msgpack_sbuffer_destroy(&out);
	}
	msgpack_zone_destroy(&z);
	msgpack_sbuffer_destroy(&raw);
	rec_build_free(&b);
	return 0;
}
