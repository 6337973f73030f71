/* retry — what is worth another attempt, how long to wait for it, and
 * when a URL has waited too long.
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
#include <stdlib.h>
#include <string.h>

#include "tm.h"

int
retry_status_listed(int status)
{
	for (int i = 0; i < F.o.n_retry_on; i++)
		if (F.o.retry_on[i] == status)
			return 1;
	return 0;
}

/* Jitter only, no need for a strong generator. */
double
retry_unit_random(void)
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
		*wait = pace_backoff(F.o.backoff, tried, retry_unit_random());
	}
	/* The retry starts no earlier than its host allows. */
	double now = tm_mono();
	double host_free = pace_free_at(&j->host->pace) - now;
	if (now + fmax(*wait, host_free) > j->deadline) {
		retry_expired(j);
		return 0;
	}
	return 1;
}

/* Notes j joining its host's queue. */
void
retry_queued(job *j, double now)
{
	j->queued_sick = pace_sick_clock(&j->host->pace, now);
}

/* When j passes --max-elapsed: its deadline once it has started; before
 * that, the deadline it would get starting now (later while its host is
 * healthy, since then waiting costs it nothing). */
double
retry_deadline(const job *j, double now)
{
	if (j->attempts)
		return j->deadline;
	return now + F.o.max_elapsed - (pace_sick_clock(&j->host->pace, now) - j->queued_sick);
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
