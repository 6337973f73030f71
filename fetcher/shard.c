/* shard — --shard K/N: which input URLs this fetch takes.
 *
 * N fetches reading one list with --shard 1/N .. N/N split it by host, so
 * every host is in exactly one of them and its pacing, robots.txt and
 * circuit breaker stay in one process.  The placement is a documented
 * contract (docs/fetch.md), not an implementation detail: users predict
 * it to send a host's seeds, or its database, to the right machine.  So
 * the hash is spelled out here rather than shared with an internal table
 * hash that may change.
 */
#include "fetch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* The largest N: shards beyond a few thousand processes make no sense,
 * and the bound keeps K/N clear of overflow. */
#define SHARD_MAX 1000000

/* Whether s[0..n) is one or more decimal digits: strtol alone would let
 * " 1" and "+1" through. */
static int
digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Parses "K/N" (decimal digits, 1 <= K <= N <= SHARD_MAX, nothing
 * around them) into *k and *n.  Returns 0, or -1 with *k and *n
 * untouched. */
int
shard_parse(const char *s, long *k, long *n)
{
	const char *slash = strchr(s, '/');
	if (!slash || !digits(s, (size_t)(slash - s)) || !digits(slash + 1, strlen(slash + 1)))
		return -1;
	long kk = strtol(s, NULL, 10), nn;   /* stops at the slash */
	if (kk < 1 || kk > SHARD_MAX || num_long(slash + 1, SHARD_MAX, &nn) != 0 || kk > nn)
		return -1;
	*k = kk;
	*n = nn;
	return 0;
}

/* The shard, 1 to n, of host name host (as url_canon writes it:
 * lowercase, punycode, no port): FNV-1a 32-bit of its bytes, modulo n,
 * plus one.  Stable across runs, machines and versions. */
long
shard_of(const char *host, long n)
{
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)host; *p; p++)
		h = (h ^ *p) * 16777619u;
	return (long)(h % (uint32_t)n) + 1;
}

/* Whether this fetch takes an input whose host is host: always without
 * --shard; with it, when host is in shard K.  host is NULL for an input
 * that is not fetched (no host: bad_url, another scheme): shard 1 takes
 * those, so their error record still comes out exactly once. */
int
shard_takes(const char *host)
{
	if (F.o.shard_n == 0)
		return 1;
	if (!host)
		return F.o.shard_k == 1;
	return shard_of(host, F.o.shard_n) == F.o.shard_k;
}
