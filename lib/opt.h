/* opt — one option table per program, from which getopt's arrays, the
 * --help text, the man page's OPTIONS, the bad-value message and each
 * option's initial value all come, so they cannot drift apart (and
 * tests/t-options.sh checks the man page and docs against --help).
 *
 * A row says where its value goes (dst), what kind of value it is, its
 * bounds and its default; opt_next reads such an option itself.  A
 * program indexes its table with its own enum, in designated
 * initializers of the OPT_* macros below, and its switch keeps only the
 * options whose value needs the program (OPT_SPECIAL):
 *
 *   enum { O_BATCH, O_SCOPE, O_QUIET, O_HELP, O_N };
 *   static const opt_def opts[O_N] = {
 *       [O_BATCH] = OPT_LONG(0, "batch", "N", &batch, 1, 100000, "1000",
 *               "commit every N records"),
 *       ...
 *   };
 *   while ((i = opt_next(argc, argv, usage, opts, O_N)) != -1) switch (i) ...
 *
 * A row with a NULL name is a section heading (OPT_HEADING): --help
 * prints its help as a line of its own ("Limits:") and opt_next never
 * returns it.
 *
 * The table is also the OPTIONS section of man/PROG.1: `PROG
 * --man-options`, which --help does not list, prints it as troff, and
 * `make man` puts that between the page's `.\" BEGIN OPTIONS` and
 * `.\" END OPTIONS` lines (tests/t-options.sh fails when they differ).
 */
#ifndef SLUICE_OPT_H
#define SLUICE_OPT_H

#include <math.h>
#include <stddef.h>

#include "msg.h"

/* What a row's value is, and so how opt_set reads it into dst. */
typedef enum opt_kind {
	OPT_KIND_SPECIAL,   /* the program's switch reads it; also headings */
	OPT_KIND_HELP,      /* --help: the table as text, then exit 0 */
	OPT_KIND_FLAG,      /* int: set to val */
	OPT_KIND_LONG,      /* long: a whole number from min to max */
	OPT_KIND_SECONDS,   /* double: num_seconds, from min (past it when
			       above) to max */
	OPT_KIND_DURATION,  /* double: num_duration (12h, 1d) */
	OPT_KIND_SIZE,      /* size_t: num_size (K, M, G), min or more */
	OPT_KIND_STRING,    /* const char *: the argument itself */
	OPT_KIND_CHOICE,    /* int: the val of the argument's word in words */
	OPT_KIND_CALL,      /* fn(dst, argument): lists, values read by the
			       program's own parser */
	OPT_KIND_TAKE,      /* take(argument): a function that keeps it */
} opt_kind;

/* One word of an OPT_CHOICE row; a NULL word ends the table. */
typedef struct opt_choice {
	const char *word;
	int val;
} opt_choice;

typedef struct opt_def {
	const char *name;   /* long name, without "--"; NULL for a heading */
	int shortc;         /* short option letter, or 0 */
	const char *arg;    /* argument's name in --help, NULL for a flag */
	const char *help;   /* one line; a '\n' starts an indented second line */
	const char *dflt;   /* default shown as "(dflt)", NULL for none; also
			       the initial value, read as an argument would
			       be, unless init is set */
	const char *man;    /* the man page's description, as troff, when it
			       says more than help; NULL: help's words */
	opt_kind kind;
	void *dst;          /* where the value goes, of the kind's type */
	double min, max;    /* LONG, SECONDS: the bounds; SIZE: min */
	int above;          /* SECONDS: min itself is refused */
	int val;            /* FLAG: the value set */
	const opt_choice *words;   /* CHOICE */
	int (*fn)(void *dst, const char *arg);   /* CALL: 0, or -1 for a bad
						    value */
	int (*take)(const char *arg);   /* TAKE: 0, or -1 for a bad value */
	const char *want;   /* the bad-value message's WHAT when the kind's
			       own (opt_want) is not it */
	const char *init;   /* the initial value when dflt is shown in words
			       ("off", "online CPUs") or not shown (a flag):
			       a number for FLAG, CHOICE and the number kinds
			       (so -1 may stand for off), the string itself
			       for STRING, the argument of CALL and TAKE;
			       opt_none for none (dst keeps its zero) */
} opt_def;

/* The init of a row whose default is shown in words but is no value
 * ("Chromium's"): the destination keeps its zero. */
extern const char opt_none[];

/* dst, checked to be a T * at compile time. */
#define OPT_DST(T, p) _Generic((p), T *: (void *)(p))

/* Row initializers, in git's style (parse-options.h): s is the short
 * letter (or 0), l the long name, a the argument's name, d the default
 * as --help shows it (NULL: none), h the help line.  The trailing
 * arguments are more designated initializers of opt_def: .man, .want,
 * .init. */
#define OPT_HEADING(h) { .help = (h) }
#define OPT_SPECIAL(s, l, a, h, ...) { (l), (s), (a), (h), __VA_ARGS__ }
#define OPT_FLAG(s, l, p, v, h, ...) \
	{ (l), (s), NULL, (h), .kind = OPT_KIND_FLAG, .dst = OPT_DST(int, p), .val = (v), \
	  __VA_ARGS__ }
#define OPT_LONG(s, l, a, p, lo, hi, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_LONG, .dst = OPT_DST(long, p), \
	  .min = (lo), .max = (hi), __VA_ARGS__ }
#define OPT_SECONDS(s, l, a, p, lo, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_SECONDS, .dst = OPT_DST(double, p), \
	  .min = (lo), .max = HUGE_VAL, __VA_ARGS__ }
/* As OPT_SECONDS, with lo itself refused ("more than 0"). */
#define OPT_SECONDS_ABOVE(s, l, a, p, lo, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_SECONDS, .dst = OPT_DST(double, p), \
	  .min = (lo), .max = HUGE_VAL, .above = 1, __VA_ARGS__ }
#define OPT_FRACTION(s, l, a, p, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_SECONDS, .dst = OPT_DST(double, p), \
	  .min = 0, .max = 1, .want = "a fraction from 0 to 1", __VA_ARGS__ }
#define OPT_DURATION(s, l, a, p, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_DURATION, .dst = OPT_DST(double, p), \
	  __VA_ARGS__ }
#define OPT_SIZE(s, l, a, p, lo, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_SIZE, .dst = OPT_DST(size_t, p), \
	  .min = (lo), __VA_ARGS__ }
#define OPT_STRING(s, l, a, p, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_STRING, \
	  .dst = OPT_DST(const char *, p), __VA_ARGS__ }
/* w: an opt_choice table. */
#define OPT_CHOICE(s, l, a, p, w, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_CHOICE, .dst = OPT_DST(int, p), \
	  .words = (w), __VA_ARGS__ }
/* f: int f(void *dst, const char *arg); rows give their .want. */
#define OPT_CALL(s, l, a, p, f, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_CALL, .dst = (p), .fn = (f), __VA_ARGS__ }
/* f: int f(const char *arg), as hdr_secret_add; rows give their .want. */
#define OPT_TAKE(s, l, a, f, d, h, ...) \
	{ (l), (s), (a), (h), (d), .kind = OPT_KIND_TAKE, .take = (f), __VA_ARGS__ }

/* The rows every program has. */
#define OPT_QUIET(h, ...) OPT_FLAG('q', "quiet", &msg_quiet, 1, h, __VA_ARGS__)
#define OPT_HELP(...) \
	{ "help", 0, NULL, "print this and exit", .kind = OPT_KIND_HELP, __VA_ARGS__ }
#define OPT_VERSION(...) OPT_SPECIAL(0, "version", NULL, "print the versions and exit", __VA_ARGS__)
#define OPT_JSON(p, h, ...) OPT_FLAG(0, "json", p, 1, h, __VA_ARGS__)
/* "64M" is REC_MAX_RECORD_DEFAULT (tests/unit/test_opt.c). */
#define OPT_MAX_RECORD(p, lo, h, ...) \
	OPT_SIZE(0, "max-record", "BYTES", p, lo, "64M", h, __VA_ARGS__)

/* Returns the index in tab (n rows) of the next option in argv, with
 * optarg set when the row has an arg, and its value already read into
 * its dst unless the row is OPT_SPECIAL; -1 after the last option, with
 * optind at the first operand.  --help prints usage (the synopsis
 * lines, as given) and the table, and exits 0; an unknown option or a
 * missing value exits 64 through msg_bad_option, a bad value through
 * opt_bad.  The first call sets every row's initial value (opt_defaults;
 * a row whose default is not a value exits 70) and builds getopt_long's
 * arrays from tab: one table per program run.  A lone argument
 * --man-options prints the table as troff instead (opt_man), exit 0. */
int opt_next(int argc, char **argv, const char *usage, const opt_def *tab, int n);

/* Reads arg into o's dst by o's kind: 0, or -1 when arg is not a value
 * of o (dst may have changed).  A FLAG ignores arg; SPECIAL and HELP
 * rows are left to their callers. */
int opt_set(const opt_def *o, const char *arg);

/* Sets each row's initial value: its init, else its dflt read by
 * opt_set; a row with neither keeps what its dst holds.  Returns -1, or
 * the index of the first row whose default is not a value of its kind. */
int opt_defaults(const opt_def *tab, int n);

/* The WHAT of the bad-value message for o: its want, else the kind's
 * own ("a whole number from 1 to 10"), written into buf when it needs
 * formatting. */
const char *opt_want(const opt_def *o, char *buf, size_t len);

/* The one message for a bad option value, exiting 64:
 * `prog: invalid value 'val' for --name: want WANT`. */
_Noreturn void opt_bad(const char *name, const char *val, const char *want);

#endif
