/* cs_utf16 — the shared UTF-16BE/LE decoder. */
#include "cs_dec.h"

void
cs_dec_utf16(int be, const unsigned char *s, size_t n, pbuf *out)
{
	int have_lead = 0;        /* the standard's "lead byte" is set */
	unsigned lead = 0;
	unsigned surrogate = 0;   /* a pending lead surrogate, or 0 */
	size_t i = 0;
	while (i < n) {
		unsigned b = s[i++];
		if (!have_lead) {
			lead = b, have_lead = 1;
			continue;
		}
		have_lead = 0;
		unsigned unit = be ? (lead << 8 | b) : (b << 8 | lead);
		if (surrogate) {
			unsigned hi = surrogate;
			surrogate = 0;
			if (unit >= 0xDC00 && unit <= 0xDFFF) {
				cs_put(out, 0x10000 + ((hi - 0xD800) << 10) + (unit - 0xDC00));
				continue;
			}
			/* The unit's two bytes go back on the input: it may
			 * start a pair of its own. */
			i -= 2;
			cs_put(out, CS_FFFD);
			continue;
		}
		if (unit >= 0xD800 && unit <= 0xDBFF)
			surrogate = unit;
		else if (unit >= 0xDC00 && unit <= 0xDFFF)
			cs_put(out, CS_FFFD);
		else
			cs_put(out, unit);
	}
	/* An odd byte or an unpaired lead surrogate at the end: one error
	 * for both. */
	if (have_lead || surrogate)
		cs_put(out, CS_FFFD);
	cs_end(out);
}
