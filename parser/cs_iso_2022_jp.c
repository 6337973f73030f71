/* cs_iso_2022_jp — the ISO-2022-JP decoder: a state machine switched by
 * escape sequences between ASCII, JIS X 0201 Roman, katakana and
 * JIS X 0208. */
#include "cs_dec.h"

enum { J_ASCII, J_ROMAN, J_KATAKANA, J_LEAD, J_TRAIL, J_ESC_START, J_ESC };

/* The state the escape sequence ESC l b selects, or -1 when it is not
 * one the standard knows. */
static int
cs_jp_escape(unsigned l, unsigned b)
{
	if (l == 0x28 && b == 0x42)
		return J_ASCII;
	if (l == 0x28 && b == 0x4A)
		return J_ROMAN;
	if (l == 0x28 && b == 0x49)
		return J_KATAKANA;
	if (l == 0x24 && (b == 0x40 || b == 0x42))
		return J_LEAD;
	return -1;
}

void
cs_dec_iso_2022_jp(const unsigned char *s, size_t n, pbuf *out)
{
	int state = J_ASCII, out_state = J_ASCII;
	int output = 0;   /* the last thing read was an escape sequence */
	unsigned lead = 0;
	size_t i = 0;
	for (;;) {
		int eoq = i >= n;
		unsigned b = eoq ? 0 : s[i];
		switch (state) {
		case J_ASCII:
		case J_ROMAN:
		case J_KATAKANA:
		case J_LEAD:
			if (eoq) {
				cs_end(out);
				return;
			}
			i++;
			if (b == 0x1B) {
				state = J_ESC_START;
				continue;
			}
			output = 0;
			if (state == J_KATAKANA) {
				cs_put(out, b >= 0x21 && b <= 0x5F ? 0xFF61u - 0x21 + b : CS_FFFD);
			} else if (state == J_LEAD) {
				if (b >= 0x21 && b <= 0x7E) {
					lead = b;
					state = J_TRAIL;
				} else {
					cs_put(out, CS_FFFD);
				}
			} else if (b >= 0x80 || b == 0x0E || b == 0x0F) {
				cs_put(out, CS_FFFD);
			} else if (state == J_ROMAN && b == 0x5C) {
				cs_put(out, 0xA5);
			} else if (state == J_ROMAN && b == 0x7E) {
				cs_put(out, 0x203E);
			} else {
				cs_put(out, b);
			}
			continue;
		case J_TRAIL:
			if (eoq) {
				/* The end is read again in the lead state,
				 * where it ends the input. */
				state = J_LEAD;
				cs_put(out, CS_FFFD);
				continue;
			}
			i++;
			if (b == 0x1B) {
				state = J_ESC_START;
				cs_put(out, CS_FFFD);
				continue;
			}
			state = J_LEAD;
			if (b >= 0x21 && b <= 0x7E) {
				uint32_t c = cs_index(cs_index_jis0208, CS_INDEX_JIS0208_N,
						      (size_t)(lead - 0x21) * 94 + b - 0x21);
				cs_put(out, c ? c : CS_FFFD);
			} else {
				cs_put(out, CS_FFFD);
			}
			continue;
		case J_ESC_START:
			if (!eoq && (b == 0x24 || b == 0x28)) {
				lead = b;
				state = J_ESC;
				i++;
				continue;
			}
			/* This byte (or the end) is read again in the state
			 * before the escape. */
			output = 0;
			state = out_state;
			cs_put(out, CS_FFFD);
			continue;
		case J_ESC: {
			unsigned l = lead;
			lead = 0;
			int next = eoq ? -1 : cs_jp_escape(l, b);
			if (next >= 0) {
				i++;
				state = out_state = next;
				/* Two escapes in a row with nothing between
				 * them are an error (they could hide text). */
				if (output)
					cs_put(out, CS_FFFD);
				output = 1;
				continue;
			}
			/* Not an escape the standard knows: the byte after
			 * ESC and this one are read again. */
			i--;
			output = 0;
			state = out_state;
			cs_put(out, CS_FFFD);
			continue;
		}
		}
	}
}
