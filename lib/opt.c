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

int
opt_next(int argc, char **argv, const opt_def *tab, int n)
{
	static struct option *longs;
	static char *shorts;
	if (!longs && argc == 2 && strcmp(argv[1], "--man-options") == 0)
		opt_man(tab, n);
	if (!longs) {
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
	int c = getopt_long(argc, argv, shorts, longs, NULL);
	if (c == -1)
		return -1;
	if (c >= OPT_LONG_BASE && c < OPT_LONG_BASE + n)
		return c - OPT_LONG_BASE;
	for (int i = 0; i < n; i++)
		if (c != 0 && tab[i].shortc == c)
			return i;
	msg_bad_option(argv);
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

void
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

void
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

void
opt_long(const char *name, const char *val, long min, long max, long *out)
{
	if (num_long(val, max, out) < 0 || *out < min) {
		char want[80];
		snprintf(want, sizeof want, "a whole number from %ld to %ld", min, max);
		opt_bad(name, val, want);
	}
}

void
opt_seconds(const char *name, const char *val, double min, int above, const char *want,
	    double *out)
{
	if (num_seconds(val, out) < 0 || *out < min || (above && *out <= min))
		opt_bad(name, val, want);
}

void
opt_size(const char *name, const char *val, size_t min, const char *want, size_t *out)
{
	if (num_size(val, out) < 0 || *out < min)
		opt_bad(name, val, want);
}
