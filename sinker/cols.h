/* cols — how a record maps onto a `pages` row, for both targets: the
 * keys that have a column of their own, and every other key as the
 * `record` JSON. */
#ifndef SINK_COLS_H
#define SINK_COLS_H

#include <msgpack.h>
#include <stddef.h>

/* The record keys with a column, in bind order (url first). */
extern const char *const cols_names[];
#define COLS_N 10

/* Whether value v of column i has the column's type: SQLite takes
 * anything; PostgreSQL's typed columns (status, accepted: integers or
 * booleans; fetched_at: a number) take only what fits. */
int cols_fits(size_t i, const msgpack_object *v);

/* Writes the upsert of one row into sql: the columns ?1..?10, stored_at
 * ?11 (also last_checked), record ?12, etag ?13, last_modified ?14,
 * last_error ?15, content_hash ?16, simhash ?17, dup_of ?18, the simhash's
 * bands sim0..sim3 ?19..?22, screenshot ?23, pdf ?24 and, with body,
 * body ?25; an existing url's row takes the new values. */
void cols_upsert(char *sql, size_t n, int body);

/* What a record does to the row stored for its url (docs/sink.md,
 * "Recrawls"). */
enum cols_kind {
	COLS_PAGE,       /* an answer to store: upserted */
	COLS_UNCHANGED,  /* rec_not_modified: any stored row is kept */
	COLS_FAILED,     /* `error`, or a status outside 2xx (a 304 without
			  * not_modified too): a good stored row is kept */
	COLS_REJECTED,   /* an answer validate rejected (`accepted: false`):
			  * a good stored row is kept, unless sink
			  * --replace-rejected */
};

/* rec's kind; why into why: for COLS_FAILED the error word, or
 * "status N"; for COLS_REJECTED validate's reason (or "rejected"); else
 * "". */
enum cols_kind cols_kind(const msgpack_object *rec, char *why, size_t n);

/* The string value of response header name (lowercase) in rec's
 * `headers`, or NULL. */
const msgpack_object *cols_header(const msgpack_object *rec, const char *name);

/* The statement that keeps a stored row and notes a check of it:
 * url ?1, last_checked ?2, last_error ?3, etag ?4 and last_modified ?5
 * (each replacing the row's unless NULL).  With ?6 = 1 any row is kept
 * (COLS_UNCHANGED); with 0 only a good one: 2xx, no error, not rejected
 * (COLS_FAILED, COLS_REJECTED).  No row changed: store the record as a
 * page. */
extern const char cols_keep[];

/* Near-duplicates (docs/sink.md, "Duplicates"): a page is a copy of an
 * earlier one when their content_hash is equal or their simhashes differ
 * in at most COLS_DUP_BITS bits.  The 64 bits are cut into four 16-bit
 * bands, each an indexed column: two simhashes within 3 bits agree on at
 * least one band (pigeonhole), so four indexed equality lookups find
 * every candidate without a scan, and popcount confirms it. */
#define COLS_DUP_BITS 3

/* The simhash of rec (16 hex digits, docs/records.md) into *h: 1, or 0
 * when rec has none or it is not 16 hex digits. */
int cols_simhash(const msgpack_object *rec, uint64_t *h);

/* Band i (0..3) of h: bits 16i..16i+15. */
static inline int cols_band(uint64_t h, int i) { return (int)(h >> (16 * i) & 0xffff); }

/* The candidates for a page's dup_of: canonical (dup_of NULL), good
 * (a 2xx status or none, no error, not rejected) rows other than url ?5
 * with a band equal to ?1..?4; columns url, content_hash, simhash,
 * stored_at.  Unordered: the caller keeps the earliest match
 * (cols_earlier), which spares a sort per page. */
extern const char cols_dups[];

/* Whether a candidate stored at t with url comes before the best so far
 * (best_url NULL: none yet): stored first, then by url. */
int cols_earlier(double t, const char *url, double best_t, const char *best_url);

/* Whether a candidate row (content_hash ch, simhash sim as stored, each
 * may be NULL) is a copy of a page with content_hash hash (may be NULL)
 * and simhash h. */
int cols_is_dup(const char *hash, size_t hashlen, uint64_t h, const char *ch,
		const char *sim);

typedef struct cols_rest {
	msgpack_object_kv *kv;   /* scratch: the pairs that go to `record` */
	size_t cap;
	msgpack_sbuffer json;    /* `record`, after cols_rest_json */
} cols_rest;

/* Renders the keys of rec that have no column (body always has one,
 * links one when links) as a JSON object into r->json, by pointing a map
 * object at the kept pairs: no copy of the values.  With strict, a
 * column's key whose value does not fit it (cols_fits) stays in the JSON
 * too, so the row loses nothing. */
void cols_rest_json(cols_rest *r, const msgpack_object *rec, int links, int strict);
void cols_rest_free(cols_rest *r);

#endif
