#include "cols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "rec.h"
#include "xalloc.h"

const char *const cols_names[COLS_N] = {
	"url", "final_url", "host", "status", "error", "accepted", "reason",
	"title", "fetched_at", "parser", "author", "published", "modified",
	"site_name", "lang", "description", "image", "keywords", "page_kind",
};

const cols_column cols_added[COLS_ADDED_N] = {
	{ "etag", "TEXT", "text" },
	{ "last_modified", "TEXT", "text" },
	{ "last_checked", "REAL", "double precision" },
	{ "last_error", "TEXT", "text" },
	{ "content_hash", "TEXT", "text" },
	{ "simhash", "TEXT", "text" },
	{ "dup_of", "TEXT", "text" },
	{ "sim0", "INTEGER", "integer" },
	{ "sim1", "INTEGER", "integer" },
	{ "sim2", "INTEGER", "integer" },
	{ "sim3", "INTEGER", "integer" },
	{ "screenshot", "BLOB", "bytea" },
	{ "pdf", "BLOB", "bytea" },
	{ "author", "TEXT", "text" },
	{ "published", "TEXT", "timestamptz" },
	{ "modified", "TEXT", "timestamptz" },
	{ "site_name", "TEXT", "text" },
	{ "lang", "TEXT", "text" },
	{ "description", "TEXT", "text" },
	{ "image", "TEXT", "text" },
	{ "keywords", "TEXT", "jsonb" },
	{ "page_kind", "TEXT", "text" },
};

/* The upsert's columns after those of cols_names, with their
 * parameters; body last, as only --body stores it. */
static const struct {
	const char *name;
	int p;
} upsert_rest[] = {
	{ "stored_at", COLS_P_STORED_AT }, { "record", COLS_P_RECORD },
	{ "etag", COLS_P_ETAG }, { "last_modified", COLS_P_LAST_MODIFIED },
	{ "last_checked", COLS_P_STORED_AT }, { "last_error", COLS_P_LAST_ERROR },
	{ "content_hash", COLS_P_CONTENT_HASH }, { "simhash", COLS_P_SIMHASH },
	{ "dup_of", COLS_P_DUP_OF }, { "sim0", COLS_P_SIM0 }, { "sim1", COLS_P_SIM0 + 1 },
	{ "sim2", COLS_P_SIM0 + 2 }, { "sim3", COLS_P_SIM0 + 3 },
	{ "screenshot", COLS_P_SCREENSHOT }, { "pdf", COLS_P_PDF }, { "body", COLS_P_BODY },
};

/* Column i of the upsert, its parameter into *p. */
static const char *
upsert_col(size_t i, int *p)
{
	if (i < COLS_N) {
		*p = (int)i + 1;
		return cols_names[i];
	}
	*p = upsert_rest[i - COLS_N].p;
	return upsert_rest[i - COLS_N].name;
}

void
cols_upsert(char *sql, size_t n, int body)
{
	size_t cols = COLS_N + sizeof upsert_rest / sizeof upsert_rest[0] - !body, at = 0;
	const char *c;
	int p;
#define CAT(...) (at += at < n ? (size_t)snprintf(sql + at, n - at, __VA_ARGS__) : 0)
	CAT("INSERT INTO pages (");
	for (size_t i = 0; i < cols; i++) {
		c = upsert_col(i, &p);
		CAT("%s%s", i ? ", " : "", c);
	}
	CAT(") VALUES (");
	for (size_t i = 0; i < cols; i++) {
		upsert_col(i, &p);
		CAT("%s?%d", i ? ", " : "", p);
	}
	CAT(") ON CONFLICT(url) DO UPDATE SET ");
	for (size_t i = 1; i < cols; i++) {   /* all but url */
		c = upsert_col(i, &p);
		CAT("%s%s = excluded.%s", i > 1 ? ", " : "", c, c);
	}
#undef CAT
}

const char cols_keep[] =
	"UPDATE pages SET last_checked = ?2, last_error = ?3, etag = coalesce(?4, etag),"
	" last_modified = coalesce(?5, last_modified) WHERE url = ?1 AND (?6 = 1 OR"
	" (status BETWEEN 200 AND 299 AND error IS NULL AND coalesce(accepted, 1) != 0))";

const char cols_dups[] =
	"SELECT url, content_hash, simhash, stored_at FROM pages WHERE (sim0 = ?1 OR sim1 = ?2 OR"
	" sim2 = ?3 OR sim3 = ?4) AND url <> ?5 AND dup_of IS NULL"
	" AND (status IS NULL OR status BETWEEN 200 AND 299)"
	" AND error IS NULL AND coalesce(accepted, 1) != 0";

/* 16 hex digits s[0..n) into *h: 1, or 0. */
static int
hex64(const char *s, size_t n, uint64_t *h)
{
	if (!s || n != 16)
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i], d;
		if (c >= '0' && c <= '9') d = c - '0';
		else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
		else return 0;
		v = v << 4 | (uint64_t)d;
	}
	*h = v;
	return 1;
}

int
cols_simhash(const msgpack_object *rec, uint64_t *h)
{
	const char *s;
	size_t n;
	return rec_str(rec, "simhash", &s, &n) && hex64(s, n, h);
}

int
cols_earlier(double t, const char *url, double best_t, const char *best_url)
{
	return !best_url || t < best_t || (t == best_t && strcmp(url, best_url) < 0);
}

int
cols_is_dup(const char *hash, size_t hashlen, uint64_t h, const char *ch, const char *sim)
{
	uint64_t o;
	if (hash && ch && strlen(ch) == hashlen && memcmp(ch, hash, hashlen) == 0)
		return 1;
	return sim && hex64(sim, strlen(sim), &o) && __builtin_popcountll(h ^ o) <= COLS_DUP_BITS;
}

enum cols_kind
cols_kind(const msgpack_object *rec, char *why, size_t n)
{
	const char *err;
	size_t len;
	int64_t status;
	why[0] = '\0';
	if (rec_not_modified(rec))
		return COLS_UNCHANGED;
	/* A 304 fetch did not ask for (-H If-None-Match, a confused
	 * server) has no page: a failure, never a page over a good one. */
	if (rec_get(rec, "error")) {
		if (!rec_str(rec, "error", &err, &len))
			err = "error", len = 5;
		snprintf(why, n, "%.*s", (int)len, err);
		return COLS_FAILED;
	}
	if (rec_int(rec, "status", &status) && (status < 200 || status > 299)) {
		snprintf(why, n, "status %lld", (long long)status);
		return COLS_FAILED;
	}
	/* A block page served 200 ("Access Denied") is no page either:
	 * validate said so. */
	const msgpack_object *acc = rec_get(rec, "accepted");
	if (acc && acc->type == MSGPACK_OBJECT_BOOLEAN && !acc->via.boolean) {
		if (!rec_str(rec, "reason", &err, &len))
			err = "rejected", len = 8;
		snprintf(why, n, "%.*s", (int)len, err);
		return COLS_REJECTED;
	}
	return COLS_PAGE;
}

const msgpack_object *
cols_header(const msgpack_object *rec, const char *name)
{
	const msgpack_object *h = rec_get(rec, "headers");
	const msgpack_object *v = h && h->type == MSGPACK_OBJECT_MAP ? rec_get(h, name) : NULL;
	return v && v->type == MSGPACK_OBJECT_STR ? v : NULL;
}

int
cols_fits(size_t i, const msgpack_object *v)
{
	if (!v || v->type == MSGPACK_OBJECT_NIL)
		return 1;
	switch (i) {
	case 3: case 5:   /* status, accepted */
		return v->type == MSGPACK_OBJECT_BOOLEAN ||
		       (v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= INT32_MAX) ||
		       (v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER && v->via.i64 >= INT32_MIN);
	case 8:           /* fetched_at */
		return v->type == MSGPACK_OBJECT_POSITIVE_INTEGER ||
		       v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER ||
		       v->type == MSGPACK_OBJECT_FLOAT32 || v->type == MSGPACK_OBJECT_FLOAT64;
	case COLS_PUBLISHED: case COLS_MODIFIED:
		return v->type == MSGPACK_OBJECT_STR && cols_time(v->via.str.ptr, v->via.str.size);
	case COLS_KEYWORDS:   /* jsonb refuses \u0000 */
		if (v->type != MSGPACK_OBJECT_ARRAY)
			return 0;
		for (uint32_t k = 0; k < v->via.array.size; k++) {
			const msgpack_object *e = &v->via.array.ptr[k];
			if (e->type != MSGPACK_OBJECT_STR || memchr(e->via.str.ptr, 0, e->via.str.size))
				return 0;
		}
		return 1;
	default:          /* text */
		return v->type == MSGPACK_OBJECT_STR;
	}
}

/* The k digits of s[0..n) at at, as a number into *v: 1, or 0. */
static int
digits(const char *s, size_t n, size_t at, size_t k, int *v)
{
	if (at + k > n)
		return 0;
	*v = 0;
	for (size_t i = at; i < at + k; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*v = *v * 10 + (s[i] - '0');
	}
	return 1;
}

int
cols_time(const char *s, size_t n)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec;
	if (n < 10 || !digits(s, n, 0, 4, &y) || y < 1 || s[4] != '-' || !digits(s, n, 5, 2, &mo) ||
	    mo < 1 || mo > 12 || s[7] != '-' || !digits(s, n, 8, 2, &d) || d < 1 ||
	    d > mdays[mo - 1] || (mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
		return 0;
	if (n == 10)
		return 1;
	if (n < 17 || s[10] != 'T' || !digits(s, n, 11, 2, &h) || h > 23 || s[13] != ':' ||
	    !digits(s, n, 14, 2, &mi) || mi > 59)
		return 0;
	size_t i = 16;
	if (s[i] == ':') {
		if (!digits(s, n, 17, 2, &sec) || sec > 59)
			return 0;
		i = 19;
		if (i < n && s[i] == '.') {
			size_t from = ++i;
			while (i < n && i - from < 9 && s[i] >= '0' && s[i] <= '9')
				i++;
			if (i == from)
				return 0;
		}
	}
	if (i < n && s[i] == 'Z')
		return i + 1 == n;
	if (i >= n || (s[i] != '+' && s[i] != '-') || !digits(s, n, i + 1, 2, &h) || h > 14)
		return 0;
	i += 3;
	if (i == n)
		return 1;
	if (s[i] == ':')
		i++;
	return digits(s, n, i, 2, &mi) && mi <= 59 && i + 2 == n;
}

/* Whether key k (with value v) goes to a column rather than `record`. */
static int
own_column(const msgpack_object *k, const msgpack_object *v, int links, int strict)
{
	for (size_t i = 0; i < COLS_N; i++)
		if (rec_eq(k, cols_names[i]))
			return !strict || cols_fits(i, v);
	/* parse's fingerprints, and render's binary outputs (BLOB or
	 * bytea columns rather than base64 inside `record`). */
	if (rec_eq(k, "content_hash") || rec_eq(k, "simhash"))
		return !strict || v->type == MSGPACK_OBJECT_STR;
	if (rec_eq(k, "screenshot") || rec_eq(k, "pdf"))
		return v->type == MSGPACK_OBJECT_BIN || v->type == MSGPACK_OBJECT_STR;
	return rec_eq(k, "body") || (links && rec_eq(k, "links"));
}

void
cols_rest_json(cols_rest *r, const msgpack_object *rec, int links, int strict)
{
	uint32_t n = rec->via.map.size;
	if (n > r->cap) {
		free(r->kv);
		r->cap = n;
		r->kv = xmalloc(n * sizeof *r->kv);
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!own_column(&rec->via.map.ptr[i].key, &rec->via.map.ptr[i].val, links, strict))
			r->kv[k++] = rec->via.map.ptr[i];
	msgpack_object rest = { .type = MSGPACK_OBJECT_MAP };
	rest.via.map.size = k;
	rest.via.map.ptr = r->kv;
	r->json.size = 0;
	rec_json(&rest, &r->json);
}

void
cols_rest_free(cols_rest *r)
{
	free(r->kv);
	msgpack_sbuffer_destroy(&r->json);
	*r = (cols_rest){ 0 };
}
