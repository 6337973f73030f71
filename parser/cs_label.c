/* cs_label — a label to its encoding, over the generated cs_labels. */
#include "cs_dec.h"

#include <string.h>

int
cs_label_find(const char *s, size_t n)
{
	while (n && pbuf_isspace((unsigned char)*s))
		s++, n--;
	while (n && pbuf_isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0 || n > CS_LABEL_MAX)
		return -1;
	char key[CS_LABEL_MAX + 1];
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		/* No label holds a NUL or a non-ASCII byte; refusing them here
		 * keeps a NUL from cutting the key short for strcmp. */
		if (ch == 0 || ch >= 0x80)
			return -1;
		key[i] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
	}
	key[n] = '\0';
	size_t lo = 0, hi = CS_NLABELS;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(key, cs_labels[mid].label);
		if (c == 0)
			return (int)cs_labels[mid].enc;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}
