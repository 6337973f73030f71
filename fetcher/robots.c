/* robots — the fetch side of robots.txt: fetched once per host before
 * its first request, counted as a start for pacing, kept for the run.
 * The rules themselves are lib/robots.c.
 *
 * 4xx means no rules; 5xx (and 429) or no answer means "disallow all for
 * now": the fetch is retried with backoff, and after --retries failures
 * the host's URLs end with `error: robots`.  A file larger than
 * ROBOTS_MAX_BYTES is cut there, not refused.
 */
#include "fetch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "tm.h"

/* The job that fetches h's robots.txt; h waits for it (ROBOTS_LOADING).
 * The scheduler starts it like any job, so it counts against the host's
 * pacing, but it is no input: not in F.alive, no record. */
job *
robots_job(host *h)
{
	job *j = calloc(1, sizeof *j);
	if (!j)
		abort();
	size_t n = strlen(h->key) + sizeof "/robots.txt";
	j->url = malloc(n);
	if (!j->url)
		abort();
	snprintf(j->url, n, "%s/robots.txt", h->key);
	j->host = h;
	j->is_robots = 1;
	h->robots_state = ROBOTS_LOADING;
	return j;
}

/* Takes the answer of j, h's robots.txt request (rc, j->status): the
 * rules, no rules, or a wait before asking again; frees j. */
void
robots_done(job *j, CURLcode rc)
{
	host *h = j->host;
	long st = j->status;
	/* A body cut at ROBOTS_MAX_BYTES is a whole answer, not a failure. */
	if ((rc == CURLE_OK || j->too_large) && st >= 200 && st < 300) {
		h->robots = robots_parse(j->body ? j->body : "", j->body_len,
					 F.o.robots_agent, &h->crawl_delay);
		h->robots_state = ROBOTS_READY;
	} else if (rc == CURLE_OK && st >= 400 && st < 500 && st != 429) {
		h->robots_state = ROBOTS_READY;   /* no rules */
	} else if (++h->robots_fails > F.o.retries) {
		h->robots = robots_deny_all();
		h->robots_state = ROBOTS_READY;
		msg_note("robots.txt of %s unreachable, its URLs are refused", h->key);
	} else {
		/* Disallow all for now: try again after a backoff, holding the
		 * host's URLs meanwhile. */
		double wait = fmin(60, F.o.backoff * pow(2, h->robots_fails - 1));
		h->next_start = tm_mono() + wait;
		h->robots_state = ROBOTS_NONE;
	}
	job_free(j);
}
