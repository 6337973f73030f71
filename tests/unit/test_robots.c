/* Unit tests of lib/robots: RFC 9309 matching and grouping, and the
 * bounds that hold against hostile files (huge, long lines, star runs,
 * NULs); and of fetch's side of robots.txt (fetcher/robots.c): when a
 * page may start, and what each answer to a robots.txt request means. */
#include "fetch.h"
#include "robots.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_PROG "test_robots"
#include "check.h"

#define check check_true

static double
seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether path is allowed by a file holding "User-agent: *" and lines. */
static int
allowed(const char *lines, const char *path)
{
	char txt[4096];
	snprintf(txt, sizeof txt, "User-agent: *\n%s\n", lines);
	double d;
	struct robots *r = robots_parse(txt, strlen(txt), "sluice", &d);
	int ok = robots_allowed(r, path);
	robots_free(r);
	return ok;
}

static const struct { const char *rules, *path; int allowed; } cases[] = {
	{ "Disallow: /", "/x", 0 },
	{ "Disallow: /private", "/private/a", 0 },
	{ "Disallow: /private", "/privat", 1 },
	{ "Disallow: /*.php", "/a/b.php", 0 },
	{ "Disallow: /*.php", "/a/b.php?x=1", 0 },
	{ "Disallow: /*.php$", "/a/b.php?x=1", 1 },
	{ "Disallow: /*.php$", "/a/b.php", 0 },
	{ "Disallow: /a$", "/a", 0 },
	{ "Disallow: /a$", "/ab", 1 },
	{ "Disallow: /*", "/", 0 },
	{ "Disallow: *", "/anything", 0 },
	{ "Disallow: /a*b*c", "/axxbyyc", 0 },
	{ "Disallow: /a*b*c", "/axxbyy", 1 },
	{ "Disallow: /a**b", "/a-b", 0 },
	{ "Disallow: /a*$", "/a/b", 0 },
	{ "Disallow: /$", "/", 0 },
	{ "Disallow: /$", "/a", 1 },
	{ "Disallow: /a$b", "/a$b", 0 },           /* `$` inside is literal */
	{ "Disallow: /fish*.php", "/fishheads/catfish.php?p=1", 0 },
	{ "Disallow: /fish*.php", "/Fish.PHP", 1 }, /* case-sensitive paths */
	{ "Disallow: /p\nAllow: /p", "/p", 1 },     /* Allow wins a tie */
	{ "Disallow: /page\nAllow: /page.html", "/page.html", 1 },
	{ "Allow: /page\nDisallow: /*.html", "/page.html", 0 }, /* longer wins */
	{ "Disallow:", "/x", 1 },                   /* empty: no rule */
	{ "Disallow: /x # a comment", "/x", 0 },
	{ "Disallow: /robots", "/robots.txt", 1 },  /* robots.txt itself */
	/* RFC 9309 §2.2.2: patterns are percent-encoded and normalized like
	 * the paths, which parse writes in canonical form. */
	{ "Disallow: /caf\xc3\xa9/", "/caf%C3%A9/x", 0 },
	{ "Disallow: /caf%c3%a9/", "/caf%C3%A9/x", 0 },
	{ "Disallow: /%62az", "/baz", 0 },          /* unreserved: decoded */
	{ "Disallow: /a%2Fb", "/a/b", 1 },          /* reserved: kept */
	{ "Disallow: /a%2fb", "/a%2Fb", 0 },
	/* Google's leniencies that the RFC does not forbid. */
	{ "Disallow /x", "/x", 0 },                 /* no colon */
	{ "Allow: /d/index.html\nDisallow: /d/", "/d/", 1 },
	{ "Allow: /d/index.htm\nDisallow: /d/", "/d/", 1 },
	{ "Allow: /d/index.html\nDisallow: /d/", "/d/x", 0 },
};

/* Whether path is allowed to agent by robots.txt txt. */
static int
allowed_to(const char *agent, const char *txt, const char *path)
{
	double d;
	struct robots *r = robots_parse(txt, strlen(txt), agent, &d);
	int ok = robots_allowed(r, path);
	robots_free(r);
	return ok;
}

/* A pattern of n stars then "x", over a path of m "a"s: the case that
 * backtracking took minutes on. */
static double
stars(size_t n, size_t m, int *ok)
{
	char *txt = malloc(n + 64), *path = malloc(m + 2);
	int k = sprintf(txt, "User-agent: *\nDisallow: /");
	memset(txt + k, '*', n);
	strcpy(txt + k + n, "x\n");
	path[0] = '/';
	memset(path + 1, 'a', m);
	path[m + 1] = '\0';
	double d, t0 = seconds();
	struct robots *r = robots_parse(txt, strlen(txt), "sluice", &d);
	*ok = robots_allowed(r, path);
	double took = seconds() - t0;
	robots_free(r);
	free(txt);
	free(path);
	return took;
}

/* A robots.txt job of host h's origin o that answered status (answered:
 * curl's result was CURLE_OK) with body. */
static job
answer(long status, const char *body)
{
	return (job){ .status = status, .body = (char *)body, .body_len = body ? strlen(body) : 0,
		      .is_robots = 1 };
}

static void
fetch_side(void)
{
	const struct robots_conf c = { .retries = 3, .backoff = 1, .agent = "sluice" };
	host h = { .use_robots = 1 };
	origin o = { .key = "http://a.test" };
	check("gate: robots.txt not yet read: fetch it first",
	      robots_gate(&h, &o, "http://a.test/x") == ROBOTS_FETCH);
	o.robots_state = ROBOTS_LOADING;
	check("gate: still loading: not yet", robots_gate(&h, &o, "http://a.test/x") == ROBOTS_FETCH);
	o.robots_state = ROBOTS_READY;
	check("gate: read, no rules (a 4xx): go", robots_gate(&h, &o, "http://a.test/x") == ROBOTS_GO);
	const char *txt = "User-agent: *\nDisallow: /private\nCrawl-delay: 5\n";
	job j = answer(200, txt);
	struct robots_verdict v = robots_answer(&c, &j, 1, 0);
	check("answer 200: its rules", v.kind == ROBOTS_RULES && v.rules);
	check("... and its Crawl-delay", v.crawl_delay == 5);
	o.robots = v.rules;
	check("gate: a disallowed path: refused",
	      robots_gate(&h, &o, "http://a.test/private/x") == ROBOTS_REFUSED);
	check("gate: the query is part of the path", robots_gate(&h, &o, "http://a.test/p?private") ==
	      ROBOTS_GO && robots_gate(&h, &o, "http://a.test/private?x") == ROBOTS_REFUSED);
	check("gate: an allowed path: go", robots_gate(&h, &o, "http://a.test/public") == ROBOTS_GO);
	h.use_robots = 0;
	check("gate: --no-robots: go whatever the rules",
	      robots_gate(&h, &o, "http://a.test/private/x") == ROBOTS_GO);
	o.robots_state = ROBOTS_NONE;
	check("gate: --no-robots never fetches robots.txt",
	      robots_gate(&h, &o, "http://a.test/x") == ROBOTS_GO);
	robots_free(o.robots);

	/* Crawl-delay is a floor under the host's interval: the driver
	 * raises pace.crawl_delay to it (never lowers it). */
	struct pace p = { .delay = 1, .crawl_delay = fmax(0, v.crawl_delay) };
	check("Crawl-delay 5 over -d 1: the floor is 5 s", pace_floor(&p) == 5);
	p.delay = 8;
	check("-d 8 over Crawl-delay 5: the floor is 8 s", pace_floor(&p) == 8);

	j = answer(200, "");
	j.too_large = 1;
	v = robots_answer(&c, &j, 0, 0);
	check("a 200 cut at ROBOTS_MAX_BYTES: still its rules", v.kind == ROBOTS_RULES);
	robots_free(v.rules);
	j = answer(204, NULL);
	v = robots_answer(&c, &j, 1, 0);
	check("204, no body: rules that allow all", v.kind == ROBOTS_RULES && robots_allowed(v.rules, "/x"));
	robots_free(v.rules);
	const long none[] = { 400, 401, 403, 404, 410, 451 };
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		char name[64];
		snprintf(name, sizeof name, "answer %ld: no rules", none[i]);
		j = answer(none[i], "Disallow: /");
		check(name, robots_answer(&c, &j, 1, 0).kind == ROBOTS_NO_RULES);
	}
	const struct { long status; int answered, fails; double wait; } again[] = {
		{ 429, 1, 0, 1 }, { 500, 1, 0, 1 }, { 503, 1, 1, 2 }, { 502, 1, 2, 4 },
		{ 0, 0, 0, 1 },   /* no answer on an open connection: reset, timeout */
		{ 301, 1, 0, 1 }, /* libcurl followed five redirects and gave up */
	};
	for (size_t i = 0; i < sizeof again / sizeof *again; i++) {
		char name[96];
		snprintf(name, sizeof name, "answer %ld after %d failures: disallow all, ask again in %g s",
			 again[i].status, again[i].fails, again[i].wait);
		j = answer(again[i].status, NULL);
		if (!again[i].answered)
			j.error = FETCHERR_RESET, j.connected = 1;
		v = robots_answer(&c, &j, again[i].answered, again[i].fails);
		check(name, v.kind == ROBOTS_AGAIN && v.wait == again[i].wait);
	}
	j = answer(503, NULL);
	check("a 503 past --retries failures: unreachable",
	      robots_answer(&c, &j, 1, 3).kind == ROBOTS_UNREACHABLE);
	j = answer(0, NULL);
	j.error = FETCHERR_RESET;
	j.connected = 1;
	check("a reset past --retries failures: unreachable",
	      robots_answer(&c, &j, 0, 3).kind == ROBOTS_UNREACHABLE);
	struct robots_conf once = c;
	once.retries = 0;
	check("--retries 0: the first failure is unreachable",
	      robots_answer(&once, &j, 0, 0).kind == ROBOTS_UNREACHABLE);
	const struct { enum fetcherr e; int connected; enum robots_kind kind; } net[] = {
		{ FETCHERR_DNS, 0, ROBOTS_DOWN }, { FETCHERR_CONNECT, 0, ROBOTS_DOWN },
		{ FETCHERR_TLS, 1, ROBOTS_DOWN }, { FETCHERR_PROXY, 0, ROBOTS_DOWN },
		{ FETCHERR_TIMEOUT, 0, ROBOTS_DOWN }, { FETCHERR_TIMEOUT, 1, ROBOTS_AGAIN },
		{ FETCHERR_RESET, 1, ROBOTS_AGAIN },
	};
	for (size_t i = 0; i < sizeof net / sizeof *net; i++) {
		char name[96];
		snprintf(name, sizeof name, "robots.txt failed with %s%s: %s", fetcherr_word(net[i].e),
			 net[i].connected ? " once connected" : " before connecting",
			 net[i].kind == ROBOTS_DOWN ? "the origin is down, its word kept" :
			 "unreachable (RFC 9309): ask again");
		j = answer(0, NULL);
		j.error = net[i].e;
		j.connected = net[i].connected;
		check(name, robots_answer(&c, &j, 0, 0).kind == net[i].kind);
	}
	j = answer(0, NULL);
	j.refused_private = 1;
	check("a guarded redirect to a private address: no answer, no failure",
	      robots_answer(&c, &j, 0, 3).kind == ROBOTS_PRIVATE);
}

int
main(void)
{
	int n = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char name[160];
		snprintf(name, sizeof name, "%s vs %s: %s", cases[i].rules, cases[i].path,
			 cases[i].allowed ? "allowed" : "disallowed");
		for (char *p = name; *p; p++)
			if (*p == '\n')
				*p = ' ';
		check(name, allowed(cases[i].rules, cases[i].path) == cases[i].allowed);
		n++;
	}

	int ok;
	check("40 stars and x against 60 characters: fast, and allowed", stars(40, 60, &ok) < 0.5 && ok);
	/* Cut at 16 KiB, the line is "/" and stars only: it refuses all. */
	check("2 000 000 stars: no stack overflow, bounded, cut to stars", stars(2000000, 60, &ok) < 2 && !ok);
	check("16 KiB of stars against a 16 KiB path: bounded", stars(16000, 16000, &ok) < 5 && ok);

	/* Groups: ours over *, a token with a version, several groups. */
	const char *g = "User-agent: *\nDisallow: /\n\nUser-agent: Sluice/1.0\nDisallow: /private\n";
	double d;
	struct robots *r = robots_parse(g, strlen(g), "sluice", &d);
	check("our group (token with a version) replaces *", robots_allowed(r, "/public") &&
	      !robots_allowed(r, "/private/x"));
	robots_free(r);
	g = "User-agent: a\nUser-agent: sluice\nCrawl-delay: 2.5\nDisallow: /x\n";
	r = robots_parse(g, strlen(g), "sluice", &d);
	check("a group of several agents applies; its Crawl-delay", !robots_allowed(r, "/x") && d == 2.5);
	robots_free(r);

	g = "User-agent: a\nSitemap: http://a.test/s.xml\nUser-agent: sluice\nDisallow: /x\n";
	check("a Sitemap line does not end the agent list", !allowed_to("sluice", g, "/x"));
	g = "User-agent: a\nNot-a-field: 1\nUser-agent: sluice\nDisallow: /x\n";
	check("nor does an unknown line", !allowed_to("sluice", g, "/x"));
	g = "User-agent: a\nDisallow: /y\nUser-agent: sluice\nDisallow: /x\n";
	check("a rule does end it", allowed_to("sluice", g, "/y") && !allowed_to("sluice", g, "/x"));
	g = "User-agent: SLUICE Crawler\nDisallow: /x\n";
	check("a value is matched by its first word, case-insensitively", !allowed_to("sluice", g, "/x"));
	g = "User-agent: sluicer\nDisallow: /x\n";
	check("and whole: sluicer is not sluice", allowed_to("sluice", g, "/x"));
	g = "\xef\xbb\xbfUser-agent: *\nDisallow: /x\n";
	check("a UTF-8 BOM is skipped", !allowed_to("sluice", g, "/x"));
	g = "User-agent: *\nDisallow: /\n\nUser-agent: mybot\nDisallow: /x\n";
	check("another token picks its own group", allowed_to("MyBot", g, "/y") &&
	      !allowed_to("MyBot", g, "/x") && !allowed_to("sluice", g, "/y"));
	check("product tokens: letters, _ and - only", robots_token_valid("my_bot-2") == 0 &&
	      robots_token_valid("my_bot-x") && !robots_token_valid("") &&
	      !robots_token_valid("a b") && !robots_token_valid("a/1"));

	/* Sitemap lines: outside every group, canonical, bounded. */
	g = "Sitemap: http://A.test/s1.xml\n"
	    "User-agent: other\nDisallow: /\nsitemap:https://a.test:443/s2.xml.gz # gz\n"
	    "User-agent: sluice\nDisallow: /x\nSITEMAP: http://a.test/s1.xml\n"
	    "Sitemap: /relative.xml\nSitemap: ftp://a.test/s.xml\nSitemap:\n"
	    "Sitemap: http://a.test/caf\xc3\xa9 s.xml\n";
	r = robots_parse(g, strlen(g), "sluice", &d);
	const char *const *sm;
	size_t ns = robots_sitemaps(r, &sm);
	check("Sitemap lines in any group, canonical, once, absolute http(s) only",
	      ns == 3 && strcmp(sm[0], "http://a.test/s1.xml") == 0 &&
	      strcmp(sm[1], "https://a.test/s2.xml.gz") == 0 &&
	      strcmp(sm[2], "http://a.test/caf%C3%A9%20s.xml") == 0);
	check("and they leave the rules alone", !robots_allowed(r, "/x") && robots_allowed(r, "/y"));
	robots_free(r);
	r = robots_parse(g, strlen(g), "other", &d);
	check("whatever agent the rules are for", robots_sitemaps(r, &sm) == 3 && !robots_allowed(r, "/y"));
	robots_free(r);
	{
		size_t cap = 200 * 64 + 4096;
		char *many = malloc(cap);
		int m = 0;
		for (int i = 0; i < 200; i++)
			m += sprintf(many + m, "Sitemap: http://a.test/s%d.xml\n", i);
		m += sprintf(many + m, "Sitemap: http://a.test/");
		memset(many + m, 'l', 3000);
		m += 3000;
		many[m] = '\0';
		r = robots_parse(many, (size_t)m, "sluice", &d);
		ns = robots_sitemaps(r, &sm);
		check("at most ROBOTS_MAX_SITEMAPS, the first ones",
		      ns == ROBOTS_MAX_SITEMAPS && strcmp(sm[63], "http://a.test/s63.xml") == 0);
		robots_free(r);
		r = robots_parse(many + m - 3000 - 23, 3000 + 23, "sluice", &d);
		check("a URL over ROBOTS_MAX_SITEMAP_URL bytes is left out", robots_sitemaps(r, &sm) == 0);
		robots_free(r);
		free(many);
	}
	r = robots_deny_all();
	check("deny-all and no rules have no sitemaps",
	      robots_sitemaps(r, &sm) == 0 && robots_sitemaps(NULL, &sm) == 0);
	robots_free(r);

	/* Hostile files. */
	size_t big = 10 << 20;
	char *txt = malloc(big + 1);
	int k = sprintf(txt, "User-agent: *\nDisallow: /early\n");
	for (size_t i = k; i < big; i++)
		txt[i] = "Disallow: /late\n"[(i - k) % 16];
	double t0 = seconds();
	r = robots_parse(txt, big, "sluice", &d);
	check("a 10 MB file: parsed up to 500 KiB, quickly", seconds() - t0 < 2 && r &&
	      !robots_allowed(r, "/early") && !robots_allowed(r, "/late"));
	memcpy(txt + (600 << 10), "\nAllow: /early\n", 15);
	struct robots *r2 = robots_parse(txt, big, "sluice", &d);
	check("and a rule past 500 KiB is ignored", !robots_allowed(r2, "/early"));
	robots_free(r2);
	t0 = seconds();
	for (int i = 0; i < 100; i++)
		robots_allowed(r, "/some/path/that/matches/nothing");
	check("and 100 decisions against its 32 000 rules stay bounded", seconds() - t0 < 2);
	robots_free(r);

	/* A 100 KiB line: cut at 16 KiB; the next line still counts. */
	k = sprintf(txt, "User-agent: *\nDisallow: /");
	memset(txt + k, 'a', 100 << 10);
	k += 100 << 10;
	k += sprintf(txt + k, "\nDisallow: /after\n");
	r = robots_parse(txt, (size_t)k, "sluice", &d);
	char *path = malloc(20000);
	path[0] = '/';
	memset(path + 1, 'a', 19998);
	path[19999] = '\0';
	path[ROBOTS_MAX_LINE - strlen("Disallow: ") + 1] = '\0';   /* the kept part */
	check("a 100 KiB line is cut at 16 KiB; the line after it applies",
	      !robots_allowed(r, path) && !robots_allowed(r, "/after/x") && robots_allowed(r, "/b"));
	robots_free(r);
	free(path);

	/* NULs end lines; only stars and dollars. */
	static const char nul[] = "User-agent: *\0Disallow: /n\0\0Allow: /n/ok";
	r = robots_parse(nul, sizeof nul - 1, "sluice", &d);
	check("NUL bytes end lines", !robots_allowed(r, "/n/x") && robots_allowed(r, "/n/ok"));
	robots_free(r);
	check("a pattern of only $ matches only the empty path", allowed("Disallow: $", "/"));
	check("many $: literal but the last", allowed("Disallow: /$$$$", "/") &&
	      !allowed("Disallow: /$$$$", "/$$$"));
	r = robots_deny_all();
	check("deny-all refuses everything, with its reason", !robots_allowed(r, "/") &&
	      strcmp(robots_reason(r), "robots.txt unreachable") == 0);
	robots_free(r);
	check("no rules allow everything", robots_allowed(NULL, "/x"));
	free(txt);
	fetch_side();
	return check_done();
}
