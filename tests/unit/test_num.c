/* Unit tests of lib/num: the strict option value parsers.  Each value
 * is either taken whole or refused with -1, leaving *out as it was. */
#include "num.h"

#include <limits.h>
#include <stdint.h>

#define CHECK_PROG "test_num"
#include "check.h"

int
main(void)
{
	static const struct { const char *s; long max; int rc; long v; } longs[] = {
		{ "0", 10, 0, 0 }, { "7", 10, 0, 7 }, { "10", 10, 0, 10 },
		{ "007", 10, 0, 7 },                      /* decimal, not octal */
		{ "11", 10, -1, 0 },                      /* above max */
		{ "-1", 10, -1, 0 }, { "", 10, -1, 0 }, { "x", 10, -1, 0 },
		{ "1x", 10, -1, 0 }, { "1 ", 10, -1, 0 }, { "1.5", 10, -1, 0 },
		{ "0x10", 100, -1, 0 },
		{ "9223372036854775807", LONG_MAX, 0, LONG_MAX },
		{ "9223372036854775808", LONG_MAX, -1, 0 }, /* overflows long */
		{ "99999999999999999999", LONG_MAX, -1, 0 },
	};
	for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++) {
		char name[96];
		long v = -42;
		snprintf(name, sizeof name, "num_long('%s', %ld)", longs[i].s, longs[i].max);
		check_int(name, longs[i].rc, num_long(longs[i].s, longs[i].max, &v));
		check_int(name, longs[i].rc == 0 ? longs[i].v : -42, v);
	}

	static const struct { const char *s; int rc; double v; } secs[] = {
		{ "0", 0, 0 }, { "0.25", 0, 0.25 }, { "1.5", 0, 1.5 }, { "30", 0, 30 },
		{ ".5", 0, 0.5 }, { "1e2", 0, 100 },
		{ "-0.5", -1, 0 }, { "-1", -1, 0 }, { "", -1, 0 }, { "s", -1, 0 },
		{ "1s", -1, 0 }, { "0.25 ", -1, 0 }, { "inf", -1, 0 }, { "nan", -1, 0 },
		{ "1e400", -1, 0 },                        /* out of range */
	};
	for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
		char name[96];
		double v = -42;
		snprintf(name, sizeof name, "num_seconds('%s')", secs[i].s);
		check_int(name, secs[i].rc, num_seconds(secs[i].s, &v));
		/* Compared in millionths: every value above is exact there. */
		check_int(name, (long long)((secs[i].rc == 0 ? secs[i].v : -42) * 1e6),
			  (long long)(v * 1e6));
	}

	static const struct { const char *s; int rc; double v; } durs[] = {
		{ "0", 0, 0 }, { "30", 0, 30 }, { "30s", 0, 30 }, { "2m", 0, 120 },
		{ "12h", 0, 43200 }, { "1d", 0, 86400 }, { "1.5h", 0, 5400 }, { "0d", 0, 0 },
		{ "d", -1, 0 }, { "1w", -1, 0 }, { "1dd", -1, 0 }, { "1 d", -1, 0 },
		{ "-1d", -1, 0 }, { "", -1, 0 }, { "infd", -1, 0 }, { "1e308d", -1, 0 },
	};
	for (size_t i = 0; i < sizeof durs / sizeof durs[0]; i++) {
		char name[96];
		double v = -42;
		snprintf(name, sizeof name, "num_duration('%s')", durs[i].s);
		check_int(name, durs[i].rc, num_duration(durs[i].s, &v));
		check_int(name, (long long)((durs[i].rc == 0 ? durs[i].v : -42) * 1e6),
			  (long long)(v * 1e6));
	}

	static const struct { const char *s; int rc; size_t v; } sizes[] = {
		{ "0", 0, 0 }, { "4096", 0, 4096 },
		{ "1K", 0, 1024 }, { "1k", 0, 1024 }, { "64K", 0, 65536 },
		{ "3M", 0, 3 << 20 }, { "1m", 0, 1 << 20 },
		{ "2G", 0, (size_t)2 << 30 }, { "1g", 0, (size_t)1 << 30 },
		{ "0K", 0, 0 },
		{ "18446744073709551615", 0, SIZE_MAX },
		{ "17179869183G", 0, (size_t)17179869183 << 30 }, /* the largest in G */
		{ "17179869184G", -1, 0 },                        /* 2^64: too large */
		{ "17592186044416M", -1, 0 },                     /* 2^64 in M */
		{ "18014398509481984K", -1, 0 },                  /* 2^64 in K */
		{ "18446744073709551616", -1, 0 },                /* 2^64 bytes */
		{ "1T", -1, 0 }, { "1KB", -1, 0 }, { "1 K", -1, 0 }, { "K", -1, 0 },
		{ "", -1, 0 }, { "-1", -1, 0 }, { "-1K", -1, 0 }, { "1.5M", -1, 0 },
		{ "x", -1, 0 },
		{ " -1", -1, 0 }, { " -0", -1, 0 },   /* strtoull would negate these */
		{ " 1K", -1, 0 }, { "+1K", -1, 0 },
	};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		char name[96];
		size_t v = 42;
		snprintf(name, sizeof name, "num_size('%s')", sizes[i].s);
		check_int(name, sizes[i].rc, num_size(sizes[i].s, &v));
		/* Compared as unsigned bit patterns through long long. */
		check_int(name, (long long)(sizes[i].rc == 0 ? sizes[i].v : 42), (long long)v);
	}
	return check_done();
}
