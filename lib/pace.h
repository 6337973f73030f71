/* pace — one host's pacing as a state machine on a settable clock.
 *
 * Everything that decides when a host may next be asked: its configured
 * interval and token bucket, what robots.txt's Crawl-delay and the
 * host's own answers taught (AutoThrottle), the circuit breaker and the
 * sick clock.  No globals, no I/O: every function that depends on time
 * takes `now` (seconds on a monotonic clock, as libuv's loop time), and
 * randomness enters as an argument, so the rules are tested
 * deterministically (tests/unit/test_pace.c).
 *
 * next_start is written here only: pace_started sets it, pace_defer is
 * the one way to push it later.
 */
#ifndef SLUICE_PACE_H
#define SLUICE_PACE_H

#define PACE_BACKOFF_CAP 60.0   /* seconds, for one URL's wait */
#define PACE_PAUSE_CAP 3600.0   /* seconds, for one breaker pause */
#define PACE_SETTLED 1.1        /* a raised delay this near its target has recovered */
#define PACE_THROTTLED 0.25     /* seconds, the least interval a 429/503 leaves */

/* The flags the rules read (fetch's values of the same names). */
struct pace_conf {
	double target_concurrency; /* learnt delay = latency / it */
	double max_delay;          /* the learnt delay's cap */
	double max_elapsed;        /* neither a learnt delay nor a pause exceeds it */
	double max_retry_after;    /* a longer Retry-After is not obeyed */
	long host_failures;        /* transient failures in a row that trip the breaker */
	double host_pause;         /* the first trip's pause */
};

/* fetch's defaults for them (its option table), an initializer: a
 * host's interval follows its latency / 2, at most 60 s; a Retry-After
 * up to 300 s is obeyed; 10 transient failures in a row pause it for
 * 60 s, doubling; no wait passes 600 s.  render, which has no such
 * flags, runs on them as they are. */
#define PACE_CONF_DEFAULT { .target_concurrency = 2, .max_delay = 60, .max_elapsed = 600, \
			    .max_retry_after = 300, .host_failures = 10, .host_pause = 60 }

/* One host's pacing.  The caller sets delay, rate and burst (the
 * configuration, which may change at any time), and crawl_delay; the
 * rest is the machine's, read freely, written through the functions. */
struct pace {
	double delay;            /* configured start interval */
	double crawl_delay;      /* robots.txt Crawl-delay, the largest of its origins' */
	double rate, burst;      /* token bucket: starts/s (0 = off), depth */
	double tokens, tokens_at;
	double next_start;       /* no start before this */
	/* what the host's answers taught */
	double adapt_delay;      /* learnt start interval, 0 before any answer */
	double backoff_at;       /* when the last 429/503 doubled it */
	int throttled;           /* a 429/503 not yet recovered from */
	/* the circuit breaker */
	int failures;            /* transient failures in a row */
	int trips;               /* breaker trips in a row */
	double paused_until;
	/* the sick clock */
	int sick;                /* throttled, failures or trips: struggling */
	double sick_since;       /* when it last became sick */
	double sick_total;       /* seconds sick before that */
	/* the yield guard's brake (pace_brake) */
	int brake;               /* halvings of the rate in force, 0 = none */
	double brake_base;       /* the interval the host had when braked first */
	double last_start;       /* when the last request started, 0 = none yet */
	double start_gap;        /* mean gap between starts (weighted, recent first) */
};

/* A new host's machine, once delay, rate and burst are set: a full
 * bucket as of now. */
void pace_begin(struct pace *p, double now);

/* The politeness floor: the configured delay, raised by Crawl-delay.
 * No learnt interval goes below it. */
double pace_floor(const struct pace *p);

/* The current start interval: the floor, raised by what the host taught
 * us (its latency, 429/503: pace_answer), and by the brake (pace_brake). */
double pace_interval(const struct pace *p);

/* Earliest time another request may start, ignoring how many are in
 * flight: next_start, the breaker's pause and the token bucket.  Refills
 * the bucket up to now as a side effect. */
double pace_ready_at(struct pace *p, double now);

/* A request starts now: spends a token (rate > 0) and sets next_start
 * to now + the interval. */
void pace_started(struct pace *p, double now);

/* No start before until: next_start moves later, never earlier.  The
 * one way to hold a host back (Retry-After, robots.txt's wait, another
 * fetch's pace of a host taken over). */
void pace_defer(struct pace *p, double until);

/* A started request actually leaves now: the interval counts from here
 * as well as from the start, and what the bucket refilled since the
 * start is not earned while the request had not left. */
void pace_sent(struct pace *p, double now);

/* When the host is free again: the later of next_start and the pause. */
double pace_free_at(const struct pace *p);

/* Whether nothing is pending at now: no wait, no pause. */
int pace_idle(const struct pace *p, double now);

/* Scrapy AutoThrottle's rule on one answer of the host with HTTP status,
 * its latency (seconds to the first byte), the Retry-After it carried
 * (< 0: none), and when its request started:
 *
 * - target = latency / target_concurrency; the next delay is
 *   max(target, mean of the old delay and target): up at once, down by
 *   averaging.  Only a 2xx or a 304 (a recrawl's unchanged page) may
 *   lower it: error pages are small and quick, and would otherwise
 *   speed up a host that is failing.
 * - 429/503 with a Retry-After (within max_retry_after): the whole
 *   host waits that long, and then goes on at the delay it had: the
 *   server said how long, and the burst is not its steady rate.  A
 *   Retry-After of 0 (or a date already past) holds it not at all.
 * - 429/503 without one: the interval in force doubles, once per burst
 *   (answers to requests started before the last doubling are the same
 *   event), to at least PACE_THROTTLED (twice a fast host's 1 ms is no
 *   slowing down); successes then average it back toward the target.
 *
 * The delay stays between max_delay (and max_elapsed: longer, every URL
 * of the host would expire unprobed) and the floor, which wins over
 * both: the floor is what the user or robots.txt asked for. */
void pace_answer(struct pace *p, const struct pace_conf *c, long status, double latency,
		 double retry_after, double started_at, double now);

/* The circuit breaker on one attempt's outcome: a transient failure
 * counts, host_failures of them in a row pause the host for host_pause,
 * doubling with each trip in a row, at most max_elapsed (longer, every
 * URL of the host would expire unprobed) and PACE_PAUSE_CAP, plus up to
 * 20% jitter (jitter_unit in [0, 1)).  Any other answer (ok: the request
 * got one) resets both counts.  Then pace_sick_update; returns what it
 * returns. */
int pace_outcome(struct pace *p, const struct pace_conf *c, int transient_failure, int ok,
		 double now, double jitter_unit);

/* Starts or stops the sick clock after the state changed.  A learnt
 * interval alone is not sickness: following the host's latency is the
 * pace a healthy host sets.  Only a 429/503 not yet recovered from (the
 * interval it raised still above the latency target, or no success
 * since it asked for a Retry-After), failures in a row or a trip are.
 * Returns 1 when the clock just started (the host's queue now has
 * deadlines), else 0. */
int pace_sick_update(struct pace *p, double now);

/* Seconds the host has been sick, up to now. */
double pace_sick_clock(const struct pace *p, double now);

/* The yield guard's brake: from now the host runs at 1/2^halvings of
 * the rate it had before the first halving.  That rate is the larger of
 * its interval in force and what its starts actually showed (their mean
 * gap, and 1/rate of a token bucket): an unpaced host has no interval,
 * yet a rate to halve.  The braked interval is that base times
 * 2^halvings, within max_delay and max_elapsed (as a learnt one), never
 * below the interval the rest of the rules ask.  halvings 0 lifts the
 * brake; a later step keeps the first base, so the second halving
 * halves the same rate again (x0.25), not the braked one.  Returns the
 * interval in force now. */
double pace_brake(struct pace *p, const struct pace_conf *c, int halvings);

/* The wait before a retry without Retry-After, after tried attempts
 * (>= 1): full jitter, unit (in [0, 1]) times the exponential cap
 * min(PACE_BACKOFF_CAP, backoff * 2^(tried-1)), so retries of many URLs
 * spread out instead of firing in step.  unit 1 gives the cap itself. */
double pace_backoff(double backoff, int tried, double unit);

#endif
