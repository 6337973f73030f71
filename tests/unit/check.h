/* check — the unit tests' assertions.  Each check prints one TAP-style
 * line, `ok - PROG: NAME` or `not ok - PROG: NAME`, where PROG is the
 * CHECK_PROG the test defines before including this header; a failed
 * comparison also prints what was expected and what came, so a failure
 * can be read without a debugger.  main ends with `return check_done();`.
 */
#ifndef SLUICE_CHECK_H
#define SLUICE_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef CHECK_PROG
#error "define CHECK_PROG (the test's name) before including check.h"
#endif

static int check_failed;

/* Prints the check's line; returns cond, so a test can stop early. */
static inline int
check_true(const char *name, int cond)
{
	printf("%sok - %s: %s\n", cond ? "" : "not ", CHECK_PROG, name);
	check_failed += !cond;
	return cond;
}

static inline int
check_int(const char *name, long long expected, long long actual)
{
	if (!check_true(name, expected == actual)) {
		printf("#   expected %lld\n#   actual   %lld\n", expected, actual);
		return 0;
	}
	return 1;
}

static inline int
check_double(const char *name, double expected, double actual)
{
	if (!check_true(name, expected == actual)) {
		printf("#   expected %g\n#   actual   %g\n", expected, actual);
		return 0;
	}
	return 1;
}

/* Either may be NULL (no string), which equals only NULL. */
static inline int
check_str(const char *name, const char *expected, const char *actual)
{
	int same = expected && actual ? strcmp(expected, actual) == 0 : expected == actual;
	if (!check_true(name, same)) {
		printf("#   expected %s%s%s\n", expected ? "'" : "", expected ? expected : "(none)",
		       expected ? "'" : "");
		printf("#   actual   %s%s%s\n", actual ? "'" : "", actual ? actual : "(none)",
		       actual ? "'" : "");
		return 0;
	}
	return 1;
}

/* Seconds compared in millionths: the pacing and retry rules' values
 * are exact there. */
static inline int
check_sec(const char *name, double expected, double actual)
{
	if (!check_true(name, llround(expected * 1e6) == llround(actual * 1e6))) {
		printf("#   expected %.6f\n#   actual   %.6f\n", expected, actual);
		return 0;
	}
	return 1;
}

/* main's exit status: 1 when any check failed. */
static inline int
check_done(void)
{
	return check_failed != 0;
}

#endif
