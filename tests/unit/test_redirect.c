/* Unit tests of fetcher/redirect.c: which answers are redirects fetch
 * follows, loops and --max-redirs, the --redirects scope by host and
 * site, schemes and bad Locations, and which hops are guarded against
 * private addresses.  A pure rule: no server, no clock. */
#include "fetch.h"

#include <stdlib.h>

#define CHECK_PROG "test_redirect"
#include "check.h"

static struct cidr *ranges;

static struct redirect_conf
conf(int scope)
{
	return (struct redirect_conf){ .max_redirs = 10, .scope = scope, .private_ranges = ranges };
}

static job j;
static hop chain[16];

/* An input of host name hname at url, answered status, after n hops
 * (http://a.test/hop0 ... hopN-1) ending at its current target. */
static void
setup(const char *url, const char *hname, long status, int n)
{
	static char urls[16][32];
	j = (job){ .url = (char *)url, .hname = (char *)hname, .status = status };
	for (int i = 0; i < n; i++) {
		snprintf(urls[i], sizeof urls[i], "http://a.test/hop%d", i);
		chain[i] = (hop){ urls[i], 302 };
	}
	j.chain = n ? chain : NULL;
	j.n_chain = n;
	if (n)
		j.target = "http://a.test/current";
}

/* The verdict on location from ip under c, its kind checked against
 * want; the verdict is freed, its word and detail copied out. */
static enum fetcherr word;
static char detail[512], target[512];
static int guard;

static int
next(const struct redirect_conf *c, const char *location, const char *ip)
{
	redirect_verdict v = redirect_next(c, &j, location, ip);
	word = v.error;
	snprintf(detail, sizeof detail, "%s", v.detail ? v.detail : "");
	snprintf(target, sizeof target, "%s", v.target ? v.target : "");
	guard = v.guard;
	int kind = v.kind;
	redirect_verdict_free(&v);
	return kind;
}

static void
final_answers(void)
{
	struct redirect_conf c = conf(REDIR_ANY);
	const struct { long status; int kind; } st[] = {
		{ 200, REDIRECT_FINAL }, { 304, REDIRECT_FINAL }, { 404, REDIRECT_FINAL },
		{ 300, REDIRECT_FINAL }, { 305, REDIRECT_FINAL }, { 306, REDIRECT_FINAL },
		{ 301, REDIRECT_FOLLOW }, { 302, REDIRECT_FOLLOW }, { 303, REDIRECT_FOLLOW },
		{ 307, REDIRECT_FOLLOW }, { 308, REDIRECT_FOLLOW },
	};
	for (size_t i = 0; i < sizeof st / sizeof *st; i++) {
		char name[64];
		snprintf(name, sizeof name, "%ld with a Location: %s", st[i].status,
			 st[i].kind == REDIRECT_FINAL ? "final" : "followed");
		setup("http://a.test/", "a.test", st[i].status, 0);
		check_int(name, st[i].kind, next(&c, "http://a.test/x", "93.184.216.34"));
	}
	setup("http://a.test/", "a.test", 302, 0);
	check_int("302 without a Location: final", REDIRECT_FINAL, next(&c, NULL, NULL));
	setup("http://a.test/", "a.test", 302, 0);
	next(&c, "HTTP://A.test:80/x?#f", NULL);
	check_str("the target is canonical", "http://a.test/x?", target);
}

static void
loops_and_count(void)
{
	struct redirect_conf c = conf(REDIR_ANY);
	setup("http://a.test/", "a.test", 301, 0);
	check_int("back to the input: refused", REDIRECT_REFUSED, next(&c, "http://a.test/", NULL));
	check_int("... as redirects", FETCHERR_REDIRECTS, word);
	check_str("... a loop", "redirect to http://a.test/: a loop: the chain has it already", detail);
	setup("http://a.test/", "a.test", 301, 3);
	check_int("to a hop of the chain: refused", REDIRECT_REFUSED,
		  next(&c, "http://a.test/hop1", NULL));
	setup("http://a.test/", "a.test", 301, 3);
	check_int("to the hop that answered: refused", REDIRECT_REFUSED,
		  next(&c, "http://a.test/current", NULL));
	c.max_redirs = 3;
	setup("http://a.test/", "a.test", 301, 2);
	check_int("--max-redirs 3: the third hop is followed", REDIRECT_FOLLOW,
		  next(&c, "http://a.test/new", NULL));
	setup("http://a.test/", "a.test", 301, 3);
	check_int("... the fourth refused", REDIRECT_REFUSED, next(&c, "http://a.test/new", NULL));
	check_str("... saying so", "redirect to http://a.test/new: more than --max-redirs (3) redirects",
		  detail);
	c.max_redirs = 0;
	setup("http://a.test/", "a.test", 301, 0);
	check_int("--max-redirs 0: none followed", REDIRECT_REFUSED, next(&c, "http://a.test/new", NULL));
}

static void
scope(void)
{
	struct redirect_conf host = conf(REDIR_SAME_HOST), site = conf(REDIR_SAME_SITE),
			     any = conf(REDIR_ANY);
	setup("http://www.a.test/", "www.a.test", 301, 0);
	check_int("same-host: the same host, https: followed", REDIRECT_FOLLOW,
		  next(&host, "https://www.a.test/x", NULL));
	check_int("same-host: another host of the site: refused", REDIRECT_REFUSED,
		  next(&host, "http://a.test/x", NULL));
	check_int("... as offsite_redirect", FETCHERR_OFFSITE_REDIRECT, word);
	check_str("... naming the rule", "redirect to http://a.test/x: another host (--redirects same-host)",
		  detail);
	check_int("same-site: another host of the site: followed", REDIRECT_FOLLOW,
		  next(&site, "http://cdn.a.test/x", NULL));
	check_int("same-site: another site: refused", REDIRECT_REFUSED,
		  next(&site, "http://b.test/x", NULL));
	check_str("... naming the rule", "redirect to http://b.test/x: another site (--redirects same-site)",
		  detail);
	setup("http://x.github.io/", "x.github.io", 301, 0);
	check_int("same-site: a public suffix's other site: refused", REDIRECT_REFUSED,
		  next(&site, "http://y.github.io/", NULL));
	check_int("any: another site: followed", REDIRECT_FOLLOW, next(&any, "http://b.test/x", NULL));
}

static void
schemes_and_bad_urls(void)
{
	struct redirect_conf c = conf(REDIR_ANY);
	setup("http://a.test/", "a.test", 302, 0);
	check_int("ftp: refused", REDIRECT_REFUSED, next(&c, "ftp://a.test/f", NULL));
	check_int("... as scheme", FETCHERR_SCHEME, word);
	check_str("... saying so", "redirect to ftp://a.test/f: only http and https are fetched", detail);
	check_int("a Location that is no URL: refused", REDIRECT_REFUSED, next(&c, "http://[::1/", NULL));
	check_int("... as bad_url", FETCHERR_BAD_URL, word);
	check_true("... naming it as given", strncmp(detail, "redirect to http://[::1/: ", 26) == 0);
	struct redirect_conf host = conf(REDIR_SAME_HOST);
	next(&host, "http://user:secret@b.test/", NULL);
	check_str("a password in a refused target never shows",
		  "redirect to http://user:***@b.test/: another host (--redirects same-host)", detail);
}

static void
private_addresses(void)
{
	struct redirect_conf c = conf(REDIR_ANY);
	setup("http://a.test/", "a.test", 302, 0);
	next(&c, "http://b.test/", "93.184.216.34");
	check_true("from a public address: the next hop is guarded", guard);
	next(&c, "http://b.test/", "127.0.0.1");
	check_true("from loopback: not guarded", !guard);
	next(&c, "http://b.test/", "10.1.2.3");
	check_true("from 10/8: not guarded", !guard);
	next(&c, "http://b.test/", "fd00::1");
	check_true("from a ULA: not guarded", !guard);
	next(&c, "http://b.test/", NULL);
	check_true("from an unknown address: not guarded", !guard);
	/* Later hops keep what the first one found. */
	setup("http://a.test/", "a.test", 302, 1);
	j.from_public = 1;
	next(&c, "http://b.test/", "127.0.0.1");
	check_true("a later hop of a chain that began public: guarded", guard);
	j.from_public = 0;
	next(&c, "http://b.test/", "93.184.216.34");
	check_true("... of one that began private: not", !guard);
	struct redirect_conf allow = c, proxy = c;
	allow.allow_private = 1;
	proxy.via_proxy = 1;
	setup("http://a.test/", "a.test", 302, 0);
	next(&allow, "http://b.test/", "93.184.216.34");
	check_true("--allow-private: not guarded", !guard);
	next(&proxy, "http://b.test/", "93.184.216.34");
	check_true("through --proxy: not guarded", !guard);
	check_true("redirect_status: 307 yes, 304 no", redirect_status(307) && !redirect_status(304));
}

int
main(void)
{
	char why[128];
	ranges = cidr_parse(CIDR_PRIVATE, why, sizeof why);
	final_answers();
	loops_and_count();
	scope();
	schemes_and_bad_urls();
	private_addresses();
	cidr_free(ranges);
	return check_done();
}
