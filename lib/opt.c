#include "opt.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "num.h"
#include "xalloc.h"

/* getopt_long's val for a row without a short letter: above every
 * char, so the two never collide. */
#define OPT_LONG_BASE 256

const char opt_none[] = "";

static _Noreturn void opt_help(const char *usage, const opt_def *tab, int n);
static _Noreturn void opt_man(const opt_def *tab, int n);

int
opt_next(int argc, char **argv, const char *usage, const opt_def *tab, int n)
{
	static struct option *longs;
	static char *shorts;
	if (!longs && argc == 2 && strcmp(argv[1], "--man-options") == 0)
		opt_man(tab, n);
	if (!longs) {
		int bad = opt_defaults(tab, n);
		if (bad >= 0)
			msg_die(EX_SOFTWARE, "bad default '%s' for --%s",
				tab[bad].init ? tab[bad].init : tab[bad].dflt, tab[bad].name);
		longs = xcalloc((size_t)n + 1, sizeof *longs);
		shorts = xcalloc((size_t)n * 2 + 2, 1);
		char *s = shorts;
		*s++ = ':';   /* a missing value is ':', not '?': both are usage errors */
		/* Headings are left out: a NULL name would end the array. */
		for (int i = 0, l = 0; i < n; i++) {
			if (!tab[i].name)
				continue;
			longs[l++] = (struct option){ tab[i].name,
				tab[i].arg ? required_argument : no_argument, NULL,
				tab[i].shortc ? tab[i].shortc : OPT_LONG_BASE + i };
			if (tab[i].shortc) {
				*s++ = (char)tab[i].shortc;
				if (tab[i].arg)
					*s++ = ':';
			}
		}
	}
	opterr = 0;   /* msg_bad_option speaks for getopt */
	int c = getopt_long(argc, argv, shorts, longs, NULL), i = -1;
	if (c == -1)
		return -1;
	if (c >= OPT_LONG_BASE && c < OPT_LONG_BASE + n)
		i = c - OPT_LONG_BASE;
	for (int k = 0; i < 0 && k < n; k++)
		if (c != 0 && tab[k].shortc == c)
			i = k;
	if (i < 0)
		msg_bad_option(argv);
	if (tab[i].kind == OPT_KIND_HELP)
		opt_help(usage, tab, n);
	if (opt_set(&tab[i], optarg) < 0) {
		char want[128];
		opt_bad(tab[i].name, optarg, opt_want(&tab[i], want, sizeof want));
	}
	return i;
}

int
opt_set(const opt_def *o, const char *arg)
{
	long l;
	double d;
	size_t z;
	switch (o->kind) {
	case OPT_KIND_SPECIAL:
	case OPT_KIND_HELP:
		return 0;
	case OPT_KIND_FLAG:
		*(int *)o->dst = o->val;
		return 0;
	case OPT_KIND_LONG:
		if (num_long(arg, (long)o->max, &l) < 0 || l < o->min)
			return -1;
		*(long *)o->dst = l;
		return 0;
	case OPT_KIND_SECONDS:
		if (num_seconds(arg, &d) < 0 || d < o->min || (o->above && d <= o->min) || d > o->max)
			return -1;
		*(double *)o->dst = d;
		return 0;
	case OPT_KIND_DURATION:
		if (num_duration(arg, &d) < 0)
			return -1;
		*(double *)o->dst = d;
		return 0;
	case OPT_KIND_SIZE:
		if (num_size(arg, &z) < 0 || z < o->min)
			return -1;
		*(size_t *)o->dst = z;
		return 0;
	case OPT_KIND_STRING:
		*(const char **)o->dst = arg;
		return 0;
	case OPT_KIND_CHOICE:
		for (const opt_choice *w = o->words; w->word; w++)
			if (strcmp(arg, w->word) == 0) {
				*(int *)o->dst = w->val;
				return 0;
			}
		return -1;
	case OPT_KIND_CALL:
		return o->fn(o->dst, arg) == 0 ? 0 : -1;
	case OPT_KIND_TAKE:
		return o->take(arg) == 0 ? 0 : -1;
	}
	return -1;
}

/* Sets o's initial value from init: a plain number for the kinds that
 * hold one, since it may lie outside what the option accepts. */
static int
opt_init(const opt_def *o)
{
	if (o->init == opt_none)
		return 0;
	if (o->kind == OPT_KIND_STRING || o->kind == OPT_KIND_CALL || o->kind == OPT_KIND_TAKE)
		return opt_set(o, o->init);
	char *end;
	errno = 0;
	double d = strtod(o->init, &end);
	if (end == o->init || *end || errno)
		return -1;
	switch (o->kind) {
	case OPT_KIND_FLAG:
	case OPT_KIND_CHOICE: *(int *)o->dst = (int)d; return 0;
	case OPT_KIND_LONG: *(long *)o->dst = (long)d; return 0;
	case OPT_KIND_SECONDS:
	case OPT_KIND_DURATION: *(double *)o->dst = d; return 0;
	case OPT_KIND_SIZE: *(size_t *)o->dst = (size_t)d; return 0;
	default: return -1;   /* SPECIAL and HELP have no dst */
	}
}

int
opt_defaults(const opt_def *tab, int n)
{
	for (int i = 0; i < n; i++) {
		const opt_def *o = &tab[i];
		if (o->kind == OPT_KIND_SPECIAL || o->kind == OPT_KIND_HELP)
			continue;
		if (o->init ? opt_init(o) < 0 : o->dflt && opt_set(o, o->dflt) < 0)
			return i;
	}
	return -1;
}

const char *
opt_want(const opt_def *o, char *buf, size_t len)
{
	if (o->want)
		return o->want;
	switch (o->kind) {
	case OPT_KIND_LONG:
		snprintf(buf, len, "a whole number from %ld to %ld", (long)o->min, (long)o->max);
		return buf;
	case OPT_KIND_SECONDS:
		snprintf(buf, len, o->above ? "seconds, more than %g" : "seconds, %g or more", o->min);
		return buf;
	case OPT_KIND_DURATION:
		return "an age: seconds, or a number with s, m, h or d";
	case OPT_KIND_SIZE: {
		if (o->min <= 0)
			return "a size, K/M/G suffixes";
		/* In the largest unit that divides it: 1K, not 1024. */
		const char *units = "\0KMG";
		size_t min = (size_t)o->min;
		while (units[1] && min % 1024 == 0)
			min /= 1024, units++;
		snprintf(buf, len, "a size of %zu%.1s or more, K/M/G suffixes", min, units);
		return buf;
	}
	case OPT_KIND_CHOICE: {
		/* "a, b or c" */
		size_t k = 0;
		buf[0] = '\0';
		for (const opt_choice *w = o->words; w->word; w++, k++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 k == 0 ? "" : w[1].word ? ", " : " or ", w->word);
		return buf;
	}
	default:
		return "a valid value";
	}
}

/* The end of --help and --man-options: stdout written, exit 0 (quietly
 * when it was closed). */
static _Noreturn void
opt_done(void)
{
	if (fflush(stdout) != 0)
		msg_stdout_failed(errno);
	exit(0);
}

/* --help: usage, then one aligned row per option with its default in
 * parentheses, and each heading row's help as a line, on stdout. */
static _Noreturn void
opt_help(const char *usage, const opt_def *tab, int n)
{
	fputs(usage, stdout);
	for (int i = 0; i < n; i++) {
		if (!tab[i].name) {
			printf("%s\n", tab[i].help);
			continue;
		}
		char left[64];
		snprintf(left, sizeof left, "%s%c%s--%s%s%s",
			 tab[i].shortc ? "-" : " ", tab[i].shortc ? tab[i].shortc : ' ',
			 tab[i].shortc ? ", " : "  ", tab[i].name,
			 tab[i].arg ? " " : "", tab[i].arg ? tab[i].arg : "");
		/* Rows start in column 26, as fetch's; a long left part gets a
		 * line of its own. */
		if (strlen(left) > 22)
			printf("  %s\n%26s", left, "");
		else
			printf("  %-24s", left);
		for (const char *h = tab[i].help; *h; h++) {
			putchar(*h);
			if (*h == '\n')
				printf("%26s", "");
		}
		if (tab[i].dflt)
			printf(" (%s)", tab[i].dflt);
		putchar('\n');
	}
	opt_done();
}

/* Writes s as troff text: a '-' that starts a word (an option's dash)
 * becomes \-, a backslash \e, a newline a space; italic when it is an
 * argument name, each run of capitals in \fI...\fR. */
static void
opt_troff(const char *s, int arg)
{
	for (const char *p = s; *p; p++) {
		int cap = *p >= 'A' && *p <= 'Z';
		if (arg && cap && (p == s || !(p[-1] >= 'A' && p[-1] <= 'Z')))
			fputs("\\fI", stdout);
		if (*p == '-' && (arg || p == s || p[-1] == ' ' || p[-1] == '(' || p[-1] == '-'))
			fputs("\\-", stdout);
		else if (*p == '\\')
			fputs("\\e", stdout);
		else
			putchar(*p == '\n' ? ' ' : *p);
		if (arg && cap && !(p[1] >= 'A' && p[1] <= 'Z'))
			fputs("\\fR", stdout);
	}
}

/* --man-options: the rows as the troff of a man page's OPTIONS section,
 * a heading as .SS, an option as .TP with its names and argument, then
 * man (or help) and its default in parentheses. */
static _Noreturn void
opt_man(const opt_def *tab, int n)
{
	for (int i = 0; i < n; i++) {
		const opt_def *o = &tab[i];
		if (!o->name) {
			/* "Limits:" is .SS Limits */
			size_t len = strlen(o->help);
			printf(".SS \"%.*s\"\n", (int)(len && o->help[len - 1] == ':' ? len - 1 : len),
			       o->help);
			continue;
		}
		printf(".TP\n%s", o->shortc || o->arg ? ".BR " : ".B ");
		if (o->shortc)
			printf("\\-%c \", \" ", o->shortc);
		opt_troff("--", 1);
		opt_troff(o->name, 1);
		if (o->arg) {
			fputs(" \" ", stdout);
			opt_troff(o->arg, 1);
			putchar('"');
		}
		putchar('\n');
		const char *text = o->man ? o->man : o->help;
		if (text[0] == '.' || text[0] == '\'')
			fputs("\\&", stdout);   /* not a request ("... for S seconds") */
		if (o->man)
			fputs(o->man, stdout);
		else
			opt_troff(o->help, 0);
		if (o->dflt) {
			fputs(" (", stdout);
			opt_troff(o->dflt, 0);
			putchar(')');
		}
		putchar('\n');
	}
	opt_done();
}

void
opt_bad(const char *name, const char *val, const char *want)
{
	msg_usage("invalid value '%s' for --%s: want %s", val, name, want);
}
