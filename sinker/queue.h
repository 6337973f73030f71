/* queue — sink --queue: acknowledge leased URLs once their rows are
 * durable, and --follow the links of accepted pages into the frontier.
 *
 * Acknowledgements wait for the batch: sq_note remembers what each
 * stored record means for the frontier, sq_flush applies it all.  When
 * the frontier is in the target database, sq_flush runs inside the
 * sink's open transaction, so the page rows and their acknowledgements
 * commit together; otherwise it runs right after the sink's commit.  A
 * crash between the two leaves URLs leased, to be fetched and upserted
 * again: never lost, never duplicated.
 */
#ifndef SINK_QUEUE_H
#define SINK_QUEUE_H

#include <msgpack.h>
#include <sqlite3.h>

#include "vre.h"

enum { SCOPE_HOST, SCOPE_DOMAIN, SCOPE_ANY };

typedef struct sq_opts {
	const char *path;      /* the frontier database */
	int follow;
	long max_depth;        /* links deeper than this are not admitted */
	long long max_pages;   /* URLs ever admitted; 0 = no limit */
	int scope;
	vre **include, **exclude;
	int n_include, n_exclude;
} sq_opts;

/* Opens the frontier at o->path, or in shared (the sink's connection)
 * when it is the same file.  Exits 74 on failure. */
void sq_open(const sq_opts *o, sqlite3 *shared);

/* Whether sq_flush must run inside the sink's transaction. */
int sq_shared(void);

/* Remembers rec's acknowledgement (and its links, with --follow) for
 * the next sq_flush. */
void sq_note(const msgpack_object *rec);

/* Applies the remembered acknowledgements and links.  Exits 74 on a
 * database error. */
void sq_flush(void);

void sq_close(void);

#endif
