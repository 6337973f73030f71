#include "stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "afile.h"
#include "htab.h"
#include "jstr.h"
#include "msg.h"
#include "prom.h"
#include "rec.h"
#include "tm.h"
#include "xalloc.h"

#define WINDOW 60                /* seconds of accepted/s_1m, one slot each */
#define NO_HOST "(none)"         /* a record without a host, as validate says */
#define REASON_MAX 31            /* bytes of a reason word kept */

typedef struct counts {
	unsigned long long stored, accepted, rejected, unvalidated;
	/* rejected records by reason word; slot 0 is "other" */
	struct { char word[REASON_MAX + 1]; unsigned long long n; } reason[STATS_REASONS + 1];
	unsigned recent[WINDOW];     /* accepted in each of the last seconds */
	long long recent_at;         /* the second the newest slot counts */
	double last;                 /* monotonic: its last record */
} counts;

static struct {
	const char *stats, *metrics;
	long max_hosts;
	htab hosts;                  /* host name -> counts */
	counts all, other;
	unsigned long long seen, evicted, skipped;
	prom_hist commits;
	double started;
	long long due;               /* tm_mono_ms of the next write */
} S;

void
stats_open(const char *stats, const char *metrics, long max_hosts)
{
	S.stats = stats;
	S.metrics = metrics;
	S.max_hosts = max_hosts;
	S.started = tm_mono();
	S.due = tm_mono_ms() + STATS_EVERY_MS;
}

/* Moves c's window on to second sec, clearing the seconds it skips. */
static void
advance(counts *c, long long sec)
{
	if (sec <= c->recent_at)
		return;
	long long gap = sec - c->recent_at;
	if (gap > WINDOW)
		gap = WINDOW;
	for (long long s = sec - gap + 1; s <= sec; s++)
		c->recent[s % WINDOW] = 0;
	c->recent_at = sec;
}

/* Seconds of sink's run so far that a rate is over: at most the last
 * window seconds of it, at least one (so a first burst does not read as
 * thousands a second). */
static double
span(double now, double window)
{
	double s = now - S.started;
	return s > window ? window : s < 1 ? 1 : s;
}

/* Accepted per second over the last minute (or as much of it as sink
 * has run). */
static double
rate_1m(counts *c, double now)
{
	advance(c, (long long)now);
	unsigned long long n = 0;
	for (int i = 0; i < WINDOW; i++)
		n += c->recent[i];
	return (double)n / span(now, WINDOW);
}

/* Adds n rejections with reason word w to c's, past STATS_REASONS
 * distinct words to "other" (slot 0). */
static void
count_reason(counts *c, const char *w, unsigned long long n)
{
	for (int i = 1; i <= STATS_REASONS; i++) {
		if (!c->reason[i].n && !c->reason[i].word[0])
			snprintf(c->reason[i].word, sizeof c->reason[i].word, "%s", w);
		if (strcmp(c->reason[i].word, w) == 0) {
			c->reason[i].n += n;
			return;
		}
	}
	c->reason[0].n += n;
}

/* Adds from's counts to into's (the window aligned on now). */
static void
fold(counts *into, counts *from, double now)
{
	into->stored += from->stored;
	into->accepted += from->accepted;
	into->rejected += from->rejected;
	into->unvalidated += from->unvalidated;
	for (int i = 1; i <= STATS_REASONS && from->reason[i].word[0]; i++)
		count_reason(into, from->reason[i].word, from->reason[i].n);
	into->reason[0].n += from->reason[0].n;
	advance(into, (long long)now);
	advance(from, (long long)now);
	for (int i = 0; i < WINDOW; i++)
		into->recent[i] += from->recent[i];
}

static int
by_last(const void *a, const void *b)
{
	double x = (*(counts *const *)a)->last, y = (*(counts *const *)b)->last;
	return x < y ? -1 : x > y;
}

/* Folds the least recently seen half of the hosts (one at least) into
 * "other". */
static void
evict(double now)
{
	size_t n = 0, i = 0;
	counts **v = xmalloc(S.hosts.n * sizeof *v);
	for (htab_ent *e; (e = htab_next(&S.hosts, &i));)
		v[n++] = e->val;
	qsort(v, n, sizeof *v, by_last);
	double cut = v[n / 2 > 0 ? n / 2 - 1 : 0]->last;
	i = 0;
	for (htab_ent *e; (e = htab_next(&S.hosts, &i));) {
		counts *c = e->val;
		if (c->last <= cut) {
			fold(&S.other, c, now);
			free(c);
			htab_del(&S.hosts, e->key, e->len);
			S.evicted++;
		}
	}
	free(v);
}

/* The counts of host name h (len bytes), made on first sight. */
static counts *
host_counts(const char *h, size_t len, double now)
{
	if (!h || len == 0 || memchr(h, 0, len))
		h = NO_HOST, len = strlen(NO_HOST);
	htab_ent *e = htab_find(&S.hosts, h, len);
	if (e)
		return e->val;
	if (S.hosts.n >= (size_t)S.max_hosts)
		evict(now);
	if (!(e = htab_put(&S.hosts, h, len, NULL)))
		xalloc_die();
	counts *c = xcalloc(1, sizeof *c);
	c->recent_at = (long long)now;
	e->val = c;
	S.seen++;
	return c;
}

/* The reason word of rec: the first word of its `reason` ("status 503"
 * is "status"), at most REASON_MAX bytes; "none" when it has none. */
static void
reason_word(const msgpack_object *rec, char *w)
{
	const char *s;
	size_t n;
	if (!rec_str(rec, "reason", &s, &n) || n == 0) {
		strcpy(w, "none");
		return;
	}
	size_t k = 0;
	while (k < n && k < REASON_MAX && s[k] != ' ' && s[k] != '\0')
		k++;
	memcpy(w, s, k);
	w[k] = '\0';
	if (k == 0)
		strcpy(w, "none");
}

/* Counts one record in c. */
static void
add(counts *c, int verdict, const char *why, double now)
{
	c->stored++;
	c->last = now;
	if (verdict > 0) {
		c->accepted++;
		advance(c, (long long)now);
		c->recent[(long long)now % WINDOW]++;
	} else if (verdict == 0) {
		c->rejected++;
		count_reason(c, why, 1);
	} else {
		c->unvalidated++;
	}
}

void
stats_record(const msgpack_object *rec)
{
	if (!S.stats && !S.metrics)
		return;
	double now = tm_mono();
	const msgpack_object *a = rec_get(rec, "accepted");
	int verdict = a && a->type == MSGPACK_OBJECT_BOOLEAN ? a->via.boolean : -1;
	char why[REASON_MAX + 1] = "";
	if (verdict == 0)
		reason_word(rec, why);
	const char *h;
	size_t len;
	if (!rec_str(rec, "host", &h, &len))
		h = NULL, len = 0;
	add(host_counts(h, len, now), verdict, why, now);
	add(&S.all, verdict, why, now);
}

void
stats_skipped(void)
{
	S.skipped++;
}

void
stats_commit(double seconds)
{
	prom_observe(&S.commits, seconds);
}

/* The members shared by the totals and each host, after "{". */
static void
put_counts(FILE *f, counts *c, double now)
{
	fprintf(f, "\"stored\": %llu, \"accepted\": %llu, \"rejected\": %llu, \"unvalidated\": %llu,"
		   " \"accepted_per_s_1m\": %.2f, \"accepted_per_s\": %.2f, \"reasons\": {",
		c->stored, c->accepted, c->rejected, c->unvalidated, rate_1m(c, now),
		(double)c->accepted / span(now, now - S.started));
	const char *sep = "";
	for (int i = 1; i <= STATS_REASONS && c->reason[i].word[0]; i++, sep = ", ") {
		fputs(sep, f);
		jstr_put(f, c->reason[i].word);
		fprintf(f, ": %llu", c->reason[i].n);
	}
	if (c->reason[0].n)
		fprintf(f, "%s\"other\": %llu", sep, c->reason[0].n);
	fputc('}', f);
}

static int
by_key(const void *a, const void *b)
{
	return strcmp((*(htab_ent *const *)a)->key, (*(htab_ent *const *)b)->key);
}

/* The hosts' entries by name, malloc'd (S.hosts.n of them). */
static htab_ent **
sorted_hosts(void)
{
	htab_ent **v = xmalloc((S.hosts.n + 1) * sizeof *v);
	size_t n = 0, i = 0;
	for (htab_ent *e; (e = htab_next(&S.hosts, &i));)
		v[n++] = e;
	qsort(v, n, sizeof *v, by_key);
	return v;
}

static void
write_stats(double now)
{
	afile a;
	if (afile_open(&a, S.stats) != 0) {
		msg_warn("cannot write '%s': %s", a.tmp, strerror(errno));
		return;
	}
	FILE *f = a.f;
	fputc('{', f);
	put_counts(f, &S.all, now);
	fprintf(f, ", \"skipped\": %llu, \"elapsed_s\": %.3f,\n"
		   " \"commit_ms\": {\"p50\": %.2f, \"p99\": %.2f, \"max\": %.2f, \"commits\": %llu},\n"
		   " \"hosts_kept\": %zu, \"hosts_seen\": %llu, \"hosts_evicted\": %llu,\n \"hosts\": {",
		S.skipped, now - S.started, prom_quantile(&S.commits, 0.5) * 1000,
		prom_quantile(&S.commits, 0.99) * 1000, S.commits.max * 1000, S.commits.count,
		S.hosts.n, S.seen, S.evicted);
	htab_ent **v = sorted_hosts();
	for (size_t i = 0; i < S.hosts.n; i++) {
		fputs("\n  ", f);
		jstr_put(f, v[i]->key);
		fputs(": {", f);
		put_counts(f, v[i]->val, now);
		fputs("},", f);
	}
	free(v);
	fputs("\n  \"other\": {", f);
	put_counts(f, &S.other, now);
	fputs("}}}\n", f);
	if (afile_commit(&a) != 0)
		msg_warn("cannot write '%s': %s", S.stats, strerror(errno));
}

/* The samples of one host's counters (name: a host or "other"). */
static void
put_records(FILE *f, const char *name, const counts *c)
{
	static const char *const outcome[] = { "accepted", "rejected", "unvalidated" };
	const unsigned long long n[] = { c->accepted, c->rejected, c->unvalidated };
	for (int i = 0; i < 3; i++) {
		const char *l[] = { "host", name, "outcome", outcome[i], NULL };
		prom_count(f, "sluice_sink_records_total", l, n[i]);
	}
}

static void
put_reasons(FILE *f, const char *name, const counts *c)
{
	for (int i = 0; i <= STATS_REASONS; i++) {
		if (!c->reason[i].n)
			continue;
		const char *l[] = { "host", name, "reason", i ? c->reason[i].word : "other", NULL };
		prom_count(f, "sluice_sink_rejected_total", l, c->reason[i].n);
	}
}

static void
write_metrics(void)
{
	afile a;
	if (afile_open(&a, S.metrics) != 0) {
		msg_warn("cannot write '%s': %s", a.tmp, strerror(errno));
		return;
	}
	FILE *f = a.f;
	htab_ent **v = sorted_hosts();
	prom_family(f, "sluice_sink_records_total", "counter",
		    "Records stored, by host and validate's verdict "
		    "(evicted hosts in other).");
	for (size_t i = 0; i < S.hosts.n; i++)
		put_records(f, v[i]->key, v[i]->val);
	put_records(f, "other", &S.other);
	prom_family(f, "sluice_sink_rejected_total", "counter",
		    "Rejected records stored, by host and the first word of their reason.");
	for (size_t i = 0; i < S.hosts.n; i++)
		put_reasons(f, v[i]->key, v[i]->val);
	put_reasons(f, "other", &S.other);
	free(v);
	prom_family(f, "sluice_sink_skipped_total", "counter", "Records skipped for want of a url.");
	prom_count(f, "sluice_sink_skipped_total", NULL, S.skipped);
	prom_family(f, "sluice_sink_commit_duration_seconds", "histogram",
		    "Time a commit of a batch took.");
	prom_hist_put(f, "sluice_sink_commit_duration_seconds", NULL, &S.commits);
	prom_family(f, "sluice_sink_hosts", "gauge", "Host counters kept now (at most --max-hosts).");
	prom_value(f, "sluice_sink_hosts", NULL, (double)S.hosts.n);
	prom_family(f, "sluice_sink_hosts_evicted_total", "counter",
		    "Hosts whose counters went to host=\"other\" above --max-hosts.");
	prom_count(f, "sluice_sink_hosts_evicted_total", NULL, S.evicted);
	if (afile_commit(&a) != 0)
		msg_warn("cannot write '%s': %s", S.metrics, strerror(errno));
}

/* Writes both files now. */
static void
write_all(void)
{
	if (S.stats)
		write_stats(tm_mono());
	if (S.metrics)
		write_metrics();
	S.due = tm_mono_ms() + STATS_EVERY_MS;
}

long
stats_wait_ms(void)
{
	if (!S.stats && !S.metrics)
		return -1;
	long long left = S.due - tm_mono_ms();
	return left > 0 ? (long)left : 0;
}

void
stats_tick(void)
{
	if ((S.stats || S.metrics) && tm_mono_ms() >= S.due)
		write_all();
}

void
stats_close(void)
{
	if (S.stats || S.metrics)
		write_all();
	size_t i = 0;
	for (htab_ent *e; (e = htab_next(&S.hosts, &i));)
		free(e->val);
	htab_free(&S.hosts);
}
