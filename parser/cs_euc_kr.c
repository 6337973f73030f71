/* cs_euc_kr — the EUC-KR decoder, which is windows-949 (the Unified
 * Hangul Code extension included), as the standard defines it. */
#include "cs_dec.h"

void
cs_dec_euc_kr(const unsigned char *s, size_t n, pbuf *out)
{
	unsigned lead = 0;
	size_t i = 0;
	while (i < n) {
		unsigned b = s[i];
		if (lead) {
			unsigned l = lead;
			lead = 0;
			uint32_t c = 0;
			if (b >= 0x41 && b <= 0xFE)
				c = cs_index(cs_index_euc_kr, CS_INDEX_EUC_KR_N,
					     (size_t)(l - 0x81) * 190 + (b - 0x41));
			cs_trail(out, c, b, &i);
			continue;
		}
		i++;
		if (b < 0x80)
			cs_put(out, b);
		else if (b >= 0x81 && b <= 0xFE)
			lead = b;
		else
			cs_put(out, CS_FFFD);
	}
	if (lead)
		cs_put(out, CS_FFFD);
	cs_end(out);
}
