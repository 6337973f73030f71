/* retry — what is worth another attempt, how long to wait for it, and
 * when a URL has waited too long.  Pure rules: they read the job and
 * its host, the flags in struct retry_conf and the `now` and jitter
 * they are given, change nothing and return a verdict the driver acts
 * on (tests/unit/test_retry.c).
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
 * first attempt on every second counts (the clock is lib/pace.c's, fed
 * by health.c).
 */
#include "fetch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
retry_status_listed(const struct retry_conf *c, long status)
{
	for (int i = 0; i < c->n_retry_on; i++)
		if (c->retry_on[i] == status)
			return 1;
	return 0;
}

/* Jitter only, no need for a strong generator. */
double
retry_unit_random(void)
{
	return (double)rand() / ((double)RAND_MAX + 1.0);
}

double
retry_after_seconds(const char *value, double now)
{
	if (!value)
		return -1;
	value += strspn(value, " \t");
	size_t digits = strspn(value, "0123456789");
	if (digits && value[digits + strspn(value + digits, " \t")] == '\0')
		return digits > 9 ? 1e9 : strtod(value, NULL);
	time_t t = curl_getdate(value, NULL);
	return t == -1 ? -1 : fmax(0, (double)t - now);
}

enum fetcherr
retry_unreachable(const job *j, int answered)
{
	if (answered)
		return FETCHERR_NONE;
	switch (j->error) {
	case FETCHERR_DNS:
	case FETCHERR_CONNECT:
	case FETCHERR_TLS:
	case FETCHERR_PROXY:
		return j->error;
	case FETCHERR_TIMEOUT:
		return j->connected ? FETCHERR_NONE : FETCHERR_TIMEOUT;
	default:
		return FETCHERR_NONE;
	}
}

struct retry_verdict
retry_expired(const struct retry_conf *c, const job *j)
{
	struct retry_verdict v = { .error = j->error };
	if (j->attempts == 0) {
		v.error = FETCHERR_DEADLINE;
		snprintf(v.detail, sizeof v.detail,
			 "not started within --max-elapsed (%g s): its host was failing", c->max_elapsed);
	} else {
		snprintf(v.detail, sizeof v.detail, "--max-elapsed (%g s) passed before attempt %d",
			 c->max_elapsed, j->attempts + 1);
	}
	return v;
}

struct retry_verdict
retry_decide(const struct retry_conf *c, const job *j, int answered, double retry_after,
	     double now, double unit)
{
	struct retry_verdict v = { .error = j->error };
	int status_retry = answered && retry_status_listed(c, j->status);
	if (!status_retry && !fetcherr_retried(j->error))
		return v;
	if (status_retry)
		v.error = FETCHERR_RETRIES_EXHAUSTED;
	if (retry_after > c->max_retry_after) {
		v.error = FETCHERR_RETRY_AFTER;
		snprintf(v.detail, sizeof v.detail,
			 "server asked to wait %.0f s, more than --max-retry-after", retry_after);
		return v;
	}
	/* At the first hop, earlier leases' attempts count too. */
	int tried = j->hop_attempts + (j->target ? 0 : j->prior);
	if (tried > c->retries)
		return v;
	/* Full jitter (exponential cap, uniform below it): retries of many
	 * URLs spread out instead of firing in step. */
	double wait = retry_after >= 0 ? retry_after : pace_backoff(c->backoff, tried, unit);
	/* The retry starts no earlier than its host allows. */
	double host_free = pace_free_at(&j->host->pace) - now;
	if (now + fmax(wait, host_free) > j->deadline) {
		struct retry_verdict x = retry_expired(c, j);
		x.error = v.error;
		return x;
	}
	return (struct retry_verdict){ .again = 1, .wait = wait };
}

double
retry_deadline(const struct retry_conf *c, const job *j, double now)
{
	if (j->attempts)
		return j->deadline;
	return now + c->max_elapsed - (pace_sick_clock(&j->host->pace, now) - j->queued_sick);
}
