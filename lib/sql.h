/* sql — opening the SQLite files that several sluice processes share.
 *
 * In a crawl, fetch (the frontier) and sink (pages, acks) open the same
 * file at the same moment.  Switching a new file to WAL and creating the
 * schema can then fail with SQLITE_BUSY at once, without the busy
 * handler being asked (SQLite refuses to wait where waiting could
 * deadlock), so both are retried here for up to the busy timeout.
 */
#ifndef SLUICE_SQL_H
#define SLUICE_SQL_H

#include <sqlite3.h>
#include <stddef.h>

#define SQL_BUSY_MS 10000

/* --sync: how far a commit has gone when it returns, for the SQLite
 * files and PostgreSQL sessions opened after sql_sync_arg set it.
 *
 * SQL_SYNC_NORMAL (the default): SQLite's synchronous=NORMAL in WAL mode;
 * a commit is in the OS's hands, not yet on the disk.  A killed process
 * loses nothing committed; an OS crash or power loss may lose the last
 * commits (the file stays consistent).  PostgreSQL sessions keep the
 * server's synchronous_commit.
 *
 * SQL_SYNC_FULL: SQLite's synchronous=FULL, the WAL synced at every
 * commit; PostgreSQL's synchronous_commit=on for the session.  A commit
 * that returned survives power loss too (on a disk that honours fsync,
 * and for PostgreSQL a server with fsync on). */
enum { SQL_SYNC_NORMAL, SQL_SYNC_FULL };
int sql_sync(void);
/* Sets the mode that --sync's argument names ("normal", "full"): 0, or
 * -1 when it names none. */
int sql_sync_arg(const char *arg);

/* Opens (creating) path in WAL mode with synchronous as sql_sync says
 * and a busy timeout, then runs schema (may be NULL).  Returns the
 * connection, or NULL with SQLite's reason in err. */
sqlite3 *sql_open(const char *path, const char *schema, char *err, size_t errlen);

/* sqlite3_exec, retried while the database is busy. */
int sql_exec(sqlite3 *db, const char *sql);

/* A column that a later version added to a table. */
typedef struct sql_column {
	const char *table, *name, *type;   /* type: as ALTER TABLE ADD COLUMN takes it */
} sql_column;

/* Adds the n columns of c that their tables lack, for files made before
 * them.  Added under the write lock and checked again there: two
 * processes opening the same old file at once (fetch and sink) must not
 * both add one.  0, or -1 with the reason in sqlite3_errmsg. */
int sql_add_columns(sqlite3 *db, const sql_column *c, size_t n);

#endif
