#include "buf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

void
pbuf_init(pbuf *b)
{
	b->p = NULL;
	b->len = b->cap = 0;
	b->space = 0;
}

void
pbuf_free(pbuf *b)
{
	free(b->p);
	pbuf_init(b);
}

void
pbuf_reset(pbuf *b)
{
	b->len = 0;
	b->space = 0;
	if (b->p)
		b->p[0] = '\0';
}

void
pbuf_reserve(pbuf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void
pbuf_put(pbuf *b, const void *p, size_t n)
{
	pbuf_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void
pbuf_text(pbuf *b, const char *s, size_t n)
{
	/* Worst case every byte is kept, plus one owed space. */
	pbuf_reserve(b, n + 1);
	char *d = b->p + b->len;
	int space = b->space;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (pbuf_isspace(c)) {
			space = 1;
			continue;
		}
		if (space && d != b->p)
			*d++ = ' ';
		space = 0;
		*d++ = (char)c;
	}
	b->len = (size_t)(d - b->p);
	b->p[b->len] = '\0';
	b->space = space;
}

void
pbuf_break(pbuf *b)
{
	b->space = 1;
}

int
pbuf_prefix(const char *s, size_t n, const char *prefix)
{
	while (n && pbuf_isspace((unsigned char)*s))
		s++, n--;
	size_t m = strlen(prefix);
	return n >= m && strncasecmp(s, prefix, m) == 0;
}
