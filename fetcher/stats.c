/* stats — --stats FILE: what fetch has done so far, as one JSON object,
 * rewritten every few seconds and at exit (via a temporary file and
 * rename, so a reader never sees half of it).
 *
 *   {"records": 1000, "requests": 1012, "bytes": 51200000,
 *    "status": {"none": 3, "1xx": 0, "2xx": 950, "3xx": 0, "4xx": 40, "5xx": 7},
 *    "errors": {"timeout": 2, "robots": 1}, "in_flight": 0, "pending": 0,
 *    "hosts": 12, "hosts_seen": 12, "hosts_evicted": 0,
 *    "elapsed_s": 4.2, "records_per_s": 238.1}
 */
#include "fetch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "tm.h"

#define STATS_EVERY_MS 5000

static uv_timer_t timer;
static int timer_on;

static void
on_timer(uv_timer_t *t)
{
	(void)t;
	stats_write();
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
	timer_on = 1;
}

void
stats_record(const job *j)
{
	fetch_stats *s = &F.stats;
	s->records++;
	s->bytes += j->body_len;
	long c = j->status / 100;
	s->by_class[c >= 1 && c <= 5 ? c : 0]++;
	if (!j->error)
		return;
	for (int i = 0; i < STATS_ERRORS; i++) {
		if (!s->errors[i].word)
			s->errors[i].word = j->error;
		if (strcmp(s->errors[i].word, j->error) == 0) {
			s->errors[i].n++;
			return;
		}
	}
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
		   " \"4xx\": %llu, \"5xx\": %llu},\n \"errors\": {",
		s->records, s->requests, s->bytes, s->by_class[0], s->by_class[1],
		s->by_class[2], s->by_class[3], s->by_class[4], s->by_class[5]);
	for (int i = 0; i < STATS_ERRORS && s->errors[i].word; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", s->errors[i].word, s->errors[i].n);
	fprintf(f, "},\n \"in_flight\": %ld, \"pending\": %ld, \"hosts\": %zu,"
		   " \"hosts_seen\": %llu, \"hosts_evicted\": %llu,\n"
		   " \"elapsed_s\": %.3f, \"records_per_s\": %.1f}\n",
		F.inflight, F.alive, F.n_hosts, s->hosts_seen, s->hosts_evicted,
		elapsed, elapsed > 0 ? (double)s->records / elapsed : 0.0);
	if (fclose(f) != 0 || rename(tmp, F.o.stats) != 0)
		msg_warn("cannot write '%s': %s", F.o.stats, strerror(errno));
}

void
stats_close(void)
{
	stats_write();
	if (timer_on)
		uv_close((uv_handle_t *)&timer, NULL);
	timer_on = 0;
}
