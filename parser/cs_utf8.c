/* cs_utf8 — the UTF-8 decoder: validate, and replace each ill-formed
 * subpart with U+FFFD as the WHATWG (and Unicode) decoders do. */
#include "cs_dec.h"

#include <string.h>

/* The length of the valid UTF-8 prefix of s[0..n): a tight loop with an
 * ASCII fast path, since almost every page is ASCII or valid UTF-8. */
static size_t
cs_utf8_valid(const unsigned char *s, size_t n)
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
static size_t
cs_bad_len(const unsigned char *s, size_t n)
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

void
cs_utf8(const char *s, size_t n, pbuf *scratch, const char **out, size_t *outn)
{
	size_t ok = cs_utf8_valid((const unsigned char *)s, n);
	if (ok == n) {
		*out = s, *outn = n;
		return;
	}
	pbuf_reset(scratch);
	pbuf_reserve(scratch, n + n / 2 + 16);
	while (n) {
		pbuf_put(scratch, s, ok);
		s += ok, n -= ok;
		if (!n)
			break;
		pbuf_put(scratch, "\xef\xbf\xbd", 3);
		size_t bad = cs_bad_len((const unsigned char *)s, n);
		s += bad, n -= bad;
		ok = cs_utf8_valid((const unsigned char *)s, n);
	}
	*out = scratch->p, *outn = scratch->len;
}
