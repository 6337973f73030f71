/* drive — the one place where fetch's work happens.
 *
 * Every event callback (sockets, curl's timer, input readable, stdout
 * writable, the scheduler's and the lease poll's timers, signals) only
 * changes state: it tells curl, fills a buffer, writes bytes, sets a
 * flag.  Once per loop iteration, just before libuv waits for events,
 * drive_pass runs in a uv_prepare_t and does the rest in a fixed order:
 * resume paused transfers once output has room, take finished
 * transfers, read input or lease while capacity allows (taking the
 * frontier's answers first: its statements run on their own thread), start what
 * may start, write output, decide exit.  A pass that unblocks output,
 * or ends jobs after input was read, runs again: no event may come to
 * wake it (the pipe took everything; the input's bytes are buffered).
 *
 * A finished attempt is judged by the policies (robots.c, redirect.c,
 * retry.c), which return verdicts; this file acts on them, with one
 * requeue path for retries and redirect hops.
 * Calls go one way: drive calls the modules, none calls drive.
 */
#include "fetch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "tm.h"
#include "url.h"
#include "xalloc.h"

static uv_prepare_t prepare;
static int handled_interrupts, handled_reloads;

/* Puts j back in its host's queue, to go at not_before: a retry, or the
 * next hop of a redirect (at its target's host).  It holds no slot
 * meanwhile. */
static void
requeue(job *j, double not_before)
{
	pool_put(j->easy);
	j->easy = NULL;
	j->not_before = not_before;
	sched_retry(j);
}

/* Marks origin o of h down with the word and detail of j's attempt,
 * which showed it cannot be reached: its waiting jobs end now, unsent,
 * and so do those that come later. */
static void
down(host *h, origin *o, const job *j)
{
	o->down = j->error;
	o->down_detail = xstrdup(j->error_detail ? j->error_detail : fetcherr_word(j->error));
	o->robots_state = ROBOTS_READY;
	sched_end_origin(h, o);
}

/* Acts on the answer of j, a robots.txt request: its origin gets rules,
 * none, deny-all, or a wait before asking again (pace_defer: an interval
 * in force that ends later still holds); frees j.  libcurl follows
 * robots.txt's own redirects (RFC 9309 asks for five). */
static void
robots_finished(job *j, CURLcode rc)
{
	host *h = j->host;
	origin *o = j->origin;
	h->robots_loading--;
	struct robots_verdict v = robots_answer(&F.conf.robots, j, rc == CURLE_OK, o->robots_fails);
	o->robots_state = ROBOTS_READY;
	o->answered |= rc == CURLE_OK || j->connected;
	switch (v.kind) {
	case ROBOTS_DOWN:
		down(h, o, j);
		break;
	case ROBOTS_PRIVATE:
		/* Its guarded jobs end on o->private. */
		o->private = 1;
		o->robots_state = ROBOTS_NONE;
		break;
	case ROBOTS_RULES:
		o->robots = v.rules;
		h->pace.crawl_delay = fmax(h->pace.crawl_delay, v.crawl_delay);
		break;
	case ROBOTS_NO_RULES:
		break;
	case ROBOTS_UNREACHABLE: {
		o->robots_fails++;
		o->robots = robots_deny_all();
		char *shown = url_shown(o->key);
		msg_note("robots.txt of %s unreachable, its URLs are refused", shown ? shown : o->key);
		free(shown);
		break;
	}
	case ROBOTS_AGAIN:
		o->robots_fails++;
		pace_defer(&h->pace, tm_mono() + v.wait);
		o->robots_state = ROBOTS_NONE;
		break;
	}
	job_free(j);
}

/* Acts on j's answer when it is a redirect: the next hop waits its turn
 * at the target's host, or j's record says why the hop was refused.
 * Returns 0 when the answer is j's final one. */
static int
follow(job *j)
{
	char *loc = NULL, *ip = NULL;
	curl_easy_getinfo(j->easy, CURLINFO_REDIRECT_URL, &loc);
	curl_easy_getinfo(j->easy, CURLINFO_PRIMARY_IP, &ip);
	redirect_verdict v = redirect_next(&F.conf.redirect, j, loc, ip);
	if (v.kind == REDIRECT_FINAL)
		return 0;
	if (F.stopping) {
		/* No new hop after a signal: in queue mode the URL goes back
		 * to the frontier, to start its chain again next run. */
		if (!qwrite_defer(j, 0))
			record_fail(j, FETCHERR_INTERRUPTED,
				    strdup("stopped by signal before the redirect was followed"));
	} else if (v.kind == REDIRECT_REFUSED) {
		job_add_hop(j, job_target(j), j->status);
		record_fail(j, v.error, v.detail);
		v.detail = NULL;
	} else {
		const char *cur = job_target(j);
		job_add_hop(j, cur, j->status);
		qwrite_redirected(v.target, v.host, cur);
		job_set_target(j, v.target, v.host);
		v.target = NULL;
		j->from_public = v.from_public;
		j->guard = v.guard;
		requeue(j, tm_mono());
	}
	redirect_verdict_free(&v);
	return 1;
}

/* Ends one attempt of j: a robots.txt answer goes to its origin; a page
 * follows its redirect, is retried (back to its host, or in --queue
 * mode to the frontier, whose wait it is stopping or not) or ends with
 * its record. */
static void
finished(job *j, CURLcode rc)
{
	xfer_end(j, rc);
	sched_finished(j->host);
	if (j->is_robots) {
		robots_finished(j, rc);
		return;
	}
	/* Read here, not from CURLINFO_RETRY_AFTER: curl 7.88 says 0 both
	 * for "Retry-After: 0" (go now) and for no header at all. */
	double retry_after = j->status ? retry_after_seconds(job_header(j, "retry-after"), tm_wall()) : -1;
	health_feedback(j, rc, retry_after);
	if (rc == CURLE_OK && follow(j))
		return;
	/* A host that never answered and cannot be reached: this URL and
	 * the others of its origin end now, with the same word. */
	host *h = j->host;
	origin *o = host_origin(h, job_target(j));
	o->answered |= rc == CURLE_OK || j->connected;
	if (!o->answered && retry_unreachable(j, rc == CURLE_OK)) {
		if (!o->down)   /* else a request in flight when it went down */
			down(h, o, j);
		record_emit(j);
		return;
	}
	if (!F.stopping || lease_active()) {
		struct retry_verdict v = retry_decide(&F.conf.retry, j, rc == CURLE_OK, retry_after,
						      tm_mono(), retry_unit_random());
		if (v.again) {
			if (!qwrite_defer(j, v.wait))
				requeue(j, tm_mono() + v.wait);
			return;
		}
		if (v.detail[0])
			job_set_error(j, v.error, strdup(v.detail));
		else
			j->error = v.error;
	}
	record_emit(j);
}

/* After a second signal: every transfer in flight ends now as
 * interrupted (robots.txt requests just end). */
static void
abort_all(void)
{
	while (F.flying) {
		job *j = F.flying;
		xfer_end(j, CURLE_ABORTED_BY_CALLBACK);
		sched_finished(j->host);
		if (j->is_robots) {
			j->host->robots_loading--;
			job_free(j);
			continue;
		}
		record_fail(j, FETCHERR_INTERRUPTED, strdup("stopped by signal while in flight"));
	}
}

/* First signal: start nothing, end waiting jobs as interrupted, let
 * transfers in flight finish within their timeout.  Second: end those
 * too. */
static void
interrupts(void)
{
	if (F.interrupts == handled_interrupts)
		return;
	if (handled_interrupts == 0) {
		F.stopping = 1;
		msg_note("stopping: %ld in flight", F.inflight);
		lease_interrupt();
		sched_interrupt_waiting();
	}
	if (F.interrupts > 1)
		abort_all();
	handled_interrupts = F.interrupts;
}

/* After SIGHUP: the --policy file again, for every host; a file that no
 * longer reads leaves the one in use. */
static void
reload(void)
{
	if (F.reloads == handled_reloads)
		return;
	handled_reloads = F.reloads;
	struct policy *p;
	char err[512];
	if (policy_load(F.policy_path, &p, err, sizeof err) != 0) {
		msg_warn("%s: keeping the policy in use", err);
		return;
	}
	policy_free(F.policy);
	F.policy = p;
	curl_multi_setopt(F.multi, CURLMOPT_MAX_HOST_CONNECTIONS,
			  policy_max_per_host(F.policy, F.o.per_host));
	host_reconfigure();
	msg_note("re-read '%s'", F.policy_path);
}

static void
drive_pass(uv_prepare_t *p)
{
	(void)p;
	int again;
	do {
		unsigned long reopened = output_reopened();
		interrupts();
		reload();
		alert_drive();
		if (!output_blocked() && xfer_paused()) {
			xfer_unpause_all();
			loop_kick();
		}
		CURLcode rc;
		for (job *j; (j = loop_done(&rc));)
			finished(j, rc);
		input_want();
		warcin_want();
		dbq_collect();   /* the frontier's answers: leases, beats, ages */
		beat_want();
		lease_want();
		sched_resolved();   /* jobs whose names were answered */
		long alive = F.alive;
		sched_pump();   /* may end jobs at once (robots refusals) */
		stats_pass();
		metrics_pass();
		output_drain();
		/* Output may block and reopen within one pass (a finished
		 * transfer fills the buffer, the pump holds back, the pipe
		 * takes it all): what was held back must start now. */
		again = output_reopened() != reopened || F.alive < alive;
	} while (again);
	/* Writes posted to the frontier (handbacks, defers) must land
	 * before fetch ends. */
	if ((F.input_done || F.stopping) && F.alive == 0 && F.inflight == 0 && output_idle() &&
	    dbq_idle())
		uv_stop(F.loop);
}

void
drive_init(void)
{
	uv_prepare_init(F.loop, &prepare);
	uv_prepare_start(&prepare, drive_pass);
}
