/* cs_big5 — the Big5 decoder (Big5 with the HKSCS extensions, as the
 * standard defines it). */
#include "cs_dec.h"

static long
first(unsigned b)
{
	return b < 0x80 ? (long)b : b >= 0x81 && b <= 0xFE ? CS_LEAD : CS_BAD;
}

static int
pair(unsigned l, unsigned b, pbuf *out)
{
	if (!((b >= 0x40 && b <= 0x7E) || (b >= 0xA1 && b <= 0xFE)))
		return 0;
	size_t p = (size_t)(l - 0x81) * 157 + (b - (b < 0x7F ? 0x40 : 0x62));
	/* Four pointers stand for a letter and a combining mark, which no
	 * one code point is. */
	switch (p) {
	case 1133: cs_put(out, 0xCA); cs_put(out, 0x304); return 1;
	case 1135: cs_put(out, 0xCA); cs_put(out, 0x30C); return 1;
	case 1164: cs_put(out, 0xEA); cs_put(out, 0x304); return 1;
	case 1166: cs_put(out, 0xEA); cs_put(out, 0x30C); return 1;
	}
	/* Plane-2 entries are stored as their low 16 bits with a bit in
	 * cs_big5_plane2. */
	uint32_t c = cs_index(cs_index_big5, CS_INDEX_BIG5_N, p);
	if (c && (cs_big5_plane2[p / 32] >> (p % 32) & 1))
		c += 0x20000;
	if (c)
		cs_put(out, c);
	return c != 0;
}

void
cs_dec_big5(const unsigned char *s, size_t n, pbuf *out)
{
	cs_dec_pairs(s, n, out, first, pair);
}
