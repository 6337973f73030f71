#include "cols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "rec.h"
#include "xalloc.h"

const char *const cols_names[COLS_N] = {
	"url", "final_url", "host", "status", "error", "accepted", "reason",
	"title", "fetched_at", "parser",
};

void
cols_upsert(char *sql, size_t n, int body)
{
	snprintf(sql, n,
		 "INSERT INTO pages (url, final_url, host, status, error, accepted, reason,"
		 " title, fetched_at, parser, stored_at, record, etag, last_modified,"
		 " last_checked, last_error, content_hash, simhash, dup_of, sim0, sim1, sim2, sim3,"
		 " screenshot, pdf%s)"
		 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?11, ?15,"
		 " ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24%s)"
		 " ON CONFLICT(url) DO UPDATE SET final_url = excluded.final_url,"
		 " host = excluded.host, status = excluded.status, error = excluded.error,"
		 " accepted = excluded.accepted, reason = excluded.reason,"
		 " title = excluded.title, fetched_at = excluded.fetched_at,"
		 " parser = excluded.parser, stored_at = excluded.stored_at,"
		 " record = excluded.record, etag = excluded.etag,"
		 " last_modified = excluded.last_modified, last_checked = excluded.last_checked,"
		 " last_error = excluded.last_error, content_hash = excluded.content_hash,"
		 " simhash = excluded.simhash, dup_of = excluded.dup_of, sim0 = excluded.sim0,"
		 " sim1 = excluded.sim1, sim2 = excluded.sim2, sim3 = excluded.sim3,"
		 " screenshot = excluded.screenshot, pdf = excluded.pdf%s",
		 body ? ", body" : "", body ? ", ?25" : "", body ? ", body = excluded.body" : "");
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
	default:          /* text */
		return v->type == MSGPACK_OBJECT_STR;
	}
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
