/* Unit tests of fetcher/retry.c: which answers are retried, the backoff
 * and Retry-After waits, the deadlines of --max-elapsed, and
 * --max-attempts (a URL's leases, lib/frontier on a real SQLite file).
 * No wall time passes: every `now` is a number written here and the
 * jitter is passed in, so each expected value is exact. */
#include "fetch.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "frontier.h"

#define CHECK_PROG "test_retry"
#include "check.h"

/* fetch's defaults. */
static const struct retry_conf dflt = {
	.retry_on = { 429, 502, 503, 504 }, .n_retry_on = 4,
	.retries = 3, .backoff = 1, .max_retry_after = 300, .max_elapsed = 600,
};

static host h;
static job j;

/* A job at its first hop after attempts attempts, which answered status
 * (or failed with e), its deadline 600 s after now = 100. */
static void
setup(int attempts, long status, enum fetcherr e)
{
	h = (host){ 0 };
	pace_begin(&h.pace, 0);
	j = (job){ .host = &h, .url = "http://a.test/", .status = status, .error = e,
		   .attempts = attempts, .hop_attempts = attempts, .deadline = 700 };
}

static void
what_is_retried(void)
{
	struct retry_verdict v;
	setup(1, 503, FETCHERR_NONE);
	v = retry_decide(&dflt, &j, 1, -1, 100, 0.5);
	check_true("503 (listed): again", v.again);
	setup(1, 404, FETCHERR_NONE);
	v = retry_decide(&dflt, &j, 1, -1, 100, 0.5);
	check_true("404: final", !v.again);
	check_int("404: no error word", FETCHERR_NONE, v.error);
	check_str("404: no new detail", "", v.detail);
	setup(1, 500, FETCHERR_NONE);
	check_true("500 (not listed): final", !retry_decide(&dflt, &j, 1, -1, 100, 0.5).again);
	const struct { enum fetcherr e; int again; } net[] = {
		{ FETCHERR_TIMEOUT, 1 }, { FETCHERR_RESET, 1 }, { FETCHERR_CONNECT, 1 },
		{ FETCHERR_DNS, 0 }, { FETCHERR_TLS, 0 }, { FETCHERR_TOO_LARGE, 0 },
		{ FETCHERR_BAD_URL, 0 }, { FETCHERR_ROBOTS, 0 }, { FETCHERR_REDIRECTS, 0 },
	};
	for (size_t i = 0; i < sizeof net / sizeof *net; i++) {
		char name[80];
		snprintf(name, sizeof name, "%s: %s", fetcherr_word(net[i].e),
			 net[i].again ? "again" : "final, its word kept");
		setup(1, 0, net[i].e);
		v = retry_decide(&dflt, &j, 0, -1, 100, 0.5);
		check_true(name, v.again == net[i].again && (v.again || v.error == net[i].e));
	}
	/* curl took a status line and a close for an answer: xfer.c calls
	 * it reset, and a listed status is still a status to retry. */
	setup(1, 503, FETCHERR_RESET);
	check_true("503 cut inside its headers: again", retry_decide(&dflt, &j, 1, -1, 100, 0.5).again);
	setup(1, 503, FETCHERR_NONE);
	check_true("a listed status without an answer (not CURLE_OK) is no status retry",
		   !retry_decide(&dflt, &j, 0, -1, 100, 0.5).again);
	struct retry_conf only = dflt;
	only.n_retry_on = 1;   /* --retry-on 429 */
	setup(1, 503, FETCHERR_NONE);
	check_true("--retry-on 429: 503 is final", !retry_decide(&only, &j, 1, -1, 100, 0.5).again);
	check_true("retry_status_listed: 429 yes, 200 no",
		   retry_status_listed(&only, 429) && !retry_status_listed(&only, 200));
}

static void
retries_run_out(void)
{
	struct retry_verdict v;
	setup(4, 503, FETCHERR_NONE);   /* the first attempt and --retries 3 */
	v = retry_decide(&dflt, &j, 1, -1, 100, 0.5);
	check_true("after 1 + --retries attempts: final", !v.again);
	check_int("a listed status: retries_exhausted", FETCHERR_RETRIES_EXHAUSTED, v.error);
	setup(3, 503, FETCHERR_NONE);
	check_true("after 3 attempts: one more", retry_decide(&dflt, &j, 1, -1, 100, 0.5).again);
	setup(4, 0, FETCHERR_TIMEOUT);
	v = retry_decide(&dflt, &j, 0, -1, 100, 0.5);
	check_true("a network failure out of retries keeps its word",
		   !v.again && v.error == FETCHERR_TIMEOUT);
	/* Earlier leases' attempts count at the first hop, not at a
	 * redirect target: each hop has its own retries. */
	setup(1, 503, FETCHERR_NONE);
	j.prior = 3;
	check_true("--queue: 3 attempts in earlier leases + 1 now: final",
		   !retry_decide(&dflt, &j, 1, -1, 100, 0.5).again);
	j.target = "http://b.test/";
	check_true("at a redirect target earlier leases do not count",
		   retry_decide(&dflt, &j, 1, -1, 100, 0.5).again);
	struct retry_conf none = dflt;
	none.retries = 0;
	setup(1, 503, FETCHERR_NONE);
	check_true("--retries 0: never again", !retry_decide(&none, &j, 1, -1, 100, 0.5).again);
}

static void
waits(void)
{
	struct retry_verdict v;
	/* Full jitter: unit times min(60, backoff * 2^(tried-1)). */
	const struct { int tried; double unit, wait; } b[] = {
		{ 1, 0.5, 0.5 }, { 2, 0.5, 1 }, { 3, 0.5, 2 }, { 3, 0, 0 }, { 3, 0.999999, 3.999996 },
	};
	for (size_t i = 0; i < sizeof b / sizeof *b; i++) {
		char name[80];
		snprintf(name, sizeof name, "backoff after %d attempts, jitter %g: %g s", b[i].tried,
			 b[i].unit, b[i].wait);
		setup(b[i].tried, 503, FETCHERR_NONE);
		v = retry_decide(&dflt, &j, 1, -1, 100, b[i].unit);
		if (check_true(name, v.again))
			check_sec(name, b[i].wait, v.wait);
	}
	struct retry_conf big = dflt;
	big.retries = 20;
	setup(10, 503, FETCHERR_NONE);
	v = retry_decide(&big, &j, 1, -1, 100, 1);
	check_sec("the backoff's cap: 60 s", PACE_BACKOFF_CAP, v.wait);
	struct retry_conf slow = dflt;
	slow.backoff = 2.5;
	setup(2, 503, FETCHERR_NONE);
	check_sec("--backoff 2.5, 2 attempts, jitter 1: 5 s", 5,
		  retry_decide(&slow, &j, 1, -1, 100, 1).wait);

	/* Retry-After (seconds; libcurl reads both of its forms into
	 * seconds, xfer.c passes them on) replaces the backoff. */
	setup(1, 429, FETCHERR_NONE);
	v = retry_decide(&dflt, &j, 1, 7, 100, 0.5);
	if (check_true("Retry-After 7: again", v.again))
		check_sec("Retry-After 7: wait 7 s", 7, v.wait);
	v = retry_decide(&dflt, &j, 1, 300, 100, 0.5);
	check_true("Retry-After of exactly --max-retry-after: obeyed", v.again && v.wait == 300);
	v = retry_decide(&dflt, &j, 1, 301, 100, 0.5);
	check_true("Retry-After past --max-retry-after: final", !v.again);
	check_int("... as retry_after", FETCHERR_RETRY_AFTER, v.error);
	check_str("... saying so", "server asked to wait 301 s, more than --max-retry-after", v.detail);
	setup(1, 0, FETCHERR_TIMEOUT);
	v = retry_decide(&dflt, &j, 0, 400, 100, 0.5);
	check_int("a long Retry-After ends even a network failure", FETCHERR_RETRY_AFTER, v.error);
	setup(4, 503, FETCHERR_NONE);
	v = retry_decide(&dflt, &j, 1, 400, 100, 0.5);
	check_int("the wait is judged before the count", FETCHERR_RETRY_AFTER, v.error);
}

static void
deadlines(void)
{
	struct retry_verdict v;
	/* The retry must be able to start before the deadline (700). */
	struct retry_conf patient = dflt;
	patient.max_retry_after = 1000;
	setup(1, 503, FETCHERR_NONE);
	v = retry_decide(&patient, &j, 1, 600, 100, 0.5);
	check_true("a wait ending at the deadline: again", v.again);
	v = retry_decide(&dflt, &j, 1, 200, 500.5, 0.5);
	check_true("a wait ending after it: final", !v.again);
	check_int("... a listed status: retries_exhausted", FETCHERR_RETRIES_EXHAUSTED, v.error);
	check_str("... the deadline said", "--max-elapsed (600 s) passed before attempt 2", v.detail);
	/* Its host is held (a Retry-After, the breaker) past the deadline. */
	setup(1, 0, FETCHERR_TIMEOUT);
	pace_defer(&h.pace, 750);
	v = retry_decide(&dflt, &j, 0, -1, 100, 0.5);
	check_true("a host held past the deadline: final, its word kept",
		   !v.again && v.error == FETCHERR_TIMEOUT);

	/* Before the first attempt, waiting costs nothing while the host
	 * is healthy; its sick clock's advance is charged. */
	setup(0, 0, FETCHERR_NONE);
	j.queued_sick = pace_sick_clock(&h.pace, 50);
	check_sec("unstarted, healthy host: the deadline moves with now", 1100,
		  retry_deadline(&dflt, &j, 500));
	h.pace.sick = 1;
	h.pace.sick_since = 400;
	check_sec("unstarted, host sick since 400: charged 100 s at 500", 1000,
		  retry_deadline(&dflt, &j, 500));
	j.attempts = 1;
	j.deadline = 640;
	check_sec("started: its own deadline", 640, retry_deadline(&dflt, &j, 500));

	setup(0, 0, FETCHERR_NONE);
	v = retry_expired(&dflt, &j);
	check_int("never started by its deadline: deadline", FETCHERR_DEADLINE, v.error);
	check_str("... saying why", "not started within --max-elapsed (600 s): its host was failing",
		  v.detail);
	setup(2, 503, FETCHERR_RETRIES_EXHAUSTED);
	v = retry_expired(&dflt, &j);
	check_true("tried: keeps its word", !v.again && v.error == FETCHERR_RETRIES_EXHAUSTED);
	check_str("... the deadline said", "--max-elapsed (600 s) passed before attempt 3", v.detail);
}

/* Retry-After's two forms (RFC 9110 10.2.3), as xfer.c reads them. */
static void
retry_after_forms(void)
{
	double now = 784111777;   /* Sun, 06 Nov 1994 08:49:37 GMT */
	check_sec("Retry-After: 120", 120, retry_after_seconds("120", now));
	check_sec("Retry-After: 0 (go now, not \"none\")", 0, retry_after_seconds("0", now));
	check_sec("Retry-After: an HTTP-date 30 s ahead", 30,
		  retry_after_seconds("Sun, 06 Nov 1994 08:50:07 GMT", now));
	check_sec("Retry-After: an HTTP-date past: 0", 0,
		  retry_after_seconds("Sun, 06 Nov 1994 08:00:00 GMT", now));
	check_sec("Retry-After: the obsolete RFC 850 form", 30,
		  retry_after_seconds("Sunday, 06-Nov-94 08:50:07 GMT", now));
	check_sec("no Retry-After: -1", -1, retry_after_seconds(NULL, now));
	check_sec("Retry-After: soon (neither form): -1", -1, retry_after_seconds("soon", now));
	check_sec("Retry-After: -5: -1", -1, retry_after_seconds("-5", now));
	check_sec("Retry-After: 99999999999 is capped, not overflowed", 1e9,
		  retry_after_seconds("99999999999", now));
}

/* Which failures say the origin cannot be reached at all. */
static void
unreachable(void)
{
	const struct { enum fetcherr e; int connected; enum fetcherr want; } c[] = {
		{ FETCHERR_DNS, 0, FETCHERR_DNS }, { FETCHERR_CONNECT, 0, FETCHERR_CONNECT },
		{ FETCHERR_TLS, 1, FETCHERR_TLS }, { FETCHERR_PROXY, 0, FETCHERR_PROXY },
		{ FETCHERR_TIMEOUT, 0, FETCHERR_TIMEOUT }, { FETCHERR_TIMEOUT, 1, FETCHERR_NONE },
		{ FETCHERR_RESET, 1, FETCHERR_NONE }, { FETCHERR_TOO_LARGE, 1, FETCHERR_NONE },
	};
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		char name[96];
		snprintf(name, sizeof name, "%s%s: %s", fetcherr_word(c[i].e),
			 c[i].connected ? " once connected" : " before connecting",
			 c[i].want ? "unreachable" : "the host was reached");
		setup(1, 0, c[i].e);
		j.connected = c[i].connected;
		check_int(name, c[i].want, retry_unreachable(&j, 0));
	}
	setup(1, 503, FETCHERR_NONE);
	check_int("an answer (a 503): reached", FETCHERR_NONE, retry_unreachable(&j, 1));
}

static int
take(void *arg, const fr_row *r)
{
	(void)arg, (void)r;
	return 1;
}

static double
no_gap(void *arg, const fr_row *r)
{
	(void)arg, (void)r;
	return 0;
}

static char exhausted_detail[256];

static void
exhausted(void *arg, const fr_row *r, const char *detail)
{
	(void)arg, (void)r;
	snprintf(exhausted_detail, sizeof exhausted_detail, "%s", detail);
}

/* --max-attempts: the frontier leases a URL at most that many times;
 * the next lease ends it as attempts_exhausted. */
static void
max_attempts(void)
{
	char path[] = "/tmp/test_retry_XXXXXX";
	int fd = mkstemp(path);
	if (!check_true("a frontier file", fd >= 0))
		return;
	close(fd);
	unlink(path);
	char err[256];
	fr *f = fr_open(path, NULL, NULL, err, sizeof err);
	if (!check_true("the frontier opens", f != NULL))
		return;
	fr_join(f, 1000);
	fr_add(f, "http://a.test/x", "a.test", "a.test", 0, NULL);
	int leased = 0;
	for (int i = 0; i < 3; i++) {
		double now = 1000 + i * 100;   /* each lease of 10 s has expired */
		fr_expire(f, now);
		leased += fr_lease(f, 10, now, 10, 2, no_gap, take, exhausted, NULL);
	}
	check_int("--max-attempts 2: leased twice", 2, leased);
	check_str("then exhausted, its detail saying so", "leased 2 times, never acknowledged",
		  exhausted_detail);
	fr_close(f);
	unlink(path);
	char side[64];
	snprintf(side, sizeof side, "%s-wal", path);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", path);
	unlink(side);
}

int
main(void)
{
	what_is_retried();
	retries_run_out();
	waits();
	deadlines();
	retry_after_forms();
	unreachable();
	max_attempts();
	return check_done();
}
