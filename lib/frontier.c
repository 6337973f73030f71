#include "frontier.h"

#include <stdlib.h>
#include <string.h>

#include "owner.h"
#include "sql.h"
#include "tm.h"

const char fr_schema[] =
"CREATE TABLE IF NOT EXISTS frontier (\n"
"  id          INTEGER PRIMARY KEY,        -- admission order\n"
"  url         TEXT NOT NULL UNIQUE,       -- canonical URL\n"
"  host        TEXT NOT NULL,\n"
"  scope       TEXT NOT NULL,              -- host of the seed it descends from\n"
"  depth       INTEGER NOT NULL DEFAULT 0, -- links from a seed\n"
"  parent      TEXT,                       -- page it was found on\n"
"  state       TEXT NOT NULL DEFAULT 'pending'\n"
"              CHECK (state IN ('pending', 'leased', 'done', 'dead')),\n"
"  attempts    INTEGER NOT NULL DEFAULT 0, -- leases taken\n"
"  next_at     REAL NOT NULL DEFAULT 0,    -- earliest lease, unix seconds\n"
"  lease_until REAL,                       -- when a lease expires\n"
"  owner       INTEGER,                    -- frontier_owner holding the lease\n"
"  last_error  TEXT,                       -- why it is dead\n"
"  added_at    REAL NOT NULL,\n"
"  updated_at  REAL NOT NULL\n"
");\n"
"CREATE INDEX IF NOT EXISTS frontier_due ON frontier(state, next_at);\n"
"CREATE INDEX IF NOT EXISTS frontier_lease ON frontier(state, lease_until);\n"
"CREATE TABLE IF NOT EXISTS frontier_meta (key TEXT PRIMARY KEY, value INTEGER);\n"
"CREATE TABLE IF NOT EXISTS frontier_owner (\n"
"  id          INTEGER PRIMARY KEY,        -- a fetch working on the job\n"
"  ns          TEXT NOT NULL,              -- boot id and pid namespace\n"
"  pid         INTEGER NOT NULL,\n"
"  start       INTEGER NOT NULL,           -- process start, clock ticks after boot\n"
"  started_at  REAL NOT NULL,\n"
"  beat_at     REAL NOT NULL               -- last heartbeat, unix seconds\n"
");\n"
"CREATE TABLE IF NOT EXISTS frontier_host (\n"
"  host        TEXT PRIMARY KEY,\n"
"  paused      INTEGER NOT NULL DEFAULT 0, -- no fetch starts it while 1\n"
"  reason      TEXT,                       -- why, for --report\n"
"  stored      INTEGER NOT NULL DEFAULT 0, -- records sink stored, validated\n"
"  accepted    INTEGER NOT NULL DEFAULT 0, -- of those, accepted\n"
"  recent      TEXT NOT NULL DEFAULT '',   -- the last outcomes, 1 accepted 0 not\n"
"  updated_at  REAL NOT NULL\n"
");\n";

enum { S_LOOKUP, S_ADD, S_COUNT_ADD, S_ADMITTED, S_EXPIRE, S_CANDIDATES, S_LEASE, S_DONE,
       S_DEAD, S_OUTSTANDING, S_REQUEUE, S_JOIN, S_BEAT, S_OWNERS, S_RECLAIM, S_DROP_OWNER,
       S_PAUSE, S_RESUME, S_PAUSED, S_HELD, S_UNLEASE, S_STORED, S_YIELDS, S_AGES,
       S_BEGIN, S_COMMIT, S_ROLLBACK, S_N };

static const char *const sql[S_N] = {
	[S_LOOKUP] = "SELECT depth, scope FROM frontier WHERE url = ?1",
	[S_ADD] = "INSERT INTO frontier(url, host, scope, depth, parent, added_at, updated_at)"
		  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT(url) DO NOTHING",
	[S_COUNT_ADD] = "INSERT INTO frontier_meta VALUES ('admitted', 1)"
			" ON CONFLICT(key) DO UPDATE SET value = value + 1",
	[S_ADMITTED] = "SELECT value FROM frontier_meta WHERE key = 'admitted'",
	[S_EXPIRE] = "UPDATE frontier SET state = 'pending', lease_until = NULL, owner = NULL,"
		     " updated_at = ?1"
		     " WHERE state = 'leased' AND lease_until < ?1",
	[S_CANDIDATES] = "SELECT id, url, host, depth, attempts FROM frontier"
			 " WHERE state = 'pending' AND next_at <= ?1"
			 " AND host NOT IN (SELECT host FROM frontier_host WHERE paused = 1)"
			 " ORDER BY next_at, id LIMIT ?2",
	[S_LEASE] = "UPDATE frontier SET state = 'leased', attempts = attempts + 1,"
		    " lease_until = ?2, updated_at = ?3, owner = ?4 WHERE id = ?1",
	[S_DONE] = "UPDATE frontier SET state = 'done', lease_until = NULL, owner = NULL, updated_at = ?2"
		   " WHERE url = ?1",
	[S_DEAD] = "UPDATE frontier SET state = 'dead', lease_until = NULL, owner = NULL, last_error = ?2,"
		   " updated_at = ?3 WHERE url = ?1",
	[S_OUTSTANDING] = "SELECT (SELECT count(*) FROM frontier WHERE state = 'pending'"
			  " AND host NOT IN (SELECT host FROM frontier_host WHERE paused = 1))"
			  " + (SELECT count(*) FROM frontier WHERE state = 'leased')",
	[S_REQUEUE] = "UPDATE frontier SET state = 'pending', next_at = 0, updated_at = ?1"
		      " WHERE state = 'dead'",
	[S_JOIN] = "INSERT INTO frontier_owner(ns, pid, start, started_at, beat_at)"
		   " VALUES (?1, ?2, ?3, ?4, ?4)",
	/* An upsert: a fetch that a peer wrongly declared dead (it could
	 * not beat for FR_OWNER_TIMEOUT) comes back under its own id. */
	[S_BEAT] = "INSERT INTO frontier_owner(id, ns, pid, start, started_at, beat_at)"
		   " VALUES (?1, ?2, ?3, ?4, ?5, ?5) ON CONFLICT(id) DO UPDATE SET beat_at = ?5",
	[S_OWNERS] = "SELECT id, ns, pid, start, beat_at FROM frontier_owner WHERE id != ?1",
	[S_RECLAIM] = "UPDATE frontier SET state = 'pending', lease_until = NULL, owner = NULL,"
		      " updated_at = ?2 WHERE state = 'leased' AND owner = ?1",
	[S_DROP_OWNER] = "DELETE FROM frontier_owner WHERE id = ?1",
	[S_PAUSE] = "INSERT INTO frontier_host(host, paused, reason, updated_at) VALUES (?1, 1, ?2, ?3)"
		    " ON CONFLICT(host) DO UPDATE SET paused = 1, reason = ?2, updated_at = ?3",
	/* A resumed host starts a new yield window: the old one would
	 * pause it again at once. */
	[S_RESUME] = "UPDATE frontier_host SET paused = 0, reason = NULL, recent = '', updated_at = ?2"
		     " WHERE host = ?1 AND paused = 1",
	[S_STORED] = "INSERT INTO frontier_host(host, stored, accepted, recent, updated_at)"
		     " VALUES (?1, 1, ?2, ?2, ?3) ON CONFLICT(host) DO UPDATE SET stored = stored + 1,"
		     " accepted = accepted + ?2, recent = substr(recent || ?2, -" FR_RECENT_S "),"
		     " updated_at = ?3",
	[S_AGES] = "SELECT host, max(?1 - max(added_at, next_at)) FROM frontier"
		   " WHERE state = 'pending' AND next_at <= ?1 GROUP BY host ORDER BY host",
	[S_YIELDS] = "SELECT host, recent FROM frontier_host WHERE paused = 0 AND length(recent) >= ?1",
	[S_PAUSED] = "SELECT host, reason FROM frontier_host WHERE paused = 1 ORDER BY host",
	[S_HELD] = "SELECT count(*) FROM frontier WHERE state = 'pending'"
		   " AND host IN (SELECT host FROM frontier_host WHERE paused = 1)",
	[S_UNLEASE] = "UPDATE frontier SET state = 'pending', lease_until = NULL, owner = NULL,"
		      " updated_at = ?2 WHERE url = ?1 AND state = 'leased'",
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
};

struct fr {
	sqlite3 *db;
	int own_db;
	sqlite3_stmt *st[S_N];
	own_id me;
	sqlite3_int64 owner;   /* our frontier_owner row; 0 until fr_join */
};

sqlite3 *
fr_db(fr *f)
{
	return f->db;
}

/* Whether the frontier table has the owner column. */
static int
has_owner_column(sqlite3 *db)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT owner FROM frontier LIMIT 0", -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_finalize(s);
	return 1;
}

/* Frontiers made before leases had owners lack the column; their
 * ownerless leases end by lease_until as they always did.  It is added
 * under the write lock, checked again there: a fetch and a sink opening
 * the same old file at once must not both add it. */
static int
add_owner_column(sqlite3 *db)
{
	if (has_owner_column(db))
		return 0;
	if (sql_exec(db, "BEGIN IMMEDIATE") != SQLITE_OK)
		return -1;
	if (!has_owner_column(db) &&
	    sql_exec(db, "ALTER TABLE frontier ADD COLUMN owner INTEGER") != SQLITE_OK) {
		sql_exec(db, "ROLLBACK");
		return -1;
	}
	return sql_exec(db, "COMMIT") == SQLITE_OK ? 0 : -1;
}

fr *
fr_open(const char *path, sqlite3 *db, char *err, size_t errlen)
{
	fr *f = calloc(1, sizeof *f);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	/* Several processes share the file (fetch leases, sink acks): WAL
	 * lets them read while one writes. */
	f->db = db ? db : sql_open(path, NULL, err, errlen);
	f->own_db = !db;
	if (!f->db) {
		free(f);
		return NULL;
	}
	if (sql_exec(f->db, fr_schema) != SQLITE_OK || add_owner_column(f->db) != 0)
		goto fail;
	for (int i = 0; i < S_N; i++)
		if (sqlite3_prepare_v3(f->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &f->st[i], NULL) != SQLITE_OK)
			goto fail;
	return f;
fail:
	snprintf(err, errlen, "%s", sqlite3_errmsg(f->db));
	fr_close(f);
	return NULL;
}

void
fr_close(fr *f)
{
	if (!f)
		return;
	if (f->owner)
		fr_leave(f);
	for (int i = 0; i < S_N; i++)
		sqlite3_finalize(f->st[i]);
	if (f->own_db)
		sqlite3_close(f->db);
	free(f);
}

/* Runs statement i to completion and resets it.  SQLITE_DONE or _ROW is
 * success. */
static int
run(fr *f, int i)
{
	int rc = sqlite3_step(f->st[i]);
	sqlite3_reset(f->st[i]);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

int
fr_begin(fr *f)
{
	return run(f, S_BEGIN);
}

int
fr_commit(fr *f)
{
	return run(f, S_COMMIT);
}

int
fr_add(fr *f, const char *url, const char *host, const char *scope,
       int depth, const char *parent)
{
	sqlite3_stmt *s = f->st[S_ADD];
	sqlite3_bind_text(s, 1, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, host, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, scope, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 4, depth);
	if (parent)
		sqlite3_bind_text(s, 5, parent, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, 5);
	sqlite3_bind_double(s, 6, tm_wall());
	if (run(f, S_ADD) != 0)
		return -1;
	if (sqlite3_changes(f->db) == 0)
		return 0;
	return run(f, S_COUNT_ADD) == 0 ? 1 : -1;
}

static long long
scalar(fr *f, int i)
{
	sqlite3_stmt *s = f->st[i];
	long long v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_reset(s);
	return v;
}

int
fr_lookup(fr *f, const char *url, int *depth, char **scope)
{
	sqlite3_stmt *s = f->st[S_LOOKUP];
	sqlite3_bind_text(s, 1, url, -1, SQLITE_STATIC);
	int found = sqlite3_step(s) == SQLITE_ROW;
	if (found) {
		*depth = sqlite3_column_int(s, 0);
		*scope = strdup((const char *)sqlite3_column_text(s, 1));
	}
	sqlite3_reset(s);
	return found && *scope;
}

long long
fr_admitted(fr *f)
{
	return scalar(f, S_ADMITTED);
}

long long
fr_outstanding(fr *f)
{
	return scalar(f, S_OUTSTANDING);
}

int
fr_expire(fr *f, double now)
{
	sqlite3_bind_double(f->st[S_EXPIRE], 1, now);
	return run(f, S_EXPIRE);
}

int
fr_lease(fr *f, int n, double now, double lease_secs,
	 int (*accept)(void *arg, const fr_row *row), void *arg)
{
	if (n <= 0)
		return 0;
	sqlite3_int64 *ids = malloc((size_t)n * sizeof *ids);
	if (!ids || fr_begin(f) != 0) {
		free(ids);
		return -1;
	}
	/* Look at more candidates than we take, so rows of hosts that
	 * accept() turns away do not starve the others.  Ids are collected
	 * first: updating rows under an open cursor on the same index would
	 * move them within the scan. */
	sqlite3_stmt *c = f->st[S_CANDIDATES], *l = f->st[S_LEASE];
	sqlite3_bind_double(c, 1, now);
	sqlite3_bind_int(c, 2, n * 4);
	int taken = 0, rc = 0;
	while (taken < n && sqlite3_step(c) == SQLITE_ROW) {
		fr_row r = {
			.url = (const char *)sqlite3_column_text(c, 1),
			.host = (const char *)sqlite3_column_text(c, 2),
			.depth = sqlite3_column_int(c, 3),
			.lease = sqlite3_column_int(c, 4) + 1,
		};
		if (accept(arg, &r))
			ids[taken++] = sqlite3_column_int64(c, 0);
	}
	sqlite3_reset(c);
	for (int i = 0; i < taken && rc == 0; i++) {
		sqlite3_bind_int64(l, 1, ids[i]);
		sqlite3_bind_double(l, 2, now + lease_secs);
		sqlite3_bind_double(l, 3, now);
		if (f->owner)
			sqlite3_bind_int64(l, 4, f->owner);
		else
			sqlite3_bind_null(l, 4);
		rc = run(f, S_LEASE);
	}
	free(ids);
	if (fr_commit(f) != 0 || rc != 0)
		return -1;
	return taken;
}

/* Binds our identity to S_JOIN/S_BEAT's ns, pid, start (from index k). */
static void
bind_me(fr *f, sqlite3_stmt *s, int k)
{
	sqlite3_bind_text(s, k, f->me.ns, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, k + 1, f->me.pid);
	sqlite3_bind_int64(s, k + 2, f->me.start);
}

/* Returns the leases of owner id to pending and forgets the owner. */
static int
release(fr *f, sqlite3_int64 id, double now)
{
	sqlite3_bind_int64(f->st[S_RECLAIM], 1, id);
	sqlite3_bind_double(f->st[S_RECLAIM], 2, now);
	if (run(f, S_RECLAIM) != 0)
		return -1;
	int n = sqlite3_changes(f->db);
	sqlite3_bind_int64(f->st[S_DROP_OWNER], 1, id);
	return run(f, S_DROP_OWNER) == 0 ? n : -1;
}

/* The owners other than us that no longer run: gone from this pid
 * namespace, or silent for FR_OWNER_TIMEOUT.  Collects at most max ids
 * into ids and returns how many. */
static int
dead_owners(fr *f, double now, sqlite3_int64 *ids, int max)
{
	sqlite3_stmt *s = f->st[S_OWNERS];
	sqlite3_bind_int64(s, 1, f->owner);
	int n = 0;
	while (n < max && sqlite3_step(s) == SQLITE_ROW) {
		own_id o = { .pid = (long)sqlite3_column_int64(s, 2),
			     .start = sqlite3_column_int64(s, 3) };
		const unsigned char *ns = sqlite3_column_text(s, 1);
		snprintf(o.ns, sizeof o.ns, "%s", ns ? (const char *)ns : "");
		if (sqlite3_column_double(s, 4) < now - FR_OWNER_TIMEOUT || own_alive(&o) == 0)
			ids[n++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_reset(s);
	return n;
}

int
fr_beat(fr *f, double now)
{
	if (fr_begin(f) != 0)
		return -1;
	sqlite3_stmt *b = f->st[S_BEAT];
	sqlite3_bind_int64(b, 1, f->owner);
	bind_me(f, b, 2);
	sqlite3_bind_double(b, 5, now);
	int rc = run(f, S_BEAT), total = 0;
	/* A batch at a time: the ids are read before the rows change. */
	sqlite3_int64 ids[32];
	for (int n = 32; rc == 0 && n == 32;) {
		n = dead_owners(f, now, ids, 32);
		for (int i = 0; i < n && rc == 0; i++) {
			int k = release(f, ids[i], now);
			rc = k < 0 ? -1 : 0;
			total += k;
		}
	}
	if (rc != 0) {
		run(f, S_ROLLBACK);
		return -1;
	}
	return fr_commit(f) == 0 ? total : -1;
}

int
fr_join(fr *f, double now)
{
	own_self(&f->me);
	sqlite3_stmt *j = f->st[S_JOIN];
	bind_me(f, j, 1);
	sqlite3_bind_double(j, 4, now);
	if (run(f, S_JOIN) != 0)
		return -1;
	f->owner = sqlite3_last_insert_rowid(f->db);
	return fr_beat(f, now);
}

int
fr_leave(fr *f)
{
	int n = release(f, f->owner, tm_wall());
	f->owner = 0;
	return n;
}

int
fr_pause(fr *f, const char *host, const char *reason, double now)
{
	sqlite3_stmt *s = f->st[S_PAUSE];
	sqlite3_bind_text(s, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, reason, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 3, now);
	return run(f, S_PAUSE);
}

/* Runs statement i for key (?1, a url or a host) at now (?2). */
static int
keyed_at(fr *f, int i, const char *key, double now)
{
	sqlite3_stmt *s = f->st[i];
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 2, now);
	return run(f, i);
}

int
fr_resume(fr *f, const char *host, double now)
{
	return keyed_at(f, S_RESUME, host, now) == 0 ? sqlite3_changes(f->db) : -1;
}

int
fr_paused(fr *f, void (*each)(void *arg, const char *host, const char *reason), void *arg)
{
	sqlite3_stmt *s = f->st[S_PAUSED];
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const unsigned char *r = sqlite3_column_text(s, 1);
		each(arg, (const char *)sqlite3_column_text(s, 0), r ? (const char *)r : "paused");
		n++;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? n : -1;
}

int
fr_stored(fr *f, const char *host, int accepted)
{
	sqlite3_stmt *s = f->st[S_STORED];
	sqlite3_bind_text(s, 1, host, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 2, accepted != 0);
	sqlite3_bind_double(s, 3, tm_wall());
	return run(f, S_STORED);
}

int
fr_yields(fr *f, int window, void (*each)(void *arg, const char *host, double share), void *arg)
{
	sqlite3_stmt *s = f->st[S_YIELDS];
	sqlite3_bind_int(s, 1, window);
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *r = (const char *)sqlite3_column_text(s, 1);
		size_t len = strlen(r), ones = 0;
		for (size_t i = len - (size_t)window; i < len; i++)
			ones += r[i] == '1';
		each(arg, (const char *)sqlite3_column_text(s, 0), (double)ones / window);
		n++;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? n : -1;
}

int
fr_queue_ages(fr *f, double now, void (*each)(void *arg, const char *host, double age), void *arg)
{
	sqlite3_stmt *s = f->st[S_AGES];
	sqlite3_bind_double(s, 1, now);
	int n = 0, rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		each(arg, (const char *)sqlite3_column_text(s, 0), sqlite3_column_double(s, 1));
		n++;
	}
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? n : -1;
}

long long
fr_held(fr *f)
{
	return scalar(f, S_HELD);
}


int
fr_unlease(fr *f, const char *url)
{
	return keyed_at(f, S_UNLEASE, url, tm_wall());
}

int
fr_done(fr *f, const char *url)
{
	return keyed_at(f, S_DONE, url, tm_wall());
}

int
fr_dead(fr *f, const char *url, const char *reason)
{
	sqlite3_stmt *s = f->st[S_DEAD];
	sqlite3_bind_text(s, 1, url, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, reason, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 3, tm_wall());
	return run(f, S_DEAD);
}

int
fr_requeue_dead(fr *f)
{
	sqlite3_bind_double(f->st[S_REQUEUE], 1, tm_wall());
	return run(f, S_REQUEUE) == 0 ? sqlite3_changes(f->db) : -1;
}

/* Prints the rows of query q, one per line, columns joined by two
 * spaces, each line indented. */
static void
rows(fr *f, FILE *out, const char *q, double now)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(f->db, q, -1, &s, NULL) != SQLITE_OK)
		return;
	if (sqlite3_bind_parameter_count(s))
		sqlite3_bind_double(s, 1, now);
	while (sqlite3_step(s) == SQLITE_ROW) {
		fputs("  ", out);
		for (int i = 0; i < sqlite3_column_count(s); i++) {
			const unsigned char *v = sqlite3_column_text(s, i);
			fprintf(out, "%s%s", i ? "  " : "", v ? (const char *)v : "-");
		}
		fputc('\n', out);
	}
	sqlite3_finalize(s);
}

int
fr_report(fr *f, double now, FILE *out)
{
	fprintf(out, "by state:\n");
	rows(f, out, "SELECT state, count(*) FROM frontier GROUP BY state ORDER BY state", now);
	fprintf(out, "by host (pending leased done dead):\n");
	rows(f, out, "SELECT host, sum(state='pending'), sum(state='leased'), sum(state='done'),"
		     " sum(state='dead') FROM frontier GROUP BY host ORDER BY count(*) DESC, host", now);
	fprintf(out, "paused hosts:\n");
	rows(f, out, "SELECT host, coalesce(reason, 'paused') FROM frontier_host WHERE paused = 1"
		     " ORDER BY host", now);
	fprintf(out, "oldest pending:\n");
	rows(f, out, "SELECT printf('%.0f s', ?1 - added_at), url FROM frontier"
		     " WHERE state = 'pending' ORDER BY added_at LIMIT 1", now);
	fprintf(out, "dead letters:\n");
	rows(f, out, "SELECT url, last_error FROM frontier WHERE state = 'dead' ORDER BY url", now);
	return ferror(out) ? -1 : 0;
}
