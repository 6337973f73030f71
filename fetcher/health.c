/* health — what a host's answers teach its pacing.
 *
 * Each attempt's outcome goes to its host's machine (lib/pace.h) with
 * fetch's flags: the answer teaches the start interval (AutoThrottle,
 * unless --no-adapt), a run of transient failures trips the circuit
 * breaker, and the sick clock runs while the host struggles.
 *
 * Pacing that adapts (on unless --no-adapt): each answer teaches its
 * host a start interval by Scrapy AutoThrottle's rule (pace_answer), so
 * a slow host gets about --target-concurrency requests at once and a
 * 429/503 slows it down only until it answers well again.
 */
#include "fetch.h"

#include "tm.h"

struct pace_conf
health_conf(void)
{
	return (struct pace_conf){
		.target_concurrency = F.o.target_concurrency,
		.max_delay = F.o.max_delay,
		.max_elapsed = F.o.max_elapsed,
		.max_retry_after = F.o.max_retry_after,
		.host_failures = F.o.host_failures,
		.host_pause = F.o.host_pause,
	};
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

void
health_feedback(job *j, CURLcode rc, double retry_after)
{
	host *h = j->host;
	struct pace_conf c = health_conf();
	double now = tm_mono();
	if (F.o.adapt && rc == CURLE_OK)
		pace_answer(&h->pace, &c, j->status, latency(j), retry_after, j->start, now);
	if (rc == CURLE_OK)
		alert_answer(h, j->status);
	int transient = fetcherr_retried(j->error) ||
			(rc == CURLE_OK && j->status >= 500 && retry_status_listed(&F.conf.retry, j->status));
	int trips = h->pace.trips;
	if (pace_outcome(&h->pace, &c, transient, rc == CURLE_OK, now, retry_unit_random()))
		F.expire_at = now;   /* its queue now has deadlines: recompute */
	if (h->pace.trips > trips)
		alert_breaker(h);
}
