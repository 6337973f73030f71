#include "num.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

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

/* One status item s[0..n): N, N-M, or Nxx (a class, e.g. 2xx). */
static int
status_range(const char *s, size_t n, num_range *r)
{
	char buf[32];
	while (n && isspace((unsigned char)*s))   /* "200-299, 404" */
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (n == 3 && isdigit((unsigned char)buf[0]) &&
	    (buf[1] == 'x' || buf[1] == 'X') && (buf[2] == 'x' || buf[2] == 'X')) {
		r->lo = (buf[0] - '0') * 100, r->hi = r->lo + 99;
	} else {
		char *dash = strchr(buf, '-');
		if (dash)
			*dash = 0;
		if (num_long(buf, NUM_STATUS_MAX, &r->lo) < 0)
			return -1;
		r->hi = r->lo;
		if (dash && num_long(dash + 1, NUM_STATUS_MAX, &r->hi) < 0)
			return -1;
	}
	return r->lo >= NUM_STATUS_MIN && r->hi <= NUM_STATUS_MAX && r->lo <= r->hi ? 0 : -1;
}

int
num_status_ranges(const char *s, num_range **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (strcasecmp(s, "any") == 0)
		return 0;
	for (const char *p = s;;) {
		size_t len = strcspn(p, ",");
		num_range r;
		if (status_range(p, len, &r) < 0) {
			free(*out);
			*out = NULL;
			*n = 0;
			return -1;
		}
		*out = xrealloc(*out, (*n + 1) * sizeof r);
		(*out)[(*n)++] = r;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int
num_in_ranges(long status, const num_range *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (status >= r[i].lo && status <= r[i].hi)
			return 1;
	return n == 0;
}
