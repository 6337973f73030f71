/* counters — what fetch has done, overall (F.stats) and per host
 * (host->st): records, starts, requests, statuses, error words,
 * latencies, the yield guard's steps, and the request durations
 * --metrics shows.  Fixed size per host whatever the traffic (status
 * codes past HSTAT_CODES count as "other", latencies go into a log-bucket
 * histogram), and a host evicted above --max-hosts folds into "other".
 * Written here only; stats.c and metrics.c read them. */
#include "fetch.h"

#include <math.h>

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
counters_record(const job *j)
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
counters_started(const job *j)
{
	F.stats.requests++;
	j->host->st.starts++;
	if (!j->is_robots && j->prior + j->attempts > 1)
		j->host->st.retries++;
}

int
counters_bucket(double ms)
{
	if (ms < 1)
		return 0;
	int b = (int)(log2(ms) * 8) + 1;
	return b < HSTAT_BUCKETS ? b : HSTAT_BUCKETS - 1;
}

void
counters_finished(const job *j)
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
	st->latency[counters_bucket((double)us / 1000.0)]++;
	prom_observe(&F.stats.durations, (double)us / 1e6);
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
counters_evicted(const host *h)
{
	fold(&F.stats.other, &h->st);
	F.stats.hosts_evicted++;
}

void
counters_guard(host *h, int paused)
{
	if (paused)
		h->st.yield_paused++;
	else
		h->st.yield_halved++;
}
