/* ack — sink --queue: acknowledge leased URLs once their rows are
 * durable, and --follow the links of accepted pages (and of sitemaps,
 * accepted or not) into the frontier.
 *
 * Acknowledgements wait for the batch: ack_note remembers what each
 * stored record means for the frontier, ack_flush applies it all.  When
 * the frontier is in the target database, ack_flush runs inside the
 * sink's open transaction, so the page rows and their acknowledgements
 * commit together; otherwise it runs right after the sink's commit.  A
 * crash between the two leaves URLs leased, to be fetched and upserted
 * again: never lost, never duplicated.
 */
#ifndef SINK_ACK_H
#define SINK_ACK_H

#include <msgpack.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "vre.h"

enum { SCOPE_HOST, SCOPE_DOMAIN, SCOPE_ANY };

/* A sitemap index at this depth or deeper has its links not followed:
 * the nesting limit of 10 that issue 25 sets for sitemap indexes. */
#define ACK_MAX_INDEX_DEPTH 10

typedef struct ack_opts {
	const char *path;      /* the frontier database */
	int follow;
	long max_depth;        /* links deeper than this are not admitted */
	long long max_pages;   /* URLs ever admitted; 0 = no limit */
	int scope;
	vre **include, **exclude;
	int n_include, n_exclude;
} ack_opts;

/* Opens the frontier at o->path, or on the sink's connection (db, or
 * pgc for PostgreSQL) when its target is the same database.  Exits 74
 * on failure. */
void ack_open(const ack_opts *o, sqlite3 *db, PGconn *pgc);

/* Whether ack_flush must run inside the sink's transaction. */
int ack_shared(void);

/* Remembers rec's acknowledgement (and its links, with --follow) for
 * the next ack_flush; stored: rec became its URL's row (SDB_STORED), not
 * kept a row stored before. */
void ack_note(const msgpack_object *rec, int stored);

/* Applies the remembered acknowledgements and links.  Exits 74 on a
 * database error. */
void ack_flush(void);

void ack_close(void);

#endif
