/* progress — one status line on stderr while fetch runs:
 *
 *   fetch: 250/1024 done, 41.7/s, 12 in flight, 3 hosts waiting, 1 paused, 2 errors, 5 × 429
 *
 * With --sink-stats, sink's accepted records per second over its last
 * minute follow the rate: "41.7/s, 30.2 accepted/s, ...".
 *
 * Drawn when stderr is a terminal and -q is not given (--progress forces
 * it, --no-progress turns it off), at most 4 times a second, and ended
 * with a newline at exit.  Only fetch draws one: it is the stage that
 * knows how far the run is, and several stages redrawing one terminal
 * line would garble it.
 */
#include "fetch.h"

#include <stdio.h>
#include <unistd.h>

#include "msg.h"
#include "tm.h"

#define PROGRESS_EVERY_MS 250

static uv_timer_t timer;
static int on;

/* Hosts held now: by the circuit breaker or by hand. */
static size_t
paused_hosts(double now)
{
	size_t n = 0;
	size_t i = 0;
	for (const host *h; (h = host_next(&i));)
		n += h->pace.paused_until > now || host_hold(h);
	return n;
}

static void
draw(void)
{
	const fetch_stats *s = &F.stats;
	double now = tm_mono(), elapsed = now - s->started;
	unsigned long long errors = 0;
	for (int e = 0; e < FETCHERR_COUNT; e++)
		errors += s->errors[e];
	fprintf(stderr, "\r\033[K%s: %llu/%llu done, %.1f/s, ",
		msg_prog, s->records, s->records + (unsigned long long)F.alive,
		elapsed > 0 ? (double)s->records / elapsed : 0.0);
	double accepted = sinkstats_accepted_rate();
	if (accepted >= 0)
		fprintf(stderr, "%.1f accepted/s, ", accepted);
	fprintf(stderr, "%ld in flight, %zu hosts waiting, %zu paused, %llu errors, %llu × 429",
		F.inflight, F.n_ring, paused_hosts(now), errors, s->throttled);
	if (s->not_modified)   /* a recrawl's */
		fprintf(stderr, ", %llu unchanged", s->not_modified);
	fflush(stderr);
}

static void
on_timer(uv_timer_t *t)
{
	(void)t;
	draw();
}

void
progress_init(void)
{
	if (F.o.progress < 0)
		F.o.progress = !msg_quiet && isatty(2);
	if (!F.o.progress)
		return;
	uv_timer_init(F.loop, &timer);
	uv_timer_start(&timer, on_timer, PROGRESS_EVERY_MS, PROGRESS_EVERY_MS);
	uv_unref((uv_handle_t *)&timer);   /* never what keeps fetch running */
	on = msg_status_line = 1;
}

void
progress_close(void)
{
	if (!on)
		return;
	draw();
	fputc('\n', stderr);
	uv_close((uv_handle_t *)&timer, NULL);
	on = msg_status_line = 0;
}
