/* sinkstats — fetch --sink-stats FILE: the accepted records per second
 * that sink --stats FILE writes, shown on fetch's status line.
 *
 * Read on the status line's tick, on the loop thread, so bounded: the
 * file is stat()ed, and read only when its modification time or size
 * changed (sink rewrites it every few seconds), and then only its first
 * SINKSTATS_HEAD bytes, where sink puts its totals before the per-host
 * map (docs/sink.md); the number is the value of its first
 * "accepted_per_s_1m" key.
 */
#include "fetch.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SINKSTATS_HEAD 4096

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

double
sinkstats_accepted_rate(void)
{
	if (!F.o.sink_stats)
		return -1;
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
