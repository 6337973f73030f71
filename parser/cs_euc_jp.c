/* cs_euc_jp — the EUC-JP decoder: JIS X 0208, half-width katakana after
 * 0x8E, JIS X 0212 after 0x8F. */
#include "cs_dec.h"

void
cs_dec_euc_jp(const unsigned char *s, size_t n, pbuf *out)
{
	unsigned lead = 0;
	int jis0212 = 0;
	size_t i = 0;
	while (i < n) {
		unsigned b = s[i];
		if (lead == 0x8E && b >= 0xA1 && b <= 0xDF) {
			lead = 0;
			cs_put(out, 0xFF61u - 0xA1 + b);
			i++;
			continue;
		}
		if (lead == 0x8F && b >= 0xA1 && b <= 0xFE) {
			jis0212 = 1;
			lead = b;
			i++;
			continue;
		}
		if (lead) {
			unsigned l = lead;
			lead = 0;
			uint32_t c = 0;
			if (l >= 0xA1 && l <= 0xFE && b >= 0xA1 && b <= 0xFE) {
				size_t p = (size_t)(l - 0xA1) * 94 + b - 0xA1;
				c = jis0212 ? cs_index(cs_index_jis0212, CS_INDEX_JIS0212_N, p)
					    : cs_index(cs_index_jis0208, CS_INDEX_JIS0208_N, p);
			}
			jis0212 = 0;
			cs_trail(out, c, b, &i);
			continue;
		}
		i++;
		if (b < 0x80)
			cs_put(out, b);
		else if (b == 0x8E || b == 0x8F || (b >= 0xA1 && b <= 0xFE))
			lead = b;
		else
			cs_put(out, CS_FFFD);
	}
	if (lead)
		cs_put(out, CS_FFFD);
	cs_end(out);
}
