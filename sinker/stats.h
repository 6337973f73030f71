/* stats — sink --stats FILE and --metrics FILE: what sink stored, per
 * host, accepted and rejected (by reason), accepted records per second
 * over the last minute and overall, and how long its commits take.
 *
 * --stats is one JSON object (docs/sink.md, "Stats"), --metrics
 * Prometheus's text format (lib/prom.h); both are rewritten every
 * STATS_EVERY_MS and at exit, through a temporary file and rename
 * (lib/afile.h).  The totals come first in the JSON, before the
 * per-host map, so fetch --sink-stats finds accepted_per_s_1m in the
 * file's first few KB however many hosts follow.
 *
 * Memory is bounded by --max-hosts: past it, the half of the hosts
 * seen least recently fold their counters into "other", as fetch's
 * idle hosts do; each host keeps at most STATS_REASONS reason words
 * (the first word of `reason`: validate's codes), past them "other".
 */
#ifndef SINK_STATS_H
#define SINK_STATS_H

#include <msgpack.h>

#define STATS_EVERY_MS 5000
#define STATS_REASONS 15

/* Starts counting: the files to write (either may be NULL) and the
 * host table's bound. */
void stats_open(const char *stats, const char *metrics, long max_hosts);

/* Counts rec, just stored; a no-op without --stats and --metrics. */
void stats_record(const msgpack_object *rec);
/* Counts a record skipped for want of a url. */
void stats_skipped(void);
/* Counts one commit that took seconds. */
void stats_commit(double seconds);

/* Milliseconds until the next write is due (0: now), or -1 when there
 * are no files to write: how long sink's wait for input may last. */
long stats_wait_ms(void);
/* Writes the files when they are due. */
void stats_tick(void);
/* Writes them a last time and frees the table. */
void stats_close(void);

#endif
