/* redirect — fetch follows redirects itself, one hop at a time.
 *
 * libcurl's own following would make every hop after the first escape
 * robots.txt, the target host's pacing, its connection cap, its breaker,
 * pauses and the scope.  Here a 3xx answer ends the attempt; the job
 * takes the target as its next URL and waits its turn at the target's
 * host like any retry, holding no global slot meanwhile.  The record
 * keeps the input URL as its identity, the last hop as `final_url` and
 * the chain as `redirects`.
 *
 * A hop is refused, ending the record, when it would repeat a URL of the
 * chain or pass --max-redirs (`redirects`), leave http(s) (`scheme`),
 * not parse (`bad_url`) or leave --redirects' scope (`offsite_redirect`).
 * When the chain began at a public address, the hops after it are
 * guarded: they may not connect to a private one (`private_address`,
 * checked as connected by xfer.c).
 *
 * A pure rule (tests/unit/test_redirect.c): redirect_next reads the job,
 * the answer and struct redirect_conf, and returns a verdict the driver
 * acts on.
 */
#include "fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"
#include "url.h"

int
redirect_status(long status)
{
	return status == 301 || status == 302 || status == 303 || status == 307 ||
	       status == 308;
}

/* Whether target host name `to` is within --redirects of j's input. */
static int
in_scope(const struct redirect_conf *c, const job *j, const char *to)
{
	if (c->scope == REDIR_SAME_HOST)
		return strcmp(to, j->hname) == 0;
	if (c->scope == REDIR_SAME_SITE)
		return strcmp(site_of(to), site_of(j->hname)) == 0;
	return 1;
}

/* Whether u is j's input URL, a hop of its chain, or the hop answered
 * now. */
static int
seen(const job *j, const char *u)
{
	if (strcmp(u, j->url) == 0 || strcmp(u, job_target(j)) == 0)
		return 1;
	for (int i = 0; i < j->n_chain; i++)
		if (strcmp(u, j->chain[i].url) == 0)
			return 1;
	return 0;
}

/* A REFUSED verdict: word e, its detail naming the refused target. */
static struct redirect_verdict
refused(struct redirect_verdict v, enum fetcherr e, const char *why, const char *to)
{
	v.kind = REDIRECT_REFUSED;
	v.error = e;
	v.detail = fetcherr_hop_detail(to, why);
	return v;
}

struct redirect_verdict
redirect_next(const struct redirect_conf *c, const job *j, const char *location,
	      const char *ip)
{
	struct redirect_verdict v = { .kind = REDIRECT_FINAL, .from_public = j->from_public };
	if (!redirect_status(j->status) || !location)
		return v;
	if (j->n_chain == 0)
		v.from_public = ip && !cidr_has_text(c->private_ranges, ip);
	url_parts u;
	const char *why;
	if (url_canon(location, strlen(location), &u, &why) != 0)
		return refused(v, FETCHERR_BAD_URL, why, location);
	if (!url_fetchable(u.scheme))
		v = refused(v, FETCHERR_SCHEME, "only http and https are fetched", u.canon);
	else if (seen(j, u.canon))
		v = refused(v, FETCHERR_REDIRECTS, "a loop: the chain has it already", u.canon);
	else if (j->n_chain + 1 > c->max_redirs) {
		char why_n[64];
		snprintf(why_n, sizeof why_n, "more than --max-redirs (%ld) redirects", c->max_redirs);
		v = refused(v, FETCHERR_REDIRECTS, why_n, u.canon);
	} else if (!in_scope(c, j, u.host))
		v = refused(v, FETCHERR_OFFSITE_REDIRECT, c->scope == REDIR_SAME_HOST ?
			    "another host (--redirects same-host)" : "another site (--redirects same-site)",
			    u.canon);
	else {
		v.kind = REDIRECT_FOLLOW;
		v.target = u.canon;
		v.host = u.host;
		u.canon = u.host = NULL;
		/* Through a proxy the connection is the proxy's, which may
		 * well be private: where the proxy connects is its own rule. */
		v.guard = v.from_public && !c->allow_private && !c->via_proxy;
	}
	url_parts_free(&u);
	return v;
}

void
redirect_verdict_free(struct redirect_verdict *v)
{
	free(v->target);
	free(v->host);
	free(v->detail);
}
