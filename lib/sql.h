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

/* Opens (creating) path in WAL mode with synchronous=NORMAL (a killed
 * process loses nothing committed) and a busy timeout, then runs schema
 * (may be NULL).  Returns the connection, or NULL with SQLite's reason in
 * err. */
sqlite3 *sql_open(const char *path, const char *schema, char *err, size_t errlen);

/* sqlite3_exec, retried while the database is busy. */
int sql_exec(sqlite3 *db, const char *sql);

#endif
