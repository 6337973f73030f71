/* db — the database target: one row per page in `pages`, keyed on url,
 * and optionally the page's outgoing links in `links`, in an SQLite file
 * or, for a postgresql:// TARGET, in PostgreSQL (db_pg.c).
 *
 * Writes are upserts inside explicit transactions that the caller
 * commits in batches, so a rerun over the same input leaves the same
 * rows, and a crash at any moment leaves every committed batch intact
 * (WAL journal; by default a killed process loses no committed batch,
 * power loss may lose the last ones; with --sync full none: sql.h).
 */
#ifndef SINK_DB_H
#define SINK_DB_H

#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

#include "cols.h"

typedef struct sdb sdb;

/* SDB_REPLACE_REJECTED: a rejected record replaces a good row too. */
enum { SDB_BODY = 1, SDB_LINKS = 2, SDB_REPLACE_REJECTED = 4 };

/* The schema, as run at open and printed by --schema. */
extern const char sdb_schema[];

/* Opens (creating) path, sets WAL, creates the schema and prepares the
 * statements; or connects to the PostgreSQL database path names.
 * flags: SDB_BODY stores `body`, SDB_LINKS fills `links`,
 * SDB_REPLACE_REJECTED stores rejected records over good rows.
 * Returns the handle, or NULL with SQLite's reason in err. */
sdb *sdb_open(const char *path, int flags, char *err, size_t errlen);

/* What sdb_put did with a record. */
enum { SDB_STORED, SDB_SKIPPED, SDB_UNCHANGED, SDB_KEPT, SDB_KEPT_REJECTED };

/* Upserts rec, starting a transaction if none is open, unless its url's
 * stored row is kept (cols_kind): a not_modified record keeps any row,
 * a failed or (without SDB_REPLACE_REJECTED) rejected refetch a good
 * one; the kept row gets only last_checked and last_error (and a 304's
 * validators).  Returns SDB_STORED, SDB_SKIPPED when rec has no `url`
 * string, SDB_UNCHANGED, SDB_KEPT or SDB_KEPT_REJECTED when the row was
 * kept for a not_modified record, a failed or a rejected refetch, -1 on
 * a database error (sdb_errmsg says why). */
int sdb_put(sdb *db, const msgpack_object *rec, double stored_at);

/* For both stores: whether a record of cols_kind kind keeps a stored
 * row, under sdb_open's flags, and what sdb_put returns when it did. */
int sdb_keeps(int flags, enum cols_kind kind);
int sdb_kept(enum cols_kind kind);

/* Commits the open transaction, if any.  0, or -1 on error. */
int sdb_commit(sdb *db);

/* The connection (SQLite's, or PostgreSQL's; the other is NULL), so
 * sink --queue can write the frontier in the same transaction when it
 * lives in the same database. */
struct sqlite3 *sdb_handle(sdb *db);
struct pg_conn *sdb_pg(sdb *db);

/* The last error, for messages. */
const char *sdb_errmsg(sdb *db);

/* Finalizes statements and closes; an open transaction is rolled back,
 * so commit first. */
void sdb_close(sdb *db);

/* The url of the page rec (with url and simhash h) copies, malloc'd, or
 * NULL when none: q is cols_dups prepared on an SQLite connection (this
 * target's, or sink DIR/'s index).  On a database error, NULL and -1 in
 * *rc. */
struct sqlite3_stmt;
char *sdb_dup_lookup(struct sqlite3_stmt *q, const msgpack_object *rec,
		     const msgpack_object *url, uint64_t h, int *rc);

/* "sqlite 3.40.1", for --version. */
const char *sdb_version(void);

#endif
