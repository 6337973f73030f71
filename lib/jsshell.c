/* jsshell — the JavaScript-shell rule of validate and render. */
#include "jsshell.h"

#include <string.h>
#include <strings.h>

size_t
jsshell_chars(const char *s, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

int
jsshell_text(const char *text, size_t n, long min, size_t *chars)
{
	size_t c = jsshell_chars(text, n);
	if (chars)
		*chars = c;
	return min > 0 && c < (size_t)min;
}

/* Elements whose content is no visible text, as parse's extract.c. */
static const char *const hidden[] = { "head", "title", "script", "style", "noscript", "template" };

/* Which hidden element the tag name at p (len bytes) is, or -1. */
static int
hidden_tag(const char *p, size_t len)
{
	for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
		if (strlen(hidden[i]) == len && strncasecmp(p, hidden[i], len) == 0)
			return (int)i;
	return -1;
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

int
jsshell_html(const char *h, size_t n, long min)
{
	if (min <= 0)
		return 0;
	size_t chars = 0, i = 0;
	int skip = -1;        /* the hidden element being skipped */
	int space = 1;        /* the last thing counted was whitespace */
	/* One past min: a separator counted last may yet be trailing. */
	while (i < n && chars <= (size_t)min) {
		if (h[i] == '<') {
			size_t j = i + 1;
			int close = j < n && h[j] == '/';
			j += (size_t)close;
			size_t name = j;
			while (j < n && !is_space(h[j]) && h[j] != '>' && h[j] != '/')
				j++;
			int t = hidden_tag(h + name, j - name);
			if (name < n && h[name] == '!' && j - name >= 3 && !strncmp(h + name, "!--", 3)) {
				const char *end = memmem(h + name, n - name, "-->", 3);
				i = end ? (size_t)(end - h) + 3 : n;
				continue;
			}
			while (j < n && h[j] != '>')
				j++;
			i = j + 1;
			if (skip < 0 && t >= 0 && !close)
				skip = t;
			else if (skip >= 0 && close && t == skip)
				skip = -1;
			if (!space && skip < 0)
				chars++, space = 1;   /* a tag separates words */
			continue;
		}
		if (skip >= 0) {
			i++;
			continue;
		}
		if (is_space(h[i])) {
			if (!space)
				chars++, space = 1;
			i++;
			continue;
		}
		if (h[i] == '&') {
			size_t j = i + 1;
			while (j < n && j - i < 32 && h[j] != ';' && h[j] != '<' && !is_space(h[j]))
				j++;
			i = j < n && h[j] == ';' ? j + 1 : i + 1;
			chars++, space = 0;
			continue;
		}
		chars += ((unsigned char)h[i] & 0xc0) != 0x80;
		space = 0;
		i++;
	}
	if (space && chars)
		chars--;   /* the trailing separator */
	return chars < (size_t)min;
}
