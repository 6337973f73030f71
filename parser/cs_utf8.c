/* cs_utf8 — the UTF-8 decoder: validate, and replace each ill-formed
 * subpart with U+FFFD as the WHATWG (and Unicode) decoders do. */
#include "cs_dec.h"

#include "utf8.h"

void
cs_utf8(const char *s, size_t n, pbuf *scratch, const char **out, size_t *outn)
{
	size_t ok = utf8_valid((const unsigned char *)s, n);
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
		size_t bad = utf8_bad_len((const unsigned char *)s, n);
		s += bad, n -= bad;
		ok = utf8_valid((const unsigned char *)s, n);
	}
	*out = scratch->p, *outn = scratch->len;
}
