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
 *    "hosts": {"example.org": {"records": 90, "starts": 93, "requests": 93,
 *      "in_flight": 0, "retries": 2, "bytes": 4600000,
 *      "status": {"200": 88, "503": 3}, "errors": {"timeout": 1},
 *      "latency_ms": {"p50": 41.2, "p90": 120.3, "p99": 800.1},
 *      "interval_s": 0.5, "learnt_s": 0.12, "paused": null,
 *      "sitemaps": ["https://example.org/sitemap.xml"]}, ...}}
 *
 * sitemaps, the Sitemap: lines of the host's robots.txt, is there only
 * when one named any.
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

#include "jstr.h"
#include "msg.h"
#include "tm.h"

#define STATS_EVERY_MS 5000
#define LAG_EVERY_MS 100

static uv_timer_t timer, lag_timer;
static int timer_on;

/* loop_lag_ms: the histogram (buckets as latency's), the largest lag,
 * and when the lag timer is next due, in uv_hrtime ms. */
static unsigned long long lag_hist[HSTAT_BUCKETS];
static double lag_max, lag_due;
static int bucket(double ms);

/* Only marks the write due: drive writes it after lease.c has read the
 * frontier's queue ages. */
static void
on_timer(uv_timer_t *t)
{
	(void)t;
	F.stats_due = 1;
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
	lag_hist[bucket(lag)]++;
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

/* Adds n to code's count; past HSTAT_CODES distinct codes, to slot 0's. */
static void
count_code(host_stats *st, int code, unsigned long long n)
{
	for (int i = 1; i < HSTAT_CODES; i++) {
		if (!st->status[i].code)
			st->status[i].code = code;
		if (st->status[i].code == code) {
			st->status[i].n += n;
			return;
		}
	}
	st->status[0].n += n;
}

void
stats_record(const job *j)
{
	fetch_stats *s = &F.stats;
	s->records++;
	s->bytes += j->body_len;
	long c = j->status / 100;
	s->by_class[c >= 1 && c <= 5 ? c : 0]++;
	if (j->host) {
		j->host->st.records++;
		/* An attempt's error was counted when it ended; this is one
		 * that never got one (robots, deadline). */
		if (j->error && j->attempts == 0)
			j->host->st.errors[j->error]++;
	}
	if (j->error)
		s->errors[j->error]++;
	s->not_modified += job_not_modified(j);
}

void
stats_started(const job *j)
{
	j->host->st.starts++;
	if (!j->is_robots && j->prior + j->attempts > 1)
		j->host->st.retries++;
}

/* The histogram bucket of a latency in ms: 8 per doubling from 1 ms. */
static int
bucket(double ms)
{
	if (ms < 1)
		return 0;
	int b = (int)(log2(ms) * 8) + 1;
	return b < HSTAT_BUCKETS ? b : HSTAT_BUCKETS - 1;
}

void
stats_finished(const job *j)
{
	host_stats *st = &j->host->st;
	st->requests++;
	st->bytes += j->body_len;
	if (j->status > 0)
		count_code(st, (int)j->status, 1);
	if (j->status == 429)
		F.stats.throttled++;
	if (j->error)
		st->errors[j->error]++;
	curl_off_t us = 0;
	curl_easy_getinfo(j->easy, CURLINFO_TOTAL_TIME_T, &us);
	st->latency[bucket((double)us / 1000.0)]++;
	metrics_request((double)us / 1e6);
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

/* Adds the counters of from to into. */
static void
fold(host_stats *into, const host_stats *from)
{
	into->records += from->records;
	into->starts += from->starts;
	into->requests += from->requests;
	into->retries += from->retries;
	into->bytes += from->bytes;
	into->yield_halved += from->yield_halved;
	into->yield_paused += from->yield_paused;
	for (int i = 0; i < HSTAT_CODES; i++)
		if (from->status[i].n)
			count_code(into, i ? from->status[i].code : 0, from->status[i].n);
	for (int e = 0; e < FETCHERR_COUNT; e++)
		into->errors[e] += from->errors[e];
	for (int i = 0; i < HSTAT_BUCKETS; i++)
		into->latency[i] += from->latency[i];
}

void
stats_evicted(const host *h)
{
	fold(&F.stats.other, &h->st);
}

void
stats_guard(host *h, int paused)
{
	if (paused)
		h->st.yield_paused++;
	else
		h->st.yield_halved++;
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
	if (F.n_queue_ages == 0)   /* none yet: the first read is on its way */
		return 0;
	const struct queue_age *a = bsearch(name, F.queue_ages, F.n_queue_ages,
					    sizeof *F.queue_ages, by_age_host);
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
	put_hosts(f);
	fputs("}\n", f);
	if (fclose(f) != 0 || rename(tmp, F.o.stats) != 0)
		msg_warn("cannot write '%s': %s", F.o.stats, strerror(errno));
}

void
stats_close(void)
{
	stats_write();
	if (timer_on) {
		uv_close((uv_handle_t *)&timer, NULL);
		uv_close((uv_handle_t *)&lag_timer, NULL);
	}
	timer_on = 0;
}
