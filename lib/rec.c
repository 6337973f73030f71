#include "rec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC_READ_CHUNK 65536
#define REC_OUT_FLUSH_AT 65536

/* ---- reading ------------------------------------------------------------ */

static void scan_reset(rec_scan *sc);

int
rec_in_init(rec_in *r, int fd, size_t max_record)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	r->max_record = max_record ? max_record : REC_MAX_RECORD_DEFAULT;
	if (!msgpack_unpacker_init(&r->u, REC_READ_CHUNK))
		return -1;
	msgpack_unpacked_init(&r->res);
	scan_reset(&r->scan);
	return 0;
}

void
rec_in_free(rec_in *r)
{
	msgpack_unpacked_destroy(&r->res);
	msgpack_unpacker_destroy(&r->u);
}

ssize_t
rec_in_fill(rec_in *r)
{
	if (!msgpack_unpacker_reserve_buffer(&r->u, REC_READ_CHUNK)) {
		errno = ENOMEM;
		return -1;
	}
	ssize_t n;
	do
		n = read(r->fd, msgpack_unpacker_buffer(&r->u),
			 msgpack_unpacker_buffer_capacity(&r->u));
	while (n < 0 && errno == EINTR);
	if (n > 0)
		msgpack_unpacker_buffer_consumed(&r->u, (size_t)n);
	else if (n == 0)
		r->eof = 1;
	return n;
}

static size_t
unparsed(const rec_in *r)
{
	return r->u.used - r->u.off;
}

static int
fail(rec_in *r, const char *why)
{
	snprintf(r->err, sizeof r->err, "malformed record at byte %llu: %s",
		 (unsigned long long)r->offset, why);
	return REC_ERR;
}

static uint64_t
be(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Starts the scan of a new record: one top-level element due. */
static void
scan_reset(rec_scan *sc)
{
	sc->pos = 0;
	sc->elements = 0;
	sc->depth = 0;
	sc->left[0] = 1;
}

/* The most elements a record may hold under max_record. */
static uint64_t
max_elements(size_t max_record)
{
	uint64_t n = max_record / REC_ELEMENT_BYTES;
	return n < REC_MIN_ELEMENTS ? REC_MIN_ELEMENTS : n;
}

enum { SCAN_NEED = 0, SCAN_BAD = -1, SCAN_DEEP = -2, SCAN_MANY = -3 };

/* Walks the headers of the record at p[0..n), the same record (with more
 * bytes buffered) as every call since the last scan_reset, from where the
 * previous call stopped.  Returns the record's length once it is whole,
 * SCAN_NEED when more bytes are needed, SCAN_BAD for a byte that is never
 * valid msgpack, SCAN_DEEP when containers nest deeper than
 * REC_MAX_DEPTH, SCAN_MANY past max elements.  Allocates nothing: this is
 * the guard that lets us hand msgpack-c only whole, bounded objects, and
 * resuming keeps the total work linear in the record's size. */
static long long
scan(rec_scan *sc, const unsigned char *p, size_t n, uint64_t max)
{
	for (;;) {
		if (sc->pos > n)
			return SCAN_NEED;   /* inside a string still arriving */
		while (sc->depth >= 0 && sc->left[sc->depth] == 0)
			sc->depth--;
		if (sc->depth < 0)
			return (long long)sc->pos;
		size_t i = (size_t)sc->pos;
		if (i >= n)
			return SCAN_NEED;
		unsigned c = p[i++];
		uint64_t skip = 0, items = 0;
		int hdr = 0, container = 0;
		if (c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3)
			;
		else if (c <= 0x8f)
			container = 1, items = 2 * (c & 0x0f);
		else if (c <= 0x9f)
			container = 1, items = c & 0x0f;
		else if (c <= 0xbf)
			skip = c & 0x1f;
		else switch (c) {
		case 0xc4: case 0xd9: hdr = 1; break;           /* bin8 str8 */
		case 0xc5: case 0xda: hdr = 2; break;           /* bin16 str16 */
		case 0xc6: case 0xdb: hdr = 4; break;           /* bin32 str32 */
		case 0xc7: hdr = 1, skip = 1; break;            /* ext8 */
		case 0xc8: hdr = 2, skip = 1; break;            /* ext16 */
		case 0xc9: hdr = 4, skip = 1; break;            /* ext32 */
		case 0xca: skip = 4; break;
		case 0xcb: skip = 8; break;
		case 0xcc: case 0xd0: skip = 1; break;
		case 0xcd: case 0xd1: skip = 2; break;
		case 0xce: case 0xd2: skip = 4; break;
		case 0xcf: case 0xd3: skip = 8; break;
		case 0xd4: skip = 2; break;
		case 0xd5: skip = 3; break;
		case 0xd6: skip = 5; break;
		case 0xd7: skip = 9; break;
		case 0xd8: skip = 17; break;
		case 0xdc: hdr = 2, container = 1; break;
		case 0xdd: hdr = 4, container = 1; break;
		case 0xde: hdr = 2, container = 2; break;
		case 0xdf: hdr = 4, container = 2; break;
		default: return SCAN_BAD;                       /* 0xc1 */
		}
		if (hdr) {
			/* A length split across reads: wait, and read the
			 * type byte again next time. */
			if (n - i < (size_t)hdr)
				return SCAN_NEED;
			uint64_t len = be(p + i, hdr);
			i += hdr;
			if (container)
				items = len * (uint64_t)container;
			else
				skip += len;
		}
		/* The element is committed from here on. */
		if (++sc->elements > max)
			return SCAN_MANY;
		sc->left[sc->depth]--;
		if (container) {
			if (sc->depth + 1 > REC_MAX_DEPTH)
				return SCAN_DEEP;
			sc->left[++sc->depth] = items;
		}
		sc->pos = (uint64_t)i + skip;
	}
}

int
rec_in_parse(rec_in *r, msgpack_object *o)
{
	size_t avail = unparsed(r);
	if (avail == 0)
		return r->eof ? REC_EOF : REC_NEED;
	long long len = scan(&r->scan, (const unsigned char *)r->u.buffer + r->u.off,
			     avail, max_elements(r->max_record));
	if (len == SCAN_BAD)
		return fail(r, "invalid msgpack byte");
	if (len == SCAN_DEEP)
		return fail(r, "nested too deeply");
	if (len == SCAN_MANY) {
		char why[80];
		snprintf(why, sizeof why, "more than %llu elements",
			 (unsigned long long)max_elements(r->max_record));
		return fail(r, why);
	}
	/* A string's claimed length counts before its bytes arrive, so a
	 * hostile prefix is refused at once. */
	if (r->scan.pos > r->max_record || (size_t)len > r->max_record) {
		char why[80];
		snprintf(why, sizeof why, "record larger than %zu bytes", r->max_record);
		return fail(r, why);
	}
	if (len == SCAN_NEED)
		return r->eof ? fail(r, "truncated record") : REC_NEED;
	if (msgpack_unpacker_next(&r->u, &r->res) != MSGPACK_UNPACK_SUCCESS)
		return fail(r, "cannot decode record");
	scan_reset(&r->scan);
	if (r->res.data.type != MSGPACK_OBJECT_MAP)
		return fail(r, "not a map");
	r->offset += (uint64_t)len;
	r->last_len = (size_t)len;
	*o = r->res.data;
	return REC_OK;
}

void
rec_in_raw(const rec_in *r, const char **p, size_t *n)
{
	*n = r->last_len;
	*p = r->u.buffer + r->u.off - r->last_len;
}

int
rec_in_next(rec_in *r, msgpack_object *o)
{
	for (;;) {
		int rc = rec_in_parse(r, o);
		if (rc != REC_NEED)
			return rc;
		if (rec_in_fill(r) < 0) {
			snprintf(r->err, sizeof r->err, "read error at byte %llu: %s",
				 (unsigned long long)(r->offset + unparsed(r)),
				 strerror(errno));
			return REC_IOERR;
		}
	}
}

int
rec_in_line(rec_in *r, const char **line, size_t *len)
{
	size_t avail = unparsed(r);
	char *p = r->u.buffer + r->u.off;
	char *nl = memchr(p, '\n', avail);
	size_t n = nl ? (size_t)(nl - p) : avail;
	if (n > REC_MAX_LINE + 1 || (n == REC_MAX_LINE + 1 && p[n - 1] != '\r')) {
		snprintf(r->err, sizeof r->err, "line at byte %llu longer than %d bytes",
			 (unsigned long long)r->offset, REC_MAX_LINE);
		return REC_ERR;
	}
	if (!nl && !r->eof)
		return REC_NEED;
	if (!nl && avail == 0)
		return REC_EOF;
	/* Lines are consumed straight from the unpacker's buffer; the two
	 * modes never mix within one stream. */
	size_t used = nl ? n + 1 : n;
	r->u.off += used;
	r->offset += used;
	scan_reset(&r->scan);
	if (n > 0 && p[n - 1] == '\r')
		n--;
	*line = p;
	*len = n;
	return REC_OK;
}

int
rec_in_peek(const rec_in *r)
{
	return unparsed(r) ? (unsigned char)r->u.buffer[r->u.off] : -1;
}

int
rec_is_map_start(int c)
{
	return (c >= 0x80 && c <= 0x8f) || c == 0xde || c == 0xdf;
}

/* ---- accessors ---------------------------------------------------------- */

int
rec_not_modified(const msgpack_object *rec)
{
	const msgpack_object *nm = rec_get(rec, "not_modified");
	int64_t status;
	return nm && nm->type == MSGPACK_OBJECT_BOOLEAN && nm->via.boolean &&
	       rec_int(rec, "status", &status) && status == 304;
}

int
rec_sitemap(const msgpack_object *rec)
{
	const msgpack_object *sm = rec_get(rec, "sitemap");
	const char *k;
	size_t n;
	if (!sm || sm->type != MSGPACK_OBJECT_MAP || rec_get(rec, "parse_error") ||
	    !rec_str(sm, "kind", &k, &n))
		return 0;
	if (n == 6 && memcmp(k, "urlset", 6) == 0)
		return REC_SITEMAP_URLSET;
	if ((n == 5 && memcmp(k, "index", 5) == 0) || (n == 6 && memcmp(k, "robots", 6) == 0))
		return REC_SITEMAP_INDEX;
	return 0;
}

int
rec_eq(const msgpack_object *o, const char *s)
{
	size_t n = strlen(s);
	return o && o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
	       memcmp(o->via.str.ptr, s, n) == 0;
}

static const msgpack_object *
get_n(const msgpack_object *map, const char *key, size_t n)
{
	if (!map || map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->via.map.size; i++) {
		const msgpack_object *k = &map->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
		    memcmp(k->via.str.ptr, key, n) == 0)
			return &map->via.map.ptr[i].val;
	}
	return NULL;
}

const msgpack_object *
rec_get(const msgpack_object *map, const char *key)
{
	return get_n(map, key, strlen(key));
}

const msgpack_object *
rec_path(const msgpack_object *map, const char *path)
{
	const msgpack_object *o = map;
	for (;;) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);
		o = get_n(o, path, n);
		if (!o || !dot)
			return o;
		path = dot + 1;
	}
}

int
rec_str(const msgpack_object *map, const char *key, const char **s, size_t *n)
{
	const msgpack_object *o = rec_get(map, key);
	if (o && o->type == MSGPACK_OBJECT_STR) {
		*s = o->via.str.ptr, *n = o->via.str.size;
		return 1;
	}
	if (o && o->type == MSGPACK_OBJECT_BIN) {
		*s = o->via.bin.ptr, *n = o->via.bin.size;
		return 1;
	}
	return 0;
}

char *
rec_strdup(const msgpack_object *map, const char *key)
{
	const char *s;
	size_t n;
	if (!rec_str(map, key, &s, &n))
		return NULL;
	return strndup(s, n);
}

int
rec_double(const msgpack_object *map, const char *key, double *v)
{
	const msgpack_object *o = rec_get(map, key);
	if (!o)
		return 0;
	switch (o->type) {
	case MSGPACK_OBJECT_POSITIVE_INTEGER: *v = (double)o->via.u64; return 1;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER: *v = (double)o->via.i64; return 1;
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64: *v = o->via.f64; return 1;
	default: return 0;
	}
}

int
rec_int(const msgpack_object *map, const char *key, int64_t *v)
{
	const msgpack_object *o = rec_get(map, key);
	if (o && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		*v = o->via.u64 > INT64_MAX ? INT64_MAX : (int64_t)o->via.u64;
		return 1;
	}
	if (o && o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		*v = o->via.i64;
		return 1;
	}
	double d;
	if (rec_double(map, key, &d) && d > -9e18 && d < 9e18) {
		*v = (int64_t)d;
		return 1;
	}
	return 0;
}

int
rec_empty(const msgpack_object *o)
{
	if (!o)
		return 1;
	switch (o->type) {
	case MSGPACK_OBJECT_NIL: return 1;
	case MSGPACK_OBJECT_BOOLEAN: return !o->via.boolean;
	case MSGPACK_OBJECT_STR: return o->via.str.size == 0;
	case MSGPACK_OBJECT_BIN: return o->via.bin.size == 0;
	case MSGPACK_OBJECT_ARRAY: return o->via.array.size == 0;
	case MSGPACK_OBJECT_MAP: return o->via.map.size == 0;
	default: return 0;
	}
}

/* ---- building ----------------------------------------------------------- */

void
rec_build_init(rec_build *b)
{
	msgpack_sbuffer_init(&b->kv);
	msgpack_packer_init(&b->pk, &b->kv, msgpack_sbuffer_write);
	b->n = 0;
}

void
rec_build_free(rec_build *b)
{
	msgpack_sbuffer_destroy(&b->kv);
}

void
rec_build_reset(rec_build *b)
{
	b->kv.size = 0;
	b->n = 0;
}

static void
pack_str(msgpack_packer *pk, const char *s, size_t n)
{
	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, s, n);
}

msgpack_packer *
rec_key(rec_build *b, const char *key)
{
	if (b->n >= REC_MAX_KEYS)
		abort();   /* a programming error: stages put a fixed set */
	b->keys[b->n++] = key;
	pack_str(&b->pk, key, strlen(key));
	return &b->pk;
}

void
rec_put_strn(rec_build *b, const char *key, const char *s, size_t n)
{
	pack_str(rec_key(b, key), s, n);
}

void
rec_put_str(rec_build *b, const char *key, const char *s)
{
	rec_put_strn(b, key, s, strlen(s));
}

void
rec_put_bin(rec_build *b, const char *key, const void *p, size_t n)
{
	msgpack_packer *pk = rec_key(b, key);
	msgpack_pack_bin(pk, n);
	msgpack_pack_bin_body(pk, p, n);
}

void
rec_put_int(rec_build *b, const char *key, int64_t v)
{
	msgpack_pack_int64(rec_key(b, key), v);
}

void
rec_put_double(rec_build *b, const char *key, double v)
{
	msgpack_pack_double(rec_key(b, key), v);
}

void
rec_put_bool(rec_build *b, const char *key, int v)
{
	msgpack_packer *pk = rec_key(b, key);
	if (v)
		msgpack_pack_true(pk);
	else
		msgpack_pack_false(pk);
}

int
rec_has_key(const rec_build *b, const char *key)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (strcmp(b->keys[i], key) == 0)
			return 1;
	return 0;
}

/* Whether input key k is replaced by the build or dropped. */
static int
skipped(const rec_build *b, const msgpack_object *k, const char *const *drop)
{
	for (uint32_t i = 0; i < b->n; i++)
		if (rec_eq(k, b->keys[i]))
			return 1;
	for (; drop && *drop; drop++)
		if (rec_eq(k, *drop))
			return 1;
	return 0;
}

void
rec_build_finish(rec_build *b, const msgpack_object *in,
		 const char *const *drop, msgpack_sbuffer *out)
{
	msgpack_packer pk;
	msgpack_packer_init(&pk, out, msgpack_sbuffer_write);
	uint32_t n = b->n;
	int has_in = in && in->type == MSGPACK_OBJECT_MAP;
	if (has_in)
		for (uint32_t i = 0; i < in->via.map.size; i++)
			n += !skipped(b, &in->via.map.ptr[i].key, drop);
	msgpack_pack_map(&pk, n);
	msgpack_sbuffer_write(out, b->kv.data, b->kv.size);
	if (has_in)
		for (uint32_t i = 0; i < in->via.map.size; i++) {
			const msgpack_object_kv *kv = &in->via.map.ptr[i];
			if (skipped(b, &kv->key, drop))
				continue;
			msgpack_pack_object(&pk, kv->key);
			msgpack_pack_object(&pk, kv->val);
		}
}

/* ---- writing ------------------------------------------------------------ */

void
rec_out_init(rec_out *o, int fd, int json)
{
	o->fd = fd;
	o->json = json < 0 ? isatty(fd) : json;
	o->flush_at = REC_OUT_FLUSH_AT;
	msgpack_sbuffer_init(&o->buf);
	msgpack_sbuffer_init(&o->rec);
}

void
rec_out_free(rec_out *o)
{
	msgpack_sbuffer_destroy(&o->buf);
	msgpack_sbuffer_destroy(&o->rec);
}

int
rec_out_flush(rec_out *o)
{
	size_t done = 0;
	while (done < o->buf.size) {
		ssize_t n = write(o->fd, o->buf.data + done, o->buf.size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* Keep only what is unwritten, so a retry does not
			 * write the start twice. */
			memmove(o->buf.data, o->buf.data + done, o->buf.size - done);
			o->buf.size -= done;
			return -1;
		}
		done += (size_t)n;
	}
	o->buf.size = 0;
	return 0;
}

int
rec_out_put(rec_out *o, const char *map, size_t len)
{
	if (o->json) {
		msgpack_zone z;
		msgpack_object obj;
		msgpack_zone_init(&z, 4096);
		size_t off = 0;
		if (msgpack_unpack(map, len, &off, &z, &obj) == MSGPACK_UNPACK_SUCCESS) {
			rec_json(&obj, &o->buf);
			msgpack_sbuffer_write(&o->buf, "\n", 1);
		}
		msgpack_zone_destroy(&z);
	} else {
		msgpack_sbuffer_write(&o->buf, map, len);
	}
	return o->buf.size >= o->flush_at ? rec_out_flush(o) : 0;
}

int
rec_out_build(rec_out *o, rec_build *b, const msgpack_object *in,
	      const char *const *drop)
{
	o->rec.size = 0;
	rec_build_finish(b, in, drop, &o->rec);
	return rec_out_put(o, o->rec.data, o->rec.size);
}

int
rec_out_pass(rec_out *o, rec_build *b, const char *in, size_t in_len,
	     const char *const *own)
{
	if (!in)
		return rec_out_build(o, b, NULL, own);
	msgpack_zone z;
	msgpack_object m = { .type = MSGPACK_OBJECT_NIL };
	size_t off = 0;
	msgpack_zone_init(&z, 2048);
	msgpack_unpack(in, in_len, &off, &z, &m);
	int rc = rec_out_build(o, b, &m, own);
	msgpack_zone_destroy(&z);
	return rc;
}

enum { ITEM_UNKNOWN, ITEM_LINES, ITEM_RECORDS };

int
rec_in_item(rec_in *r, int *fmt, rec_item *it)
{
	if (*fmt == ITEM_UNKNOWN) {
		int c = rec_in_peek(r);
		if (c < 0)
			return r->eof ? REC_EOF : REC_NEED;
		*fmt = rec_is_map_start(c) ? ITEM_RECORDS : ITEM_LINES;
	}
	*it = (rec_item){ .rec = { .type = MSGPACK_OBJECT_NIL } };
	if (*fmt == ITEM_LINES) {
		for (;;) {
			const char *line;
			size_t len;
			int rc = rec_in_line(r, &line, &len);
			if (rc != REC_OK)
				return rc;
			size_t i = 0;
			while (i < len && (line[i] == ' ' || line[i] == '\t'))
				i++;
			if (i < len && line[i] != '#') {
				it->url = line + i;
				it->url_len = len - i;
				return REC_OK;
			}
		}
	}
	int rc = rec_in_parse(r, &it->rec);
	if (rc != REC_OK)
		return rc;
	rec_in_raw(r, &it->raw, &it->raw_len);
	const msgpack_object *u = rec_get(&it->rec, "url");
	if (u && u->type == MSGPACK_OBJECT_STR) {
		it->url = u->via.str.ptr;
		it->url_len = u->via.str.size;
	}
	return REC_OK;
}
