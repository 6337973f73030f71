/* fr_sqlite — the frontier's store in a SQLite file (WAL), its
 * statements prepared once. */
#include "fr_store.h"

#include <stdio.h>
#include <stdlib.h>

#include "sql.h"

typedef struct {
	fr_store base;
	sqlite3 *db;
	int own_db;
	sqlite3_stmt **st;
	/* The runs whose rows are being read, innermost last (a caller may
	 * run statements while it reads another's rows), with each first
	 * step's result until row takes it. */
	sqlite3_stmt *cur[FR_STORE_DEPTH];
	int rc[FR_STORE_DEPTH];
	int depth;
	long long changes;
} lite;

/* The columns later versions added, for frontiers made before them:
 * lease owners (their ownerless leases end by lease_until as they always
 * did) and host owners. */
static const sql_column added[] = {
	{ "frontier", "owner", "INTEGER" },
	{ "frontier_host", "owner", "INTEGER" },
	{ "frontier_host", "next_start", "REAL NOT NULL DEFAULT 0" },
	{ "frontier_host", "min_gap", "REAL NOT NULL DEFAULT 0" },
	{ "frontier", "etag", "TEXT" },
	{ "frontier", "last_modified", "TEXT" },
};

static void
lite_end(fr_store *s)
{
	lite *l = (lite *)s;
	if (l->depth > 0)
		sqlite3_reset(l->cur[--l->depth]);
}

/* Binds and takes the first step, so a statement without rows has run
 * when this returns. */
static int
lite_run(fr_store *s, int k, const fr_arg *a, int n)
{
	lite *l = (lite *)s;
	sqlite3_stmt *st = l->st[k];
	if (l->depth == FR_STORE_DEPTH)
		return -1;
	sqlite3_clear_bindings(st);
	for (int i = 0; i < n; i++)
		switch (a[i].t) {
		case 's':
			if (a[i].s)
				sqlite3_bind_text(st, i + 1, a[i].s, -1, SQLITE_STATIC);
			break;
		case 'd': sqlite3_bind_double(st, i + 1, a[i].d); break;
		default: sqlite3_bind_int64(st, i + 1, a[i].i); break;
		}
	l->cur[l->depth] = st;
	int rc = l->rc[l->depth++] = sqlite3_step(st);
	l->changes = sqlite3_changes(l->db);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		lite_end(s);
		return -1;
	}
	return 0;
}

static int
lite_row(fr_store *s)
{
	lite *l = (lite *)s;
	if (l->depth == 0)
		return 0;
	int *first = &l->rc[l->depth - 1];
	int rc = *first >= 0 ? *first : sqlite3_step(l->cur[l->depth - 1]);
	*first = -1;
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* The statement whose rows are read now. */
static sqlite3_stmt *
top(fr_store *s)
{
	lite *l = (lite *)s;
	return l->depth ? l->cur[l->depth - 1] : NULL;
}

static const char *
lite_text(fr_store *s, int c)
{
	return (const char *)sqlite3_column_text(top(s), c);
}

static double
lite_real(fr_store *s, int c)
{
	return sqlite3_column_double(top(s), c);
}

static long long
lite_integer(fr_store *s, int c)
{
	return sqlite3_column_int64(top(s), c);
}

static long long
lite_changes(fr_store *s)
{
	return ((lite *)s)->changes;
}

static const char *
lite_error(fr_store *s)
{
	return sqlite3_errmsg(((lite *)s)->db);
}

static void
lite_close(fr_store *s)
{
	lite *l = (lite *)s;
	while (l->depth)
		lite_end(s);
	for (int i = 0; l->st && i < fr_n_sql; i++)
		sqlite3_finalize(l->st[i]);
	free(l->st);
	if (l->own_db)
		sqlite3_close(l->db);
	free(l);
}

fr_store *
fr_sqlite_open(const char *path, sqlite3 *db, char *err, size_t errlen)
{
	lite *l = calloc(1, sizeof *l);
	sqlite3_stmt **st = calloc((size_t)fr_n_sql, sizeof *st);
	if (!l || !st) {
		free(l);
		free(st);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->base = (fr_store){ lite_run, lite_row, lite_text, lite_real, lite_integer,
			      lite_end, lite_changes, lite_error, lite_close };
	l->st = st;
	/* Several processes share the file (fetch leases, sink acks): WAL
	 * lets them read while one writes. */
	l->db = db ? db : sql_open(path, NULL, err, errlen);
	l->own_db = !db;
	if (!l->db) {
		free(st);
		free(l);
		return NULL;
	}
	if (sql_exec(l->db, fr_schema_sqlite) != SQLITE_OK || sql_add_columns(l->db, added, sizeof added / sizeof added[0]) != 0)
		goto fail;
	for (int i = 0; i < fr_n_sql; i++)
		if (sqlite3_prepare_v3(l->db, fr_sql(i, 0), -1, SQLITE_PREPARE_PERSISTENT,
				       &st[i], NULL) != SQLITE_OK)
			goto fail;
	return &l->base;
fail:
	snprintf(err, errlen, "%s", sqlite3_errmsg(l->db));
	lite_close(&l->base);
	return NULL;
}
