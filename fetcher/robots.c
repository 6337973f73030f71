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
#include "url.h"
#include "tm.h"
#include "xalloc.h"

/* The job that fetches the robots.txt of h's origin o; h waits for it
 * (ROBOTS_LOADING).  The scheduler starts it like any job, so it counts
 * against the host's pacing, but it is no input: not in F.alive, no
 * record. */
job *
robots_job(host *h, origin *o)
{
	job *j = xcalloc(1, sizeof *j);
	size_t n = strlen(o->key) + sizeof "/robots.txt";
	j->url = xmalloc(n);
	snprintf(j->url, n, "%s/robots.txt", o->key);
	j->host = h;
	j->origin = o;
	j->is_robots = 1;
	o->robots_state = ROBOTS_LOADING;
	h->robots_loading++;
	return j;
}

/* Takes the answer of j, a robots.txt request (rc, j->status): the
 * rules, no rules, or a wait before asking again; frees j.  libcurl
 * follows robots.txt's own redirects (RFC 9309 asks for five). */
void
robots_done(job *j, CURLcode rc)
{
	host *h = j->host;
	origin *o = j->origin;
	long st = j->status;
	h->robots_loading--;
	if (j->refused_private) {
		/* Asked for a redirect hop that may not go there: not the
		 * origin's failure; its guarded jobs end on o->private. */
		o->private = 1;
		o->robots_state = ROBOTS_NONE;
		job_free(j);
		return;
	}
	/* A body cut at ROBOTS_MAX_BYTES is a whole answer, not a failure. */
	if ((rc == CURLE_OK || j->too_large) && st >= 200 && st < 300) {
		double cd = 0;
		o->robots = robots_parse(j->body ? j->body : "", j->body_len,
					 F.o.robots_agent, &cd);
		h->pace.crawl_delay = fmax(h->pace.crawl_delay, cd);
		o->robots_state = ROBOTS_READY;
	} else if (rc == CURLE_OK && st >= 400 && st < 500 && st != 429) {
		o->robots_state = ROBOTS_READY;   /* no rules */
	} else if (++o->robots_fails > F.o.retries) {
		o->robots = robots_deny_all();
		o->robots_state = ROBOTS_READY;
		char *shown = url_shown(o->key);
		msg_note("robots.txt of %s unreachable, its URLs are refused", shown ? shown : o->key);
		free(shown);
	} else {
		/* Disallow all for now: try again after a backoff (its cap,
		 * no jitter), holding the host's URLs meanwhile; an interval
		 * in force that ends later still holds. */
		pace_defer(&h->pace, tm_mono() + pace_backoff(F.o.backoff, o->robots_fails, 1));
		o->robots_state = ROBOTS_NONE;
	}
	job_free(j);
}
