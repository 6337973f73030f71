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
 */
#include "fetch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"
#include "htab.h"
#include "tm.h"
#include "url.h"

static void
grow(void)
{
	size_t n = F.table_size ? F.table_size * 2 : 256;
	host **t = calloc(n, sizeof *t);
	if (!t)
		abort();
	for (size_t i = 0; i < F.table_size; i++)
		for (host *h = F.table[i], *next; h; h = next) {
			next = h->hnext;
			size_t b = htab_hash(h->name, strlen(h->name)) & (n - 1);
			h->hnext = t[b];
			t[b] = h;
		}
	free(F.table);
	F.table = t;
	F.table_size = n;
}

static void
host_free(host *h)
{
	for (origin *o = h->origins, *next; o; o = next) {
		next = o->next;
		robots_free(o->robots);
		free(o->key);
		free(o);
	}
	free(h->name);
	free(h);
}

/* The origin of canonical URL u among h's, added when new. */
static origin *
origin_of(host *h, const char *u)
{
	size_t n = url_origin_len(u);
	for (origin *o = h->origins; o; o = o->next)
		if (strlen(o->key) == n && memcmp(o->key, u, n) == 0)
			return o;
	origin *o = calloc(1, sizeof *o);
	if (!o || !(o->key = strndup(u, n)))
		abort();
	o->next = h->origins;
	h->origins = o;
	return o;
}

/* Whether h holds nothing a new host would not: no jobs, nothing in
 * flight, no wait pending, no robots.txt on its way. */
static int
idle(const host *h, double now)
{
	return !h->waiting && h->active == 0 && !h->fresh && !h->retry &&
	       h->next_start <= now && h->paused_until <= now &&
	       h->robots_loading == 0;
}

/* Frees every idle host.  Above --max-hosts, state is kept only for
 * hosts with work, so memory follows the flags, not the number of
 * distinct hosts in the input.  A host that comes back starts afresh and
 * fetches robots.txt again. */
static void
evict(double now)
{
	for (size_t i = 0; i < F.table_size; i++)
		for (host **p = &F.table[i]; *p;) {
			host *h = *p;
			if (idle(h, now)) {
				*p = h->hnext;
				stats_evicted(h);
				host_free(h);
				F.n_hosts--;
				F.stats.hosts_evicted++;
			} else {
				p = &h->hnext;
			}
		}
}

/* Sets h's pacing from the flags, then from the --policy line for it. */
static void
configure(host *h)
{
	h->delay = F.o.delay;
	h->rate = F.o.rate;
	h->burst = F.o.burst;
	h->per_host = F.o.per_host;
	h->use_robots = F.o.robots;
	h->policy_hold = 0;
	policy_apply(F.policy, h);
}

/* What paces host name `name`: its site under --pace-by site or when
 * --policy has a site= line for it, else the name itself.  Scheme and
 * port never split it: http and https of one host are one budget. */
static const char *
pace_key(const char *name)
{
	const char *site = site_of(name);
	return F.o.pace_by_site || policy_has_site(F.policy, site) ? site : name;
}

host *
sched_host(const char *name)
{
	const char *key = pace_key(name);
	if (F.n_hosts >= F.table_size / 2)
		grow();
	size_t b = htab_hash(key, strlen(key)) & (F.table_size - 1);
	for (host *h = F.table[b]; h; h = h->hnext)
		if (strcmp(h->name, key) == 0)
			return h;
	/* Sweep when over the cap; hosts with work cannot go (at most
	 * --pending of them), so sweep again only once their number doubled. */
	static size_t sweep_at;
	if (F.n_hosts >= (size_t)F.o.max_hosts && F.n_hosts >= sweep_at) {
		evict(tm_mono());
		sweep_at = F.n_hosts * 2;
	}
	host *h = calloc(1, sizeof *h);
	if (!h || !(h->name = strdup(key)))
		abort();
	F.stats.hosts_seen++;
	configure(h);
	h->tokens = h->burst;
	h->tokens_at = tm_mono();
	h->hnext = F.table[b];
	F.table[b] = h;
	F.n_hosts++;
	return h;
}

void
sched_place(job *j, const char *name)
{
	if (!(j->hname = strdup(name)))
		abort();
	j->host = sched_host(name);
}

static void
ring_add(host *h)
{
	if (h->waiting)
		return;
	h->waiting = 1;
	F.n_ring++;
	if (!F.ring) {
		h->wnext = h->wprev = h;
		F.ring = h;
	} else {
		h->wnext = F.ring;
		h->wprev = F.ring->wprev;
		F.ring->wprev->wnext = h;
		F.ring->wprev = h;
	}
}

static void
ring_del(host *h)
{
	if (!h->waiting)
		return;
	h->waiting = 0;
	F.n_ring--;
	if (h->wnext == h)
		F.ring = NULL;
	else {
		h->wprev->wnext = h->wnext;
		h->wnext->wprev = h->wprev;
		if (F.ring == h)
			F.ring = h->wnext;
	}
}

void
sched_reconfigure(void)
{
	for (size_t i = 0; i < F.table_size; i++)
		for (host *h = F.table[i]; h; h = h->hnext) {
			configure(h);
			ring_add(h);   /* a resumed host may start again */
		}
}

void
sched_hold(const char *const *names, const char *const *reasons, int n)
{
	for (size_t i = 0; i < F.table_size; i++)
		for (host *h = F.table[i]; h; h = h->hnext) {
			h->queue_hold = NULL;
			for (int k = 0; k < n && !h->queue_hold; k++)
				if (strcmp(names[k], h->name) == 0)
					h->queue_hold = reasons[k];
		}
}

job *
sched_take_held(int any)
{
	host *h = F.ring;
	for (size_t i = 0; h && i < F.n_ring; i++, h = h->wnext) {
		if (!any && !h->queue_hold)
			continue;
		job *j = h->retry;
		if (j) {
			h->retry = j->next;
		} else if ((j = h->fresh)) {
			if (!(h->fresh = j->next))
				h->fresh_tail = NULL;
			h->n_fresh--;
		}
		if (!h->fresh && !h->retry)
			ring_del(h);
		if (j)
			return j;
	}
	return NULL;
}

/* When waiting job j must end: INFINITY for a job that has not started
 * while its host is healthy, whose wait costs it nothing. */
static double
ends_at(const job *j, double now)
{
	if (!j->attempts && !j->host->sick)
		return INFINITY;
	return retry_deadline(j, now);
}

void
sched_enqueue(job *j)
{
	host *h = j->host;
	double now = tm_mono();
	retry_queued(j, now);
	F.expire_at = fmin(F.expire_at, ends_at(j, now));
	j->next = NULL;
	if (h->fresh_tail)
		h->fresh_tail->next = j;
	else
		h->fresh = j;
	h->fresh_tail = j;
	h->n_fresh++;
	ring_add(h);
}

void
sched_retry(job *j)
{
	host *h = j->host;
	job **p = &h->retry;
	while (*p && (*p)->not_before <= j->not_before)
		p = &(*p)->next;
	j->next = *p;
	*p = j;
	F.expire_at = fmin(F.expire_at, j->deadline);
	ring_add(h);
}

/* Ends h's waiting jobs that are past their deadline; returns the
 * earliest deadline left.  Fresh jobs are in the order they were queued,
 * so the head has been charged the most. */
static double
expire_host(host *h, double now)
{
	while (h->fresh && ends_at(h->fresh, now) <= now) {
		job *j = h->fresh;
		if (!(h->fresh = j->next))
			h->fresh_tail = NULL;
		h->n_fresh--;
		retry_expired(j);
		job_emit(j);
	}
	double next = h->fresh ? ends_at(h->fresh, now) : INFINITY;
	for (job **p = &h->retry; *p;) {
		job *j = *p;
		if (j->deadline <= now) {
			*p = j->next;
			retry_expired(j);
			job_emit(j);
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
		if (!h->fresh && !h->retry)
			ring_del(h);
		h = F.ring ? after : NULL;
	}
	F.expire_at = next;
}

/* Earliest time h may start another request, ignoring its in-flight
 * count; refills the token bucket as a side effect. */
static double
ready_at(host *h, double now)
{
	double t = h->next_start;
	if (h->paused_until > t)
		t = h->paused_until;
	if (h->rate > 0) {
		h->tokens = fmin(h->burst, h->tokens + (now - h->tokens_at) * h->rate);
		h->tokens_at = now;
		if (h->tokens < 1) {
			double refill = now + (1 - h->tokens) / h->rate;
			if (refill > t)
				t = refill;
		}
	}
	return t;
}

void
sched_started(host *h, double now)
{
	h->active++;
	h->next_start = now + host_interval(h);
	if (h->rate > 0)
		h->tokens -= 1;
}

void
sched_finished(host *h)
{
	h->active--;
	ring_add(h);   /* a slot freed: it may have work to start */
}

/* Takes the job h should start next: a due retry first (it has waited
 * longest), else the oldest fresh job.  Sets *when to the earliest time a job
 * becomes due when none is due now. */
static job *
take(host *h, double now, double *when)
{
	if (h->retry && h->retry->not_before <= now) {
		job *j = h->retry;
		h->retry = j->next;
		return j;
	}
	if (h->fresh) {
		job *j = h->fresh;
		h->fresh = j->next;
		if (!h->fresh)
			h->fresh_tail = NULL;
		h->n_fresh--;
		return j;
	}
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

/* Puts j, just taken, back where take found it: at the head. */
static void
untake(host *h, job *j)
{
	if (j->attempts) {
		j->next = h->retry;
		h->retry = j;
	} else {
		if (!(j->next = h->fresh))
			h->fresh_tail = j;
		h->fresh = j;
		h->n_fresh++;
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
		double t = ready_at(h, now);
		if (t > now)
			return t;
		job *j = take(h, now, &when);
		if (!j)
			return when;
		/* Canonical URLs have a path: what follows the origin. */
		const char *u = job_target(j);
		origin *o = origin_of(h, u);
		if (j->guard && o->private) {
			j->refused_private = 1;
			j->error = FETCHERR_PRIVATE_ADDRESS;
			free(j->error_detail);
			j->error_detail = redirect_private_detail(j);
			job_emit(j);
			continue;
		}
		if (h->use_robots && o->robots_state != ROBOTS_READY) {
			/* Its origin's robots.txt first: a start like any, and
			 * as guarded as the job that asks for it. */
			untake(h, j);
			job *r = robots_job(h, o);
			r->guard = j->guard;
			sched_started(h, now);
			if (xfer_start(r) != 0) {
				/* Out of handles: go on without rules, not spin. */
				sched_finished(h);
				h->robots_loading--;
				job_free(r);
				o->robots_state = ROBOTS_READY;
			}
			continue;
		}
		if (h->use_robots && !robots_allowed(o->robots, u + url_origin_len(u))) {
			j->error = FETCHERR_ROBOTS;
			free(j->error_detail);
			j->error_detail = redirect_detail(j->target, robots_reason(o->robots));
			job_emit(j);
			continue;
		}
		if (!j->attempts)
			j->deadline = retry_deadline(j, now);
		sched_started(h, now);
		if (xfer_start(j) != 0) {
			sched_finished(h);
			job_emit(j);
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
		if (!h->fresh && !h->retry)
			ring_del(h);
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

/* After a signal: every job not yet started ends now as interrupted, so
 * each input still gets its one record. */
void
sched_interrupt_waiting(void)
{
	while (F.ring) {
		host *h = F.ring;
		for (job *j; (j = h->retry) || (j = h->fresh);) {
			if (j == h->retry)
				h->retry = j->next;
			else if (h->n_fresh--, !(h->fresh = j->next))
				h->fresh_tail = NULL;
			char why[80];
			snprintf(why, sizeof why, "stopped by signal before attempt %d%s%s",
				 j->attempts + 1, j->error ? " after " : "", j->error ? fetcherr_word(j->error) : "");
			j->error = FETCHERR_INTERRUPTED;
			free(j->error_detail);
			j->error_detail = strdup(why);
			job_emit(j);
		}
		ring_del(h);
	}
}

void
sched_free(void)
{
	for (size_t i = 0; i < F.table_size; i++)
		for (host *h = F.table[i], *next; h; h = next) {
			next = h->hnext;
			host_free(h);
		}
	free(F.table);
	F.table = NULL;
}
