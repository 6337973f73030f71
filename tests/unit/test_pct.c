/* Unit tests of lib/pct: hex digits read and %XX written, the way the
 * URL parser and robots.txt matching share. */
#include "pct.h"

#define CHECK_PROG "test_pct"
#include "check.h"

int
main(void)
{
	static const struct { int c, v; } digits[] = {
		{ '0', 0 }, { '9', 9 }, { 'a', 10 }, { 'f', 15 }, { 'A', 10 }, { 'F', 15 },
		{ 'g', -1 }, { 'G', -1 }, { '/', -1 }, { ':', -1 }, { '@', -1 }, { '`', -1 },
		{ ' ', -1 }, { '%', -1 }, { 0, -1 }, { 0xc1, -1 }, { 0xe1, -1 }, { -31, -1 },
	};
	for (size_t i = 0; i < sizeof digits / sizeof digits[0]; i++) {
		char name[64];
		snprintf(name, sizeof name, "pct_hexval(0x%02x)", (unsigned)digits[i].c & 0xffff);
		check_int(name, digits[i].v, pct_hexval(digits[i].c));
	}
	/* Exactly the 22 hex digits of ASCII have a value, over every byte. */
	int n = 0;
	for (int c = 0; c < 256; c++)
		n += pct_hexval(c) >= 0;
	check_int("22 bytes of 256 are hex digits", 22, n);

	static const struct { unsigned char c; const char *out; } puts[] = {
		{ 0x00, "%00" }, { ' ', "%20" }, { '%', "%25" }, { 0x7f, "%7F" },
		{ 0xab, "%AB" }, { 0xff, "%FF" },
	};
	for (size_t i = 0; i < sizeof puts / sizeof puts[0]; i++) {
		char out[5] = "xxxx", name[64];
		snprintf(name, sizeof name, "pct_put(0x%02x)", puts[i].c);
		size_t len = pct_put(out, puts[i].c);
		check_int(name, 3, (long long)len);
		out[len] = '\0';
		check_str(name, puts[i].out, out);
	}
	/* It writes three bytes and no terminator. */
	char out[5] = "xxxx";
	pct_put(out, 'A');
	check_str("pct_put writes no NUL", "%41x", out);
	/* Every byte round-trips through put and hexval. */
	int bad = 0;
	for (int c = 0; c < 256; c++) {
		char o[3];
		pct_put(o, (unsigned char)c);
		bad += o[0] != '%' || pct_hexval(o[1]) * 16 + pct_hexval(o[2]) != c;
	}
	check_int("all 256 bytes round-trip", 0, bad);
	return check_done();
}
