/* Unit tests of lib/utf8: the valid prefix of a byte string, and the
 * length of one maximal subpart of an ill-formed sequence (Unicode
 * 3.9, table 3-7 for well-formed sequences, 3-8 for U+FFFD). */
#include "utf8.h"

#define CHECK_PROG "test_utf8"
#include "check.h"

/* A byte string written as a C literal with its length (NULs allowed). */
#define B(s) (const unsigned char *)(s), sizeof(s) - 1

int
main(void)
{
	static const struct { const char *name; const unsigned char *s; size_t n, valid; } v[] = {
		{ "empty", B(""), 0 },
		{ "ascii", B("abc"), 3 },
		{ "ascii with a NUL", B("a\0b"), 3 },
		{ "ascii, 20 bytes", B("abcdefghijklmnopqrst"), 20 },
		{ "U+00E9, 2 bytes", B("\xc3\xa9"), 2 },
		{ "U+0080, the least 2-byte", B("\xc2\x80"), 2 },
		{ "U+07FF", B("\xdf\xbf"), 2 },
		{ "U+0800, the least 3-byte", B("\xe0\xa0\x80"), 3 },
		{ "U+20AC", B("\xe2\x82\xac"), 3 },
		{ "U+D7FF, below the surrogates", B("\xed\x9f\xbf"), 3 },
		{ "U+E000, above the surrogates", B("\xee\x80\x80"), 3 },
		{ "U+FFFF", B("\xef\xbf\xbf"), 3 },
		{ "U+10000, the least 4-byte", B("\xf0\x90\x80\x80"), 4 },
		{ "U+1F600", B("\xf0\x9f\x98\x80"), 4 },
		{ "U+10FFFF, the last", B("\xf4\x8f\xbf\xbf"), 4 },
		{ "mixed", B("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z"), 11 },
		/* Overlongs. */
		{ "C0 80, overlong NUL", B("\xc0\x80"), 0 },
		{ "C1 BF, overlong U+007F", B("\xc1\xbf"), 0 },
		{ "E0 80 80, overlong", B("\xe0\x80\x80"), 0 },
		{ "E0 9F BF, overlong U+07FF", B("\xe0\x9f\xbf"), 0 },
		{ "F0 80 80 80, overlong", B("\xf0\x80\x80\x80"), 0 },
		{ "F0 8F BF BF, overlong U+FFFF", B("\xf0\x8f\xbf\xbf"), 0 },
		/* Surrogates. */
		{ "ED A0 80, U+D800", B("\xed\xa0\x80"), 0 },
		{ "ED BF BF, U+DFFF", B("\xed\xbf\xbf"), 0 },
		{ "a surrogate pair as CESU-8", B("\xed\xa0\xbd\xed\xb8\x80"), 0 },
		/* Beyond U+10FFFF. */
		{ "F4 90 80 80, U+110000", B("\xf4\x90\x80\x80"), 0 },
		{ "F5 80 80 80", B("\xf5\x80\x80\x80"), 0 },
		{ "F7 BF BF BF", B("\xf7\xbf\xbf\xbf"), 0 },
		{ "F8, a 5-byte lead", B("\xf8\x88\x80\x80\x80"), 0 },
		{ "FE", B("\xfe"), 0 },
		{ "FF", B("\xff"), 0 },
		/* Stray and missing continuations. */
		{ "a lone continuation", B("\x80"), 0 },
		{ "a lone continuation after ascii", B("ab\xbf"), 2 },
		{ "a 2-byte lead then ascii", B("\xc3" "a"), 0 },
		{ "a 3-byte lead, one continuation then ascii", B("\xe2\x82" "a"), 0 },
		{ "truncated 2-byte at the end", B("a\xc3"), 1 },
		{ "truncated 3-byte at the end", B("a\xe2\x82"), 1 },
		{ "truncated 4-byte at the end", B("ab\xf0\x9f\x98"), 2 },
		/* The eight-byte ASCII path and where it hands over. */
		{ "8 ascii then a bad byte", B("abcdefgh\xff"), 8 },
		{ "9 ascii then a bad byte", B("abcdefghi\xff"), 9 },
		{ "7 ascii then U+00E9 then 8 ascii", B("abcdefg\xc3\xa9" "abcdefgh"), 17 },
		{ "16 ascii then a truncated lead", B("abcdefghijklmnop\xe2"), 16 },
		{ "valid text then an overlong", B("h\xc3\xa9llo w\xc3\xb6rld \xc0\xaf"), 14 },
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		char name[96];
		snprintf(name, sizeof name, "utf8_valid: %s", v[i].name);
		check_int(name, (long long)v[i].valid, (long long)utf8_valid(v[i].s, v[i].n));
	}
	/* n bounds the scan: a valid sequence cut by n is not valid. */
	check_int("utf8_valid: n cuts U+20AC", 1, (long long)utf8_valid((const unsigned char *)"a\xe2\x82\xac", 3));

	static const struct { const char *name; const unsigned char *s; size_t n, len; } b[] = {
		{ "80: a continuation alone", B("\x80"), 1 },
		{ "BF BF: each is one", B("\xbf\xbf"), 1 },
		{ "C0 80: C0 is never a lead", B("\xc0\x80"), 1 },
		{ "C1 BF", B("\xc1\xbf"), 1 },
		{ "F5 80 80 80: F5 is never a lead", B("\xf5\x80\x80\x80"), 1 },
		{ "FF", B("\xff"), 1 },
		{ "C3 then ascii", B("\xc3" "a"), 1 },
		{ "C3 at the end", B("\xc3"), 1 },
		{ "E0 80: E0 wants A0..BF", B("\xe0\x80\x80"), 1 },
		{ "E0 A0 then ascii", B("\xe0\xa0" "a"), 2 },
		{ "E0 A0 at the end", B("\xe0\xa0"), 2 },
		{ "E2 82 then ascii", B("\xe2\x82" "a"), 2 },
		{ "ED A0: a surrogate's lead and first byte", B("\xed\xa0\x80"), 1 },
		{ "ED 9F then ascii", B("\xed\x9f" "a"), 2 },
		{ "F0 80: F0 wants 90..BF", B("\xf0\x80\x80\x80"), 1 },
		{ "F0 90 80 then ascii", B("\xf0\x90\x80" "a"), 3 },
		{ "F0 9F 98 at the end", B("\xf0\x9f\x98"), 3 },
		{ "F1 80 then a lead", B("\xf1\x80\xc3\xa9"), 2 },
		{ "F4 90: beyond U+10FFFF", B("\xf4\x90\x80\x80"), 1 },
		{ "F4 8F BF then ascii", B("\xf4\x8f\xbf" "a"), 3 },
	};
	for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
		char name[96];
		snprintf(name, sizeof name, "utf8_bad_len: %s", b[i].name);
		check_int(name, (long long)b[i].len, (long long)utf8_bad_len(b[i].s, b[i].n));
	}
	/* n bounds the subpart too. */
	check_int("utf8_bad_len: n = 1 stops at the lead", 1,
		  (long long)utf8_bad_len((const unsigned char *)"\xe2\x82\xac", 1));
	/* Unicode's own example (3.9, table 3-8): 61 F1 80 80 E1 80 C2 62 80 63
	 * 80 BF 64 has six U+FFFD: F1 80 80 | E1 80 | C2 | 80 | 80 | BF. */
	const unsigned char *t = (const unsigned char *)"\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64";
	size_t n = 13, i = 0, fffd = 0, ascii = 0;
	while (i < n) {
		size_t ok = utf8_valid(t + i, n - i);
		ascii += ok;
		i += ok;
		if (i < n) {
			i += utf8_bad_len(t + i, n - i);
			fffd++;
		}
	}
	check_int("table 3-8: U+FFFD count", 6, (long long)fffd);
	check_int("table 3-8: valid bytes", 4, (long long)ascii);
	return check_done();
}
