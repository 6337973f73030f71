/* Unit tests of lib/cookie: RFC 6265 storage and retrieval, the caps,
 * and the Netscape jar, on a clock set by each call.  (The http-state
 * suite's cases are test_cookie_http_state.) */
#include "cookie.h"

#include <stdlib.h>
#include <string.h>

#define CHECK_PROG "test_cookie"
#include "check.h"

#define T0 1700000000.0   /* the tests' clock */

static int
set(cookie_jar *j, const char *url, const char *line)
{
	return cookie_set(j, url, line, strlen(line), T0);
}

/* Checks the Cookie header j gives url at time now. */
static void
check_header(const char *name, cookie_jar *j, const char *url, double now, const char *want)
{
	char *h = cookie_header(j, url, now);
	check_str(name, want, h);
	free(h);
}

static void
check_dump(const char *name, const cookie_jar *j, double now, const char *want)
{
	char *d = cookie_dump(j, now);
	check_str(name, want, d);
	free(d);
}

static void
domains(void)
{
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	check_int("a cookie without Domain is stored", 0, set(j, "http://www.example.com/", "a=1"));
	check_header("... and sent back to its host", j, "http://www.example.com/x", T0, "a=1");
	check_header("... whatever the port and scheme", j, "https://www.example.com:8443/", T0, "a=1");
	check_header("... but not to a subdomain: host-only", j, "http://x.www.example.com/", T0, NULL);
	check_header("... nor to the parent", j, "http://example.com/", T0, NULL);
	set(j, "http://www.example.com/", "b=2; Domain=.Example.COM");
	check_header("Domain=.Example.COM is sent to example.com", j, "http://example.com/", T0, "b=2");
	check_header("... and to every subdomain", j, "http://a.b.example.com/", T0, "b=2");
	check_header("... not to notexample.com", j, "http://notexample.com/", T0, NULL);
	check_int("Domain of another site is refused", -1,
		  set(j, "http://www.example.com/", "c=3; Domain=example.org"));
	check_int("Domain of a sibling is refused", -1,
		  set(j, "http://www.example.com/", "c=3; Domain=other.example.com"));
	check_int("Domain=com (a public suffix) is refused", -1,
		  set(j, "http://www.example.com/", "c=3; Domain=com"));
	check_int("Domain=co.uk is refused", -1, set(j, "http://a.example.co.uk/", "c=3; Domain=co.uk"));
	check_int("Domain=github.io (the list's private part) is refused", -1,
		  set(j, "http://a.github.io/", "c=3; Domain=github.io"));
	check_int("a public suffix's own host may set one, host-only", 0,
		  set(j, "http://localhost/", "l=1; Domain=localhost"));
	check_header("... sent to that host", j, "http://localhost/", T0, "l=1");
	check_int("an address's Domain is only itself", -1,
		  set(j, "http://10.0.0.1/", "c=3; Domain=0.0.1"));
	check_int("... and as itself it is host-only", 0, set(j, "http://10.0.0.1/", "i=1; Domain=10.0.0.1"));
	check_int("a Unicode Domain is refused", -1,
		  set(j, "http://www.example.com/", "c=3; Domain=\xc3\xa9xample.com"));
	check_int("Domain=. is host-only", 0, set(j, "http://q.example.net/", "d=1; Domain=."));
	check_header("... not sent to a subdomain", j, "http://x.q.example.net/", T0, NULL);
	check_int("the refusals are counted", 7, (long long)cookie_jar_counts(j).refused);
	check_dump("the jar's lines, oldest first", j, T0,
		   "www.example.com\tFALSE\t/\tFALSE\t0\ta\t1\n"
		   ".example.com\tTRUE\t/\tFALSE\t0\tb\t2\n"
		   "localhost\tFALSE\t/\tFALSE\t0\tl\t1\n"
		   "10.0.0.1\tFALSE\t/\tFALSE\t0\ti\t1\n"
		   "q.example.net\tFALSE\t/\tFALSE\t0\td\t1\n");
	cookie_jar_free(j);
}

static void
paths(void)
{
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	set(j, "http://h.example/a/b/c?q=/x/y", "p=1");
	check_header("default path /a/b: sent to /a/b", j, "http://h.example/a/b", T0, "p=1");
	check_header("... and below it", j, "http://h.example/a/b/d/e", T0, "p=1");
	check_header("... not to /a/bc", j, "http://h.example/a/bc", T0, NULL);
	check_header("... nor to /a", j, "http://h.example/a", T0, NULL);
	set(j, "http://h.example/x", "r=1");
	check_header("default path of /x is /", j, "http://h.example/", T0, "r=1");
	set(j, "http://h.example/", "s=1; Path=/a/");
	check_header("Path=/a/ matches /a/x", j, "http://h.example/a/x", T0, "s=1; r=1");
	check_header("... not /a", j, "http://h.example/a", T0, "r=1");
	set(j, "http://h.example/", "t=1; Path=a");
	check_header("a Path not starting with / is the default", j, "http://h.example/", T0, "r=1; t=1");
	check_header("the query is no part of the path", j, "http://h.example/a/b?x", T0, "p=1; s=1; r=1; t=1");
	cookie_jar_free(j);
}

static void
order(void)
{
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	set(j, "http://o.example/", "a=1; Path=/");
	set(j, "http://o.example/", "b=1; Path=/x/y");
	set(j, "http://o.example/", "c=1; Path=/x");
	set(j, "http://o.example/", "d=1; Path=/");
	check_header("longer paths first, then earlier created", j, "http://o.example/x/y/z", T0,
		     "b=1; c=1; a=1; d=1");
	set(j, "http://o.example/", "a=2; Path=/");
	check_header("a replaced cookie keeps its creation", j, "http://o.example/", T0, "a=2; d=1");
	set(j, "http://o.example/", "a=3; Path=/x");
	check_header("the same name on another path is another cookie", j, "http://o.example/x", T0,
		     "c=1; a=3; a=2; d=1");
	cookie_jar_free(j);
}

static void
expiry(void)
{
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	set(j, "http://e.example/", "m=1; Max-Age=10");
	check_header("Max-Age=10: sent 9 s on", j, "http://e.example/", T0 + 9, "m=1");
	check_header("... not 10 s on", j, "http://e.example/", T0 + 10, NULL);
	check_int("... and dropped then", 0, (long long)cookie_jar_counts(j).kept);
	set(j, "http://e.example/", "x=1; Expires=Wed, 15 Nov 2023 00:00:00 GMT");
	check_header("Expires ahead: sent", j, "http://e.example/", T0, "x=1");
	check_header("... not once passed", j, "http://e.example/", 1700006400.0, NULL);
	set(j, "http://e.example/", "y=1; Max-Age=100; Expires=Thu, 01 Jan 1970 00:00:00 GMT");
	check_header("Max-Age wins over Expires, whatever the order", j, "http://e.example/", T0, "y=1");
	set(j, "http://e.example/", "y=2; Max-Age=0");
	check_header("Max-Age=0 deletes the cookie", j, "http://e.example/", T0, NULL);
	set(j, "http://e.example/", "z=1");
	set(j, "http://e.example/", "z=1; Expires=Sun, 06 Nov 1994 08:49:37 GMT");
	check_header("an Expires passed deletes it too", j, "http://e.example/", T0, NULL);
	set(j, "http://e.example/", "n=1; Max-Age=1x; Expires=junk");
	check_dump("bad Max-Age and Expires are ignored: a session cookie", j, T0,
		   "e.example\tFALSE\t/\tFALSE\t0\tn\t1\n");
	set(j, "http://e.example/", "k=1; Max-Age=5");
	check_dump("Max-Age is saved as its expiry", j, T0,
		   "e.example\tFALSE\t/\tFALSE\t0\tn\t1\ne.example\tFALSE\t/\tFALSE\t1700000005\tk\t1\n");
	check_int("deletions and expiries are not evictions", 0, (long long)cookie_jar_counts(j).evicted);
	cookie_jar_free(j);
}

static void
flags(void)
{
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	set(j, "https://f.example/", "s=1; Secure");
	set(j, "https://f.example/", "h=1; HttpOnly; SameSite=Strict");
	check_header("Secure goes over https", j, "https://f.example/", T0, "s=1; h=1");
	check_header("... not over http; HttpOnly and SameSite do not matter", j, "http://f.example/", T0,
		     "h=1");
	check_dump("Secure and HttpOnly in the jar", j, T0,
		   "f.example\tFALSE\t/\tTRUE\t0\ts\t1\n#HttpOnly_f.example\tFALSE\t/\tFALSE\t0\th\t1\n");
	cookie_jar_free(j);
}

static void
bounds(void)
{
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	check_int("a control byte in the value is refused", -1, set(j, "http://b.example/", "a=x\001y"));
	check_int("... a tab too (it would split a jar line)", -1, set(j, "http://b.example/", "a=x\ty"));
	check_int("... DEL in the name", -1, set(j, "http://b.example/", "a\177=1"));
	check_int("... in the path", -1, set(j, "http://b.example/", "a=1; Path=/x\001"));
	check_int("no = is refused", -1, set(j, "http://b.example/", "abc"));
	check_int("an empty name is refused", -1, set(j, "http://b.example/", "=abc"));
	char big[COOKIE_NAME_VALUE_MAX + 16];
	memset(big, 'v', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	memcpy(big, "n=", 2);
	big[COOKIE_NAME_VALUE_MAX + 1] = '\0';   /* "n" and 4095 bytes: 4096 */
	check_int("a name and value of 4096 bytes is stored", 0, set(j, "http://b.example/", big));
	big[COOKIE_NAME_VALUE_MAX + 1] = 'v';
	big[COOKIE_NAME_VALUE_MAX + 2] = '\0';
	check_int("... of 4097 is refused", -1, set(j, "http://b.example/", big));
	cookie_jar_free(j);
	j = cookie_jar_new(100, COOKIE_SITE_MAX);
	char attr[COOKIE_ATTR_MAX + 32];
	snprintf(attr, sizeof attr, "p=1; Path=/%0*d", COOKIE_ATTR_MAX, 0);
	set(j, "http://b.example/a/b", attr);
	check_dump("a Path over 1024 bytes is ignored: the default path", j, T0,
		   "b.example\tFALSE\t/a\tFALSE\t0\tp\t1\n");
	cookie_jar_free(j);
}

static void
caps(void)
{
	cookie_jar *j = cookie_jar_new(5, 3);
	set(j, "http://a.example/", "a1=1");
	set(j, "http://x.a.example/", "a2=1; Domain=a.example");
	set(j, "http://y.a.example/", "a3=1");
	set(j, "http://a.example/", "a4=1");
	check_dump("past 3 a site the site's oldest goes, subdomains counted in", j, T0,
		   ".a.example\tTRUE\t/\tFALSE\t0\ta2\t1\n"
		   "y.a.example\tFALSE\t/\tFALSE\t0\ta3\t1\n"
		   "a.example\tFALSE\t/\tFALSE\t0\ta4\t1\n");
	set(j, "http://b.example/", "b1=1");
	set(j, "http://a.example/", "a2=2; Domain=a.example");
	set(j, "http://b.example/", "b2=1");
	set(j, "http://c.example/", "c1=1");
	check_dump("past 5 in all the jar's oldest goes, a replaced one keeping its age", j, T0,
		   "y.a.example\tFALSE\t/\tFALSE\t0\ta3\t1\n"
		   "a.example\tFALSE\t/\tFALSE\t0\ta4\t1\n"
		   "b.example\tFALSE\t/\tFALSE\t0\tb1\t1\n"
		   "b.example\tFALSE\t/\tFALSE\t0\tb2\t1\n"
		   "c.example\tFALSE\t/\tFALSE\t0\tc1\t1\n");
	cookie_counts n = cookie_jar_counts(j);
	check_int("kept", 5, (long long)n.kept);
	check_int("evicted", 2, (long long)n.evicted);
	set(j, "http://c.example/", "c2=1; Max-Age=1");
	check_dump("an expired cookie is not saved", j, T0 + 1,
		   "a.example\tFALSE\t/\tFALSE\t0\ta4\t1\n"
		   "b.example\tFALSE\t/\tFALSE\t0\tb1\t1\n"
		   "b.example\tFALSE\t/\tFALSE\t0\tb2\t1\n"
		   "c.example\tFALSE\t/\tFALSE\t0\tc1\t1\n");
	check_header("... nor sent", j, "http://c.example/", T0 + 1, "c1=1");
	n = cookie_jar_counts(j);
	check_int("... and gone once its site was asked for", 4, (long long)n.kept);
	check_int("... not counted as evicted", 3, (long long)n.evicted);
	cookie_jar_free(j);

	/* 50 new cookies an answer on one host, 1000 answers: the jar stays
	 * at the site's cap, its newest. */
	j = cookie_jar_new(3000, COOKIE_SITE_MAX);
	for (int i = 0; i < 50000; i++) {
		char line[48];
		snprintf(line, sizeof line, "k%d=%d; Path=/", i, i);
		set(j, "http://hostile.example/p", line);
	}
	n = cookie_jar_counts(j);
	check_int("a hostile host keeps 180", COOKIE_SITE_MAX, (long long)n.kept);
	check_int("... the rest evicted", 50000 - COOKIE_SITE_MAX, (long long)n.evicted);
	char *h = cookie_header(j, "http://hostile.example/", T0);
	check_true("... its newest sent, oldest first", h && strncmp(h, "k49820=49820; k49821=", 21) == 0 &&
		   strlen(h) > 12 && strcmp(h + strlen(h) - 12, "k49999=49999") == 0);
	free(h);
	cookie_jar_free(j);
}

static void
jar_lines(void)
{
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	const char *jar =
		"# Netscape HTTP Cookie File\n"
		"\n"
		"#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\ts3cret\n"
		".example.com\tTRUE\t/x\tTRUE\t1800000000\tlong\tlived\r\n"
		"example.com\tFALSE\t/\tFALSE\t1600000000\told\tgone\n"
		"example.com\tFALSE\t/\tFALSE\t0\tempty\n"
		"example.com\tFALSE\t/\tFALSE\t0\tbad\tx\001y\n"
		"example.com\tFALSE\t/\tFALSE\t0\tbad\tx\033[31m\n"
		"example.com\tFALSE\t/\tFALSE\t0\ttoo\tmany\tfields\n"
		"example.com\tMAYBE\t/\tFALSE\t0\tflag\tx\n"
		"example.com\tFALSE\tnoslash\tFALSE\t0\tpath\tx\n"
		"example.com\tFALSE\t/\tFALSE\tsoon\texp\tx\n"
		".com\tTRUE\t/\tFALSE\t0\tsuffix\tx\n"
		"short\tline\n";
	cookie_loaded r;
	cookie_load_str(j, jar, T0, &r);
	check_int("cookie lines read (unexpired, bad ones too)", 11, (long long)r.cookies);
	check_int("bad: control bytes, shape, flags, path, expiry, a public suffix", 8, (long long)r.bad);
	check_int("none evicted", 0, (long long)r.evicted);
	check_dump("the jar written back", j, T0,
		   "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\ts3cret\n"
		   ".example.com\tTRUE\t/x\tTRUE\t1800000000\tlong\tlived\n"
		   "example.com\tFALSE\t/\tFALSE\t0\tempty\t\n");
	check_header("a loaded cookie is sent", j, "https://example.com/x/y", T0, "long=lived; empty=");
	check_header("... its HttpOnly one too", j, "http://127.0.0.1:8080/", T0, "session=s3cret");
	const char *has = ".example.com\tTRUE\t/x\tTRUE\t1800000000\tlong\tlived";
	check_true("holds a line it has", cookie_holds(j, has, strlen(has)));
	const char *other = ".example.com\tTRUE\t/x\tTRUE\t1800000000\tlong\tnew";
	check_true("... not one of another value", !cookie_holds(j, other, strlen(other)));
	const char *flag = "example.com\tFALSE\t/x\tTRUE\t1800000000\tlong\tlived";
	check_true("... nor another host-only flag", !cookie_holds(j, flag, strlen(flag)));
	check_int("a comment is skipped", COOKIE_LINE_SKIPPED, cookie_add_line(j, "# x\tFALSE", 9, T0));
	cookie_jar_free(j);

	/* A jar over the caps: its last lines are its newest. */
	j = cookie_jar_new(4, COOKIE_SITE_MAX);
	char *big = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&big, &n);
	for (int i = 0; i < 10; i++)
		fprintf(f, "h%d.example\tFALSE\t/\tFALSE\t0\tc\t%d\n", i, i);
	fputs("long.example\tFALSE\t/\tFALSE\t0\tc\t", f);
	for (int i = 0; i < 9000; i++)
		fputc('v', f);
	fputs("\nh10.example\tFALSE\t/\tFALSE\t0\tc\t10\n", f);
	fclose(f);
	f = fmemopen(big, n, "r");
	check_int("a file loads", 0, cookie_load(j, f, T0, &r));
	fclose(f);
	free(big);
	check_int("12 cookie lines", 12, (long long)r.cookies);
	check_int("the one over 8 KiB is bad", 1, (long long)r.bad);
	check_int("7 evicted", 7, (long long)r.evicted);
	check_dump("the newest 4 kept, in order", j, T0,
		   "h7.example\tFALSE\t/\tFALSE\t0\tc\t7\n"
		   "h8.example\tFALSE\t/\tFALSE\t0\tc\t8\n"
		   "h9.example\tFALSE\t/\tFALSE\t0\tc\t9\n"
		   "h10.example\tFALSE\t/\tFALSE\t0\tc\t10\n");
	cookie_jar_free(j);
}

static void
dates(void)
{
	static const struct {
		const char *date;
		long long want;   /* unix seconds, 0 when not a date */
	} cases[] = {
		{ "Sun, 06 Nov 1994 08:49:37 GMT", 784111777 },
		{ "Sunday, 06-Nov-94 08:49:37 GMT", 784111777 },
		{ "Sun Nov  6 08:49:37 1994", 784111777 },
		{ "6 nov 1994 8:49:37", 784111777 },
		{ "Tue, 01 Jan 2069 00:00:00 GMT", 3124224000 },
		{ "01 Jan 69 00:00:00", 3124224000 },
		{ "01 Jan 70 00:00:01", 1 },
		{ "30 Feb 2020 00:00:00", 0 },
		{ "31 Dec 1600 23:59:59", 0 },
		{ "01 Jan 2020 24:00:00", 0 },
		{ "01 Jan 2020", 0 },
		{ "01 2020 00:00:00", 0 },
	};
	cookie_jar *j = cookie_jar_new(100, COOKIE_SITE_MAX);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char line[128], want[128], name[160];
		snprintf(line, sizeof line, "d=1; Expires=%s", cases[i].date);
		cookie_set(j, "http://d.example/", line, strlen(line), -1e10);
		/* Not a date: a session cookie (0). */
		snprintf(want, sizeof want, "d.example\tFALSE\t/\tFALSE\t%lld\td\t1\n", cases[i].want);
		snprintf(name, sizeof name, "Expires=%s", cases[i].date);
		check_dump(name, j, -1e10, want);
	}
	cookie_jar_free(j);
}

int
main(void)
{
	domains();
	paths();
	order();
	expiry();
	flags();
	bounds();
	caps();
	jar_lines();
	dates();
	return check_done();
}
