/* sinkstats — the accepted records per second on fetch's status line.
 *
 * With --sink-stats FILE, sink's own figure: read on the status line's
 * tick, on the loop thread, so bounded: the file is stat()ed, and read
 * only when its modification time or size changed (sink rewrites it
 * every few seconds), and then only its first SINKSTATS_HEAD bytes,
 * where sink puts its totals before the per-host map (docs/sink.md);
 * the number is the value of its first "accepted_per_s_1m" key.
 *
 * Else, in --queue mode, the job's: the frontier counts the records
 * sink stored accepted (fr_accepted, over every host and worker); a
 * task on the frontier's thread reads the count every
 * SINKSTATS_EVERY_S, and the rate is the growth between the newest
 * reading and the oldest within the last minute.  The loop never waits
 * for it: until an answer comes, the figure shown is the last one.
 */
#include "fetch.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontier.h"
#include "tm.h"
#include "xalloc.h"

#define SINKSTATS_HEAD 4096
#define SINKSTATS_EVERY_S 5.0
#define SINKSTATS_WINDOW_S 60.0
/* Readings kept: a minute's at SINKSTATS_EVERY_S, and one older. */
#define SINKSTATS_SAMPLES 14

static struct timespec seen_mtime;
static off_t seen_size = -1;
static double rate = -1;

/* The number after "key": in buf, or -1. */
static double
number_of(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);
	if (!p)
		return -1;
	p += strlen(key);
	while (*p == ' ')
		p++;
	char *end;
	double v = strtod(p, &end);
	return end > p && v >= 0 ? v : -1;
}

/* sink's figure from --sink-stats FILE. */
static double
from_file(void)
{
	struct stat st;
	if (stat(F.o.sink_stats, &st) != 0) {
		rate = -1;   /* not yet written, or gone */
		return rate;
	}
	if (st.st_size == seen_size && st.st_mtim.tv_sec == seen_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == seen_mtime.tv_nsec)
		return rate;
	int fd = open(F.o.sink_stats, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return rate = -1;
	char buf[SINKSTATS_HEAD + 1];
	ssize_t n = read(fd, buf, SINKSTATS_HEAD);
	close(fd);
	if (n < 0)
		return rate = -1;
	buf[n] = '\0';
	seen_mtime = st.st_mtim;
	seen_size = st.st_size;
	return rate = number_of(buf, "\"accepted_per_s_1m\":");
}

/* The frontier's readings, oldest first: when (monotonic) and the count. */
static struct { double t; long long n; } samples[SINKSTATS_SAMPLES];
static int n_samples, reading;
static double next_read;

typedef struct count_task {
	dbq_task t;
	struct fr *front;
	double t_read;
	long long n;
} count_task;

static void
count_run(dbq_task *t)
{
	count_task *c = (count_task *)t;
	c->n = fr_accepted(c->front);
	c->t_read = tm_mono();
}

/* Keeps the reading and the rate from the oldest one within the window
 * (a failed read, -1, is dropped: the next one will do). */
static void
count_done(dbq_task *t)
{
	count_task *c = (count_task *)t;
	reading = 0;
	if (c->n >= 0) {
		if (n_samples == SINKSTATS_SAMPLES)
			memmove(samples, samples + 1, --n_samples * sizeof *samples);
		samples[n_samples].t = c->t_read;
		samples[n_samples++].n = c->n;
		int o = 0;
		while (o < n_samples - 2 && c->t_read - samples[o + 1].t >= SINKSTATS_WINDOW_S)
			o++;
		double dt = c->t_read - samples[o].t;
		if (n_samples > 1 && dt > 0)
			rate = (double)(c->n - samples[o].n) / dt;
	}
	free(c);
}

/* The job's figure from the frontier: posts a read when one is due. */
static double
from_frontier(void)
{
	double now = tm_mono();
	if (!reading && now >= next_read) {
		count_task *c = xcalloc(1, sizeof *c);
		c->t = (dbq_task){ .run = count_run, .done = count_done };
		c->front = dbq_frontier();
		reading = 1;
		next_read = now + SINKSTATS_EVERY_S;
		dbq_post(&c->t);
	}
	return rate;
}

double
sinkstats_accepted_rate(void)
{
	if (F.o.sink_stats)
		return from_file();
	if (dbq_frontier())
		return from_frontier();
	return -1;
}
