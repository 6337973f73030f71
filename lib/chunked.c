#include "chunked.h"

#include <string.h>

/* The value of hex digit c, or -1. */
static int
hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The end of the line starting at p (the byte after its LF), or NULL. */
static const char *
line_end(const char *p, const char *end)
{
	const char *lf = memchr(p, '\n', (size_t)(end - p));
	return lf ? lf + 1 : NULL;
}

size_t
chunked_decode(char *buf, size_t n, int *whole)
{
	const char *p = buf, *end = buf + n;
	size_t out = 0;
	*whole = 0;
	while (p < end) {
		/* chunk-size [ chunk-ext ] CRLF */
		size_t size = 0;
		int digits = 0;
		for (int d; p < end && (d = hex(*p)) >= 0; p++, digits++) {
			if (size > ((size_t)-1 >> 4))
				return out;   /* no real chunk is that large */
			size = size << 4 | (size_t)d;
		}
		const char *next = digits ? line_end(p, end) : NULL;
		if (!next)
			return out;
		p = next;
		if (size == 0) {
			*whole = 1;   /* the trailer section is dropped */
			return out;
		}
		if (size > (size_t)(end - p)) {
			memmove(buf + out, p, (size_t)(end - p));
			return out + (size_t)(end - p);
		}
		memmove(buf + out, p, size);
		out += size;
		p += size;
		/* the CRLF after the data */
		if (p < end && *p == '\r')
			p++;
		if (p < end && *p == '\n')
			p++;
	}
	return out;
}
