#include "prom.h"

#include <math.h>

const double prom_bounds[PROM_BOUNDS] = {
	0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
	0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
};

void
prom_observe(prom_hist *h, double s)
{
	if (!(s >= 0))   /* NaN too: a clock cannot run backwards */
		s = 0;
	int i = 0;
	while (i < PROM_BOUNDS && s > prom_bounds[i])
		i++;
	h->n[i]++;
	h->count++;
	h->sum += s;
	if (s > h->max)
		h->max = s;
}

void
prom_fold(prom_hist *into, const prom_hist *from)
{
	for (int i = 0; i <= PROM_BOUNDS; i++)
		into->n[i] += from->n[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->max > into->max)
		into->max = from->max;
}

double
prom_quantile(const prom_hist *h, double q)
{
	if (h->count == 0)
		return 0;
	double want = q * (double)h->count, seen = 0;
	for (int i = 0; i <= PROM_BOUNDS; i++) {
		if (h->n[i] && seen + (double)h->n[i] >= want) {
			double lo = i ? prom_bounds[i - 1] : 0;
			double hi = i < PROM_BOUNDS ? prom_bounds[i] : h->max;
			double v = lo + (hi - lo) * (want - seen) / (double)h->n[i];
			return fmin(v, h->max);
		}
		seen += (double)h->n[i];
	}
	return h->max;
}

void
prom_family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value, escaped as the format wants: backslash, double quote
 * and newline. */
static void
put_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* name{labels...} with extra (le's name and value) after them, if any. */
static void
put_name(FILE *f, const char *name, const char *suffix, const char *const *labels,
	 const char *extra, const char *extra_value)
{
	fputs(name, f);
	fputs(suffix, f);
	const char *sep = "{";
	for (; labels && labels[0]; labels += 2, sep = ",") {
		fprintf(f, "%s%s=\"", sep, labels[0]);
		put_value(f, labels[1] ? labels[1] : "");
		fputc('"', f);
	}
	if (extra) {
		fprintf(f, "%s%s=\"", sep, extra);
		put_value(f, extra_value);
		fputc('"', f);
		sep = ",";
	}
	if (*sep == ',')
		fputc('}', f);
}

void
prom_count(FILE *f, const char *name, const char *const *labels, unsigned long long v)
{
	put_name(f, name, "", labels, NULL, NULL);
	fprintf(f, " %llu\n", v);
}

void
prom_value(FILE *f, const char *name, const char *const *labels, double v)
{
	put_name(f, name, "", labels, NULL, NULL);
	fprintf(f, " %.9g\n", v);
}

void
prom_hist_put(FILE *f, const char *name, const char *const *labels, const prom_hist *h)
{
	unsigned long long cum = 0;
	char le[32];
	for (int i = 0; i < PROM_BOUNDS; i++) {
		cum += h->n[i];
		snprintf(le, sizeof le, "%g", prom_bounds[i]);
		put_name(f, name, "_bucket", labels, "le", le);
		fprintf(f, " %llu\n", cum);
	}
	put_name(f, name, "_bucket", labels, "le", "+Inf");
	fprintf(f, " %llu\n", h->count);
	put_name(f, name, "_sum", labels, NULL, NULL);
	fprintf(f, " %.9g\n", h->sum);
	put_name(f, name, "_count", labels, NULL, NULL);
	fprintf(f, " %llu\n", h->count);
}
