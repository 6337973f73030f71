#include "utf8.h"

#include <string.h>

/* The length of the valid UTF-8 prefix of s[0..n): a tight loop with an
 * ASCII fast path, since almost every page is ASCII or valid UTF-8. */
size_t
utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		/* Eight ASCII bytes at a time. */
		while (i + 8 <= n) {
			unsigned long long w;
			memcpy(&w, s + i, 8);
			if (w & 0x8080808080808080ULL)
				break;
			i += 8;
		}
		if (i >= n)
			break;
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t len;
		unsigned min;
		if (c >= 0xc2 && c <= 0xdf)
			len = 2, min = 0x80;
		else if (c >= 0xe0 && c <= 0xef)
			len = 3, min = 0x800;
		else if (c >= 0xf0 && c <= 0xf4)
			len = 4, min = 0x10000;
		else
			return i;
		if (i + len > n)
			return i;
		unsigned cp = c & (0x7f >> len);
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += len;
	}
	return n;
}

/* How many bytes at s (n > 0, not a valid sequence) form one maximal
 * subpart of an ill-formed sequence: the lead byte plus the continuation
 * bytes that could still have completed it.  WHATWG (and Unicode)
 * replace each such subpart with a single U+FFFD. */
size_t
utf8_bad_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 1;
	size_t k = 1;
	for (; k < len && k < n; k++) {
		if (s[k] < lo || s[k] > hi)
			break;
		lo = 0x80, hi = 0xbf;
	}
	return k;
}
