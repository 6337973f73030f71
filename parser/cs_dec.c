/* cs_dec — one entry point to the decoders, by encoding. */
#include "cs_dec.h"

void
cs_dec(enum cs_enc enc, const unsigned char *s, size_t n, pbuf *out)
{
	if (cs_single_index[enc]) {
		cs_dec_single(cs_single_index[enc], s, n, out);
		return;
	}
	switch (enc) {
	case CS_GBK:
	case CS_GB18030:
		cs_dec_gb18030(s, n, out);
		break;
	case CS_BIG5:
		cs_dec_big5(s, n, out);
		break;
	case CS_EUC_JP:
		cs_dec_euc_jp(s, n, out);
		break;
	case CS_ISO_2022_JP:
		cs_dec_iso_2022_jp(s, n, out);
		break;
	case CS_SHIFT_JIS:
		cs_dec_shift_jis(s, n, out);
		break;
	case CS_EUC_KR:
		cs_dec_euc_kr(s, n, out);
		break;
	case CS_REPLACEMENT:
		cs_dec_replacement(s, n, out);
		break;
	case CS_UTF_16BE:
	case CS_UTF_16LE:
		cs_dec_utf16(enc == CS_UTF_16BE, s, n, out);
		break;
	case CS_X_USER_DEFINED:
		cs_dec_x_user_defined(s, n, out);
		break;
	default:
		/* UTF-8 has its own path (cs_utf8), and the single-byte
		 * encodings are handled above; nothing else is left. */
		for (size_t i = 0; i < n; i++)
			cs_put(out, s[i] < 0x80 ? s[i] : CS_FFFD);
		cs_end(out);
		break;
	}
}

void
cs_dec_pairs(const unsigned char *s, size_t n, pbuf *out, long (*first)(unsigned b),
	     int (*pair)(unsigned lead, unsigned b, pbuf *out))
{
	unsigned lead = 0;
	size_t i = 0;
	while (i < n) {
		unsigned b = s[i];
		if (lead) {
			unsigned l = lead;
			lead = 0;
			if (pair(l, b, out))
				i++;
			else
				cs_trail(out, 0, b, &i);
			continue;
		}
		i++;
		long c = first(b);
		if (c == CS_LEAD)
			lead = b;
		else
			cs_put(out, c < 0 ? CS_FFFD : (uint32_t)c);
	}
	if (lead)
		cs_put(out, CS_FFFD);
	cs_end(out);
}
