/* Unit tests of lib/pace: one host's pacing on a clock the test sets.
 * No wall time passes: every `now` is a number written here, and the
 * jitter is passed in, so each expected value is exact. */
#include "pace.h"

#include <math.h>

#define CHECK_PROG "test_pace"
#include "check.h"

static const struct pace_conf dflt = PACE_CONF_DEFAULT;

/* Whether the host may start at now. */
static int
ready(struct pace *p, double now)
{
	return pace_ready_at(p, now) <= now;
}

static struct pace
fresh(double delay, double rate, double burst, double now)
{
	struct pace p = { .delay = delay, .rate = rate, .burst = burst };
	pace_begin(&p, now);
	return p;
}

static void
token_bucket(void)
{
	/* --rate 2 --burst 3: three at once, then one every half second. */
	struct pace p = fresh(0, 2, 3, 100);
	for (int i = 0; i < 3; i++) {
		check_true("bucket: a start of the burst may go at once", ready(&p, 100));
		pace_started(&p, 100);
	}
	check_sec("bucket: burst spent, next at 1/rate", 100.5, pace_ready_at(&p, 100));
	check_sec("bucket: still waiting a little later", 100.5, pace_ready_at(&p, 100.25));
	check_true("bucket: refilled one at 100.5", ready(&p, 100.5));
	pace_started(&p, 100.5);
	check_sec("bucket: then the rate", 101, pace_ready_at(&p, 100.5));
	/* A long idle refills to the burst, not beyond. */
	pace_ready_at(&p, 1000);
	check_sec("bucket: refills up to burst only", 3, p.tokens);
	for (int i = 0; i < 3; i++)
		pace_started(&p, 1000);
	check_sec("bucket: after an idle, again burst then rate", 1000.5, pace_ready_at(&p, 1000));

	/* A request that leaves late earns nothing for the time it waited. */
	p = fresh(0, 1, 1, 10);
	pace_started(&p, 10);
	pace_sent(&p, 10.4);
	check_sec("bucket: sent late: refill counts from the send", 10.4, p.tokens_at);
	check_sec("bucket: sent late: next token 1/rate after the send", 11.4,
		  pace_ready_at(&p, 10.4));
	pace_sent(&p, 10.2);
	check_sec("bucket: an earlier send moves nothing back", 10.4, p.tokens_at);

	/* rate 0: no bucket. */
	p = fresh(0, 0, 1, 10);
	for (int i = 0; i < 5; i++)
		pace_started(&p, 10);
	check_true("bucket: rate 0 is off", ready(&p, 10));
}

static void
interval(void)
{
	struct pace p = fresh(1, 0, 1, 0);
	check_sec("interval: -d is the floor", 1, pace_floor(&p));
	check_sec("interval: and the interval", 1, pace_interval(&p));
	pace_started(&p, 10);
	check_sec("interval: next start one delay on", 11, p.next_start);
	check_sec("interval: not ready before it", 11, pace_ready_at(&p, 10.5));
	check_true("interval: ready after it", ready(&p, 12));

	p.crawl_delay = 5;
	check_sec("interval: Crawl-delay above -d raises the floor", 5, pace_floor(&p));
	p.crawl_delay = 0.5;
	check_sec("interval: Crawl-delay below -d does not lower it", 1, pace_floor(&p));

	p.crawl_delay = 5;
	p.adapt_delay = 3;
	check_sec("interval: a learnt delay below the floor does not count", 5, pace_interval(&p));
	p.adapt_delay = 7;
	check_sec("interval: a learnt delay above the floor does", 7, pace_interval(&p));

	/* A fast answer never teaches a delay below the floor. */
	p = fresh(2, 0, 1, 0);
	pace_answer(&p, &dflt, 200, 0.01, -1, 0, 1);
	check_sec("interval: learnt delay never below -d", 2, p.adapt_delay);
	p.crawl_delay = 4;
	pace_answer(&p, &dflt, 200, 0.01, -1, 1, 2);
	check_sec("interval: learnt delay never below Crawl-delay", 4, p.adapt_delay);

	/* The send counts too: a start held up does not crowd the next. */
	p = fresh(1, 0, 1, 0);
	pace_started(&p, 10);
	pace_sent(&p, 10.3);
	check_sec("interval: counts from a late send", 11.3, p.next_start);
	pace_sent(&p, 10.1);
	check_sec("interval: an earlier send does not shorten it", 11.3, p.next_start);
}

static void
retry_after(void)
{
	struct pace p = fresh(0, 0, 1, 0);
	pace_answer(&p, &dflt, 429, 0.1, 30, 99, 100);
	check_sec("retry-after: holds the host that long", 130, p.next_start);
	check_int("retry-after: throttled", 1, p.throttled);
	check_sec("retry-after: the delay it had stays", 0, p.adapt_delay);
	check_sec("retry-after: nothing starts before", 130, pace_ready_at(&p, 101));
	pace_answer(&p, &dflt, 503, 0.1, 5, 100, 101);
	check_sec("retry-after: a later smaller one does not shorten it", 130, p.next_start);
	pace_defer(&p, 120);
	check_sec("retry-after: defer never moves it earlier", 130, p.next_start);
	pace_defer(&p, 140);
	check_sec("retry-after: defer moves it later", 140, p.next_start);
	check_sec("retry-after: free at the later of hold and pause", 140, pace_free_at(&p));
	check_int("retry-after: not idle while held", 0, pace_idle(&p, 139));
	check_int("retry-after: idle after", 1, pace_idle(&p, 140));

	/* Above --max-retry-after it is no hold: the interval doubles. */
	p = fresh(0, 0, 1, 0);
	pace_answer(&p, &dflt, 429, 0.1, 301, 99, 100);
	check_sec("retry-after: too long: no hold", 0, p.next_start);
	check_sec("retry-after: too long: doubles instead", 0.25, p.adapt_delay);

	/* Retry-After: 0 (or a date past: fetch reads both as 0) says go
	 * now: no hold, and not the doubling of a 429 without one. */
	p = fresh(0, 0, 1, 0);
	int held = 0;
	for (int i = 0; i < 8; i++) {
		pace_answer(&p, &dflt, 429, 0.001, 0, 99 + i, 100 + i);
		held += !ready(&p, 100 + i);
	}
	check_int("retry-after 0: no hold, however many", 0, held);
	check_sec("retry-after 0: no doubling", 0, p.adapt_delay);
	check_true("retry-after 0: the host may start at once", ready(&p, 108));
}

/* A small deterministic generator, so a failure repeats. */
static unsigned long long rng = 88172645463325252ULL;

static double
unit(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

/* Property: whatever a host went through, it is never held without a
 * wake-up: the time it may start again is finite, within the longest
 * hold any rule sets (a breaker pause with its jitter, --max-delay,
 * --max-retry-after), and a host free at that time may start then. */
static void
always_wakes(void)
{
	const double bound = PACE_PAUSE_CAP * 1.2 + dflt.max_retry_after + dflt.max_delay;
	int held_ok = 1, wakes = 1;
	for (int run = 0; run < 200; run++) {
		struct pace p = fresh(unit() < 0.3 ? unit() : 0, unit() < 0.3 ? 1 + 4 * unit() : 0,
				      1 + (int)(3 * unit()), 0);
		double now = 0;
		for (int step = 0; step < 200; step++) {
			now += unit() < 0.5 ? 0 : unit() * 5;
			double r = unit();
			if (r < 0.3) {
				if (pace_ready_at(&p, now) <= now)
					pace_started(&p, now);
			} else if (r < 0.6) {
				static const long st[] = { 200, 304, 404, 429, 503, 500 };
				double ra = unit() < 0.3 ? -1 : unit() < 0.5 ? 0 : unit() * 400;
				pace_answer(&p, &dflt, st[(int)(unit() * 6)], unit(), ra, now - unit(), now);
			} else if (r < 0.8) {
				pace_outcome(&p, &dflt, unit() < 0.6, unit() < 0.3, now, unit());
			} else if (r < 0.9) {
				pace_defer(&p, now + (unit() < 0.5 ? -unit() : unit() * 10));
			} else {
				pace_brake(&p, &dflt, (int)(3 * unit()));
			}
			double at = pace_ready_at(&p, now);
			if (!isfinite(at) || at > now + bound)
				held_ok = 0;
			if (at > now && pace_ready_at(&p, at) > at + 1e-9)
				wakes = 0;
		}
	}
	check_true("property: a held host's wake-up is finite and bounded (200 random runs)", held_ok);
	check_true("property: at its wake-up time it may start", wakes);
}

static void
backoff(void)
{
	static const struct { double backoff; int tried; double want; } caps[] = {
		{ 1, 1, 1 }, { 1, 2, 2 }, { 1, 3, 4 }, { 1, 6, 32 }, { 1, 7, 60 },
		{ 1, 30, 60 }, { 0.5, 3, 2 }, { 100, 1, 60 },
	};
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		char name[96];
		snprintf(name, sizeof name, "backoff: cap of --backoff %g after %d", caps[i].backoff,
			 caps[i].tried);
		check_sec(name, caps[i].want, pace_backoff(caps[i].backoff, caps[i].tried, 1));
		snprintf(name, sizeof name, "backoff: unit 0 after %d waits nothing", caps[i].tried);
		check_sec(name, 0, pace_backoff(caps[i].backoff, caps[i].tried, 0));
	}
	check_sec("backoff: half the cap at unit 0.5", 2, pace_backoff(1, 3, 0.5));
	double top = pace_backoff(1, 7, 0.999999);
	check_true("backoff: unit ~1 stays below the 60 s cap", top < PACE_BACKOFF_CAP);
	check_true("backoff: unit ~1 comes near it", top > 59.99);
}

/* n transient failures in a row at now. */
static void
fail(struct pace *p, const struct pace_conf *c, int n, double now, double jitter)
{
	for (int i = 0; i < n; i++)
		pace_outcome(p, c, 1, 0, now, jitter);
}

static void
breaker(void)
{
	struct pace_conf c = dflt;
	c.host_failures = 3;
	c.host_pause = 10;
	struct pace p = fresh(0, 0, 1, 0);
	fail(&p, &c, 2, 100, 0);
	check_int("breaker: counts failures in a row", 2, p.failures);
	check_sec("breaker: no pause below --host-failures", 0, p.paused_until);
	fail(&p, &c, 1, 100, 0);
	check_sec("breaker: trips at --host-failures for --host-pause", 110, p.paused_until);
	check_int("breaker: one trip", 1, p.trips);
	check_int("breaker: count starts again", 0, p.failures);
	check_sec("breaker: nothing starts while paused", 110, pace_ready_at(&p, 101));
	fail(&p, &c, 3, 200, 0);
	check_sec("breaker: pause doubles on the 2nd trip", 220, p.paused_until);
	fail(&p, &c, 3, 300, 0);
	check_sec("breaker: and on the 3rd", 340, p.paused_until);
	fail(&p, &c, 3, 400, 0.5);
	check_sec("breaker: jitter adds up to 20% (unit 0.5: 10%)", 488, p.paused_until);

	/* A failure that is not transient (ok 0, not retried) changes nothing. */
	fail(&p, &c, 1, 500, 0);
	pace_outcome(&p, &c, 0, 0, 500, 0);
	check_int("breaker: a final failure keeps the count", 1, p.failures);
	check_int("breaker: and the trips", 4, p.trips);
	/* An answer resets both. */
	pace_outcome(&p, &c, 0, 1, 500, 0);
	check_int("breaker: an answer resets failures", 0, p.failures);
	check_int("breaker: and trips", 0, p.trips);
	fail(&p, &c, 3, 600, 0);
	check_sec("breaker: after a reset the pause is --host-pause again", 610, p.paused_until);

	/* Capped by --max-elapsed ... */
	c.max_elapsed = 50;
	p = fresh(0, 0, 1, 0);
	fail(&p, &c, 3 * 4, 1000, 0);
	check_sec("breaker: pause capped by --max-elapsed (80 -> 50)", 1050, p.paused_until);
	/* ... and by an hour. */
	c.max_elapsed = 100000;
	c.host_pause = 1000;
	p = fresh(0, 0, 1, 0);
	fail(&p, &c, 3 * 3, 1000, 0);
	check_sec("breaker: pause capped at an hour (4000 -> 3600)", 4600, p.paused_until);
	fail(&p, &c, 3, 1000, 1);
	check_sec("breaker: jitter on top of the cap, at most 20%", 1000 + 3600 * 1.2,
		  p.paused_until);
}

static void
adaptive(void)
{
	struct pace p = fresh(0, 0, 1, 0);
	pace_answer(&p, &dflt, 200, 1.0, -1, 0, 1);
	check_sec("adapt: up at once to latency / --target-concurrency", 0.5, p.adapt_delay);
	pace_answer(&p, &dflt, 200, 0.2, -1, 1, 2);
	check_sec("adapt: down by averaging (0.5 and 0.1)", 0.3, p.adapt_delay);
	pace_answer(&p, &dflt, 404, 0, -1, 2, 3);
	check_sec("adapt: only a 2xx lowers it", 0.3, p.adapt_delay);
	pace_answer(&p, &dflt, 304, 0.2, -1, 2, 3);
	check_sec("adapt: ... or a 304, a recrawl's unchanged page (0.3 and 0.1)", 0.2,
		  p.adapt_delay);
	pace_answer(&p, &dflt, 500, 2.0, -1, 3, 4);
	check_sec("adapt: any answer may raise it", 1, p.adapt_delay);
	check_int("adapt: a slow host is not throttled", 0, p.throttled);

	/* 429 without Retry-After: the interval doubles, once per burst. */
	pace_answer(&p, &dflt, 429, 0, -1, 10, 11);
	check_sec("adapt: 429 doubles the interval", 2, p.adapt_delay);
	check_int("adapt: 429 throttles", 1, p.throttled);
	pace_answer(&p, &dflt, 429, 0, -1, 10.5, 11.5);
	check_sec("adapt: a 429 to a request started before it is the same burst", 2,
		  p.adapt_delay);
	pace_answer(&p, &dflt, 503, 0, -1, 12, 12.5);
	check_sec("adapt: a 503 started after doubles again", 4, p.adapt_delay);

	/* From a fast host: at least a quarter second. */
	p = fresh(0, 0, 1, 0);
	pace_answer(&p, &dflt, 200, 0.002, -1, 0, 1);
	pace_answer(&p, &dflt, 429, 0.001, -1, 1, 2);
	check_sec("adapt: 429 leaves at least 0.25 s", PACE_THROTTLED, p.adapt_delay);

	/* Successes average it back; throttled clears once within 10% of
	 * what the latency alone asks: 0.15 0.1 0.075 0.0625 0.05625 stay
	 * above 1.1 * 0.05, the 6th (0.053125) is within. */
	for (int i = 1; i <= 6; i++) {
		pace_answer(&p, &dflt, 200, 0.1, -1, 2 + i, 2 + i);
		char name[80];
		snprintf(name, sizeof name, "adapt: throttled after %d successes", i);
		check_int(name, i < 6, p.throttled);
	}
	check_sec("adapt: back near the target", 0.053125, p.adapt_delay);
	pace_answer(&p, &dflt, 429, 0.001, -1, 100, 100);
	pace_answer(&p, &dflt, 500, 0.001, -1, 101, 101);
	check_int("adapt: only a 2xx clears throttled", 1, p.throttled);

	/* Clamped to --max-delay, to --max-elapsed, and the floor wins. */
	struct pace_conf c = dflt;
	c.max_delay = 3;
	p = fresh(0, 0, 1, 0);
	pace_answer(&p, &c, 200, 20, -1, 0, 1);
	check_sec("adapt: at most --max-delay", 3, p.adapt_delay);
	pace_answer(&p, &c, 429, 0, -1, 1, 2);
	check_sec("adapt: a doubling too", 3, p.adapt_delay);
	c.max_elapsed = 2;
	pace_answer(&p, &c, 200, 20, -1, 2, 3);
	check_sec("adapt: at most --max-elapsed", 2, p.adapt_delay);
	p.delay = 5;
	pace_answer(&p, &c, 200, 20, -1, 3, 4);
	check_sec("adapt: the floor wins over both", 5, p.adapt_delay);
}

static void
sick(void)
{
	struct pace p = fresh(0, 0, 1, 0);
	check_sec("sick: a new host's clock is 0", 0, pace_sick_clock(&p, 100));
	check_int("sick: a failure starts the clock", 1, pace_outcome(&p, &dflt, 1, 0, 100, 0));
	check_sec("sick: it runs", 5, pace_sick_clock(&p, 105));
	check_int("sick: already running: not started again", 0,
		  pace_outcome(&p, &dflt, 1, 0, 106, 0));
	check_int("sick: an answer stops it", 0, pace_outcome(&p, &dflt, 0, 1, 110, 0));
	check_int("sick: not sick", 0, p.sick);
	check_sec("sick: stopped: total kept", 10, pace_sick_clock(&p, 200));
	pace_outcome(&p, &dflt, 1, 0, 300, 0);
	pace_outcome(&p, &dflt, 0, 1, 303, 0);
	check_sec("sick: total accrues", 13, pace_sick_clock(&p, 400));

	/* A 429 not recovered from is sickness; a slow host is not. */
	pace_answer(&p, &dflt, 429, 0, -1, 500, 500);
	check_int("sick: throttled starts it", 1, pace_outcome(&p, &dflt, 0, 1, 500, 0));
	check_sec("sick: running while throttled", 15, pace_sick_clock(&p, 502));
	p = fresh(0, 0, 1, 0);
	pace_answer(&p, &dflt, 200, 10, -1, 0, 10);
	check_int("sick: a learnt interval alone is not", 0, pace_outcome(&p, &dflt, 0, 1, 10, 0));
	check_int("sick: clock stays off", 0, p.sick);
}

static void
brake(void)
{
	/* -d 0.2: halved twice the interval doubles, then doubles again,
	 * from the same base; lifted, it is -d's again. */
	struct pace p = fresh(0.2, 0, 1, 0);
	check_sec("brake: x0.5 doubles the interval", 0.4, pace_brake(&p, &dflt, 1));
	pace_started(&p, 10);
	check_sec("brake: the next start waits the braked interval", 10.4, pace_ready_at(&p, 10));
	check_sec("brake: x0.25 from the first base, not the braked one", 0.8, pace_brake(&p, &dflt, 2));
	check_sec("brake: and it is in force", 0.8, pace_interval(&p));
	check_sec("brake: one step back up", 0.4, pace_brake(&p, &dflt, 1));
	check_sec("brake: lifted: -d again", 0.2, pace_brake(&p, &dflt, 0));

	/* An unpaced host: the rate its starts showed is what is halved. */
	p = fresh(0, 0, 1, 0);
	for (int i = 0; i <= 8; i++)
		pace_started(&p, 100 + i * 0.1);
	check_sec("brake: unpaced: starts every 0.1 s", 0.1, p.start_gap);
	check_sec("brake: unpaced: x0.5 is one start every 0.2 s", 0.2, pace_brake(&p, &dflt, 1));

	/* A token bucket's rate counts too. */
	p = fresh(0, 4, 4, 0);
	check_sec("brake: --rate 4 halved: one start every 0.5 s", 0.5, pace_brake(&p, &dflt, 1));

	/* A learnt interval above the brake wins; the brake never lowers it. */
	p = fresh(0.2, 0, 1, 0);
	pace_brake(&p, &dflt, 1);
	p.adapt_delay = 3;
	check_sec("brake: a longer learnt interval wins", 3, pace_interval(&p));

	/* Within --max-delay, as a learnt interval. */
	struct pace_conf c = dflt;
	c.max_delay = 1;
	p = fresh(0.4, 0, 1, 0);
	check_sec("brake: x0.25 capped at --max-delay", 1, pace_brake(&p, &c, 2));
	check_sec("brake: a step back halves the capped one", 0.5, pace_brake(&p, &c, 1));
}

int
main(void)
{
	token_bucket();
	interval();
	retry_after();
	backoff();
	breaker();
	adaptive();
	sick();
	brake();
	always_wakes();
	return check_done();
}
