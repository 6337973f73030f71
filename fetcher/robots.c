/* robots — the fetch side of robots.txt: whether a page may start, and
 * what a robots.txt answer means.  The file is fetched once per origin
 * before its first request, counted as a start for pacing, and kept for
 * the run; the rules in it are lib/robots.c's.
 *
 * 4xx means no rules; 5xx (and 429), a timeout or a reset on an open
 * connection mean "disallow all for now" (RFC 9309's unreachable): the
 * fetch is retried with backoff, and after --retries failures the
 * origin's URLs end with `error: robots`.  An origin that cannot be
 * reached at all (its name or proxy does not resolve, the connection is
 * refused or never made, TLS fails) is no robots.txt question: its URLs
 * end at once with that word (dns, connect, timeout, tls, proxy) and
 * libcurl's message, unsent.  A file larger than
 * ROBOTS_MAX_BYTES is cut there, not refused.
 *
 * Pure rules (tests/unit/test_robots.c): they read the host, its origin,
 * the answer and struct robots_conf, and return a verdict the scheduler
 * or the driver acts on.
 */
#include "fetch.h"

#include "url.h"

enum robots_gate
robots_gate(const host *h, const origin *o, const char *url)
{
	if (!h->use_robots)
		return ROBOTS_GO;
	if (o->robots_state != ROBOTS_READY)
		return ROBOTS_FETCH;
	/* Canonical URLs have a path: what follows the origin. */
	return robots_allowed(o->robots, url + url_origin_len(url)) ? ROBOTS_GO : ROBOTS_REFUSED;
}

struct robots_verdict
robots_answer(const struct robots_conf *c, const job *j, int answered, int fails)
{
	struct robots_verdict v = { .kind = ROBOTS_AGAIN };
	long st = j->status;
	if (j->refused_private) {
		/* Asked for a redirect hop that may not go there: not the
		 * origin's failure; its guarded jobs end on o->private. */
		v.kind = ROBOTS_PRIVATE;
	} else if (retry_unreachable(j, answered)) {
		v.kind = ROBOTS_DOWN;
	} else if ((answered || j->too_large) && st >= 200 && st < 300) {
		/* A body cut at ROBOTS_MAX_BYTES is a whole answer. */
		v.kind = ROBOTS_RULES;
		v.rules = robots_parse(j->body ? j->body : "", j->body_len, c->agent, &v.crawl_delay);
	} else if (answered && st >= 400 && st < 500 && st != 429) {
		v.kind = ROBOTS_NO_RULES;
	} else if (fails + 1 > c->retries) {
		v.kind = ROBOTS_UNREACHABLE;
	} else {
		/* Disallow all for now: ask again after a backoff (its cap,
		 * no jitter). */
		v.wait = pace_backoff(c->backoff, fails + 1, 1);
	}
	return v;
}
