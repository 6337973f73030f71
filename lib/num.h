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

#endif
