/* guard — --min-yield: the yield guard.
 *
 * Each heartbeat (beat.c) asks the frontier for the hosts we own whose
 * accepted share over their last --yield-window stored records (counted
 * by sink --queue) fell below --min-yield, and those slowed earlier that
 * are no longer below.  Such a host's rate is halved, halved again,
 * then the host is paused for every fetch on the job, a fresh window a
 * step: each step starts a new window (fr_slow), so the next is judged
 * at the new rate.  A fresh window back at --min-yield undoes one
 * halving.  Each step is stored in the frontier (so --report shows it
 * and a rerun keeps it), said on stderr, counted in --stats and sent to
 * --on-alert; a step down for a host whose rejections are mostly
 * validate's `blocked` (challenges, captchas, login walls: sink stores
 * which) sends the rule `blocked` too.  The guard only slows and
 * pauses: nothing tries to get past a challenge.
 */
#include "fetch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "frontier.h"
#include "msg.h"
#include "tm.h"
#include "xalloc.h"

#define GUARD_HALVINGS 2   /* x0.5, then x0.25, then the pause */

void
guard_judge(void *arg, const char *host, double share, double blocked, int slowed)
{
	guard_list *l = arg;
	int low = share < F.o.min_yield;
	if ((!low && !slowed) || !fr_owns(dbq_frontier(), host))
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 8;
		l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
	}
	l->v[l->n++] = (guard_judged){ xstrdup(host), share, blocked, low };
}

void
guard_list_free(guard_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i].host);
	free(l->v);
	*l = (guard_list){ 0 };
}

/* The guard's steps to store: a host's reason, or its pause. */
typedef struct step_task {
	dbq_task t;
	char *host, *reason;     /* reason NULL: back at full rate */
	int pause;
} step_task;

static void
step_run(dbq_task *t)
{
	step_task *s = (step_task *)t;
	fr *front = dbq_frontier();
	if (s->pause)
		dbq_check(fr_pause(front, s->host, s->reason, tm_wall()), "update");
	else
		dbq_check(fr_slow(front, s->host, s->reason, tm_wall()), "update");
}

static void
step_done(dbq_task *t)
{
	step_task *s = (step_task *)t;
	free(s->host);
	free(s->reason);
	free(s);
}

/* Sends the rule `blocked` for a step down of h when most of g's
 * rejections were blocked. */
static void
alert_blocked(host *h, const guard_judged *g)
{
	if (g->blocked * 2 <= 1 - g->share)
		return;
	char m[256];
	snprintf(m, sizeof m, "%s: %.0f%% of the last %ld stored were blocked (challenges, captchas, login walls)",
		 g->host, g->blocked * 100, F.o.yield_window);
	alert_fire(h, ALERT_BLOCKED, g->blocked, m);
}

/* Stores host's step: pause, or the reason its rate is what it is. */
static void
post_step(const char *host, const char *reason, int pause)
{
	step_task *s = xcalloc(1, sizeof *s);
	s->t = (dbq_task){ .run = step_run, .done = step_done };
	s->host = xstrdup(host);
	s->reason = reason ? xstrdup(reason) : NULL;
	s->pause = pause;
	dbq_post(&s->t);
}

int
guard_step(const guard_judged *g, char *why, size_t n)
{
	host *h = sched_host_of(g->host);
	if (!h)
		return 0;   /* pacing by address, the name not yet resolved */
	struct pace_conf c = health_conf();
	int brake = h->pace.brake;
	char m[256];
	snprintf(why, n, "yield %.0f%% %s %.0f%% over the last %ld stored", g->share * 100,
		 g->low ? "<" : ">=", F.o.min_yield * 100, F.o.yield_window);
	if (g->low && brake >= GUARD_HALVINGS) {
		snprintf(m, sizeof m, "paused %s: %s (fetch --queue DB --resume %s puts it back)",
			 g->host, why, g->host);
		msg_warn("%s", m);
		post_step(g->host, why, 1);
		/* --resume then puts it back at its full rate, with a fresh
		 * window. */
		pace_brake(&h->pace, &c, 0);
		counters_guard(h, 1);
		alert_fire(h, ALERT_PAUSED, g->share, m);
		alert_blocked(h, g);
		return 1;
	}
	if (!g->low && brake == 0) {   /* a reason left by an earlier run */
		post_step(g->host, NULL, 0);
		return 0;
	}
	int to = g->low ? brake + 1 : brake - 1;
	double interval = pace_brake(&h->pace, &c, to);
	char reason[192];
	snprintf(reason, sizeof reason, "rate x%g: %s", ldexp(1, -to), why);
	if (g->low) {
		snprintf(m, sizeof m, "%s: yield %.2f below %g: rate halved%s (interval %.3f s)", g->host,
			 g->share, F.o.min_yield, to > 1 ? " again, x0.25" : "", interval);
	} else {
		snprintf(m, sizeof m, "%s: yield %.2f back at %g: rate %s (interval %.3f s)", g->host,
			 g->share, F.o.min_yield, to ? "doubled, x0.5" : "back in full", interval);
	}
	msg_warn("%s", m);
	post_step(g->host, to ? reason : NULL, 0);
	if (g->low) {
		counters_guard(h, 0);
		alert_fire(h, ALERT_YIELD, g->share, m);
		alert_blocked(h, g);
	}
	return 0;
}
