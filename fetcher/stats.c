/* stats — --stats FILE: what fetch has done so far, as one JSON object,
 * rewritten every few seconds and at exit (via a temporary file and
 * rename, so a reader never sees half of it).
 *
 *   {"records": 1000, "requests": 1012, "bytes": 51200000,
 *    "status": {"none": 3, "1xx": 0, "2xx": 950, "3xx": 0, "4xx": 40, "5xx": 7},
 *    "not_modified": 0,
 *    "errors": {"timeout": 2, "robots": 1}, "in_flight": 0, "pending": 0,
 *    "hosts_kept": 12, "hosts_seen": 12, "hosts_evicted": 0,
 *    "elapsed_s": 4.2, "records_per_s": 238.1,
 *    "loop_lag_ms": {"p50": 0.5, "p99": 1.8, "max": 3.0, "samples": 42},
 *    "cookies": {"kept": 180, "evicted": 20, "refused": 0},
 *    "hosts": {"example.org": {"records": 90, "starts": 93, "requests": 93,
 *      "in_flight": 0, "retries": 2, "bytes": 4600000,
 *      "status": {"200": 88, "503": 3}, "errors": {"timeout": 1},
 *      "latency_ms": {"p50": 41.2, "p90": 120.3, "p99": 800.1},
 *      "interval_s": 0.5, "learnt_s": 0.12, "paused": null,
 *      "sitemaps": ["https://example.org/sitemap.xml"]}, ...}}
 *
 * sitemaps, the Sitemap: lines of the host's robots.txt, is there only
 * when one named any; cookies (the jar's, lib/cookie) only with
 * --cookies.
 *
 * Per host, memory is fixed (a log-bucket latency histogram, not a list
 * of samples), and hosts evicted under --max-hosts fold into "other".
 *
 * loop_lag_ms is how late a dedicated timer, due every 100 ms, runs:
 * the time the loop spent on something else (a slow callback, a
 * frontier statement) when it should have been serving sockets and
 * timers.  Kept in the same kind of histogram, over the whole run.
 */
#include "fetch.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontier.h"
#include "jstr.h"
#include "msg.h"
#include "tm.h"
#include "xalloc.h"

#define STATS_EVERY_MS 5000
#define LAG_EVERY_MS 100

static uv_timer_t timer, lag_timer;
static int timer_on, due;

/* --queue: the frontier's queue age per host as of the last read,
 * sorted by host; one read posted at a time (ageing). */
struct queue_age {
	char *host;
	double age;
};
static struct queue_age *ages;
static size_t n_ages;
static int ageing;

/* loop_lag_ms: the histogram (buckets as latency's), the largest lag,
 * and when the lag timer is next due, in uv_hrtime ms. */
static unsigned long long lag_hist[HSTAT_BUCKETS];
static double lag_max, lag_due;

/* Only marks the write due: the driver's pass writes it (stats_pass). */
static void
on_timer(uv_timer_t *t)
{
	(void)t;
	due = 1;
}

/* libuv re-arms a repeating timer at the loop's time plus the period
 * just before calling it, and the loop's time is uv_hrtime's clock in
 * whole ms (coarse or not: both read CLOCK_MONOTONIC), so the lag is
 * now minus the due time the last call saw, to within a ms. */
static void
on_lag(uv_timer_t *t)
{
	double now = (double)uv_hrtime() / 1e6;
	double lag = now > lag_due ? now - lag_due : 0;
	lag_hist[counters_bucket(lag)]++;
	if (lag > lag_max)
		lag_max = lag;
	lag_due = (double)uv_now(t->loop) + LAG_EVERY_MS;
}

void
stats_init(void)
{
	F.stats.started = tm_mono();
	if (!F.o.stats)
		return;
	uv_timer_init(F.loop, &timer);
	uv_timer_start(&timer, on_timer, STATS_EVERY_MS, STATS_EVERY_MS);
	uv_unref((uv_handle_t *)&timer);   /* never what keeps fetch running */
	uv_timer_init(F.loop, &lag_timer);
	/* From now, not from whenever the loop last read its clock: setup
	 * before the first pass is not lag. */
	uv_update_time(F.loop);
	uv_timer_start(&lag_timer, on_lag, LAG_EVERY_MS, LAG_EVERY_MS);
	lag_due = (double)uv_now(F.loop) + LAG_EVERY_MS;
	uv_unref((uv_handle_t *)&lag_timer);
	timer_on = 1;
}

/* Writes error counts (by enum fetcherr) as the members of a JSON
 * object: the words counted, in the vocabulary's order. */
static void
put_words(FILE *f, const unsigned long long *n)
{
	const char *sep = "";
	for (int e = FETCHERR_NONE + 1; e < FETCHERR_COUNT; e++) {
		if (n[e]) {
			fprintf(f, "%s\"%s\": %llu", sep, fetcherr_word(e), n[e]);
			sep = ", ";
		}
	}
}

/* The number of samples in a histogram of HSTAT_BUCKETS buckets. */
static unsigned long long
samples(const unsigned long long *hist)
{
	unsigned long long n = 0;
	for (int i = 0; i < HSTAT_BUCKETS; i++)
		n += hist[i];
	return n;
}

/* The ms below which a share q of a histogram's samples fall: the
 * geometric middle of that bucket (within 5%). */
static double
quantile(const unsigned long long *hist, double q)
{
	unsigned long long n = samples(hist), seen = 0;
	if (n == 0)
		return 0;
	for (int i = 0; i < HSTAT_BUCKETS; i++) {
		seen += hist[i];
		if ((double)seen >= q * (double)n)
			return i == 0 ? 0.5 : exp2((i - 0.5) / 8);
	}
	return exp2((HSTAT_BUCKETS - 1) / 8.0);
}

/* What "hosts" shows of one host (all its origins: http and https,
 * several ports, are one pacing key). */
typedef struct host_view {
	host_stats st;
	int in_flight;
	double interval, learnt, paused_for;
	double rate_factor;      /* the yield guard's brake: 1, 0.5, 0.25 */
	const char *hold;        /* paused by hand: the reason */
	double queue_age;        /* --queue: oldest due pending, -1 unknown */
	const host *h;           /* whose robots.txt Sitemap: lines to list */
} host_view;

/* `"sitemaps": [...]`, the Sitemap: lines of h's origins' robots.txt
 * files, when any named one (at most ROBOTS_MAX_SITEMAPS an origin). */
static void
put_sitemaps(FILE *f, const host *h)
{
	size_t shown = 0;
	for (const origin *o = h->origins; o; o = o->next) {
		const char *const *urls;
		size_t n = robots_sitemaps(o->robots, &urls);
		for (size_t i = 0; i < n; i++) {
			fputs(shown++ ? ", " : ", \"sitemaps\": [", f);
			jstr_put(f, urls[i]);
		}
	}
	if (shown)
		fputc(']', f);
}

/* Writes one entry of "hosts" after sep; state is left out for "other",
 * which has none. */
static void
put_host(FILE *f, const char *sep, const char *name, const host_view *v, int state)
{
	const host_stats *st = &v->st;
	fputs(sep, f);
	jstr_put(f, name);
	fprintf(f, ": {\"records\": %llu, \"starts\": %llu, \"requests\": %llu,"
		   " \"in_flight\": %d, \"retries\": %llu, \"bytes\": %llu, \"status\": {",
		st->records, st->starts, st->requests, v->in_flight, st->retries, st->bytes);
	const char *s = "";
	for (int i = 1; i < HSTAT_CODES && st->status[i].code; i++, s = ", ")
		fprintf(f, "%s\"%d\": %llu", s, st->status[i].code, st->status[i].n);
	if (st->status[0].n)
		fprintf(f, "%s\"other\": %llu", s, st->status[0].n);
	fputs("}, \"errors\": {", f);
	put_words(f, st->errors);
	fprintf(f, "}, \"latency_ms\": {\"p50\": %.1f, \"p90\": %.1f, \"p99\": %.1f}",
		quantile(st->latency, 0.5), quantile(st->latency, 0.9), quantile(st->latency, 0.99));
	fprintf(f, ", \"yield_halved\": %llu, \"yield_paused\": %llu", st->yield_halved, st->yield_paused);
	if (state) {
		if (v->queue_age >= 0)
			fprintf(f, ", \"queue_age_s\": %.1f", v->queue_age);
		fprintf(f, ", \"interval_s\": %.3f, \"learnt_s\": %.3f, \"rate_factor\": %g, \"paused\": ",
			v->interval, v->learnt, v->rate_factor);
		if (v->hold) {
			fputs("{\"reason\": ", f);
			jstr_put(f, v->hold);
			fputc('}', f);
		} else if (v->paused_for > 0) {
			fprintf(f, "{\"reason\": \"breaker\", \"for_s\": %.1f}", v->paused_for);
		} else {
			fputs("null", f);
		}
		put_sitemaps(f, v->h);
	}
	fputc('}', f);
}

static int
by_age_host(const void *key, const void *e)
{
	return strcmp(key, ((const struct queue_age *)e)->host);
}

/* The frontier's queue age of host name: 0 when nothing of it is due,
 * -1 outside queue mode. */
static double
queue_age(const char *name)
{
	if (!F.o.queue)
		return -1;
	if (n_ages == 0)   /* none yet: the first read is on its way */
		return 0;
	const struct queue_age *a = bsearch(name, ages, n_ages, sizeof *ages, by_age_host);
	return a ? a->age : 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp((*(host *const *)a)->name, (*(host *const *)b)->name);
}

/* Writes the "hosts" map: the hosts kept, by name, then "other". */
static void
put_hosts(FILE *f)
{
	double now = tm_mono();
	host **v = malloc((F.hosts.n + 1) * sizeof *v);
	if (!v)
		return;
	size_t n = 0, i = 0;
	for (host *h; (h = host_next(&i));)
		v[n++] = h;
	qsort(v, n, sizeof *v, by_name);
	fputs(",\n \"hosts\": {", f);
	const char *sep = "\n  ";
	host_view hv;
	for (size_t i = 0; i < n; i++) {
		const host *h = v[i];
		memset(&hv, 0, sizeof hv);
		hv.st = h->st;
		hv.in_flight = h->active;
		hv.interval = pace_interval(&h->pace);
		hv.learnt = h->pace.adapt_delay;
		hv.rate_factor = ldexp(1, -h->pace.brake);
		hv.paused_for = fmax(0, h->pace.paused_until - now);
		hv.hold = host_hold(h);
		hv.queue_age = queue_age(h->name);
		hv.h = h;
		put_host(f, sep, h->name, &hv, 1);
		sep = ",\n  ";
	}
	memset(&hv, 0, sizeof hv);
	hv.st = F.stats.other;
	hv.queue_age = -1;
	put_host(f, sep, "other", &hv, 0);
	fputs("}", f);
	free(v);
}

void
stats_write(void)
{
	if (!F.o.stats)
		return;
	const fetch_stats *s = &F.stats;
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", F.o.stats);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		msg_warn("cannot write '%s': %s", tmp, strerror(errno));
		return;
	}
	host_trim();
	double elapsed = tm_mono() - s->started;
	fprintf(f, "{\"records\": %llu, \"requests\": %llu, \"bytes\": %llu,\n"
		   " \"status\": {\"none\": %llu, \"1xx\": %llu, \"2xx\": %llu, \"3xx\": %llu,"
		   " \"4xx\": %llu, \"5xx\": %llu}, \"not_modified\": %llu,\n \"errors\": {",
		s->records, s->requests, s->bytes, s->by_class[0], s->by_class[1],
		s->by_class[2], s->by_class[3], s->by_class[4], s->by_class[5], s->not_modified);
	put_words(f, s->errors);
	fprintf(f, "},\n \"in_flight\": %ld, \"pending\": %ld, \"hosts_kept\": %zu,"
		   " \"hosts_seen\": %llu, \"hosts_evicted\": %llu,\n"
		   " \"elapsed_s\": %.3f, \"records_per_s\": %.1f",
		F.inflight, F.alive, F.hosts.n, s->hosts_seen, s->hosts_evicted,
		elapsed, elapsed > 0 ? (double)s->records / elapsed : 0.0);
	/* A bucket's middle can pass the exact max: the max bounds both. */
	fprintf(f, ",\n \"loop_lag_ms\": {\"p50\": %.1f, \"p99\": %.1f, \"max\": %.1f,"
		   " \"samples\": %llu}",
		fmin(quantile(lag_hist, 0.5), lag_max), fmin(quantile(lag_hist, 0.99), lag_max),
		lag_max, samples(lag_hist));
	unsigned long long run, dropped, failed;
	alert_counts(&run, &dropped, &failed);
	fprintf(f, ",\n \"alerts\": {\"run\": %llu, \"dropped\": %llu, \"failed\": %llu}",
		run, dropped, failed);
	cookie_counts c;
	if (req_cookies_counts(&c) == 0)
		fprintf(f, ",\n \"cookies\": {\"kept\": %zu, \"evicted\": %llu, \"refused\": %llu}",
			c.kept, c.evicted, c.refused);
	put_hosts(f);
	fputs("}\n", f);
	if (fclose(f) != 0 || rename(tmp, F.o.stats) != 0)
		msg_warn("cannot write '%s': %s", F.o.stats, strerror(errno));
}

/* A read of the queue ages, for the next write. */
typedef struct ages_task {
	dbq_task t;
	struct queue_age *ages;
	size_t n, cap;
} ages_task;

/* fr_queue_ages's callback: one more host. */
static void
add_age(void *arg, const char *host, double age)
{
	ages_task *a = arg;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->ages = xrealloc(a->ages, a->cap * sizeof *a->ages);
	}
	a->ages[a->n].host = xstrdup(host);
	a->ages[a->n++].age = age;
}

static void
free_ages(void)
{
	for (size_t i = 0; i < n_ages; i++)
		free(ages[i].host);
	free(ages);
	ages = NULL;
	n_ages = 0;
}

static void
ages_run(dbq_task *t)
{
	dbq_check(fr_queue_ages(dbq_frontier(), tm_wall(), add_age, t), "read");
}

static void
ages_done(dbq_task *t)
{
	ages_task *a = (ages_task *)t;
	ageing = 0;
	free_ages();
	ages = a->ages;
	n_ages = a->n;
	free(a);
}

/* Posts a read of the queue ages (--queue): answered at once when the
 * frontier's thread does not run, else when the driver collects it; a
 * write meanwhile uses the ages before. */
static void
read_ages(void)
{
	if (!F.o.queue || ageing)
		return;
	ages_task *a = xcalloc(1, sizeof *a);
	a->t = (dbq_task){ .run = ages_run, .done = ages_done };
	ageing = 1;
	dbq_post(&a->t);
}

void
stats_pass(void)
{
	if (!due)
		return;
	due = 0;
	read_ages();
	stats_write();
}

void
stats_close(void)
{
	if (F.o.stats)
		read_ages();
	stats_write();
	free_ages();
	if (timer_on) {
		uv_close((uv_handle_t *)&timer, NULL);
		uv_close((uv_handle_t *)&lag_timer, NULL);
	}
	timer_on = 0;
}
