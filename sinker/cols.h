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
 * ?11, record ?12 and, with body, body ?13; an existing url's row takes
 * the new values. */
void cols_upsert(char *sql, size_t n, int body);

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
