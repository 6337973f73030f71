/* cs_prescan — the HTML standard's prescan for a <meta> that names the
 * encoding, over the first bytes of a page.
 *
 * The prescan lowercases attribute names and values as it reads them;
 * here they stay spans of the input and every comparison ignores ASCII
 * case instead, which gives the same answers without copying. */
#include "cs_dec.h"

#include <string.h>

typedef struct cs_span {
	const unsigned char *p;
	size_t n;
} cs_span;

/* What cs_attr found. */
enum { CS_ATTR_NONE, CS_ATTR, CS_ATTR_END };

/* Whether span s is word (lowercase ASCII) but for ASCII case. */
static int
cs_span_is(cs_span s, const char *word)
{
	size_t n = strlen(word);
	if (s.n != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned c = s.p[i];
		if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != (unsigned char)word[i])
			return 0;
	}
	return 1;
}

/* The HTML prescan's "get an attribute" at *pp (below end): CS_ATTR with
 * name and value set and *pp past them, CS_ATTR_NONE at a '>' (*pp on
 * it), or CS_ATTR_END when the input ends inside the attribute, which
 * ends the prescan. */
static int
cs_attr(const unsigned char **pp, const unsigned char *end, cs_span *name, cs_span *val)
{
	const unsigned char *p = *pp;
	while (p < end && (pbuf_isspace(*p) || *p == '/'))
		p++;
	if (p >= end)
		return CS_ATTR_END;
	if (*p == '>') {
		*pp = p;
		return CS_ATTR_NONE;
	}
	name->p = p;
	val->p = p, val->n = 0;
	/* The name runs to '=' (not as its first byte), a space, '/' or '>'. */
	for (;; p++) {
		if (p >= end)
			return CS_ATTR_END;
		if ((*p == '=' && p > name->p) || pbuf_isspace(*p) || *p == '/' || *p == '>')
			break;
	}
	name->n = (size_t)(p - name->p);
	if (*p == '/' || *p == '>') {
		*pp = p;
		return CS_ATTR;
	}
	if (*p != '=') {
		while (p < end && pbuf_isspace(*p))
			p++;
		if (p >= end)
			return CS_ATTR_END;
		if (*p != '=') {
			*pp = p;
			return CS_ATTR;
		}
	}
	p++;
	while (p < end && pbuf_isspace(*p))
		p++;
	if (p >= end)
		return CS_ATTR_END;
	if (*p == '"' || *p == '\'') {
		unsigned char q = *p++;
		val->p = p;
		while (p < end && *p != q)
			p++;
		if (p >= end)
			return CS_ATTR_END;
		val->n = (size_t)(p - val->p);
		*pp = p + 1;
		return CS_ATTR;
	}
	if (*p == '>') {
		*pp = p;
		return CS_ATTR;
	}
	val->p = p++;
	while (p < end && !pbuf_isspace(*p) && *p != '>')
		p++;
	if (p >= end)
		return CS_ATTR_END;
	val->n = (size_t)(p - val->p);
	*pp = p;
	return CS_ATTR;
}

int
cs_meta_content(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	for (;;) {
		/* The next "charset", any case. */
		size_t k = i;
		for (; k + 7 <= n; k++)
			if (cs_span_is((cs_span){ s + k, 7 }, "charset"))
				break;
		if (k + 7 > n)
			return -1;
		size_t j = k + 7;
		while (j < n && pbuf_isspace(s[j]))
			j++;
		if (j >= n || s[j] != '=') {
			i = j;   /* look again from just before that byte */
			continue;
		}
		j++;
		while (j < n && pbuf_isspace(s[j]))
			j++;
		if (j >= n)
			return -1;
		if (s[j] == '"' || s[j] == '\'') {
			const unsigned char *q = memchr(s + j + 1, s[j], n - j - 1);
			if (!q)
				return -1;
			return cs_label_find((const char *)s + j + 1, (size_t)(q - (s + j + 1)));
		}
		size_t e = j;
		while (e < n && !pbuf_isspace(s[e]) && s[e] != ';')
			e++;
		return cs_label_find((const char *)s + j, e - j);
	}
}

/* The attributes of a <meta> from *pp (below end) to its '>', by the
 * prescan's steps: the encoding they name, -1 for none (*pp left where
 * the prescan goes on), or -2 when the input ends first. */
static int
cs_meta(const unsigned char **pp, const unsigned char *end)
{
	/* The attribute list matters only for these three names: a second
	 * of any of them is skipped. */
	int seen_equiv = 0, seen_content = 0, seen_charset = 0;
	int got_pragma = 0;
	int need_pragma = -1;   /* null */
	int charset = -2;       /* null; -1 is the standard's failure */
	cs_span name, val;
	int r;
	while ((r = cs_attr(pp, end, &name, &val)) == CS_ATTR) {
		if (cs_span_is(name, "http-equiv")) {
			if (seen_equiv++)
				continue;
			if (cs_span_is(val, "content-type"))
				got_pragma = 1;
		} else if (cs_span_is(name, "content")) {
			if (seen_content++)
				continue;
			int e = cs_meta_content((const char *)val.p, val.n);
			if (e >= 0 && charset == -2)
				charset = e, need_pragma = 1;
		} else if (cs_span_is(name, "charset")) {
			if (seen_charset++)
				continue;
			charset = cs_label_find((const char *)val.p, val.n);
			need_pragma = 0;
		}
	}
	if (r == CS_ATTR_END)
		return -2;
	if (need_pragma == -1 || (need_pragma == 1 && !got_pragma) || charset < 0)
		return -1;
	/* The bytes the meta was read from were ASCII-compatible, so a
	 * UTF-16 label cannot be true of them. */
	if (charset == CS_UTF_16BE || charset == CS_UTF_16LE)
		return CS_UTF_8;
	if (charset == CS_X_USER_DEFINED)
		return CS_WINDOWS_1252;
	return charset;
}

/* Whether c is an ASCII letter. */
static int
cs_alpha(unsigned c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

int
cs_prescan(const char *str, size_t n, size_t limit)
{
	const unsigned char *p = (const unsigned char *)str;
	const unsigned char *end = p + (n < limit ? n : limit);
	while (p < end) {
		size_t left = (size_t)(end - p);
		if (*p != '<') {
			p++;
			continue;
		}
		if (left >= 4 && memcmp(p, "<!--", 4) == 0) {
			/* To the first "-->", whose dashes may be those of
			 * "<!--" itself. */
			const unsigned char *q = p + 4;
			while (q < end && !(*q == '>' && q[-1] == '-' && q[-2] == '-'))
				q++;
			if (q >= end)
				return -1;
			p = q + 1;
			continue;
		}
		if (left >= 6 && cs_span_is((cs_span){ p + 1, 4 }, "meta") &&
		    (pbuf_isspace(p[5]) || p[5] == '/')) {
			p += 5;
			int e = cs_meta(&p, end);
			if (e >= 0)
				return e;
			if (e == -2)
				return -1;
			p++;
			continue;
		}
		if ((left >= 2 && cs_alpha(p[1])) ||
		    (left >= 3 && p[1] == '/' && cs_alpha(p[2]))) {
			/* Another tag: skip its name and attributes. */
			while (p < end && !pbuf_isspace(*p) && *p != '>')
				p++;
			cs_span name, val;
			int r;
			while ((r = cs_attr(&p, end, &name, &val)) == CS_ATTR)
				;
			if (r == CS_ATTR_END)
				return -1;
			p++;
			continue;
		}
		if (left >= 2 && (p[1] == '!' || p[1] == '/' || p[1] == '?')) {
			const unsigned char *q = memchr(p + 1, '>', left - 1);
			if (!q)
				return -1;
			p = q + 1;
			continue;
		}
		p++;
	}
	return -1;
}
