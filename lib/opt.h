/* opt — one option table per program, from which getopt's arrays, the
 * --help text and the bad-value message all come, so they cannot drift
 * apart (and tests/t-options.sh checks the man page and docs against
 * --help).
 *
 * A program indexes its table with its own enum, in designated
 * initializers, and switches on what opt_next returns:
 *
 *   enum { O_BATCH, O_QUIET, O_HELP, O_N };
 *   static const opt_def opts[O_N] = {
 *       [O_BATCH] = { "batch", 0, "N", "commit every N records", "1000" },
 *       ...
 *   };
 *   while ((i = opt_next(argc, argv, opts, O_N)) != -1) switch (i) ...
 *
 * A row with a NULL name is a section heading: opt_help prints its help
 * as a line of its own ("Limits:") and opt_next never returns it.
 *
 * The table is also the OPTIONS section of man/PROG.1: `PROG
 * --man-options`, which --help does not list, prints it as troff, and
 * `make man` puts that between the page's `.\" BEGIN OPTIONS` and
 * `.\" END OPTIONS` lines (tests/t-options.sh fails when they differ).
 */
#ifndef SLUICE_OPT_H
#define SLUICE_OPT_H

#include <stddef.h>

typedef struct opt_def {
	const char *name;   /* long name, without "--"; NULL for a heading */
	int shortc;         /* short option letter, or 0 */
	const char *arg;    /* argument's name in --help, NULL for a flag */
	const char *help;   /* one line; a '\n' starts an indented second line */
	const char *dflt;   /* default shown as "(dflt)", NULL for none */
	const char *man;    /* the man page's description, as troff, when it
			       says more than help; NULL: help's words */
} opt_def;

/* Returns the index in tab (n rows) of the next option in argv, with
 * optarg set when the row has an arg; -1 after the last option, with
 * optind at the first operand.  An unknown option or a missing value
 * exits 64 through msg_bad_option.  Builds getopt_long's arrays from tab
 * on the first call; one table per program run.  A lone argument
 * --man-options prints the table through opt_man instead. */
int opt_next(int argc, char **argv, const opt_def *tab, int n);

/* Prints usage (the synopsis lines, as given) and then one aligned row
 * per option with its default in parentheses, and each heading row's
 * help as a line, on stdout, and exits 0 (quietly on a closed stdout). */
_Noreturn void opt_help(const char *usage, const opt_def *tab, int n);

/* Prints the rows as the troff of a man page's OPTIONS section: a
 * heading as .SS, an option as .TP with its names and argument, then
 * man (or help) and its default in parentheses; exits 0. */
_Noreturn void opt_man(const opt_def *tab, int n);

/* The one message for a bad option value, exiting 64:
 * `prog: invalid value 'val' for --name: want WANT`. */
_Noreturn void opt_bad(const char *name, const char *val, const char *want);

/* Parses val as a whole number from min to max into *out, or exits
 * through opt_bad naming the range. */
void opt_long(const char *name, const char *val, long min, long max, long *out);

/* Parses val as seconds (or a rate: lib/num's num_seconds) of at least
 * min, or more than min when above is set, into *out; else exits
 * through opt_bad with want. */
void opt_seconds(const char *name, const char *val, double min, int above, const char *want,
		 double *out);

/* Parses val as a size (num_size: K, M, G suffixes) of at least min
 * bytes into *out; else exits through opt_bad with want. */
void opt_size(const char *name, const char *val, size_t min, const char *want, size_t *out);

#endif
