/* num — strict parsing of numeric option values.  Each returns 0 on
 * success and -1 when the whole string is not a valid value, so callers
 * can name the bad option in a usage error. */
#ifndef SLUICE_NUM_H
#define SLUICE_NUM_H

#include <stddef.h>

/* A finite, non-negative decimal such as "0.25". */
int num_seconds(const char *s, double *out);

/* A duration: num_seconds, or a number with one suffix, s, m, h or d
 * (seconds, minutes, hours, days), as "1d" or "1.5h". */
int num_duration(const char *s, double *out);

/* A non-negative integer no larger than max. */
int num_long(const char *s, long max, long *out);

/* A byte count with an optional K, M or G suffix (powers of 1024). */
int num_size(const char *s, size_t *out);

/* The statuses HTTP defines (RFC 9110, 15): a range past them would
 * match no answer. */
enum { NUM_STATUS_MIN = 100, NUM_STATUS_MAX = 599 };

typedef struct num_range { long lo, hi; } num_range;

/* HTTP statuses, as validate's --status and fetch --from-warc's take
 * them: a comma list of N, N-M or a class Nxx (2xx), within
 * NUM_STATUS_MIN..NUM_STATUS_MAX, or "any".  The ranges in *out
 * (malloc'd; none, NULL, for any) and *n. */
int num_status_ranges(const char *s, num_range **out, size_t *n);

/* Whether status is within one of the n ranges r (n 0: any). */
int num_in_ranges(long status, const num_range *r, size_t n);

#endif
