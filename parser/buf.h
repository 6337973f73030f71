/* pbuf — a growable byte buffer for the parser's hot path.
 *
 * One pbuf is reused for every record (pbuf_reset keeps the memory), so
 * text extraction does no per-node allocation.  The data is always
 * NUL-terminated so it can be handed to C string APIs; len excludes the
 * NUL.  Allocation failure aborts: a parser worker that cannot allocate
 * is dead anyway, and the pool reports it like any other crash.
 */
#ifndef PARSE_BUF_H
#define PARSE_BUF_H

#include <stddef.h>

typedef struct pbuf {
	char *p;
	size_t len, cap;
	int space;   /* pbuf_text: a collapsed space is owed before the next word */
} pbuf;

void pbuf_init(pbuf *b);
void pbuf_free(pbuf *b);

/* Empties b, keeping its memory. */
void pbuf_reset(pbuf *b);

/* Makes room for n more bytes (plus the NUL). */
void pbuf_reserve(pbuf *b, size_t n);

void pbuf_put(pbuf *b, const void *p, size_t n);

/* Appends s with runs of ASCII whitespace collapsed to one space, never
 * leading with a space and never ending with one (a trailing run is owed
 * and written only if more text follows).  Successive calls continue the
 * same collapsed run, so text split across nodes joins correctly. */
void pbuf_text(pbuf *b, const char *s, size_t n);

/* Marks a word boundary (e.g. between block elements): a space is owed
 * if any text has been written. */
void pbuf_break(pbuf *b);

/* Whether c is ASCII whitespace as HTML defines it. */
static inline int pbuf_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Whether s[0..n) starts with prefix, ignoring ASCII case and leading
 * whitespace: a Content-Type's media type. */
int pbuf_prefix(const char *s, size_t n, const char *prefix);

#endif
