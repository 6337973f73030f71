/* pace — one host's pacing as a state machine on a settable clock. */
#include "pace.h"

#include <math.h>

void
pace_begin(struct pace *p, double now)
{
	p->tokens = p->burst;
	p->tokens_at = now;
}

double
pace_floor(const struct pace *p)
{
	return p->crawl_delay > p->delay ? p->crawl_delay : p->delay;
}

/* The interval without the brake. */
static double
unbraked(const struct pace *p)
{
	double d = pace_floor(p);
	return p->adapt_delay > d ? p->adapt_delay : d;
}

double
pace_interval(const struct pace *p)
{
	double d = unbraked(p);
	if (p->brake > 0 && p->brake_base * ldexp(1, p->brake) > d)
		d = p->brake_base * ldexp(1, p->brake);
	return d;
}

double
pace_ready_at(struct pace *p, double now)
{
	double t = p->next_start;
	if (p->paused_until > t)
		t = p->paused_until;
	if (p->rate > 0) {
		p->tokens = fmin(p->burst, p->tokens + (now - p->tokens_at) * p->rate);
		p->tokens_at = now;
		if (p->tokens < 1) {
			double refill = now + (1 - p->tokens) / p->rate;
			if (refill > t)
				t = refill;
		}
	}
	return t;
}

void
pace_started(struct pace *p, double now)
{
	/* The gap's mean weighs the last four starts most: recent enough
	 * to be the rate the brake halves, steady against one late start. */
	if (p->last_start > 0) {
		double gap = now - p->last_start;
		p->start_gap = p->start_gap > 0 ? 0.75 * p->start_gap + 0.25 * gap : gap;
	}
	p->last_start = now;
	p->next_start = now + pace_interval(p);
	if (p->rate > 0)
		p->tokens -= 1;
}

void
pace_defer(struct pace *p, double until)
{
	if (until > p->next_start)
		p->next_start = until;
}

void
pace_sent(struct pace *p, double now)
{
	pace_defer(p, now + pace_interval(p));
	if (p->rate > 0 && p->tokens_at < now)
		p->tokens_at = now;
}

double
pace_free_at(const struct pace *p)
{
	return fmax(p->next_start, p->paused_until);
}

int
pace_idle(const struct pace *p, double now)
{
	return p->next_start <= now && p->paused_until <= now;
}

/* d kept between max_delay (and max_elapsed) and the floor, which wins
 * over both. */
static double
clamp(const struct pace *p, const struct pace_conf *c, double d)
{
	return fmax(fmin(d, fmin(c->max_delay, c->max_elapsed)), pace_floor(p));
}

void
pace_answer(struct pace *p, const struct pace_conf *c, long status, double latency,
	    double retry_after, double started_at, double now)
{
	if (status == 429 || status == 503) {
		p->throttled = 1;
		if (retry_after >= 0 && retry_after <= c->max_retry_after)
			pace_defer(p, now + retry_after);
		else if (started_at >= p->backoff_at) {
			p->adapt_delay = clamp(p, c, fmax(2 * pace_interval(p), PACE_THROTTLED));
			p->backoff_at = now;
		}
		return;
	}
	double target = latency / c->target_concurrency;
	double d = clamp(p, c, fmax(target, (p->adapt_delay + target) / 2));
	/* A 304 answers a recrawl's conditional request: the page is there,
	 * unchanged, a success as much as a 200 (and all a recrawl gets). */
	int ok = (status >= 200 && status < 300) || status == 304;
	if (!ok && d <= p->adapt_delay)
		return;
	p->adapt_delay = d;
	/* Recovered once the delay is back within PACE_SETTLED of what the
	 * latency alone asks (averaging only nears it). */
	if (ok && d <= PACE_SETTLED * clamp(p, c, target))
		p->throttled = 0;
}

int
pace_outcome(struct pace *p, const struct pace_conf *c, int transient_failure, int ok,
	     double now, double jitter_unit)
{
	if (transient_failure) {
		if (++p->failures >= c->host_failures) {
			double pause = fmin(c->host_pause * pow(2, p->trips),
					    fmin(PACE_PAUSE_CAP, c->max_elapsed));
			p->paused_until = now + pause * (1 + 0.2 * jitter_unit);
			p->trips++;
			p->failures = 0;
		}
	} else if (ok) {
		p->failures = 0;
		p->trips = 0;
	}
	return pace_sick_update(p, now);
}

int
pace_sick_update(struct pace *p, double now)
{
	int sick = p->throttled || p->failures > 0 || p->trips > 0;
	if (sick == p->sick)
		return 0;
	if (sick)
		p->sick_since = now;
	else
		p->sick_total += now - p->sick_since;
	p->sick = sick;
	return sick;
}

double
pace_sick_clock(const struct pace *p, double now)
{
	return p->sick_total + (p->sick ? now - p->sick_since : 0);
}

double
pace_brake(struct pace *p, const struct pace_conf *c, int halvings)
{
	if (halvings <= 0) {
		p->brake = 0;
		p->brake_base = 0;
		return pace_interval(p);
	}
	if (p->brake == 0) {
		double base = fmax(unbraked(p), p->start_gap);
		if (p->rate > 0)
			base = fmax(base, 1 / p->rate);
		p->brake_base = base;
	}
	p->brake = halvings;
	/* Kept within the caps by lowering the base, so pace_interval
	 * needs no conf. */
	double cap = fmin(c->max_delay, c->max_elapsed);
	if (p->brake_base * ldexp(1, halvings) > cap)
		p->brake_base = cap / ldexp(1, halvings);
	return pace_interval(p);
}

double
pace_backoff(double backoff, int tried, double unit)
{
	return fmin(PACE_BACKOFF_CAP, backoff * pow(2, tried - 1)) * unit;
}
