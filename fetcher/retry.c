/* retry — what is worth another attempt, how long to wait for it, and
 * what a host's answers teach its scheduler.
 *
 * Retried: statuses in --retry-on (default 429,502,503,504) and transient
 * network failures (timeout, reset, connect: the words lib/fetcherr.h
 * marks retried).  DNS failures are not retried: a name that does not
 * resolve now rarely does a second later, and the resolver has its own
 * retries.  Never retried: other statuses,
 * bad URLs, scheme and robots refusals, too_large, redirects.
 *
 * Deadlines: --max-elapsed counts from when fetch took the URL.  Time a
 * URL spends queued behind others of its host while that host is
 * healthy does not count: that wait is the pacing the user asked for (a
 * Crawl-delay of 10 s over 1024 read-ahead URLs is nearly 3 hours), not a
 * failure.  Each host keeps a sick clock, the seconds it has spent
 * struggling (a 429/503 not recovered from, failures in a row, a breaker
 * trip); a queued URL is charged the sick clock's advance, and from its
 * first attempt on every second counts.
 *
 * Pacing that adapts (on unless --no-adapt): each answer teaches its
 * host a start interval by Scrapy AutoThrottle's rule (adapt below), so
 * a slow host gets about --target-concurrency requests at once and a
 * 429/503 slows it down only until it answers well again.
 */
#include "fetch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tm.h"

#define BACKOFF_CAP 60.0        /* seconds, for one URL's wait */
#define PAUSE_CAP 3600.0        /* seconds, for one breaker pause */
#define ADAPT_SETTLED 1.1       /* a raised delay this near its target has recovered */
#define ADAPT_THROTTLED 0.25    /* seconds, the least interval a 429/503 leaves */

int
retry_status_listed(int status)
{
	for (int i = 0; i < F.o.n_retry_on; i++)
		if (F.o.retry_on[i] == status)
			return 1;
	return 0;
}

/* Uniform in [0, 1): jitter only, no need for a strong generator. */
static double
unit_random(void)
{
	return (double)rand() / ((double)RAND_MAX + 1.0);
}

/* Decides whether j, whose attempt ended with rc (and j->status), gets
 * another attempt.  Returns 1 with *wait in seconds, or 0 with j->error
 * set to the final reason (NULL for a final HTTP answer). */
int
retry_decide(job *j, CURLcode rc, double retry_after, double *wait)
{
	int status_retry = rc == CURLE_OK && retry_status_listed((int)j->status);
	if (!status_retry && !fetcherr_retried(j->error))
		return 0;
	if (status_retry)
		j->error = FETCHERR_RETRIES_EXHAUSTED;
	if (retry_after > F.o.max_retry_after) {
		j->error = FETCHERR_RETRY_AFTER;
		char why[96];
		snprintf(why, sizeof why, "server asked to wait %.0f s, more than --max-retry-after",
			 retry_after);
		free(j->error_detail);
		j->error_detail = strdup(why);
		return 0;
	}
	/* At the first hop, earlier leases' attempts count too. */
	int tried = j->hop_attempts + (j->target ? 0 : j->prior);
	if (tried > F.o.retries)
		return 0;
	if (retry_after >= 0) {
		*wait = retry_after;
	} else {
		/* Full jitter (exponential cap, uniform below it): retries of
		 * many URLs spread out instead of firing in step. */
		double cap = fmin(BACKOFF_CAP, F.o.backoff * pow(2, tried - 1));
		*wait = cap * unit_random();
	}
	/* The retry starts no earlier than its host allows. */
	double now = tm_mono();
	double host_free = fmax(j->host->next_start, j->host->paused_until) - now;
	if (now + fmax(*wait, host_free) > j->deadline) {
		retry_expired(j);
		return 0;
	}
	return 1;
}

/* Seconds h has been sick, up to now. */
static double
sick_clock(const host *h, double now)
{
	return h->sick_total + (h->sick ? now - h->sick_since : 0);
}

/* Notes j joining its host's queue. */
void
retry_queued(job *j, double now)
{
	j->queued_sick = sick_clock(j->host, now);
}

/* When j passes --max-elapsed: its deadline once it has started; before
 * that, the deadline it would get starting now (later while its host is
 * healthy, since then waiting costs it nothing). */
double
retry_deadline(const job *j, double now)
{
	if (j->attempts)
		return j->deadline;
	return now + F.o.max_elapsed - (sick_clock(j->host, now) - j->queued_sick);
}

/* Ends j's retries on its deadline: a URL that was tried keeps its last
 * status and error; one that never started gets `deadline`. */
void
retry_expired(job *j)
{
	char why[96];
	if (j->attempts == 0) {
		j->error = FETCHERR_DEADLINE;
		snprintf(why, sizeof why, "not started within --max-elapsed (%g s): its host was failing",
			 F.o.max_elapsed);
	} else {
		snprintf(why, sizeof why, "--max-elapsed (%g s) passed before attempt %d",
			 F.o.max_elapsed, j->attempts + 1);
	}
	free(j->error_detail);
	j->error_detail = strdup(why);
}

/* Starts or stops h's sick clock after an outcome changed its state.
 * A learnt interval alone is not sickness: following the host's latency
 * is the pace a healthy host sets.  Only a 429/503 not yet recovered
 * from (the interval it raised still above the latency target, or no
 * success since it asked for a Retry-After) is. */
static void
sick_update(host *h, double now)
{
	int sick = h->throttled || h->failures > 0 || h->trips > 0;
	if (sick == h->sick)
		return;
	if (sick) {
		h->sick_since = now;
		F.expire_at = now;   /* its queue now has deadlines: recompute */
	} else {
		h->sick_total += now - h->sick_since;
	}
	h->sick = sick;
}

/* Seconds from the start of j's attempt to the first byte of its
 * answer (CURLINFO_STARTTRANSFER_TIME): connecting, sending and the
 * server's think time, as Scrapy's download_latency.  Not the total:
 * the body's transfer time measures the page's size, our bandwidth and
 * our own output backpressure, not how loaded the server is. */
static double
latency(const job *j)
{
	curl_off_t us = 0;
	curl_easy_getinfo(j->easy, CURLINFO_STARTTRANSFER_TIME_T, &us);
	return (double)us / 1e6;
}

/* d kept between --max-delay (and --max-elapsed: longer, every URL of
 * the host would expire unprobed) and h's floor, which wins over both:
 * the floor is what the user or robots.txt asked for. */
static double
adapt_clamp(const host *h, double d)
{
	return fmax(fmin(d, fmin(F.o.max_delay, F.o.max_elapsed)), host_floor(h));
}

/* Scrapy AutoThrottle's rule, per host, on j's answer (rc was CURLE_OK):
 *
 * - target = latency / --target-concurrency; the next delay is
 *   max(target, mean of the old delay and target): up at once, down by
 *   averaging.  Only a 2xx may lower it: error pages are small and
 *   quick, and would otherwise speed up a host that is failing.
 * - 429/503 with a Retry-After (within --max-retry-after): the whole
 *   host waits that long, and then goes on at the delay it had: the
 *   server said how long, and the burst is not its steady rate.
 * - 429/503 without one: the interval in force doubles, once per burst
 *   (answers to requests started before the last doubling are the same
 *   event), to at least ADAPT_THROTTLED (twice a fast host's 1 ms is no
 *   slowing down); successes then average it back toward the target.
 *
 * The delay stays within adapt_clamp. */
static void
adapt(host *h, const job *j, double retry_after, double now)
{
	if (j->status == 429 || j->status == 503) {
		h->throttled = 1;
		if (retry_after > 0 && retry_after <= F.o.max_retry_after) {
			if (now + retry_after > h->next_start)
				h->next_start = now + retry_after;
		} else if (j->start >= h->backoff_at) {
			h->adapt_delay = adapt_clamp(h, fmax(2 * host_interval(h), ADAPT_THROTTLED));
			h->backoff_at = now;
		}
		return;
	}
	double target = latency(j) / F.o.target_concurrency;
	double d = adapt_clamp(h, fmax(target, (h->adapt_delay + target) / 2));
	int ok = j->status >= 200 && j->status < 300;
	if (!ok && d <= h->adapt_delay)
		return;
	h->adapt_delay = d;
	/* Recovered once the delay is back within ADAPT_SETTLED of what the
	 * latency alone asks (averaging only nears it). */
	if (ok && d <= ADAPT_SETTLED * adapt_clamp(h, target))
		h->throttled = 0;
}

/* Updates j's host from the attempt's outcome: its answer teaches the
 * start interval (adapt, unless --no-adapt), and a run of transient
 * failures trips the circuit breaker.  A pause grows no longer than
 * --max-elapsed: longer, every URL of the host would expire unprobed. */
void
retry_host_feedback(job *j, CURLcode rc, double retry_after)
{
	host *h = j->host;
	double now = tm_mono();
	if (F.o.adapt && rc == CURLE_OK)
		adapt(h, j, retry_after, now);
	if (fetcherr_retried(j->error) || (rc == CURLE_OK && j->status >= 500 &&
			      retry_status_listed((int)j->status))) {
		if (++h->failures >= F.o.host_failures) {
			double pause = fmin(F.o.host_pause * pow(2, h->trips),
					    fmin(PAUSE_CAP, F.o.max_elapsed));
			h->paused_until = now + pause * (1 + 0.2 * unit_random());
			h->trips++;
			h->failures = 0;
		}
	} else if (rc == CURLE_OK) {
		h->failures = 0;
		h->trips = 0;
	}
	sick_update(h, now);
}
