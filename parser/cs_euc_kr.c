/* cs_euc_kr — the EUC-KR decoder, which is windows-949 (the Unified
 * Hangul Code extension included), as the standard defines it. */
#include "cs_dec.h"

static long
first(unsigned b)
{
	return b < 0x80 ? (long)b : b >= 0x81 && b <= 0xFE ? CS_LEAD : CS_BAD;
}

static int
pair(unsigned l, unsigned b, pbuf *out)
{
	uint32_t c = 0;
	if (b >= 0x41 && b <= 0xFE)
		c = cs_index(cs_index_euc_kr, CS_INDEX_EUC_KR_N, (size_t)(l - 0x81) * 190 + (b - 0x41));
	if (c)
		cs_put(out, c);
	return c != 0;
}

void
cs_dec_euc_kr(const unsigned char *s, size_t n, pbuf *out)
{
	cs_dec_pairs(s, n, out, first, pair);
}
