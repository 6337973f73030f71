/* frontier — the durable queue of a crawl job, in a SQLite file (WAL)
 * or a PostgreSQL database shared by workers on several machines.
 *
 * One row per canonical URL:
 *
 *   pending --fr_lease--> leased --fr_done--> done
 *      ^                    |    --fr_dead--> dead
 *      +----lease expired---+
 *      +----fr_defer--------+    (a retry, with next_at)
 *      +----fr_recrawl--------------------- done  (stored before a time)
 *
 * fetch leases due URLs and fetches them; sink marks each `done` only
 * after its page row is committed (or `dead` with the reason when the
 * fetch gave up).  A crash anywhere loses nothing: the URLs leased by a
 * fetch that no longer runs go back to pending, and the sink's upsert
 * makes the second store harmless.
 *
 * Each lease names its owner, a fetch registered by fr_join.  Owners
 * beat every FR_OWNER_BEAT seconds (fr_beat); every beat, and every
 * join, returns the leases of owners that are dead to pending: at once
 * when the owner was a process of this machine's pid namespace that has
 * exited, otherwise when it has been silent for FR_OWNER_TIMEOUT.  So a
 * rerun after kill -9 resumes at once, several fetches can share a job
 * without taking each other's work, and lease_until is only a backstop
 * for a record lost between a live fetch and the sink.
 *
 * Hosts: an owner leases only URLs of hosts it owns, so it alone starts
 * requests to them and its pacing, robots.txt and adaptation hold for
 * the whole job.  A free host is claimed when its first URL is leased,
 * while the owner holds fewer than its share (hosts with pending or
 * leased URLs divided by live owners, rounded up, at least one, as of
 * the last beat),
 * so hosts spread over the fetches.  An owner above its share (others
 * joined after it claimed) marks the excess as leaving: it leases no
 * more of theirs and hands back what waits unstarted.  Each beat frees
 * the hosts where the owner holds no lease; a dead owner's are freed
 * with its leases.  A freed host keeps next_start, the time before which no
 * request to it may start: at least one interval (the owner's min_gap)
 * after it was freed, so the next owner continues the pacing.  The schema is
 * in fr_schema_sqlite and fr_schema_pg (fr_store.h) and docs/queue.md.
 */
#ifndef SLUICE_FRONTIER_H
#define SLUICE_FRONTIER_H

#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>

typedef struct fr fr;

#define FR_OWNER_BEAT 1.0      /* seconds between an owner's heartbeats */
#define FR_OWNER_TIMEOUT 10.0  /* silence after which an owner is dead */
#define FR_RECENT 1000         /* outcomes kept per host: the largest yield window */
#define FR_RECENT_S "1000"

/* Opens (creating if needed) the frontier that target names: a libpq
 * connection URI (postgresql://... or postgres://...) or else a SQLite
 * file; or on the connection db or pgc when one is not NULL (sink shares
 * its connection when its target is the same database).  Returns NULL
 * with a message in err. */
fr *fr_open(const char *target, sqlite3 *db, PGconn *pgc, char *err, size_t errlen);
/* Takes the turn that multi-row changes take in PostgreSQL (see
 * fr_begin) inside a transaction opened elsewhere: sink's, when its
 * rows and acks share one.  0, or -1. */
int fr_turn(fr *f);
void fr_close(fr *f);
/* Why the last call failed. */
const char *fr_error(fr *f);

/* Transactions, for batching many calls into one commit. */
int fr_begin(fr *f);
int fr_commit(fr *f);

/* Admits url (canonical) as pending unless it is already known.  scope is
 * the host of the seed it descends from.  Returns 1 when added, 0 when
 * known, -1 on error. */
int fr_add(fr *f, const char *url, const char *host, const char *scope,
	   int depth, const char *parent);

/* Sets *depth and *scope (malloc'd) of url's row; 1, or 0 when url is
 * not in the frontier. */
int fr_lookup(fr *f, const char *url, int *depth, char **scope);

/* URLs ever admitted: the --max-pages budget. */
long long fr_admitted(fr *f);

/* Registers the calling process as an owner of leases, then as fr_beat.
 * Leases taken after it are ours.  Returns fr_beat's count, or -1. */
int fr_join(fr *f, double now);

/* Our heartbeat: records that we run, then returns the leases of dead
 * owners to pending and forgets those owners.  Returns how many URLs came
 * back, or -1 on error. */
int fr_beat(fr *f, double now);

/* Ends our ownership: our remaining leases go back to pending at once.
 * fr_close does it for a joined frontier.  Returns their number, or -1. */
int fr_leave(fr *f);

/* Returns leases that expired before now to pending. */
int fr_expire(fr *f, double now);

typedef struct fr_row {
	const char *url, *host;
	const char *etag, *last_modified;  /* stored by fr_done, or NULL */
	int depth;
	int lease;         /* lease number: 1 for the first */
	double host_next;  /* host just claimed: no request before (unix s); else 0 */
} fr_row;

/* Leases up to n pending URLs, oldest first, in one transaction, of
 * hosts we own or may claim (see "Hosts" above) whose next_start has
 * come.  accept(arg, row) decides for each candidate (fetch uses it to
 * skip hosts that already have enough waiting); gap(arg, row) is the
 * interval between starts to a host we claim, kept for the owner after
 * us.  A leased row is held until now + lease_secs.
 *
 * A candidate leased max_leases times already (when max_leases > 0) is
 * not leased again: whatever ended its leases (a record dropped before
 * the sink, a fetch that crashed on it) would end the next one too.  It
 * turns dead in the same transaction, its last_error "attempts_exhausted: "
 * detail, and exhausted(arg, row, detail) tells the caller, for its
 * record.  Returns the number leased, -1 on error. */
int fr_lease(fr *f, int n, double now, double lease_secs, int max_leases,
	     double (*gap)(void *arg, const fr_row *row),
	     int (*accept)(void *arg, const fr_row *row),
	     void (*exhausted)(void *arg, const fr_row *row, const char *detail), void *arg);

/* Hands url's lease back to wait for a retry: pending again, not leased
 * before at (unix s), so a rerun or another fetch honours the wait; and
 * when host_at > 0, no URL of host is leased before host_at (its
 * next_start: a Retry-After holds the whole host).  The lease counts
 * toward max_leases.  0 (also when the lease is no longer ours), or -1. */
int fr_defer(fr *f, const char *url, double at, const char *host, double host_at);

/* fetch --cookies: the job's cookie jar, so a rerun or another fetch
 * has the session.  fr_cookies_put stores each Netscape cookie line of
 * lines (lib/cookie's, oldest first, one a line) over the job's cookie
 * of that domain, path and name (which keeps its first time), then
 * drops what a jar of max cookies would not keep (lib/cookie's caps:
 * past max or COOKIE_SITE_MAX a site, the oldest first; expired ones),
 * all in one transaction; 0, or -1.  fr_cookies returns the job's
 * unexpired cookies as such lines, oldest first (malloc'd, "" when
 * none), or NULL on error.  A cookie removed by a site stays until it
 * expires or is evicted (a fetch's jar drops it rather than marking
 * it). */
int fr_cookies_put(fr *f, const char *lines, long max, double now);
char *fr_cookies(fr *f, double now);

/* Calls each(arg, host) for every host we are handing back (see
 * "Hosts"); returns how many. */
int fr_leaving(fr *f, void (*each)(void *arg, const char *host), void *arg);

/* Pauses host for every fetch on the job, with a reason for --report:
 * its pending URLs are not leased (nor counted as outstanding) until
 * fr_resume.  0, or -1 on error. */
int fr_pause(fr *f, const char *host, const char *reason, double now);
/* Resumes host; returns 1 when it was paused, 0 when not, -1 on error. */
int fr_resume(fr *f, const char *host, double now);
/* Calls each(arg, host, reason) for every paused host; returns how many,
 * or -1 on error. */
int fr_paused(fr *f, void (*each)(void *arg, const char *host, const char *reason), void *arg);
/* The yield guard slowed host (fetch --min-yield): reason, for --report,
 * says how much and why (NULL: back at its rate), and the host's yield
 * window starts afresh, so the next judgement is of the new rate.  A
 * paused host is left as it is.  0, or -1 on error. */
int fr_slow(fr *f, const char *host, const char *reason, double now);
/* Whether host is ours (leased by this owner and not being handed
 * back): only its owner paces it. */
int fr_owns(fr *f, const char *host);
/* What became of a validated record, each outcome a digit of its
 * host's recent outcomes.  A rejection as validate's `blocked` (a
 * challenge, a captcha, a login wall) is told apart for --on-alert's
 * rule; a job made before it holds 0s and 1s, rejections not known to
 * be blocked, and needs no migration. */
enum fr_outcome { FR_REJECTED = 0, FR_ACCEPTED = 1, FR_BLOCKED = 2 };
/* sink stored a validated record of host: counts it, accepted or not,
 * and its outcome in the host's last FR_RECENT.  -1 on error. */
int fr_stored(fr *f, const char *host, enum fr_outcome outcome);
/* Calls each(arg, host, share, blocked, slowed) for every host not
 * paused with at least window recent outcomes: share is the accepted
 * part of the last window, blocked its part rejected as blocked,
 * slowed whether fr_slow left a reason.  Returns how many, or -1 on
 * error. */
int fr_yields(fr *f, int window,
	      void (*each)(void *arg, const char *host, double share, double blocked, int slowed),
	      void *arg);
/* Calls each(arg, host, age) for every host with due pending URLs, in
 * host order: age is how long the oldest of them has been due, in
 * seconds.  Returns how many hosts, or -1 on error. */
int fr_queue_ages(fr *f, double now, void (*each)(void *arg, const char *host, double age), void *arg);
/* Pending URLs of paused hosts. */
long long fr_held(fr *f);
/* URLs leased by this owner (fr_join) and not yet done or handed back:
 * when its fetch has written all their records, those the sink has not
 * acknowledged.  -1 on error. */
long long fr_leased_mine(fr *f);
/* The records sink stored accepted over the whole job, every host's and
 * every worker's (fr_stored's count); -1 on error. */
long long fr_accepted(fr *f);
/* Hands url's lease back (pending, no owner) without an outcome: its
 * host was paused before it started, so the lease does not count. */
int fr_unlease(fr *f, const char *url);
/* Marks url done, or dead with reason.  -1 on error.  fr_done keeps the
 * validators of the page stored for url, for a recrawl's conditional
 * request: with replace (a new page) etag and last_modified replace the
 * row's, NULL clearing them; without, only those not NULL do (a 304's,
 * or none when the stored page was kept). */
int fr_done(fr *f, const char *url, const char *etag, const char *last_modified, int replace);
int fr_dead(fr *f, const char *url, const char *reason);

/* A recrawl: done rows whose page was stored before `before` (unix s)
 * go back to pending, attempts 0, keeping depth, scope and validators,
 * so the next lease fetches them again, conditionally.  A redirect
 * target admitted done is not among them.  Returns how many, or -1. */
int fr_recrawl(fr *f, double before, double now);

/* 1 when a row is leased, or pending of a host not paused; 0 when the
 * job has nothing left to do; -1 on error. */
int fr_outstanding(fr *f);

/* Dead rows back to pending; returns how many. */
int fr_requeue_dead(fr *f);

/* Prints counts by state and by host, the paused hosts and the slowed
 * ones with their reasons, the oldest pending URL's age and the dead
 * letters with their reasons. */
int fr_report(fr *f, double now, FILE *out);

#endif
