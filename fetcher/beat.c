/* beat — --queue: fetch's heartbeat as an owner of the job.
 *
 * fetch is an owner of the frontier (lib/frontier.h): it joins when its
 * loop starts, beats every second, and each beat takes back the leases
 * of fetches that no longer run, so a rerun after kill -9 resumes at
 * once and several fetches can work on one job.  It leases only URLs of
 * hosts it owns (lib/frontier.h, "Hosts"), so it alone paces them.
 *
 * Hosts can be paused in the frontier (fetch --pause HOST): every beat
 * reads the paused set, so within a second or two no fetch on the job
 * starts such a host; the URLs it had waiting go back to pending
 * unstarted, the ones in flight finish.  The job ends when all that
 * remains belongs to paused hosts, and says so.  Hosts handed to
 * another fetch are held the same way.
 *
 * Each beat also brings back, with --recrawl, the pages stored longer
 * ago than AGE; with --cookies it stores the jar when it changed, so a
 * rerun or another fetch has the session; with --min-yield it asks the
 * yield guard (guard.c) about our hosts.
 *
 * The join, the first holds and the first recrawl run on the loop
 * thread before anything is in flight; a beat runs on the frontier's
 * thread (dbq.c), one posted at a time, and its answer changes the
 * scheduler in the driver's pass.
 */
#include "fetch.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontier.h"
#include "msg.h"
#include "tm.h"
#include "xalloc.h"

static uv_timer_t beat_timer;
/* beat_due: the timer ran; beating: a beat is posted, not answered. */
static int beat_due, beating;
/* --recrawl: when this fetch started (unix s), and whether a recrawl
 * has nothing left to bring back (the frontier's thread's). */
static double started;
static int recrawl_over;
/* --cookies: the jar as last stored in the job (cookies_changed). */
static char *cookies_stored;

/* The paused hosts, as of the last beat. */
typedef struct holds {
	char **names, **reasons;
	int n, cap;
} holds;
static holds held;

static void
holds_free(holds *h)
{
	for (int i = 0; i < h->n; i++) {
		free(h->names[i]);
		free(h->reasons[i]);
	}
	free(h->names);
	free(h->reasons);
	*h = (holds){ 0 };
}

/* fr_paused's callback: one more paused host. */
static void
collect(void *arg, const char *host, const char *reason)
{
	holds *h = arg;
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 8;
		h->names = xrealloc(h->names, h->cap * sizeof *h->names);
		h->reasons = xrealloc(h->reasons, h->cap * sizeof *h->reasons);
	}
	h->names[h->n] = xstrdup(host);
	h->reasons[h->n++] = xstrdup(reason);
}

/* fr_leaving's callback: a host we hand to other fetches is held too. */
static void
collect_leaving(void *arg, const char *host)
{
	collect(arg, host, "handed to another fetch on the job");
}

/* Reads the paused hosts and the ones we hand back into now. */
static void
read_holds(holds *now)
{
	dbq_check(fr_paused(dbq_frontier(), collect, now), "read");
	fr_leaving(dbq_frontier(), collect_leaving, now);
}

/* The scheduler holds what held names, and the leases of those hosts'
 * URLs that have not started go back. */
static void
hold(void)
{
	host_set_holds((const char *const *)held.names, (const char *const *)held.reasons, held.n);
	qwrite_unlease_waiting(0, " of paused or handed-over hosts");
}

/* now (taken over) is what is held. */
static void
take_holds(holds *now)
{
	holds_free(&held);
	held = *now;
	*now = (holds){ 0 };
	hold();
}

void
beat_note_held(long long n)
{
	if (n <= 0 || held.n == 0)
		return;
	char list[512] = "";
	for (int i = 0; i < held.n; i++) {
		size_t l = strlen(list);
		snprintf(list + l, sizeof list - l, "%s%s (%s)", i ? ", " : "", held.names[i],
			 held.reasons[i]);
	}
	msg_note("%lld URLs wait for paused hosts: %s", n, list);
}

/* Checks fr_beat's or fr_join's count (what: the call) and says how
 * many leases of dead fetches came back. */
static void
note_reclaimed(int n, const char *what)
{
	dbq_check(n, what);
	if (n > 0)
		msg_note("%d URLs leased by a fetch that no longer runs are pending again", n);
}

/* --recrawl AGE: done URLs stored more than AGE ago go back to pending,
 * but only those stored before this fetch started, so each comes back
 * at most once in a run and a small AGE cannot keep the job going for
 * ever.  From the first recrawl whose limit is the start, nothing more
 * can come.  Returns how many came back. */
static int
recrawl(void)
{
	if (F.o.recrawl < 0 || recrawl_over)
		return 0;
	double now = tm_wall(), before = fmin(now - F.o.recrawl, started);
	int n = fr_recrawl(dbq_frontier(), before, now);
	dbq_check(n, "update");
	recrawl_over = before == started;
	return n;
}

/* Says how many URLs a recrawl brought back (n), when any. */
static void
note_recrawled(int n)
{
	if (n > 0)
		msg_note("%d URLs stored more than %g s ago are pending again for a recrawl", n,
			 F.o.recrawl);
}

/* The jar (req_cookies_dump) when it changed since it was last stored,
 * for the job: so a rerun or another fetch has the session.  NULL
 * when it did not, or without --cookies. */
static char *
cookies_changed(void)
{
	char *now = req_cookies_dump();
	if (!now || (cookies_stored && strcmp(now, cookies_stored) == 0)) {
		free(now);
		return NULL;
	}
	free(cookies_stored);
	cookies_stored = xstrdup(now);
	return now;
}

/* One heartbeat: at most one is posted at a time. */
typedef struct beat_task {
	dbq_task t;
	int reclaimed;    /* fr_beat's count */
	int recrawled;    /* recrawl's */
	char *cookies;    /* --cookies: the jar to store, when it changed */
	guard_list judged;   /* the yield guard's hosts */
	holds now;        /* the hosts held: paused, or handed back */
} beat_task;

/* On the frontier's thread. */
static void
beat_run(dbq_task *t)
{
	beat_task *b = (beat_task *)t;
	fr *front = dbq_frontier();
	b->reclaimed = fr_beat(front, tm_wall());
	dbq_check(b->reclaimed, "update");
	b->recrawled = recrawl();
	if (F.o.min_yield > 0)
		dbq_check(fr_yields(front, (int)F.o.yield_window, guard_judge, &b->judged), "read");
	read_holds(&b->now);
	if (b->cookies)
		dbq_check(fr_cookies_put(front, b->cookies, F.o.max_cookies, tm_wall()), "update");
}

/* The beat's answer.  URLs it took back are leased by the next pass.
 * The guard's steps are stored before the next beat reads the paused
 * hosts (tasks run in order), and a host it pauses is held at once, not
 * from the next beat's read. */
static void
beat_done(dbq_task *t)
{
	beat_task *b = (beat_task *)t;
	beating = 0;
	note_reclaimed(b->reclaimed, "update");
	note_recrawled(b->recrawled);
	take_holds(&b->now);
	for (int i = 0; i < b->judged.n; i++) {
		char why[128];
		if (guard_step(&b->judged.v[i], why, sizeof why)) {
			collect(&held, b->judged.v[i].host, why);
			hold();
		}
	}
	guard_list_free(&b->judged);
	free(b->cookies);
	free(b);
}

/* The heartbeat's timer: the driver's pass posts it. */
static void
on_beat(uv_timer_t *t)
{
	(void)t;
	beat_due = 1;
}

void
beat_want(void)
{
	if (!dbq_frontier() || !beat_due || beating)
		return;
	beat_task *b = xcalloc(1, sizeof *b);
	b->t = (dbq_task){ .run = beat_run, .done = beat_done };
	b->cookies = cookies_changed();
	beat_due = 0;
	beating = 1;   /* before: without the thread, done runs within */
	dbq_post(&b->t);
}

int
beat_init(void)
{
	fr *front = dbq_frontier();
	if (uv_timer_init(F.loop, &beat_timer) != 0)
		return -1;
	started = tm_wall();
	note_recrawled(recrawl());
	note_reclaimed(fr_join(front, tm_wall()), "join");
	if (F.o.cookies) {   /* the job's jar over --cookies FILE's */
		char *c = fr_cookies(front, tm_wall());
		dbq_check(c ? 0 : -1, "read");
		req_cookies_load(c);
		free(c);
	}
	holds now = { 0 };
	read_holds(&now);
	take_holds(&now);
	uint64_t ms = (uint64_t)(FR_OWNER_BEAT * 1000);
	return uv_timer_start(&beat_timer, on_beat, ms, ms);
}

void
beat_close(void)
{
	if (!dbq_frontier())
		return;
	char *c = cookies_changed();   /* the jar as the fetch ends */
	if (c)
		dbq_check(fr_cookies_put(dbq_frontier(), c, F.o.max_cookies, tm_wall()), "update");
	free(c);
	free(cookies_stored);
	cookies_stored = NULL;
	holds_free(&held);
}
