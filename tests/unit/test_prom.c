/* Unit tests of lib/prom and lib/afile: samples and histograms in the
 * text exposition format, label values escaped, quantiles from the
 * buckets, and the rename that replaces a file whole. */
#include "afile.h"
#include "prom.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_PROG "test_prom"
#include "check.h"

/* What put(f) writes, as a malloc'd string. */
static char *
written(void (*put)(FILE *f, void *arg), void *arg)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	put(f, arg);
	fclose(f);
	return s;
}

static void
put_escaped(FILE *f, void *arg)
{
	(void)arg;
	const char *l[] = { "host", "a\\b\"c\nd", "reason", "x", NULL };
	prom_count(f, "m_total", l, 7);
	prom_count(f, "m_total", NULL, 0);
}

static void
put_hist(FILE *f, void *arg)
{
	const char *l[] = { "host", "h", NULL };
	prom_hist_put(f, "d_seconds", l, arg);
}

int
main(void)
{
	char *s = written(put_escaped, NULL);
	check_str("labels escaped: backslash, quote, newline",
		  "m_total{host=\"a\\\\b\\\"c\\nd\",reason=\"x\"} 7\nm_total 0\n", s);
	free(s);

	prom_hist h = { 0 };
	prom_observe(&h, 0.0001);   /* on a bound: in its bucket (le is <=) */
	prom_observe(&h, 0.003);
	prom_observe(&h, 0.003);
	prom_observe(&h, 100);      /* past the last bound: +Inf only */
	prom_observe(&h, -1);       /* a clock step back: 0 */
	check_int("count", 5, (long long)h.count);
	s = written(put_hist, &h);
	check_true("le=\"0.0001\" holds 0.0001 and 0", strstr(s, "d_seconds_bucket{host=\"h\",le=\"0.0001\"} 2\n") != NULL);
	check_true("buckets are cumulative", strstr(s, "d_seconds_bucket{host=\"h\",le=\"0.005\"} 4\n") != NULL);
	check_true("le=\"60\" lacks the 100 s one", strstr(s, "d_seconds_bucket{host=\"h\",le=\"60\"} 4\n") != NULL);
	check_true("+Inf is the count", strstr(s, "d_seconds_bucket{host=\"h\",le=\"+Inf\"} 5\n") != NULL);
	check_true("_sum", strstr(s, "d_seconds_sum{host=\"h\"} 100.0061\n") != NULL);
	check_true("_count", strstr(s, "d_seconds_count{host=\"h\"} 5\n") != NULL);
	free(s);

	check_true("max is a quantile's ceiling", prom_quantile(&h, 1) == 100);
	double p50 = prom_quantile(&h, 0.5);
	check_true("p50 within its bucket (0.0025, 0.005]", p50 > 0.0025 && p50 <= 0.005);
	prom_hist none = { 0 };
	check_true("no observations: quantile 0", prom_quantile(&none, 0.5) == 0);
	prom_fold(&none, &h);
	check_int("fold adds the counts", 5, (long long)none.count);
	check_true("fold keeps the max", none.max == 100);

	char dir[] = "/tmp/test_prom.XXXXXX", path[64];
	check_true("mkdtemp", mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/m.prom", dir);
	afile a;
	check_int("afile_open", 0, afile_open(&a, path));
	fputs("x 1\n", a.f);
	check_true("nothing at the path before the commit", access(path, F_OK) != 0);
	check_int("afile_commit", 0, afile_commit(&a));
	check_true("the file is there after it", access(path, F_OK) == 0);
	check_true("and no temporary one", access(a.tmp, F_OK) != 0);
	remove(path);
	rmdir(dir);
	snprintf(path, sizeof path, "/nonexistent-dir/m.prom");
	check_int("a directory that is not there: -1", -1, afile_open(&a, path));
	return check_done();
}
