/* frontier — the job's queue logic over either store (fr_store.h): the
 * statements in both dialects, leasing, owners and their heartbeats, the
 * yield counts, the report.  See frontier.h. */
#include "frontier.h"

#include <stdlib.h>
#include <string.h>

#include "cookie.h"
#include "fetcherr.h"
#include "fr_store.h"
#include "owner.h"
#include "pgsql.h"
#include "htab.h"
#include "tm.h"
#include "xalloc.h"

const char fr_schema_sqlite[] =
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
"  updated_at  REAL NOT NULL,              -- for a done row: when sink stored it\n"
"  etag        TEXT,                       -- its validators, sent back on a recrawl\n"
"  last_modified TEXT\n"
");\n"
"CREATE INDEX IF NOT EXISTS frontier_due ON frontier(state, next_at);\n"
"CREATE INDEX IF NOT EXISTS frontier_done ON frontier(updated_at) WHERE state = 'done';\n"
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
"  reason      TEXT,                       -- why paused, or slowed, for --report\n"
"  stored      INTEGER NOT NULL DEFAULT 0, -- records sink stored, validated\n"
"  accepted    INTEGER NOT NULL DEFAULT 0, -- of those, accepted\n"
"  recent      TEXT NOT NULL DEFAULT '',   -- the last outcomes: 1 accepted, 0 rejected, 2 blocked\n"
"  owner       INTEGER,                    -- frontier_owner that alone starts it\n"
"  next_start  REAL NOT NULL DEFAULT 0,    -- no request to it starts before\n"
"  min_gap     REAL NOT NULL DEFAULT 0,    -- its owner's interval between starts\n"
"  updated_at  REAL NOT NULL\n"
");\n"
"CREATE INDEX IF NOT EXISTS frontier_state_host ON frontier(state, host);\n"
"CREATE TABLE IF NOT EXISTS frontier_cookie (   -- fetch --cookies: the job's jar\n"
"  domain      TEXT NOT NULL,              -- as libcurl writes it (#HttpOnly_ too)\n"
"  path        TEXT NOT NULL,\n"
"  name        TEXT NOT NULL,\n"
"  line        TEXT NOT NULL,              -- the Netscape cookie file line\n"
"  expires     REAL NOT NULL,              -- unix seconds, 0 for a session cookie\n"
"  updated_at  REAL NOT NULL,              -- when the job first had it\n"
"  PRIMARY KEY (domain, path, name)\n"
");\n";

/* The same tables in PostgreSQL: times are double precision (real is
 * single there), ids bigserial.  Several workers may create them at
 * once, which CREATE ... IF NOT EXISTS alone does not survive, so the
 * whole script runs under one advisory lock. */
const char fr_schema_pg[] =
"BEGIN;\n"
"SELECT pg_advisory_xact_lock(7366);\n"
"CREATE TABLE IF NOT EXISTS frontier (\n"
"  id          bigserial PRIMARY KEY,\n"
"  url         text NOT NULL UNIQUE,\n"
"  host        text NOT NULL,\n"
"  scope       text NOT NULL,\n"
"  depth       integer NOT NULL DEFAULT 0,\n"
"  parent      text,\n"
"  state       text NOT NULL DEFAULT 'pending'\n"
"              CHECK (state IN ('pending', 'leased', 'done', 'dead')),\n"
"  attempts    integer NOT NULL DEFAULT 0,\n"
"  next_at     double precision NOT NULL DEFAULT 0,\n"
"  lease_until double precision,\n"
"  owner       bigint,\n"
"  last_error  text,\n"
"  added_at    double precision NOT NULL,\n"
"  updated_at  double precision NOT NULL,\n"
"  etag        text,\n"
"  last_modified text\n"
");\n"
/* Columns later versions added, for tables made before them: looked up
 * first, since ALTER TABLE locks the table even when it adds nothing,
 * and every worker of a shared job opens the frontier. */
"DO $$ DECLARE c text[]; BEGIN FOREACH c SLICE 1 IN ARRAY ARRAY[['etag','text'],['last_modified','text']] LOOP\n"
"  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()\n"
"      AND table_name = 'frontier' AND column_name = c[1]) THEN\n"
"    EXECUTE format('ALTER TABLE frontier ADD COLUMN %I %s', c[1], c[2]);\n"
"  END IF; END LOOP; END $$;\n"
"CREATE INDEX IF NOT EXISTS frontier_done ON frontier(updated_at) WHERE state = 'done';\n"
/* The lease's order is (next_at, id): in SQLite every index ends in the
 * rowid, here the id must be named, or 1 000 000 pending rows are sorted
 * at every lease. */
"CREATE INDEX IF NOT EXISTS frontier_due_id ON frontier(state, next_at, id);\n"
"CREATE INDEX IF NOT EXISTS frontier_lease ON frontier(state, lease_until);\n"
"CREATE TABLE IF NOT EXISTS frontier_meta (key text PRIMARY KEY, value bigint);\n"
"CREATE TABLE IF NOT EXISTS frontier_owner (\n"
"  id          bigserial PRIMARY KEY,\n"
"  ns          text NOT NULL,\n"
"  pid         bigint NOT NULL,\n"
"  start       bigint NOT NULL,\n"
"  started_at  double precision NOT NULL,\n"
"  beat_at     double precision NOT NULL\n"
");\n"
"CREATE TABLE IF NOT EXISTS frontier_host (\n"
"  host        text PRIMARY KEY,\n"
"  paused      integer NOT NULL DEFAULT 0,\n"
"  reason      text,\n"
"  stored      bigint NOT NULL DEFAULT 0,\n"
"  accepted    bigint NOT NULL DEFAULT 0,\n"
"  recent      text NOT NULL DEFAULT '',\n"
"  owner       bigint,\n"
"  next_start  double precision NOT NULL DEFAULT 0,\n"
"  min_gap     double precision NOT NULL DEFAULT 0,\n"
"  updated_at  double precision NOT NULL\n"
");\n"
"CREATE INDEX IF NOT EXISTS frontier_state_host ON frontier(state, host);\n"
"CREATE TABLE IF NOT EXISTS frontier_cookie (\n"
"  domain      text NOT NULL,\n"
"  path        text NOT NULL,\n"
"  name        text NOT NULL,\n"
"  line        text NOT NULL,\n"
"  expires     double precision NOT NULL,\n"
"  updated_at  double precision NOT NULL,\n"
"  PRIMARY KEY (domain, path, name)\n"
");\n"
"COMMIT;\n";

enum { S_LOOKUP, S_ADD, S_COUNT_ADD, S_ADMITTED, S_EXPIRE, S_CANDIDATES, S_LEASE, S_DONE, S_RECRAWL,
       S_DEAD, S_DEAD_ID, S_DEFER, S_HOLD, S_OUTSTANDING, S_REQUEUE, S_JOIN, S_BEAT, S_OWNERS, S_RECLAIM, S_DROP_OWNER,
       S_PAUSE, S_RESUME, S_PAUSED, S_HELD, S_MINE, S_UNLEASE, S_STORED, S_YIELDS, S_AGES,
       S_CLAIM, S_FREE_HOSTS, S_FREE_IDLE, S_SHARE, S_COOKIE_PUT, S_COOKIES,
       S_COOKIE_ROWS, S_COOKIE_DEL,
       S_BEGIN, S_BEGIN_LEASE, S_TURN, S_COMMIT, S_ROLLBACK,
       S_REP_STATE, S_REP_HOST, S_REP_OLDEST, S_REP_DEAD, S_SLOW, S_SLOWED,
       S_ACCEPTED, S_N };

const int fr_n_sql = S_N;

/* Both dialects take ?N parameters (the PostgreSQL store turns them
 * into $N).  Where PostgreSQL needs other words its own text is in
 * pg_only; everything else is one text for both. */
static const char *const common[S_N] = {
	[S_LOOKUP] = "SELECT depth, scope FROM frontier WHERE url = ?1",
	[S_ADD] = "INSERT INTO frontier(url, host, scope, depth, parent, added_at, updated_at)"
		  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT(url) DO NOTHING",
	[S_COUNT_ADD] = "INSERT INTO frontier_meta VALUES ('admitted', 1)"
			" ON CONFLICT(key) DO UPDATE SET value = frontier_meta.value + 1",
	[S_ADMITTED] = "SELECT value FROM frontier_meta WHERE key = 'admitted'",
	[S_EXPIRE] = "UPDATE frontier SET state = 'pending', lease_until = NULL, owner = NULL,"
		     " updated_at = ?1"
		     " WHERE state = 'leased' AND lease_until < ?1",
	/* Pending rows with next_at in (?4, ?5], at ?1.  Hosts paused,
	 * owned by another fetch or held (a Retry-After, a freed host's
	 * interval) are not candidates. */
	[S_CANDIDATES] = "SELECT id, url, host, depth, attempts, etag, last_modified FROM frontier"
			 " WHERE state = 'pending' AND next_at > ?4 AND next_at <= ?5"
			 " AND host NOT IN (SELECT host FROM frontier_host"
			 "  WHERE paused = 1 OR owner != ?3 OR next_start > ?1)"
			 " ORDER BY next_at, id LIMIT ?2",
	/* The ids are a JSON array: one statement for a whole batch (one
	 * per row cost PostgreSQL a round trip each, 114 ms for 512). */
	[S_LEASE] = "UPDATE frontier SET state = 'leased', attempts = attempts + 1,"
		    " lease_until = ?2, updated_at = ?3, owner = ?4"
		    " WHERE id IN (SELECT value FROM json_each(?1))",
	/* ?5 = 1: the validators ?3, ?4 replace the row's (a new page);
	 * else they replace them only where not NULL. */
	[S_DONE] = "UPDATE frontier SET state = 'done', lease_until = NULL, owner = NULL, updated_at = ?2,"
		   " etag = CASE WHEN ?5 = 1 THEN CAST(?3 AS text) ELSE coalesce(CAST(?3 AS text), etag) END,"
		   " last_modified = CASE WHEN ?5 = 1 THEN CAST(?4 AS text)"
		   "  ELSE coalesce(CAST(?4 AS text), last_modified) END"
		   " WHERE url = ?1",
	/* Done rows stored before ?1 are due again, as if never leased.
	 * Not a redirect's target (depth 0 with a parent: admitted done
	 * when the hop was taken, its page stored under the input URL): it
	 * is fetched again through the input.  frontier_done finds them. */
	[S_RECRAWL] = "UPDATE frontier SET state = 'pending', attempts = 0, next_at = 0, lease_until = NULL,"
		      " owner = NULL, last_error = NULL, updated_at = ?2"
		      " WHERE state = 'done' AND updated_at < ?1 AND (depth > 0 OR parent IS NULL)",
	[S_DEAD] = "UPDATE frontier SET state = 'dead', lease_until = NULL, owner = NULL, last_error = ?2,"
		   " updated_at = ?3 WHERE url = ?1",
	[S_DEAD_ID] = "UPDATE frontier SET state = 'dead', lease_until = NULL, owner = NULL, last_error = ?2,"
		      " updated_at = ?3 WHERE id = ?1",
	/* Only our own lease: one that expired may be another fetch's now.
	 * The url finds the row.  A plain `state = 'leased'` let
	 * PostgreSQL, with statistics from when every row was pending, scan
	 * the state index over every leased row instead (31 ms a statement
	 * at 60 000 leased of 1 000 000): coalesce() keeps the state test
	 * off the indexes, here and in S_UNLEASE. */
	[S_DEFER] = "UPDATE frontier SET state = 'pending', next_at = ?2, lease_until = NULL, owner = NULL,"
		    " updated_at = ?3 WHERE url = ?1 AND coalesce(state, '') = 'leased' AND owner = ?4",
	[S_HOLD] = "UPDATE frontier_host SET next_start = max(next_start, ?2), updated_at = ?3"
		   " WHERE host = ?1",
	/* Whether any: fetch asks at every 50 ms poll while it waits for
	 * acks or retries, and counting 1 000 000 rows took 125 ms. */
	[S_OUTSTANDING] = "SELECT CASE WHEN EXISTS (SELECT 1 FROM frontier WHERE state = 'leased')"
			  " OR EXISTS (SELECT 1 FROM frontier WHERE state = 'pending'"
			  " AND host NOT IN (SELECT host FROM frontier_host WHERE paused = 1))"
			  " THEN 1 ELSE 0 END",
	[S_REQUEUE] = "UPDATE frontier SET state = 'pending', next_at = 0, updated_at = ?1"
		      " WHERE state = 'dead'",
	[S_JOIN] = "INSERT INTO frontier_owner(ns, pid, start, started_at, beat_at)"
		   " VALUES (?1, ?2, ?3, ?4, ?4) RETURNING id",
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
		     " VALUES (?1, 1, ?2 = 1, ?2, ?3) ON CONFLICT(host) DO UPDATE SET"
		     " stored = frontier_host.stored + 1, accepted = frontier_host.accepted + (?2 = 1),"
		     " recent = substr(frontier_host.recent || ?2, -" FR_RECENT_S "), updated_at = ?3",
	[S_AGES] = "SELECT host, max(?1 - max(added_at, next_at)) FROM frontier"
		   " WHERE state = 'pending' AND next_at <= ?1 GROUP BY host ORDER BY host",
	[S_YIELDS] = "SELECT host, recent, reason FROM frontier_host WHERE paused = 0 AND length(recent) >= ?1",
	[S_PAUSED] = "SELECT host, coalesce(reason, 'paused') FROM frontier_host WHERE paused = 1"
		     " ORDER BY host",
	[S_HELD] = "SELECT count(*) FROM frontier WHERE state = 'pending'"
		   " AND host IN (SELECT host FROM frontier_host WHERE paused = 1)",
	[S_MINE] = "SELECT count(*) FROM frontier WHERE state = 'leased' AND owner = ?1",
	/* One row a host: cheap enough for every few seconds. */
	[S_ACCEPTED] = "SELECT CAST(coalesce(sum(accepted), 0) AS bigint) FROM frontier_host",
	[S_UNLEASE] = "UPDATE frontier SET state = 'pending', lease_until = NULL, owner = NULL,"
		      " attempts = attempts - 1, updated_at = ?2 WHERE url = ?1 AND coalesce(state, '') = 'leased'",
	/* Takes host ?1 for owner ?2 unless another owns it; the row comes
	 * back, with the time its next request may start, only when ours. */
	[S_CLAIM] = "INSERT INTO frontier_host(host, owner, min_gap, updated_at) VALUES (?1, ?2, ?3, ?4)"
		    " ON CONFLICT(host) DO UPDATE SET owner = ?2, min_gap = ?3, updated_at = ?4"
		    " WHERE frontier_host.owner IS NULL OR frontier_host.owner = ?2 RETURNING next_start",
	/* Frees the hosts of owner ?1 at ?2.  Its last request may have
	 * started just now, so the next owner waits one interval. */
	[S_FREE_HOSTS] = "UPDATE frontier_host SET owner = NULL, next_start = max(next_start, ?2 + min_gap),"
			 " updated_at = ?2 WHERE owner = ?1",
	/* ... only those where it holds no lease: nothing of theirs waits
	 * or runs in that fetch. */
	[S_FREE_IDLE] = "UPDATE frontier_host SET owner = NULL, next_start = max(next_start, ?2 + min_gap),"
			" updated_at = ?2 WHERE owner = ?1 AND NOT EXISTS (SELECT 1 FROM frontier"
			" WHERE frontier.host = frontier_host.host AND frontier.state = 'leased'"
			" AND frontier.owner = ?1) RETURNING host",
	/* Hosts with work, and fetches to share them.  The hosts are read
	 * by skipping along the (state, host) index, one seek per host: a
	 * count(DISTINCT host) reads every row, 0.9 s at 1 000 000. */
	[S_SHARE] = "WITH RECURSIVE"
		    " p(host) AS (SELECT min(host) FROM frontier WHERE state = 'pending' UNION ALL"
		    "  SELECT (SELECT min(host) FROM frontier WHERE state = 'pending' AND host > p.host)"
		    "  FROM p WHERE p.host IS NOT NULL),"
		    " l(host) AS (SELECT min(host) FROM frontier WHERE state = 'leased' UNION ALL"
		    "  SELECT (SELECT min(host) FROM frontier WHERE state = 'leased' AND host > l.host)"
		    "  FROM l WHERE l.host IS NOT NULL)"
		    " SELECT (SELECT count(*) FROM (SELECT host FROM p WHERE host IS NOT NULL"
		    "  UNION SELECT host FROM l WHERE host IS NOT NULL) AS u),"
		    " (SELECT count(*) FROM frontier_owner)",
	/* A cookie keeps its first time: the order the caps evict in. */
	[S_COOKIE_PUT] = "INSERT INTO frontier_cookie VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
			 " ON CONFLICT(domain, path, name) DO UPDATE SET line = ?4, expires = ?5",
	[S_COOKIES] = "SELECT line FROM frontier_cookie WHERE expires = 0 OR expires > ?1"
		      " ORDER BY updated_at",
	[S_COOKIE_ROWS] = "SELECT line FROM frontier_cookie ORDER BY updated_at",
	[S_COOKIE_DEL] = "DELETE FROM frontier_cookie WHERE domain = ?1 AND path = ?2 AND name = ?3",
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_BEGIN_LEASE] = "BEGIN IMMEDIATE",
	[S_TURN] = "SELECT 1",   /* SQLite's write lock is the turn */
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
	[S_REP_STATE] = "SELECT state, count(*) FROM frontier GROUP BY state ORDER BY state",
	[S_REP_HOST] = "SELECT host, sum(CASE WHEN state = 'pending' THEN 1 ELSE 0 END),"
		       " sum(CASE WHEN state = 'leased' THEN 1 ELSE 0 END),"
		       " sum(CASE WHEN state = 'done' THEN 1 ELSE 0 END),"
		       " sum(CASE WHEN state = 'dead' THEN 1 ELSE 0 END)"
		       " FROM frontier GROUP BY host ORDER BY count(*) DESC, host",
	[S_REP_OLDEST] = "SELECT printf('%.0f s', ?1 - added_at), url FROM frontier"
			 " WHERE state = 'pending' ORDER BY added_at LIMIT 1",
	[S_REP_DEAD] = "SELECT url, last_error FROM frontier WHERE state = 'dead' ORDER BY url",
	/* A host not paused keeps the yield guard's step in reason; each
	 * step starts a new yield window, judged at the new rate. */
	[S_SLOW] = "INSERT INTO frontier_host(host, reason, recent, updated_at) VALUES (?1, ?2, '', ?3)"
		   " ON CONFLICT(host) DO UPDATE SET reason = ?2, recent = '', updated_at = ?3"
		   " WHERE frontier_host.paused = 0",
	[S_SLOWED] = "SELECT host, reason FROM frontier_host WHERE paused = 0 AND reason IS NOT NULL"
		     " ORDER BY host",
};

static const char *const pg_only[S_N] = {
	/* Workers lease without waiting for each other: rows another
	 * worker is leasing are skipped, not waited for. */
	[S_CANDIDATES] = "SELECT id, url, host, depth, attempts, etag, last_modified FROM frontier"
			 " WHERE state = 'pending' AND next_at > ?4 AND next_at <= ?5"
			 " AND host NOT IN (SELECT host FROM frontier_host"
			 "  WHERE paused = 1 OR owner != ?3 OR next_start > ?1)"
			 " ORDER BY next_at, id LIMIT ?2 FOR UPDATE OF frontier SKIP LOCKED",
	[S_HOLD] = "UPDATE frontier_host SET next_start = greatest(next_start, ?2), updated_at = ?3"
		   " WHERE host = ?1",
	[S_LEASE] = "UPDATE frontier SET state = 'leased', attempts = attempts + 1,"
		    " lease_until = ?2, updated_at = ?3, owner = ?4 WHERE id IN"
		    " (SELECT CAST(e AS bigint) FROM json_array_elements_text(CAST(?1 AS json)) AS e)",
	/* ?2, the outcome, is a number and a digit of recent: one type
	 * for PostgreSQL's inference, cast where text is wanted. */
	[S_STORED] = "INSERT INTO frontier_host(host, stored, accepted, recent, updated_at)"
		     " VALUES (?1, 1, (CAST(?2 AS bigint) = 1)::int, CAST(?2 AS bigint)::text, ?3)"
		     " ON CONFLICT(host) DO UPDATE SET stored = frontier_host.stored + 1,"
		     " accepted = frontier_host.accepted + (CAST(?2 AS bigint) = 1)::int,"
		     " recent = right(frontier_host.recent || CAST(?2 AS bigint)::text, " FR_RECENT_S "),"
		     " updated_at = ?3",
	[S_AGES] = "SELECT host, max(?1 - greatest(added_at, next_at)) FROM frontier"
		   " WHERE state = 'pending' AND next_at <= ?1 GROUP BY host ORDER BY host",
	/* Transactions that change several rows (acks, admissions, owner
	 * reclaims) take turns: they are short, and in turn they cannot
	 * deadlock on rows taken in different orders.  Leasing does not
	 * take the turn; SKIP LOCKED keeps it from waiting. */
	[S_FREE_HOSTS] = "UPDATE frontier_host SET owner = NULL, next_start = greatest(next_start, ?2 + min_gap),"
			 " updated_at = ?2 WHERE owner = ?1",
	[S_FREE_IDLE] = "UPDATE frontier_host SET owner = NULL, next_start = greatest(next_start, ?2 + min_gap),"
			" updated_at = ?2 WHERE owner = ?1 AND NOT EXISTS (SELECT 1 FROM frontier"
			" WHERE frontier.host = frontier_host.host AND frontier.state = 'leased'"
			" AND frontier.owner = ?1) RETURNING host",
	[S_BEGIN] = "BEGIN; SELECT pg_advisory_xact_lock(7367)",
	[S_BEGIN_LEASE] = "BEGIN",
	[S_TURN] = "SELECT pg_advisory_xact_lock(7367)",
	[S_REP_OLDEST] = "SELECT round(?1 - added_at) || ' s', url FROM frontier"
			 " WHERE state = 'pending' ORDER BY added_at LIMIT 1",
};

const char *
fr_sql(int k, int pg)
{
	return pg && pg_only[k] ? pg_only[k] : common[k];
}

struct fr {
	fr_store *s;
	own_id me;
	long long owner;   /* our frontier_owner row; 0 until fr_join */
	htab hosts;        /* the hosts we own */
	htab leaving;      /* of those, the ones we hand back once idle */
	long long share;   /* how many we may own, as of the last beat */
};

fr *
fr_open(const char *target, sqlite3 *db, PGconn *pgc, char *err, size_t errlen)
{
	fr *f = calloc(1, sizeof *f);
	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	f->s = pgc || (!db && pgsql_is_uri(target)) ? fr_pg_open(target, pgc, err, errlen)
						   : fr_sqlite_open(target, db, err, errlen);
	if (!f->s) {
		free(f);
		return NULL;
	}
	return f;
}

void
fr_close(fr *f)
{
	if (!f)
		return;
	if (f->owner)
		fr_leave(f);
	f->s->close(f->s);
	htab_free(&f->hosts);
	htab_free(&f->leaving);
	free(f);
}

const char *
fr_error(fr *f)
{
	return f->s->error(f->s);
}

/* Runs statement k with args to completion.  0, or -1. */
static int
run(fr *f, int k, const fr_arg *a, int n)
{
	if (f->s->run(f->s, k, a, n) != 0)
		return -1;
	f->s->end(f->s);
	return 0;
}

#define RUN(f, k, ...) \
	run(f, k, (const fr_arg[]){ __VA_ARGS__ }, sizeof((const fr_arg[]){ __VA_ARGS__ }) / sizeof(fr_arg))

/* The first column of statement k's first row, as an integer; 0 when it
 * has none, -1 on error. */
static long long
scalar(fr *f, int k, const fr_arg *a, int n)
{
	if (f->s->run(f->s, k, a, n) != 0)
		return -1;
	long long v = f->s->row(f->s) == 1 ? f->s->integer(f->s, 0) : 0;
	f->s->end(f->s);
	return v;
}

int
fr_begin(fr *f)
{
	return run(f, S_BEGIN, NULL, 0);
}

int
fr_turn(fr *f)
{
	return run(f, S_TURN, NULL, 0);
}

int
fr_commit(fr *f)
{
	return run(f, S_COMMIT, NULL, 0);
}

static int
rollback(fr *f)
{
	return run(f, S_ROLLBACK, NULL, 0);
}

int
fr_add(fr *f, const char *url, const char *host, const char *scope,
       int depth, const char *parent)
{
	if (RUN(f, S_ADD, FA_S(url), FA_S(host), FA_S(scope), FA_I(depth), FA_S(parent),
		FA_D(tm_wall())) != 0)
		return -1;
	if (f->s->changes(f->s) == 0)
		return 0;
	return run(f, S_COUNT_ADD, NULL, 0) == 0 ? 1 : -1;
}

int
fr_lookup(fr *f, const char *url, int *depth, char **scope)
{
	fr_arg a = FA_S(url);
	if (f->s->run(f->s, S_LOOKUP, &a, 1) != 0)
		return 0;
	int found = f->s->row(f->s) == 1;
	if (found) {
		*depth = (int)f->s->integer(f->s, 0);
		const char *sc = f->s->text(f->s, 1);
		*scope = sc ? strdup(sc) : NULL;
	}
	f->s->end(f->s);
	return found && *scope;
}

long long
fr_admitted(fr *f)
{
	return scalar(f, S_ADMITTED, NULL, 0);
}

int
fr_outstanding(fr *f)
{
	return (int)scalar(f, S_OUTSTANDING, NULL, 0);
}

long long
fr_held(fr *f)
{
	return scalar(f, S_HELD, NULL, 0);
}

long long
fr_leased_mine(fr *f)
{
	const fr_arg a[] = { FA_I(f->owner) };
	return scalar(f, S_MINE, a, 1);
}

long long
fr_accepted(fr *f)
{
	return scalar(f, S_ACCEPTED, NULL, 0);
}

int
fr_expire(fr *f, double now)
{
	return RUN(f, S_EXPIRE, FA_D(now));
}

/* Whether we may lease r's URL by its host: ours already, or free and
 * within our share, then claimed (*host_next set to when it may start,
 * gap(arg, r) stored as its interval).  denied keeps the hosts refused
 * in this lease, so each costs one claim.  1, 0, or -1 on error. */
static int
own_host(fr *f, const fr_row *r, htab *denied, double now,
	 double (*gap)(void *arg, const fr_row *row), void *arg, double *host_next)
{
	if (htab_get(&f->leaving, r->host))
		return 0;
	if (htab_get(&f->hosts, r->host))
		return 1;
	if (htab_get(denied, r->host) || (long long)f->hosts.n >= f->share)
		return 0;
	fr_store *s = f->s;
	const fr_arg a[] = { FA_S(r->host), FA_I(f->owner), FA_D(gap(arg, r)), FA_D(now) };
	if (s->run(s, S_CLAIM, a, 4) != 0)
		return -1;
	int mine = s->row(s) == 1;
	if (mine)
		*host_next = s->real(s, 0);
	s->end(s);
	if (!htab_put(mine ? &f->hosts : denied, r->host, strlen(r->host), NULL))
		return -1;
	return mine;
}

/* ids[0 .. n) as a JSON array, malloc'd; NULL when out of memory. */
static char *
id_list(const long long *ids, int n)
{
	size_t cap = (size_t)n * 21 + 3, len = 0;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	s[len++] = '[';
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(s + len, cap - len, "%s%lld", i ? "," : "", ids[i]);
	snprintf(s + len, cap - len, "]");
	return s;
}

/* Why a URL leased `leases` times is not leased again. */
static void
exhausted_detail(char *buf, size_t len, int leases)
{
	snprintf(buf, len, "leased %d times, never acknowledged", leases);
}

int
fr_lease(fr *f, int n, double now, double lease_secs, int max_leases,
	 double (*gap)(void *arg, const fr_row *row),
	 int (*accept)(void *arg, const fr_row *row),
	 void (*exhausted)(void *arg, const fr_row *row, const char *detail), void *arg)
{
	if (n <= 0)
		return 0;
	/* ids[0 .. taken) to lease, ids[n .. n + dead) to end as
	 * exhausted, after leases[i] leases */
	long long *ids = malloc((size_t)n * 2 * sizeof *ids);
	int *leases = malloc((size_t)n * sizeof *leases);
	if (!ids || !leases || run(f, S_BEGIN_LEASE, NULL, 0) != 0) {
		free(ids);
		free(leases);
		return -1;
	}
	char detail[64], reason[96];
	/* Look at more candidates than we take, so rows of hosts that
	 * accept() turns away do not starve the others.  Ids are collected
	 * first: updating rows under an open cursor on the same index would
	 * move them within the scan. */
	fr_store *s = f->s;
	htab denied = { 0 };
	int taken = 0, dead = 0, rc = 0;
	/* Retries that are due first (next_at in (0, now]), as in memory a
	 * host's retries go before its fresh URLs; then the URLs never
	 * deferred (next_at 0), in admission order.  One ordered scan would
	 * put every URL not yet leased before any retry. */
	const double range[2][2] = { { 0, now }, { -1, 0 } };
	for (int k = 0; k < 2 && rc == 0 && taken < n; k++) {
		const fr_arg ca[] = { FA_D(now), FA_I(n * 4), FA_I(f->owner), FA_D(range[k][0]),
				      FA_D(range[k][1]) };
		if ((rc = s->run(s, S_CANDIDATES, ca, 5)) != 0)
			break;
		while (rc == 0 && taken < n && s->row(s) == 1) {
			fr_row r = {
				.url = s->text(s, 1),
				.host = s->text(s, 2),
				.depth = (int)s->integer(s, 3),
				.lease = (int)s->integer(s, 4) + 1,
				.etag = s->text(s, 5),
				.last_modified = s->text(s, 6),
			};
			/* Ended here, whoever owns its host: no request. */
			if (max_leases > 0 && r.lease > max_leases) {
				if (dead < n) {
					leases[dead] = r.lease - 1;
					ids[n + dead++] = s->integer(s, 0);
					exhausted_detail(detail, sizeof detail, r.lease - 1);
					exhausted(arg, &r, detail);
				}
				continue;
			}
			int ok = own_host(f, &r, &denied, now, gap, arg, &r.host_next);
			if (ok < 0)
				rc = -1;
			else if (ok && accept(arg, &r))
				ids[taken++] = s->integer(s, 0);
		}
		s->end(s);
	}
	htab_free(&denied);
	fr_arg owner = f->owner ? FA_I(f->owner) : FA_S(NULL);
	char *list = taken && rc == 0 ? id_list(ids, taken) : NULL;
	if (taken && rc == 0)
		rc = list ? RUN(f, S_LEASE, FA_S(list), FA_D(now + lease_secs), FA_D(now), owner) : -1;
	free(list);
	for (int i = 0; i < dead && rc == 0; i++) {
		exhausted_detail(detail, sizeof detail, leases[i]);
		snprintf(reason, sizeof reason, "%s: %s",
			 fetcherr_word(FETCHERR_ATTEMPTS_EXHAUSTED), detail);
		rc = RUN(f, S_DEAD_ID, FA_I(ids[n + i]), FA_S(reason), FA_D(now));
	}
	free(ids);
	free(leases);
	if (rc != 0) {
		rollback(f);
		return -1;
	}
	return fr_commit(f) == 0 ? taken : -1;
}

/* Our identity as S_JOIN's and S_BEAT's ns, pid, start. */
#define ME(f) FA_S((f)->me.ns), FA_I((f)->me.pid), FA_I((f)->me.start)

/* Returns the leases and hosts of owner id to the job and forgets the
 * owner. */
static int
release(fr *f, long long id, double now)
{
	if (RUN(f, S_RECLAIM, FA_I(id), FA_D(now)) != 0)
		return -1;
	long long n = f->s->changes(f->s);
	if (RUN(f, S_FREE_HOSTS, FA_I(id), FA_D(now)) != 0)
		return -1;
	return RUN(f, S_DROP_OWNER, FA_I(id)) == 0 ? (int)n : -1;
}

/* Hands back the hosts where we hold no lease, so the job's hosts
 * spread over the fetches that have work, and reads our share: hosts
 * with work divided by the fetches on the job, rounded up, at least 1. */
static int
reshare(fr *f, double now)
{
	fr_store *s = f->s;
	const fr_arg a[] = { FA_I(f->owner), FA_D(now) };
	if (s->run(s, S_FREE_IDLE, a, 2) != 0)
		return -1;
	while (s->row(s) == 1) {
		const char *h = s->text(s, 0);
		htab_del(&f->hosts, h, strlen(h));
		htab_del(&f->leaving, h, strlen(h));
	}
	s->end(s);
	if (s->run(s, S_SHARE, NULL, 0) != 0)
		return -1;
	long long hosts = 0, owners = 1;
	if (s->row(s) == 1) {
		hosts = s->integer(s, 0);
		owners = s->integer(s, 1);
	}
	s->end(s);
	/* At least one: a fetch that owns nothing may always take a host. */
	f->share = owners > 0 ? (hosts + owners - 1) / owners : hosts;
	if (f->share < 1)
		f->share = 1;
	/* Above our share (others joined, or we claimed before they did):
	 * hand back the excess once idle, so they get work. */
	htab_ent *e;
	for (size_t i = 0; (long long)(f->hosts.n - f->leaving.n) > f->share &&
			   (e = htab_next(&f->hosts, &i));)
		if (!htab_put(&f->leaving, e->key, e->len, NULL))
			return -1;
	return 0;
}

int
fr_leaving(fr *f, void (*each)(void *arg, const char *host), void *arg)
{
	size_t i = 0;
	int n = 0;
	for (htab_ent *e; (e = htab_next(&f->leaving, &i)); n++)
		each(arg, e->key);
	return n;
}

/* The owners other than us that no longer run: gone from this pid
 * namespace, or silent for FR_OWNER_TIMEOUT.  Collects at most max ids
 * into ids and returns how many, or -1. */
static int
dead_owners(fr *f, double now, long long *ids, int max)
{
	fr_store *s = f->s;
	fr_arg me = FA_I(f->owner);
	if (s->run(s, S_OWNERS, &me, 1) != 0)
		return -1;
	int n = 0;
	while (n < max && s->row(s) == 1) {
		own_id o = { .pid = (long)s->integer(s, 2), .start = s->integer(s, 3) };
		const char *ns = s->text(s, 1);
		snprintf(o.ns, sizeof o.ns, "%s", ns ? ns : "");
		if (s->real(s, 4) < now - FR_OWNER_TIMEOUT || own_alive(&o) == 0)
			ids[n++] = s->integer(s, 0);
	}
	s->end(s);
	return n;
}

int
fr_beat(fr *f, double now)
{
	if (fr_begin(f) != 0)
		return -1;
	int rc = RUN(f, S_BEAT, FA_I(f->owner), ME(f), FA_D(now)), total = 0;
	/* A batch at a time: the ids are read before the rows change. */
	long long ids[32];
	for (int n = 32; rc == 0 && n == 32;) {
		n = dead_owners(f, now, ids, 32);
		rc = n < 0 ? -1 : 0;
		for (int i = 0; i < n && rc == 0; i++) {
			int k = release(f, ids[i], now);
			rc = k < 0 ? -1 : 0;
			total += k;
		}
	}
	if (rc == 0)
		rc = reshare(f, now);
	if (rc != 0) {
		rollback(f);
		return -1;
	}
	return fr_commit(f) == 0 ? total : -1;
}

int
fr_join(fr *f, double now)
{
	own_self(&f->me);
	f->owner = scalar(f, S_JOIN, (const fr_arg[]){ ME(f), FA_D(now) }, 4);
	if (f->owner <= 0) {
		f->owner = 0;
		return -1;
	}
	return fr_beat(f, now);
}

int
fr_leave(fr *f)
{
	int n = release(f, f->owner, tm_wall());
	f->owner = 0;
	htab_free(&f->hosts);
	htab_free(&f->leaving);
	return n;
}

int
fr_pause(fr *f, const char *host, const char *reason, double now)
{
	return RUN(f, S_PAUSE, FA_S(host), FA_S(reason), FA_D(now));
}

int
fr_resume(fr *f, const char *host, double now)
{
	return RUN(f, S_RESUME, FA_S(host), FA_D(now)) == 0 ? (int)f->s->changes(f->s) : -1;
}

int
fr_slow(fr *f, const char *host, const char *reason, double now)
{
	return RUN(f, S_SLOW, FA_S(host), FA_S(reason), FA_D(now));
}

int
fr_owns(fr *f, const char *host)
{
	return htab_get(&f->hosts, host) && !htab_get(&f->leaving, host);
}

/* Calls each(arg, text of column 0, text of column 1) for every row of
 * statement k; returns how many rows, or -1. */
static int
pairs(fr *f, int k, const fr_arg *a, int n,
      void (*each)(void *arg, const char *c0, const char *c1), void *arg)
{
	fr_store *s = f->s;
	if (s->run(s, k, a, n) != 0)
		return -1;
	int rows = 0, rc;
	while ((rc = s->row(s)) == 1) {
		each(arg, s->text(s, 0), s->text(s, 1));
		rows++;
	}
	s->end(s);
	return rc == 0 ? rows : -1;
}

int
fr_paused(fr *f, void (*each)(void *arg, const char *host, const char *reason), void *arg)
{
	return pairs(f, S_PAUSED, NULL, 0, each, arg);
}

/* Runs statement k (S_COOKIE_PUT or S_COOKIE_DEL) for Netscape cookie
 * line (tab-separated: domain, tailmatch, path, secure, expires, name,
 * value) at time now; a line of another shape is skipped. */
static int
cookie_run(fr *f, int k, const char *line, double now)
{
	char *field[7], *save = NULL, *copy = strdup(line);
	if (!copy)
		return -1;
	int n = 0;
	for (char *t = strtok_r(copy, "\t", &save); t && n < 7; t = strtok_r(NULL, "\t", &save))
		field[n++] = t;
	int rc = 0;
	if (n >= 6 && k == S_COOKIE_PUT)
		rc = RUN(f, k, FA_S(field[0]), FA_S(field[2]), FA_S(field[5]), FA_S(line),
			 FA_D(strtod(field[4], NULL)), FA_D(now));
	else if (n >= 6)
		rc = RUN(f, k, FA_S(field[0]), FA_S(field[2]), FA_S(field[5]));
	free(copy);
	return rc;
}

/* Deletes the job's cookies a fetch's jar would not keep: past max in
 * all or COOKIE_SITE_MAX a site (the oldest first), expired, or
 * malformed.  So the job's jar has the bounds of each fetch's. */
static int
cookie_trim(fr *f, long max, double now)
{
	fr_store *s = f->s;
	if (s->run(s, S_COOKIE_ROWS, NULL, 0) != 0)
		return -1;
	char **rows = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = s->row(s)) == 1) {
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			rows = xrealloc(rows, cap * sizeof *rows);
		}
		rows[n++] = xstrdup(s->text(s, 0));
	}
	s->end(s);
	cookie_jar *jar = cookie_jar_new((size_t)max, COOKIE_SITE_MAX);
	for (size_t i = 0; i < n; i++)
		cookie_add_line(jar, rows[i], strlen(rows[i]), now);
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && !cookie_holds(jar, rows[i], strlen(rows[i])))
			rc = cookie_run(f, S_COOKIE_DEL, rows[i], now);
		free(rows[i]);
	}
	free(rows);
	cookie_jar_free(jar);
	return rc;
}

int
fr_cookies_put(fr *f, const char *lines, long max, double now)
{
	char *copy = strdup(lines), *save = NULL;
	if (!copy || fr_begin(f) != 0) {
		free(copy);
		return -1;
	}
	int rc = 0, i = 0;
	/* A microsecond apart, so the lines (oldest first) keep their order. */
	for (char *l = strtok_r(copy, "\n", &save); l && rc == 0; l = strtok_r(NULL, "\n", &save))
		rc = cookie_run(f, S_COOKIE_PUT, l, now + 1e-6 * i++);
	free(copy);
	if (rc != 0 || cookie_trim(f, max, now) != 0) {
		rollback(f);
		return -1;
	}
	return fr_commit(f);
}

char *
fr_cookies(fr *f, double now)
{
	fr_store *s = f->s;
	fr_arg a = FA_D(now);
	if (s->run(s, S_COOKIES, &a, 1) != 0)
		return NULL;
	size_t len = 0, cap = 256;
	char *out = malloc(cap);
	int rc = 0;
	while (out && (rc = s->row(s)) == 1) {
		const char *l = s->text(s, 0);
		size_t n = strlen(l);
		if (len + n + 2 > cap) {
			while (len + n + 2 > cap)
				cap *= 2;
			char *p = realloc(out, cap);
			if (!p) {
				free(out);
				out = NULL;
				break;
			}
			out = p;
		}
		memcpy(out + len, l, n);
		out[len + n] = '\n';
		len += n + 1;
	}
	s->end(s);
	if (out)
		out[len] = '\0';
	if (out && rc != 0) {
		free(out);
		out = NULL;
	}
	return out;
}

int
fr_stored(fr *f, const char *host, enum fr_outcome outcome)
{
	return RUN(f, S_STORED, FA_S(host), FA_I(outcome), FA_D(tm_wall()));
}

int
fr_yields(fr *f, int window,
	  void (*each)(void *arg, const char *host, double share, double blocked, int slowed),
	  void *arg)
{
	fr_store *s = f->s;
	fr_arg a = FA_I(window);
	if (s->run(s, S_YIELDS, &a, 1) != 0)
		return -1;
	int n = 0, rc;
	while ((rc = s->row(s)) == 1) {
		/* The shares of the last window outcomes in recent. */
		const char *recent = s->text(s, 1);
		size_t len = strlen(recent), ones = 0, blocked = 0;
		for (size_t i = len - (size_t)window; i < len; i++) {
			ones += recent[i] == '0' + FR_ACCEPTED;
			blocked += recent[i] == '0' + FR_BLOCKED;
		}
		each(arg, s->text(s, 0), (double)ones / window, (double)blocked / window,
		     s->text(s, 2) != NULL);
		n++;
	}
	s->end(s);
	return rc == 0 ? n : -1;
}

int
fr_queue_ages(fr *f, double now, void (*each)(void *arg, const char *host, double age), void *arg)
{
	fr_store *s = f->s;
	fr_arg a = FA_D(now);
	if (s->run(s, S_AGES, &a, 1) != 0)
		return -1;
	int n = 0, rc;
	while ((rc = s->row(s)) == 1) {
		each(arg, s->text(s, 0), s->real(s, 1));
		n++;
	}
	s->end(s);
	return rc == 0 ? n : -1;
}

int
fr_unlease(fr *f, const char *url)
{
	return RUN(f, S_UNLEASE, FA_S(url), FA_D(tm_wall()));
}

int
fr_defer(fr *f, const char *url, double at, const char *host, double host_at)
{
	double now = tm_wall();
	if (fr_begin(f) != 0)
		return -1;
	if (RUN(f, S_DEFER, FA_S(url), FA_D(at), FA_D(now), FA_I(f->owner)) != 0 ||
	    (host_at > 0 && RUN(f, S_HOLD, FA_S(host), FA_D(host_at), FA_D(now)) != 0)) {
		rollback(f);
		return -1;
	}
	return fr_commit(f);
}

int
fr_done(fr *f, const char *url, const char *etag, const char *last_modified, int replace)
{
	return RUN(f, S_DONE, FA_S(url), FA_D(tm_wall()), FA_S(etag), FA_S(last_modified),
		   FA_I(replace != 0));
}

int
fr_recrawl(fr *f, double before, double now)
{
	return RUN(f, S_RECRAWL, FA_D(before), FA_D(now)) == 0 ? (int)f->s->changes(f->s) : -1;
}

int
fr_dead(fr *f, const char *url, const char *reason)
{
	return RUN(f, S_DEAD, FA_S(url), FA_S(reason), FA_D(tm_wall()));
}

int
fr_requeue_dead(fr *f)
{
	return RUN(f, S_REQUEUE, FA_D(tm_wall())) == 0 ? (int)f->s->changes(f->s) : -1;
}

/* Prints the rows of statement k (?1 is now when it takes one), one per
 * line, columns joined by two spaces, each line indented. */
static void
rows(fr *f, FILE *out, int k, double now)
{
	fr_store *s = f->s;
	fr_arg a = FA_D(now);
	if (s->run(s, k, &a, k == S_REP_OLDEST) != 0)
		return;
	int cols = k == S_REP_HOST ? 5 : 2;
	while (s->row(s) == 1) {
		fputs("  ", out);
		for (int i = 0; i < cols; i++) {
			const char *v = s->text(s, i);
			fprintf(out, "%s%s", i ? "  " : "", v ? v : "-");
		}
		fputc('\n', out);
	}
	s->end(s);
}

int
fr_report(fr *f, double now, FILE *out)
{
	fprintf(out, "by state:\n");
	rows(f, out, S_REP_STATE, now);
	fprintf(out, "by host (pending leased done dead):\n");
	rows(f, out, S_REP_HOST, now);
	fprintf(out, "paused hosts:\n");
	rows(f, out, S_PAUSED, now);
	fprintf(out, "slowed hosts:\n");
	rows(f, out, S_SLOWED, now);
	fprintf(out, "oldest pending:\n");
	rows(f, out, S_REP_OLDEST, now);
	fprintf(out, "dead letters:\n");
	rows(f, out, S_REP_DEAD, now);
	return ferror(out) ? -1 : 0;
}
