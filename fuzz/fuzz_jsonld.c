/* JSON-LD reading (parser/jsonld.c, with jansson) and date reading
 * (parser/date.c): the input is the text of one ld+json script, read
 * twice as two blocks of a page.  Whatever it holds, the kept objects
 * pack into a record that reads back, nested no deeper than
 * JSONLD_MAX_DEPTH, and every date written has date.h's shape. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "date.h"
#include "jsonld.h"
#include "rec.h"

/* The depth of o's arrays and maps (0 for a scalar). */
static int
depth(const msgpack_object *o)
{
	int d = 0, k;
	if (o->type == MSGPACK_OBJECT_ARRAY) {
		for (uint32_t i = 0; i < o->via.array.size; i++)
			if ((k = depth(&o->via.array.ptr[i])) > d)
				d = k;
		return d + 1;
	}
	if (o->type == MSGPACK_OBJECT_MAP) {
		for (uint32_t i = 0; i < o->via.map.size; i++)
			if ((k = depth(&o->via.map.ptr[i].val)) > d)
				d = k;
		return d + 1;
	}
	return 0;
}

/* Whether s is "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SS+HH:MM" (or -). */
static int
iso_shape(const char *s)
{
	static const char *const shape[] = { "dddd-dd-dd", "dddd-dd-ddTdd:dd:dd+dd:dd" };
	size_t n = strlen(s);
	for (int k = 0; k < 2; k++) {
		const char *p = shape[k];
		if (strlen(p) != n)
			continue;
		size_t i = 0;
		for (; i < n; i++)
			if (p[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9')
			    : p[i] == '+' ? s[i] != '+' && s[i] != '-' : s[i] != p[i])
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

static void
check_dates(const char *s, size_t n)
{
	char out[DATE_MAX];
	size_t at, len;
	if (date_iso(s, n, DATE_DMY, 1900, out) && !iso_shape(out))
		abort();
	if (date_find(s, n, DATE_MDY, 1990, out, &at, &len) &&
	    (!iso_shape(out) || at > n || len > n - at || !len))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static jsonld *j;
	static jsonld_facts f;
	if (!j) {
		j = jsonld_new();
		jsonld_facts_init(&f);
	}
	const char *s = (const char *)data;
	check_dates(s, size);
	jsonld_reset(j);
	jsonld_add(j, s, size);
	jsonld_add(j, s, size);
	jsonld_read(j, &f);

	rec_build b;
	rec_build_init(&b);
	jsonld_pack(j, rec_key(&b, "jsonld"));
	msgpack_sbuffer raw;
	msgpack_zone z;
	msgpack_object in;
	fuzz_record(&b, &raw, &z, &in);
	const msgpack_object *ld = rec_get(&in, "jsonld");
	if (!ld || ld->type != MSGPACK_OBJECT_ARRAY || ld->via.array.size != jsonld_count(j) ||
	    depth(ld) > JSONLD_MAX_DEPTH + 1 || jsonld_count(j) + jsonld_skipped(j) > 2 * size)
		abort();
	msgpack_zone_destroy(&z);
	msgpack_sbuffer_destroy(&raw);
	rec_build_free(&b);
	return 0;
}
