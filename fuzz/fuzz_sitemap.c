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
	msgpack_zone z;
	msgpack_object in;
	fuzz_record(&b, &raw, &z, &in);
	if (!sitemap_candidate(&in))
		abort();
	rec_build_reset(&b);
	const char *u = "http://example.org/sitemap.xml";
	if (sitemap_put(s, l, &b, &in, u, strlen(u)) == SITEMAP_OK) {
		msgpack_sbuffer out;
		msgpack_zone z2;
		msgpack_object o;
		fuzz_record(&b, &out, &z2, &o);
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
