/* cs_shift_jis — the Shift_JIS decoder (windows-31J: JIS X 0208 with the
 * NEC and IBM extensions, user-defined area to the private use area). */
#include "cs_dec.h"

static long
first(unsigned b)
{
	if (b <= 0x80)
		return (long)b;
	if (b >= 0xA1 && b <= 0xDF)
		return 0xFF61L - 0xA1 + b;   /* half-width katakana */
	if ((b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC))
		return CS_LEAD;
	return CS_BAD;
}

static int
pair(unsigned l, unsigned b, pbuf *out)
{
	if (!((b >= 0x40 && b <= 0x7E) || (b >= 0x80 && b <= 0xFC)))
		return 0;
	size_t p = (size_t)(l - (l < 0xA0 ? 0x81 : 0xC1)) * 188 + b - (b < 0x7F ? 0x40 : 0x41);
	uint32_t c = p >= 8836 && p <= 10715 ? 0xE000 - 8836 + (uint32_t)p
					      : cs_index(cs_index_jis0208, CS_INDEX_JIS0208_N, p);
	if (c)
		cs_put(out, c);
	return c != 0;
}

void
cs_dec_shift_jis(const unsigned char *s, size_t n, pbuf *out)
{
	cs_dec_pairs(s, n, out, first, pair);
}
