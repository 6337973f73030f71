/* cols — how a record maps onto a `pages` row, for both targets: the
 * keys that have a column of their own, and every other key as the
 * `record` JSON. */
#ifndef SINK_COLS_H
#define SINK_COLS_H

#include <msgpack.h>
#include <stddef.h>

/* The record keys with a column, in bind order (url first): fetch's,
 * validate's and parse's title, then parse's metadata (docs/records.md). */
extern const char *const cols_names[];
#define COLS_N 19
/* cols_names from COLS_META on: parse's page metadata. */
#define COLS_META 10
/* Columns of cols_names PostgreSQL types: published and modified as
 * timestamptz, keywords as jsonb. */
#define COLS_PUBLISHED 11
#define COLS_MODIFIED 12
#define COLS_KEYWORDS 17

/* Whether value v of column i has the column's type: SQLite takes
 * anything; PostgreSQL's typed columns (status, accepted: integers or
 * booleans; fetched_at: a number; published, modified: a cols_time;
 * keywords: an array of strings without NUL, as jsonb) take only what
 * fits. */
int cols_fits(size_t i, const msgpack_object *v);

/* Whether s[0..n) is a time PostgreSQL's timestamptz takes as meant: a
 * date YYYY-MM-DD (years 0001 to 9999, a day its month has), or one
 * with a time, YYYY-MM-DDTHH:MM[:SS[.FRACTION]], and a zone: Z, +HH,
 * +HH:MM or +HHMM (or -).  A time without a zone is not: the server
 * would read it in its own. */
int cols_time(const char *s, size_t n);

/* The upsert's parameters after the columns of cols_names (?1..?COLS_N);
 * screenshot, pdf and body are bytes, the rest text. */
enum cols_param {
	COLS_P_STORED_AT = COLS_N + 1,   /* also last_checked */
	COLS_P_RECORD, COLS_P_ETAG, COLS_P_LAST_MODIFIED, COLS_P_LAST_ERROR,
	COLS_P_CONTENT_HASH, COLS_P_SIMHASH, COLS_P_DUP_OF,
	COLS_P_SIM0,                     /* the simhash's bands, 4 of them */
	COLS_P_SCREENSHOT = COLS_P_SIM0 + 4, COLS_P_PDF,
	COLS_P_BODY,                     /* only with body: the last */
};

/* The longest statement cols_upsert writes, with its NUL. */
#define COLS_UPSERT_MAX 4096

/* Writes the upsert of one row into sql (n at least COLS_UPSERT_MAX):
 * the parameters of cols_names and enum cols_param, and body only with
 * body; an existing url's row takes the new values. */
void cols_upsert(char *sql, size_t n, int body);

/* The columns later versions added to `pages`, with their SQLite and
 * PostgreSQL types: a table made before them gains the missing ones
 * when sink opens it. */
typedef struct cols_column {
	const char *name, *sqlite, *pg;
} cols_column;
extern const cols_column cols_added[];
#define COLS_ADDED_N 22

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
