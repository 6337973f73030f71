#include "pct.h"

int
pct_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t
pct_put(char *out, unsigned char c)
{
	static const char hex[] = "0123456789ABCDEF";
	out[0] = '%';
	out[1] = hex[c >> 4];
	out[2] = hex[c & 15];
	return 3;
}
