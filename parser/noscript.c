#include "noscript.h"

#include <string.h>
#include <strings.h>

/* Elements whose content the tokenizer reads as text up to their own
 * end tag (HTML's RAWTEXT, RCDATA and script data).  plaintext has no
 * end: the rest of the page is its text in any reader. */
static const char *const ns_text_tags[] = {
	"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", NULL,
};

/* Whether c ends a tag's name. */
static int
ns_delim(char c)
{
	return pbuf_isspace((unsigned char)c) || c == '/' || c == '>';
}

const char *
noscript_find_end(const char *p, const char *end, const char *name, size_t len)
{
	/* memchr, not memmem: a script holds few "<", and memchr skips
	 * the rest many bytes at a time. */
	const char *q;
	while ((size_t)(end - p) >= len + 2 && (q = memchr(p, '<', (size_t)(end - p)))) {
		if ((size_t)(end - q) >= len + 2 && q[1] == '/' && strncasecmp(q + 2, name, len) == 0 &&
		    ((size_t)(end - q) == len + 2 || ns_delim(q[len + 2])))
			return q;
		p = q + 1;
	}
	return NULL;
}

/* The name of the start tag at q ("<" then a letter) lowercased into
 * name (NS_NAME bytes), or "" when there is none or it is no name that
 * matters here: longer than any, or not starting with one's letter
 * (most tags, read no further). */
#define NS_NAME 10
static void
ns_name(const char *q, const char *end, char *name)
{
	size_t k = 0;
	name[0] = 0;
	if (++q == end)
		return;
	switch (*q | 0x20) {
	case 'n': case 's': case 't': case 'x': case 'i': case 'p':
		break;
	default:
		return;
	}
	for (; q < end && !ns_delim(*q); q++) {
		if (k == NS_NAME - 1) {
			name[0] = 0;
			return;
		}
		name[k++] = (*q >= 'A' && *q <= 'Z') ? (char)(*q | 0x20) : *q;
	}
	name[q == end ? 0 : k] = 0;
}

/* At q, a "<" in [q, end): where the tokenizer, reading markup, next
 * reads a "<" as markup.  That is q + 1 unless q opens a comment or an
 * element of text, whose content is skipped; NULL when its end is not
 * in [q, end) (a plaintext never ends).  name is the tag's, from
 * ns_name. */
static const char *
ns_skip(const char *q, const char *end, const char *name)
{
	/* From its "--": "<!-->" is a comment, empty. */
	if ((size_t)(end - q) >= 4 && memcmp(q, "<!--", 4) == 0) {
		const char *e = memmem(q + 2, (size_t)(end - q - 2), "-->", 3);
		return e ? e + 3 : NULL;
	}
	if (!name[0])
		return q + 1;
	if (strcmp(name, "plaintext") == 0)
		return NULL;
	for (const char *const *t = ns_text_tags; *t; t++)
		if ((*t)[0] == name[0] && strcmp(name, *t) == 0) {
			size_t len = strlen(*t);
			const char *e = noscript_find_end(q + 1 + len, end, *t, len);
			return e ? e + 2 : NULL;
		}
	return q + 1;
}

const char *
noscript_mend(const char *html, size_t n, pbuf *copy)
{
	const char *p = html, *end = html + n, *out = html;
	const char *q;
	char name[NS_NAME];
	while ((q = memchr(p, '<', (size_t)(end - p)))) {
		ns_name(q, end, name);
		if (name[0] != 'n' || strcmp(name, "noscript") != 0) {
			if (!(p = ns_skip(q, end, name)))
				break;
			continue;
		}
		/* The noscript's content as a browser with scripts reads it:
		 * from its start tag's ">" to the first "</noscript". */
		const char *a = memchr(q, '>', (size_t)(end - q));
		const char *z = a ? noscript_find_end(a + 1, end, "noscript", 8) : NULL;
		if (!z)
			break;
		for (const char *s = a + 1; (q = memchr(s, '<', (size_t)(z - s))); ) {
			ns_name(q, z, name);
			if ((s = ns_skip(q, z, name)))
				continue;
			if (out == html) {
				pbuf_reset(copy);
				pbuf_put(copy, html, n);
				out = copy->p;
			}
			memset(copy->p + (q - html), ' ', (size_t)(z - q));
			break;
		}
		p = z + 2;
	}
	return out;
}
