/* The decoders alone, faster than through page: the first byte picks an
 * encoding (below CS_NENC: that decoder, straight; else the first line
 * is a Content-Type for cs_decode, and the prescan runs too).  Whatever
 * the bytes, the output must be valid UTF-8 of scalar values, at most
 * four bytes out for each byte in, NUL-terminated. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "charset.h"
#include "cs_dec.h"

/* Whether s[0..n) is well-formed UTF-8 (no surrogates, no overlongs). */
static int
utf8_ok(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		size_t len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
			   : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		if (!len || i + len > n)
			return 0;
		unsigned cp = len == 1 ? c : c & (0x7f >> len);
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		static const unsigned min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
		if (cp < min[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static pbuf out;
	if (size == 0)
		return 0;
	const char *text;
	size_t textn;
	size_t in;
	pbuf_reset(&out);
	if (data[0] < CS_NENC && data[0] != CS_UTF_8) {
		in = size - 1;
		cs_dec((enum cs_enc)data[0], data + 1, in, &out);
		text = out.p, textn = out.len;
		if (!text || text[textn] != '\0')
			abort();   /* the decoders NUL-terminate */
	} else {
		const char *d = (const char *)data + 1;
		const char *nl = memchr(d, '\n', size - 1);
		size_t ctn = nl ? (size_t)(nl - d) : 0;
		size_t off = nl ? ctn + 1 : 0;
		in = size - 1 - off;
		cs_decode(d + off, in, d, ctn, &out, &text, &textn);
	}
	if (!utf8_ok((const unsigned char *)text, textn))
		abort();   /* a decoder wrote bad UTF-8 */
	if (textn > 4 * in + 4)
		abort();   /* more growth than any encoding allows */
	return 0;
}
