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
 * Calls go one way: drive calls the modules, none calls drive.
 */
#include "fetch.h"

#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "tm.h"

static uv_prepare_t prepare;
static int handled_interrupts, handled_reloads;

/* Ends one attempt of j: a robots.txt answer goes to its host; a page
 * is retried (back to its host, holding no slot) or emitted. */
static void
finished(job *j, CURLcode rc)
{
	double retry_after = xfer_end(j, rc), wait;
	sched_finished(j->host);
	if (j->is_robots) {
		robots_done(j, rc);
		return;
	}
	health_feedback(j, rc, retry_after);
	if (rc == CURLE_OK && redirect_follow(j))
		return;
	/* In --queue mode the wait is the frontier's, stopping or not. */
	if ((!F.stopping || lease_active()) && retry_decide(j, rc, retry_after, &wait)) {
		if (lease_defer(j, wait))
			return;
		j->not_before = tm_mono() + wait;
		xfer_release(j->easy);
		j->easy = NULL;
		sched_retry(j);
		return;
	}
	job_emit(j);
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
		j->error = FETCHERR_INTERRUPTED;
		free(j->error_detail);
		j->error_detail = strdup("stopped by signal while in flight");
		job_emit(j);
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
		lease_want();
		long alive = F.alive;
		sched_pump();   /* may end jobs at once (robots refusals) */
		if (F.stats_due) {
			F.stats_due = 0;
			lease_queue_ages();
			stats_write();
		}
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
	    lease_idle())
		uv_stop(F.loop);
}

void
drive_init(void)
{
	uv_prepare_init(F.loop, &prepare);
	uv_prepare_start(&prepare, drive_pass);
}
