/* cs_single — the decoders that read one byte at a time: the legacy
 * single-byte encodings, x-user-defined and replacement. */
#include "cs_dec.h"

void
cs_dec_single(const uint16_t *index, const unsigned char *s, size_t n, pbuf *out)
{
	for (size_t i = 0; i < n; i++) {
		unsigned b = s[i];
		if (b < 0x80)
			cs_put(out, b);
		else
			cs_put(out, index[b - 0x80] ? index[b - 0x80] : CS_FFFD);
	}
	cs_end(out);
}

void
cs_dec_x_user_defined(const unsigned char *s, size_t n, pbuf *out)
{
	/* The standard puts 0x80..0xFF in the private use area at U+F780,
	 * so the bytes survive decoding one-to-one. */
	for (size_t i = 0; i < n; i++)
		cs_put(out, s[i] < 0x80 ? s[i] : 0xF780u + s[i] - 0x80);
	cs_end(out);
}

void
cs_dec_replacement(const unsigned char *s, size_t n, pbuf *out)
{
	/* The labels mapped here (ISO-2022-KR, HZ, ISO-2022-CN) could smuggle
	 * markup past filters; the standard decodes any of them to one
	 * error, and nothing at all for an empty input. */
	(void)s;
	if (n)
		cs_put(out, CS_FFFD);
	cs_end(out);
}
