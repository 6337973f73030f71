#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int
num_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

int
num_duration(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end), unit = 1;
	if (end != s && *end && !end[1]) {
		switch (*end) {
		case 's': unit = 1; break;
		case 'm': unit = 60; break;
		case 'h': unit = 3600; break;
		case 'd': unit = 86400; break;
		default: return -1;
		}
		end++;
	}
	if (end == s || *end || errno || !isfinite(v * unit) || v < 0)
		return -1;
	*out = v * unit;
	return 0;
}

int
num_long(const char *s, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

int
num_size(const char *s, size_t *out)
{
	/* strtoull skips spaces and takes a sign, negating into a huge
	 * value: " -1" would be the largest size.  A size starts with a
	 * digit. */
	if (*s < '0' || *s > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end || v > (SIZE_MAX >> shift))
		return -1;
	*out = (size_t)v << shift;
	return 0;
}
