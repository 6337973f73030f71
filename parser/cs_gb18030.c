/* cs_gb18030 — the gb18030 decoder, which the standard also uses for
 * GBK (and so for every gb2312 label). */
#include "cs_dec.h"

/* The standard's "index gb18030 ranges code point" of pointer p, the
 * four-byte sequences: 0 where it is null. */
static uint32_t
cs_gb18030_range(uint32_t p)
{
	if ((p > 39419 && p < 189000) || p > 1237575)
		return 0;
	if (p == 7457)
		return 0xE7C7;
	/* The last range that starts at or before p. */
	size_t lo = 0, hi = CS_GB18030_RANGES_N;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (cs_gb18030_ranges[mid][0] <= p)
			lo = mid;
		else
			hi = mid;
	}
	return cs_gb18030_ranges[lo][1] + p - cs_gb18030_ranges[lo][0];
}

void
cs_dec_gb18030(const unsigned char *s, size_t n, pbuf *out)
{
	unsigned first = 0, second = 0, third = 0;
	size_t i = 0;
	while (i < n) {
		unsigned b = s[i];
		if (third) {
			if (b < 0x30 || b > 0x39) {
				/* Not a four-byte sequence: second, third and
				 * this byte are read again. */
				first = second = third = 0;
				cs_put(out, CS_FFFD);
				i -= 2;
				continue;
			}
			uint32_t p = (((first - 0x81) * 10 + second - 0x30) * 126 +
				      third - 0x81) * 10 + b - 0x30;
			uint32_t c = cs_gb18030_range(p);
			first = second = third = 0;
			cs_put(out, c ? c : CS_FFFD);
			i++;
			continue;
		}
		if (second) {
			if (b >= 0x81 && b <= 0xFE) {
				third = b;
				i++;
				continue;
			}
			first = second = 0;
			cs_put(out, CS_FFFD);
			i--;   /* second and this byte are read again */
			continue;
		}
		if (first) {
			if (b >= 0x30 && b <= 0x39) {
				second = b;
				i++;
				continue;
			}
			unsigned lead = first;
			first = 0;
			uint32_t c = 0;
			if ((b >= 0x40 && b <= 0x7E) || (b >= 0x80 && b <= 0xFE)) {
				unsigned off = b < 0x7F ? 0x40 : 0x41;
				c = cs_index(cs_index_gb18030, CS_INDEX_GB18030_N,
					     (lead - 0x81) * 190 + (b - off));
			}
			cs_trail(out, c, b, &i);
			continue;
		}
		i++;
		if (b < 0x80)
			cs_put(out, b);
		else if (b == 0x80)
			cs_put(out, 0x20AC);
		else if (b <= 0xFE)
			first = b;
		else
			cs_put(out, CS_FFFD);
	}
	if (first || second || third)
		cs_put(out, CS_FFFD);
	cs_end(out);
}
