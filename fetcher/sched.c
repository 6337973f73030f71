/* sched — who may start now.
 *
 * Concurrency is not rate: a global count bounds requests in flight, and
 * each host bounds its own in-flight count and how often requests start
 * (a minimum interval and/or a token bucket).  A host that must wait
 * holds no global slot: the pump skips it and starts other hosts, and one
 * timer wakes the pump when the earliest waiting host may go.
 *
 * Waiting jobs also end here when they pass --max-elapsed (the rule is
 * in retry.c): the same timer wakes the pump for the earliest deadline.
 * A job whose origin's robots.txt is not yet known waits for it, and one
 * it disallows ends (the rule is robots.c's).
 *
 * The hosts, their queues and their pacing state are host.c's; when a
 * host may start is lib/pace.c's rule.
 */
#include "fetch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"
#include "xalloc.h"

/* When waiting job j must end: INFINITY for a job that has not started
 * while its host is healthy, whose wait costs it nothing. */
static double
ends_at(const job *j, double now)
{
	if (!j->attempts && !j->host->pace.sick)
		return INFINITY;
	return retry_deadline(&F.conf.retry, j, now);
}

/* Sets j's host, resolving its name first (dns.c): 1; or 0 when j
 * waits for the answer (sched_resolved places it) or ended, its name
 * not resolving. */
static int
place(job *j)
{
	if (j->host)
		return 1;
	const char *addr;
	char *why = NULL;
	int r = dns_place(j, &addr, &why);
	if (r < 0)
		record_fail(j, FETCHERR_DNS, why);
	if (r <= 0)
		return 0;
	j->host = host_get(j->name, addr);
	return 1;
}

void
sched_resolved(void)
{
	for (job *j; (j = dns_done());) {
		if (j->attempts || j->target)
			sched_retry(j);
		else
			sched_enqueue(j);
	}
}

host *
sched_host_of(const char *name)
{
	if (F.o.pace_by != PACE_BY_IP)
		return host_get(name, NULL);
	/* Pacing by address: only a name answered already has a host. */
	const char *addr = dns_address(name);
	return addr ? host_get(name, addr) : NULL;
}

void
sched_enqueue(job *j)
{
	if (!place(j))
		return;
	double now = tm_mono();
	j->queued_sick = pace_sick_clock(&j->host->pace, now);
	F.expire_at = fmin(F.expire_at, ends_at(j, now));
	host_queue_fresh(j);
}

void
sched_retry(job *j)
{
	if (!place(j))
		return;
	host_queue_retry(j);
	F.expire_at = fmin(F.expire_at, j->deadline);
}

/* Ends j, which waited past its deadline, with retry.c's verdict. */
static void
expired(job *j)
{
	struct retry_verdict v = retry_expired(&F.conf.retry, j);
	record_fail(j, v.error, strdup(v.detail));
}

/* Ends h's waiting jobs that are past their deadline; returns the
 * earliest deadline left.  Fresh jobs are in the order they were queued,
 * so the head has been charged the most. */
static double
expire_host(host *h, double now)
{
	while (h->fresh && ends_at(h->fresh, now) <= now) {
		expired(host_unlink(h, &h->fresh));
	}
	double next = h->fresh ? ends_at(h->fresh, now) : INFINITY;
	for (job **p = &h->retry; *p;) {
		job *j = *p;
		if (j->deadline <= now) {
			expired(host_unlink(h, p));
		} else {
			next = fmin(next, j->deadline);
			p = &j->next;
		}
	}
	return next;
}

/* Ends every waiting job past its deadline and notes the next one. */
static void
expire(double now)
{
	double next = INFINITY;
	host *h = F.ring;
	for (size_t i = 0, n = F.n_ring; h && i < n; i++) {
		host *after = h->wnext;
		next = fmin(next, expire_host(h, now));
		host_settle(h);
		h = F.ring ? after : NULL;
	}
	F.expire_at = next;
}

void
sched_started(host *h, double now)
{
	h->active++;
	pace_started(&h->pace, now);
}

void
sched_finished(host *h)
{
	h->active--;
	host_ring_add(h);   /* a slot freed: it may have work to start */
}

/* Takes the job h should start next: a due retry first (it has waited
 * longest), else the oldest fresh job.  Sets *when to the earliest time a job
 * becomes due when none is due now. */
static job *
take(host *h, double now, double *when)
{
	if (h->retry && h->retry->not_before <= now)
		return host_unlink(h, &h->retry);
	if (h->fresh)
		return host_unlink(h, &h->fresh);
	if (h->retry && h->retry->not_before < *when)
		*when = h->retry->not_before;
	return NULL;
}

/* Only wakes the loop: the driver's next pass pumps. */
static void
on_sched_timer(uv_timer_t *t)
{
	(void)t;
}

/* Starts the request for the robots.txt of h's origin o, a start like
 * any, as guarded as the job that asks for it; h's pages wait for it. */
static void
start_robots(host *h, origin *o, const job *j, double now)
{
	job *r = job_new_robots(h, o, j->name);
	r->guard = j->guard;
	o->robots_state = ROBOTS_LOADING;
	h->robots_loading++;
	sched_started(h, now);
	if (xfer_start(r) != 0) {
		/* Out of handles: go on without rules, not spin. */
		sched_finished(h);
		h->robots_loading--;
		job_free(r);
		o->robots_state = ROBOTS_READY;
	}
}

/* Starts jobs on h until it, or the global budget, must wait.  Returns
 * the time h next wants the pump, INFINITY when only a finishing request
 * (or nothing) can unblock it. */
static double
pump_host(host *h, double now)
{
	double when = INFINITY;
	while (F.inflight < F.o.concurrency && !output_blocked() && !F.stopping) {
		if (h->robots_loading || h->active >= h->per_host || host_hold(h))
			return when;   /* a finishing request, or a resume, re-pumps */
		double t = pace_ready_at(&h->pace, now);
		if (t > now)
			return t;
		job *j = take(h, now, &when);
		if (!j)
			return when;
		const char *u = job_target(j);
		origin *o = host_origin(h, u);
		if (o->down) {
			record_fail(j, o->down, xstrdup(o->down_detail));
			continue;
		}
		if (j->guard && o->private) {
			j->refused_private = 1;
			record_fail(j, FETCHERR_PRIVATE_ADDRESS, xfer_private_detail(j));
			continue;
		}
		enum robots_gate g = robots_gate(h, o, u);
		if (g == ROBOTS_FETCH) {
			host_untake(h, j);
			start_robots(h, o, j, now);
			continue;
		}
		if (g == ROBOTS_REFUSED) {
			record_fail(j, FETCHERR_ROBOTS, fetcherr_hop_detail(j->target, robots_reason(o->robots)));
			continue;
		}
		if (!j->attempts)
			j->deadline = retry_deadline(&F.conf.retry, j, now);
		sched_started(h, now);
		if (xfer_start(j) != 0) {
			sched_finished(h);
			record_emit(j);
		}
	}
	return when;
}

void
sched_pump(void)
{
	double now = tm_mono(), wake = INFINITY;
	if (F.expire_at <= now && !F.stopping)
		expire(now);
	/* One lap of the ring, starting where the last lap stopped so no
	 * host is always served first.  Hosts left with nothing waiting
	 * drop out of the ring. */
	host *h = F.ring;
	for (size_t i = 0, laps = F.n_ring; h && i < laps; i++) {
		host *next = h->wnext;
		double t = pump_host(h, now);
		if (t < wake)
			wake = t;
		host_settle(h);
		h = F.ring ? next : NULL;
		if (F.inflight >= F.o.concurrency || output_blocked())
			break;
	}
	if (h && h->waiting)
		F.ring = h;
	wake = fmin(wake, F.expire_at);
	if (isfinite(wake) && !F.stopping) {
		double ms = ceil((wake - now) * 1000);
		uv_timer_start(&F.sched_timer, on_sched_timer, ms > 0 ? (uint64_t)ms : 0, 0);
	} else {
		uv_timer_stop(&F.sched_timer);
	}
}

void
sched_end_origin(host *h, origin *o)
{
	for (job *j; (j = host_take_origin(h, o));)
		record_fail(j, o->down, xstrdup(o->down_detail));
	host_settle(h);
}

/* After a signal: every job not yet started ends now as interrupted, so
 * each input still gets its one record. */
void
sched_interrupt_waiting(void)
{
	for (job *j; (j = dns_take_waiting());)
		record_fail(j, FETCHERR_INTERRUPTED, strdup("stopped by signal before attempt 1"));
	while (F.ring) {
		host *h = F.ring;
		for (job *j; (j = host_pop(h));) {
			char why[80];
			snprintf(why, sizeof why, "stopped by signal before attempt %d%s%s",
				 j->attempts + 1, j->error ? " after " : "", j->error ? fetcherr_word(j->error) : "");
			record_fail(j, FETCHERR_INTERRUPTED, strdup(why));
		}
		host_ring_del(h);
	}
}
