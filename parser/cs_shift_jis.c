/* cs_shift_jis — the Shift_JIS decoder (windows-31J: JIS X 0208 with the
 * NEC and IBM extensions, user-defined area to the private use area). */
#include "cs_dec.h"

void
cs_dec_shift_jis(const unsigned char *s, size_t n, pbuf *out)
{
	unsigned lead = 0;
	size_t i = 0;
	while (i < n) {
		unsigned b = s[i];
		if (lead) {
			unsigned l = lead;
			lead = 0;
			uint32_t c = 0;
			if ((b >= 0x40 && b <= 0x7E) || (b >= 0x80 && b <= 0xFC)) {
				unsigned off = b < 0x7F ? 0x40 : 0x41;
				unsigned lead_off = l < 0xA0 ? 0x81 : 0xC1;
				size_t p = (size_t)(l - lead_off) * 188 + b - off;
				if (p >= 8836 && p <= 10715)
					c = 0xE000 - 8836 + (uint32_t)p;
				else
					c = cs_index(cs_index_jis0208, CS_INDEX_JIS0208_N, p);
			}
			cs_trail(out, c, b, &i);
			continue;
		}
		i++;
		if (b <= 0x80)
			cs_put(out, b);
		else if (b >= 0xA1 && b <= 0xDF)
			cs_put(out, 0xFF61u - 0xA1 + b);
		else if ((b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC))
			lead = b;
		else
			cs_put(out, CS_FFFD);
	}
	if (lead)
		cs_put(out, CS_FFFD);
	cs_end(out);
}
