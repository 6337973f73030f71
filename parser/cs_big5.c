/* cs_big5 — the Big5 decoder (Big5 with the HKSCS extensions, as the
 * standard defines it). */
#include "cs_dec.h"

/* The code point of Big5 pointer p, or 0: plane-2 entries are stored as
 * their low 16 bits with a bit in cs_big5_plane2. */
static uint32_t
cs_big5_code(size_t p)
{
	uint32_t c = cs_index(cs_index_big5, CS_INDEX_BIG5_N, p);
	if (c && (cs_big5_plane2[p / 32] >> (p % 32) & 1))
		c += 0x20000;
	return c;
}

void
cs_dec_big5(const unsigned char *s, size_t n, pbuf *out)
{
	unsigned lead = 0;
	size_t i = 0;
	while (i < n) {
		unsigned b = s[i];
		if (lead) {
			unsigned l = lead;
			lead = 0;
			uint32_t c = 0;
			if ((b >= 0x40 && b <= 0x7E) || (b >= 0xA1 && b <= 0xFE)) {
				unsigned off = b < 0x7F ? 0x40 : 0x62;
				size_t p = (size_t)(l - 0x81) * 157 + (b - off);
				/* Four pointers stand for a letter and a
				 * combining mark, which no one code point is. */
				switch (p) {
				case 1133: cs_put(out, 0xCA); cs_put(out, 0x304); i++; continue;
				case 1135: cs_put(out, 0xCA); cs_put(out, 0x30C); i++; continue;
				case 1164: cs_put(out, 0xEA); cs_put(out, 0x304); i++; continue;
				case 1166: cs_put(out, 0xEA); cs_put(out, 0x30C); i++; continue;
				}
				c = cs_big5_code(p);
			}
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
