/* Unit tests for lib/opt: each kind of row reads its values and refuses
 * the others with the message's WHAT, defaults reach their
 * destinations, and opt_next hands the program only what is left. */
#define CHECK_PROG "test_opt"
#include "check.h"

#include <getopt.h>

#include "opt.h"
#include "rec.h"

static struct {
	int flag, neg, tri, choice;
	long n, off;
	double s, pos, frac, age, never;
	size_t size, rec;
	const char *str, *none;
	const char *list[4];
	int nlist;
} v;

/* A list row's fn: appends arg, refuses a fifth. */
static int
list_add(void *dst, const char *arg)
{
	(void)dst;
	if (v.nlist == 4)
		return -1;
	v.list[v.nlist++] = arg;
	return 0;
}

static const opt_choice colours[] = { { "red", 1 }, { "green", 2 }, { "blue", 4 }, { NULL, 0 } };
static const opt_choice units[] = { { "host", 0 }, { "site", 1 }, { NULL, 0 } };

enum {
	H_ONE, O_FLAG, O_NEG, O_TRI, O_N_, O_OFF, O_S, O_POS, O_FRAC, O_AGE, O_NEVER, O_SIZE,
	O_REC, O_STR, O_NONE, O_CHOICE, O_LIST, O_SPECIAL, O_QUIET, O_HELP, O_COUNT
};

static const opt_def tab[O_COUNT] = {
	[H_ONE] = OPT_HEADING("One:"),
	[O_FLAG] = OPT_FLAG('f', "flag", &v.flag, 1, "a flag"),
	[O_NEG] = OPT_FLAG(0, "no-neg", &v.neg, 0, "clears neg", .init = "1"),
	[O_TRI] = OPT_FLAG(0, "tri", &v.tri, 1, "on, off or unset", .init = "-1"),
	[O_N_] = OPT_LONG('n', "n", "N", &v.n, 1, 10, "3", "a number"),
	[O_OFF] = OPT_LONG(0, "off", "N", &v.off, 1, 1L << 40, "no limit", "a limit", .init = "0"),
	[O_S] = OPT_SECONDS(0, "s", "S", &v.s, 0, "1.5", "seconds"),
	[O_POS] = OPT_SECONDS_ABOVE(0, "pos", "S", &v.pos, 0, "30", "more than 0 seconds"),
	[O_FRAC] = OPT_FRACTION(0, "frac", "F", &v.frac, "0.5", "a share"),
	[O_AGE] = OPT_DURATION(0, "age", "AGE", &v.age, "10m", "an age"),
	[O_NEVER] = OPT_DURATION(0, "never", "AGE", &v.never, "off", "an age or off", .init = "-1"),
	[O_SIZE] = OPT_SIZE(0, "size", "BYTES", &v.size, 1024, "4M", "a size"),
	[O_REC] = OPT_MAX_RECORD(&v.rec, 64, "largest record"),
	[O_STR] = OPT_STRING(0, "str", "S", &v.str, "sluice", "a string"),
	[O_NONE] = OPT_STRING(0, "none", "S", &v.none, "the browser's", "a string", .init = opt_none),
	[O_CHOICE] = OPT_CHOICE(0, "colour", "C", &v.choice, colours, "green", "a colour"),
	[O_LIST] = OPT_CALL(0, "item", "X", NULL, list_add, "first", "repeatable", .want = "at most 4 items"),
	[O_SPECIAL] = OPT_SPECIAL('x', "special", "X", "left to the program", .dflt = "200-299"),
	[O_QUIET] = OPT_QUIET("no notices"),
	[O_HELP] = OPT_HELP(),
};

/* opt_set's answer for arg on row i: 0, or -1. */
static int
set(int i, const char *arg)
{
	return opt_set(&tab[i], arg);
}

static void
check_want(const char *name, int i, const char *expected)
{
	char buf[128];
	check_str(name, expected, opt_want(&tab[i], buf, sizeof buf));
}

static void
test_defaults(void)
{
	v.none = "untouched";
	check_int("every default is a value", -1, opt_defaults(tab, O_COUNT));
	check_int("a flag starts at 0", 0, v.flag);
	check_int("a flag's init", 1, v.neg);
	check_int("a flag's init may be -1", -1, v.tri);
	check_int("a number from its shown default", 3, v.n);
	check_int("a number shown in words takes its init", 0, v.off);
	check_double("seconds from the default", 1.5, v.s);
	check_double("seconds above 0 from the default", 30, v.pos);
	check_double("a fraction from the default", 0.5, v.frac);
	check_double("a duration read as an argument: 10m", 600, v.age);
	check_double("a duration's init may be -1 for off", -1, v.never);
	check_int("a size read with its suffix", 4 << 20, (long long)v.size);
	check_int("--max-record's 64M is rec's default", REC_MAX_RECORD_DEFAULT, (long long)v.rec);
	check_str("a string default", "sluice", v.str);
	check_str("opt_none leaves the destination alone", "untouched", v.none);
	check_int("a choice from its default word", 2, v.choice);
	check_int("a list's default is its first item", 1, v.nlist);
	check_str("... added by its fn", "first", v.list[0]);

	opt_def bad[] = {
		OPT_LONG(0, "n", "N", &v.n, 1, 10, "3", "a number"),
		OPT_LONG(0, "big", "N", &v.n, 1, 10, "11", "out of bounds"),
	};
	check_int("a default out of bounds is named", 1, opt_defaults(bad, 2));
	opt_def word[] = { OPT_SECONDS(0, "rate", "R", &v.s, 0, "off", "a rate") };
	check_int("a default in words needs an init", 0, opt_defaults(word, 1));
	opt_def init[] = { OPT_SECONDS(0, "rate", "R", &v.s, 0, "off", "a rate", .init = "zero") };
	check_int("an init that is no number is named", 0, opt_defaults(init, 1));
}

static void
test_numbers(void)
{
	check_int("long: min", 0, set(O_N_, "1"));
	check_int("long: max", 0, set(O_N_, "10"));
	check_int("long: read", 10, v.n);
	check_int("long: below min", -1, set(O_N_, "0"));
	check_int("long: above max", -1, set(O_N_, "11"));
	check_int("long: negative", -1, set(O_N_, "-1"));
	check_int("long: a fraction", -1, set(O_N_, "1.5"));
	check_int("long: empty", -1, set(O_N_, ""));
	check_int("long: 2^40", 0, set(O_OFF, "1099511627776"));
	check_want("long: want", O_N_, "a whole number from 1 to 10");

	check_int("seconds: 0", 0, set(O_S, "0"));
	check_int("seconds: a fraction", 0, set(O_S, "0.25"));
	check_double("seconds: read", 0.25, v.s);
	check_int("seconds: negative", -1, set(O_S, "-1"));
	check_int("seconds: a suffix", -1, set(O_S, "1s"));
	check_want("seconds: want", O_S, "seconds, 0 or more");
	check_int("seconds above 0: 0 refused", -1, set(O_POS, "0"));
	check_int("seconds above 0: a little more", 0, set(O_POS, "0.001"));
	check_want("seconds above 0: want", O_POS, "seconds, more than 0");
	check_int("fraction: 1", 0, set(O_FRAC, "1"));
	check_int("fraction: 0", 0, set(O_FRAC, "0"));
	check_int("fraction: above 1", -1, set(O_FRAC, "1.01"));
	check_want("fraction: want", O_FRAC, "a fraction from 0 to 1");

	check_int("duration: 1.5h", 0, set(O_AGE, "1.5h"));
	check_double("duration: read", 5400, v.age);
	check_int("duration: a bad unit", -1, set(O_AGE, "1w"));
	check_want("duration: want", O_AGE, "an age: seconds, or a number with s, m, h or d");

	check_int("size: 1K is the min", 0, set(O_SIZE, "1K"));
	check_int("size: read", 1024, (long long)v.size);
	check_int("size: below min", -1, set(O_SIZE, "1023"));
	check_int("size: a bad suffix", -1, set(O_SIZE, "5T"));
	check_want("size: want in K", O_SIZE, "a size of 1K or more, K/M/G suffixes");
	check_want("size: want in bytes", O_REC, "a size of 64 or more, K/M/G suffixes");
	opt_def any = OPT_SIZE(0, "max-body", "BYTES", &v.size, 0, "16M", "any size");
	char buf[64];
	check_str("size: want without a min", "a size, K/M/G suffixes", opt_want(&any, buf, sizeof buf));
}

static void
test_words(void)
{
	check_int("choice: a word", 0, set(O_CHOICE, "blue"));
	check_int("choice: its value", 4, v.choice);
	check_int("choice: case matters", -1, set(O_CHOICE, "Blue"));
	check_int("choice: not a word", -1, set(O_CHOICE, "pink"));
	check_int("choice: refused leaves the value", 4, v.choice);
	check_want("choice: want names the words", O_CHOICE, "red, green or blue");
	opt_def two = OPT_CHOICE(0, "pace-by", "UNIT", &v.choice, units, "host", "two words");
	char buf[64];
	check_str("choice: two words", "host or site", opt_want(&two, buf, sizeof buf));

	check_int("string: taken as it is", 0, set(O_STR, ""));
	check_str("string: read", "", v.str);
	check_int("flag: set", 0, set(O_NEG, NULL));
	check_int("flag: its value", 0, v.neg);

	check_int("list: another item", 0, set(O_LIST, "b"));
	check_int("list: and another", 0, set(O_LIST, "c"));
	check_int("list: a fourth", 0, set(O_LIST, "d"));
	check_int("list: its fn refuses a fifth", -1, set(O_LIST, "e"));
	check_str("list: in order", "b", v.list[1]);
	check_str("list: the last", "d", v.list[3]);
	check_want("list: the row's want", O_LIST, "at most 4 items");
	check_int("special: left alone", 0, set(O_SPECIAL, "anything"));
}

/* opt_next reads the typed rows itself and returns every option, so
 * the program's switch sees the special ones (and may note others). */
static void
test_next(void)
{
	char *argv[] = { "prog", "-n", "7", "--colour=red", "-x", "y", "-q", "--flag", "operand", NULL };
	int argc = 9, got[8], n = 0, i;
	v.nlist = 0;   /* the defaults add "first" again */
	msg_quiet = 0;
	while (n < 8 && (i = opt_next(argc, argv, "usage: prog\n", tab, O_COUNT)) != -1) {
		if (i == O_SPECIAL)
			check_str("next: a special row's argument", "y", optarg);
		got[n++] = i;
	}
	check_int("next: every option returned", 5, n);
	check_true("next: in order",
		   n == 5 && got[0] == O_N_ && got[1] == O_CHOICE && got[2] == O_SPECIAL &&
		   got[3] == O_QUIET && got[4] == O_FLAG);
	check_int("next: -n read", 7, v.n);
	check_int("next: --colour read", 1, v.choice);
	check_int("next: -q sets msg_quiet", 1, msg_quiet);
	check_int("next: --flag set", 1, v.flag);
	check_str("next: optind at the operand", "operand", argv[optind]);
}

int
main(void)
{
	test_defaults();
	test_numbers();
	test_words();
	test_next();
	return check_done();
}
