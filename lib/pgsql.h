/* pgsql — what the two PostgreSQL users (the frontier's store and sink's
 * pages) share: connecting quietly, the first line of an error, ?N
 * parameters as $N, and text PostgreSQL accepts. */
#ifndef SLUICE_PGSQL_H
#define SLUICE_PGSQL_H

#include <libpq-fe.h>
#include <stddef.h>

/* Whether target names a PostgreSQL database rather than a file: a
 * libpq connection URI (postgresql://, postgres://), or a connection
 * string of libpq's keywords ("host=db dbname=crawl password=..."),
 * which a file name never parses as. */
int pgsql_is_uri(const char *target);

/* Connects to uri with server NOTICEs silenced (CREATE ... IF NOT EXISTS
 * sends them; libpq would print them), synchronous_commit on under
 * SQL_SYNC_FULL (sql.h).  NULL with the reason in err. */
PGconn *pgsql_connect(const char *uri, char *err, size_t errlen);

/* The first line of libpq's message msg into err (its messages end in a
 * newline and may add DETAIL and HINT lines). */
void pgsql_error(char *err, size_t errlen, const char *msg);

/* Prepares sql (parameters written ?N, sent as $N) as statement name;
 * 0, or -1 with the reason in err. */
int pgsql_prepare(PGconn *c, const char *name, const char *sql, char *err, size_t errlen);

/* A copy of s[0..n) that a text value may hold, malloc'd and
 * NUL-terminated: each NUL and each byte of an invalid UTF-8 sequence
 * becomes U+FFFD (PostgreSQL refuses both).  NULL when out of memory. */
char *pgsql_text(const char *s, size_t n);

/* Runs a command without parameters (it may be several); 0, or -1 with
 * the reason in err. */
int pgsql_exec(PGconn *c, const char *sql, char *err, size_t errlen);

#endif
