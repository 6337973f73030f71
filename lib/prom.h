/* prom — Prometheus's text exposition format (version 0.0.4), what
 * fetch --metrics and sink --metrics write, and the histogram their
 * durations are kept in.
 *
 *   # HELP sluice_fetch_requests_total Requests finished, by host and status.
 *   # TYPE sluice_fetch_requests_total counter
 *   sluice_fetch_requests_total{host="example.org",status="200"} 88
 *
 * A family's HELP and TYPE come once, before all its samples; label
 * values are escaped (\\, \", \n), so any host name or reason is safe.
 */
#ifndef SLUICE_PROM_H
#define SLUICE_PROM_H

#include <stdio.h>

/* The upper bounds (seconds) of every histogram's buckets: from a tenth
 * of a millisecond (a commit) to a minute (a slow download). */
#define PROM_BOUNDS 18
extern const double prom_bounds[PROM_BOUNDS];

/* A duration histogram: fixed size, however many observations. */
typedef struct prom_hist {
	unsigned long long n[PROM_BOUNDS + 1];   /* per bucket; the last is +Inf */
	unsigned long long count;
	double sum, max;
} prom_hist;

void prom_observe(prom_hist *h, double seconds);
/* Adds from's observations to into's. */
void prom_fold(prom_hist *into, const prom_hist *from);
/* The seconds below which a share q of the observations fall,
 * interpolated within its bucket and never above the largest seen; 0
 * when none. */
double prom_quantile(const prom_hist *h, double q);

/* Writes the HELP and TYPE lines of family name (type: counter, gauge,
 * histogram). */
void prom_family(FILE *f, const char *name, const char *type, const char *help);
/* Writes one sample of name: labels alternate name and value and end
 * with NULL (NULL itself: none). */
void prom_count(FILE *f, const char *name, const char *const *labels, unsigned long long v);
void prom_value(FILE *f, const char *name, const char *const *labels, double v);
/* Writes h as name_bucket{le=...} (cumulative), name_sum, name_count. */
void prom_hist_put(FILE *f, const char *name, const char *const *labels, const prom_hist *h);

#endif
