/* metrics — --metrics FILE: fetch's counters in Prometheus's text
 * format, for node_exporter's textfile collector (or anything reading
 * that format), rewritten every 5 s and at exit through a temporary
 * file and rename (lib/afile.h).
 *
 * Per-host series come from the host table: at most --max-hosts hosts
 * are kept, and the counters of those evicted fold into host="other",
 * so the number of series is bounded by the flags, not by the input.
 * A host that comes back after its eviction starts from zero: to
 * Prometheus, a counter reset.  Statuses are the codes --stats keeps
 * (HSTAT_CODES a host, "other" past them, "none" for requests that got
 * no answer); errors are fetch's error words (lib/fetcherr.h), a fixed
 * vocabulary.  The request duration histogram is over all hosts: one
 * histogram a host would multiply the series by its buckets.
 */
#include "fetch.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afile.h"
#include "msg.h"
#include "prom.h"

#define METRICS_EVERY_MS 5000

static uv_timer_t timer;
static int timer_on, due;

static void
on_timer(uv_timer_t *t)
{
	(void)t;
	due = 1;
}

void
metrics_init(void)
{
	if (!F.o.metrics)
		return;
	uv_timer_init(F.loop, &timer);
	uv_timer_start(&timer, on_timer, METRICS_EVERY_MS, METRICS_EVERY_MS);
	uv_unref((uv_handle_t *)&timer);   /* never what keeps fetch running */
	timer_on = 1;
	metrics_write();   /* the file exists from the start */
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The hosts kept, by name, and "other", as names and their counters. */
typedef struct row {
	const char *name;
	const host_stats *st;
} row;

static int
by_row(const void *a, const void *b)
{
	return by_name(&((const row *)a)->name, &((const row *)b)->name);
}

/* One family of per-host samples: what(f, name, r) writes r's. */
static void
family(FILE *f, const row *rows, size_t n, const char *name, const char *type,
       const char *help, void (*what)(FILE *, const char *, const row *))
{
	prom_family(f, name, type, help);
	for (size_t i = 0; i < n; i++)
		what(f, name, &rows[i]);
}

static void
put_requests(FILE *f, const char *name, const row *r)
{
	const host_stats *st = r->st;
	char code[16];
	const char *l[] = { "host", r->name, "status", code, NULL };
	unsigned long long answered = 0;
	for (int i = 1; i < HSTAT_CODES && st->status[i].code; i++) {
		snprintf(code, sizeof code, "%d", st->status[i].code);
		prom_count(f, name, l, st->status[i].n);
		answered += st->status[i].n;
	}
	if (st->status[0].n) {
		snprintf(code, sizeof code, "other");
		prom_count(f, name, l, st->status[0].n);
		answered += st->status[0].n;
	}
	if (st->requests > answered) {
		snprintf(code, sizeof code, "none");
		prom_count(f, name, l, st->requests - answered);
	}
}

static void
put_errors(FILE *f, const char *name, const row *r)
{
	for (int e = FETCHERR_NONE + 1; e < FETCHERR_COUNT; e++) {
		if (!r->st->errors[e])
			continue;
		const char *l[] = { "host", r->name, "error", fetcherr_word(e), NULL };
		prom_count(f, name, l, r->st->errors[e]);
	}
}

void
metrics_write(void)
{
	if (!F.o.metrics)
		return;
	host_trim();
	afile a;
	if (afile_open(&a, F.o.metrics) != 0) {
		msg_warn("cannot write '%s': %s", a.tmp, strerror(errno));
		return;
	}
	FILE *f = a.f;
	row *rows = malloc((F.hosts.n + 1) * sizeof *rows);
	if (!rows) {   /* a later write may have the memory */
		fclose(f);
		remove(a.tmp);
		return;
	}
	size_t n = 0, i = 0;
	for (host *h; (h = host_next(&i));)
		rows[n++] = (row){ h->name, &h->st };
	qsort(rows, n, sizeof *rows, by_row);
	rows[n++] = (row){ "other", &F.stats.other };

	/* The plain per-host counters: one sample a host. */
	static const struct { const char *name, *help; size_t at; } plain[] = {
		{ "sluice_fetch_records_total", "Records fetch wrote, by host (evicted hosts in other).",
		  offsetof(host_stats, records) },
		{ "sluice_fetch_bytes_total", "Response body bytes received, by host.",
		  offsetof(host_stats, bytes) },
		{ "sluice_fetch_retries_total", "Attempts that were retries, by host.",
		  offsetof(host_stats, retries) },
	};
	for (size_t k = 0; k < sizeof plain / sizeof plain[0]; k++) {
		prom_family(f, plain[k].name, "counter", plain[k].help);
		for (size_t r = 0; r < n; r++) {
			const char *l[] = { "host", rows[r].name, NULL };
			prom_count(f, plain[k].name, l, *(const unsigned long long *)
				   ((const char *)rows[r].st + plain[k].at));
		}
	}
	family(f, rows, n, "sluice_fetch_requests_total", "counter",
	       "HTTP requests finished, robots.txt included, by host and status code "
	       "(none: no answer; other: past the codes kept a host).", put_requests);
	family(f, rows, n, "sluice_fetch_errors_total", "counter",
	       "Failed attempts and refusals, by host and fetch's error word.", put_errors);
	free(rows);

	prom_family(f, "sluice_fetch_request_duration_seconds", "histogram",
		    "Time from a request's start to its last byte, all hosts.");
	prom_hist_put(f, "sluice_fetch_request_duration_seconds", NULL, &F.stats.durations);
	prom_family(f, "sluice_fetch_in_flight", "gauge", "Requests in flight now.");
	prom_value(f, "sluice_fetch_in_flight", NULL, (double)F.inflight);
	prom_family(f, "sluice_fetch_pending", "gauge", "URLs read and not yet written as records.");
	prom_value(f, "sluice_fetch_pending", NULL, (double)F.alive);
	prom_family(f, "sluice_fetch_hosts", "gauge", "Host states kept now (at most --max-hosts, unless busy).");
	prom_value(f, "sluice_fetch_hosts", NULL, (double)F.hosts.n);
	prom_family(f, "sluice_fetch_hosts_evicted_total", "counter",
		    "Idle host states dropped above --max-hosts; their counters are in host=\"other\".");
	prom_count(f, "sluice_fetch_hosts_evicted_total", NULL, F.stats.hosts_evicted);
	if (afile_commit(&a) != 0)
		msg_warn("cannot write '%s': %s", F.o.metrics, strerror(errno));
}

void
metrics_pass(void)
{
	if (!due)
		return;
	due = 0;
	metrics_write();
}

void
metrics_close(void)
{
	metrics_write();
	if (timer_on)
		uv_close((uv_handle_t *)&timer, NULL);
	timer_on = 0;
}
