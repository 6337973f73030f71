#include "sel.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { SEL_HAS, SEL_EQ, SEL_PREFIX, SEL_SUFFIX, SEL_SUBSTR, SEL_WORD };

typedef struct sel_attr {
	char *name;      /* lowercased */
	char *val;
	size_t vlen;
	int op;
} sel_attr;

/* One compound selector such as `a.x[href]`: every part must match. */
typedef struct sel_compound {
	int any;         /* no type selector, or `*` */
	GumboTag tag;    /* GUMBO_TAG_UNKNOWN: compare tagname instead */
	char *tagname;   /* lowercased, for elements gumbo does not know */
	char *id;
	char **classes;
	int nclasses;
	sel_attr *attrs;
	int nattrs;
	char comb;       /* how this joins the compound to its left: ' ' or '>' */
} sel_compound;

typedef struct sel_complex {
	sel_compound *c;
	int n;
} sel_complex;

struct sel {
	sel_complex *list;
	int n;
};

/* ---- compiling ---------------------------------------------------------- */

typedef struct sel_parser {
	const char *src;
	size_t i;
	int pos;
	const char *why;
} sel_parser;

static void *
sel_grow(void *p, int n, size_t size)
{
	/* Arrays here grow one element at a time; selectors are short. */
	void *q = realloc(p, (size_t)(n + 1) * size);
	if (!q)
		abort();
	return q;
}

/* Records the first error at the cursor; returns -1 for the callers to
 * pass up. */
static int
sel_fail(sel_parser *p, const char *why)
{
	if (!p->why) {
		p->pos = (int)p->i;
		p->why = why;
	}
	return -1;
}

/* Whether c may appear in a name (ASCII identifier characters, or any
 * UTF-8 byte). */
static int
sel_isname(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c >= 0x80;
}

/* Whether c is CSS whitespace. */
static int
sel_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Moves the cursor over whitespace. */
static void
sel_skip_space(sel_parser *p)
{
	while (sel_isspace((unsigned char)p->src[p->i]))
		p->i++;
}

/* Reads a name at the cursor into a malloc'd string (lowercased when
 * lower), or fails with "expected a name". */
static char *
sel_name(sel_parser *p, int lower)
{
	size_t start = p->i;
	while (sel_isname((unsigned char)p->src[p->i]))
		p->i++;
	if (p->i == start) {
		sel_fail(p, "expected a name");
		return NULL;
	}
	char *s = strndup(p->src + start, p->i - start);
	if (!s)
		abort();
	if (lower)
		for (char *c = s; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c + 32);
	return s;
}

/* Parses `[name]` or `[name OP value]`; the cursor is on '['. */
static int
sel_parse_attr(sel_parser *p, sel_compound *c)
{
	p->i++;
	sel_skip_space(p);
	sel_attr a = { 0 };
	a.name = sel_name(p, 1);
	if (!a.name)
		return -1;
	sel_skip_space(p);
	const char *s = p->src + p->i;
	a.op = SEL_HAS;
	if (*s == '=')
		a.op = SEL_EQ, p->i += 1;
	else if (s[0] && s[1] == '=' && strchr("^$*~", s[0]))
		a.op = s[0] == '^' ? SEL_PREFIX : s[0] == '$' ? SEL_SUFFIX :
		       s[0] == '*' ? SEL_SUBSTR : SEL_WORD,
		p->i += 2;
	if (a.op != SEL_HAS) {
		sel_skip_space(p);
		char q = p->src[p->i];
		size_t start;
		if (q == '"' || q == '\'') {
			start = ++p->i;
			while (p->src[p->i] && p->src[p->i] != q)
				p->i++;
			if (!p->src[p->i]) {
				free(a.name);
				return sel_fail(p, "unterminated string");
			}
			a.vlen = p->i - start;
			p->i++;
		} else {
			start = p->i;
			while (sel_isname((unsigned char)p->src[p->i]))
				p->i++;
			if (p->i == start) {
				free(a.name);
				return sel_fail(p, "expected a value");
			}
			a.vlen = p->i - start;
		}
		a.val = strndup(p->src + start, a.vlen);
		if (!a.val)
			abort();
		sel_skip_space(p);
	}
	if (p->src[p->i] != ']') {
		free(a.name);
		free(a.val);
		return sel_fail(p, "expected ']'");
	}
	p->i++;
	c->attrs = sel_grow(c->attrs, c->nattrs, sizeof *c->attrs);
	c->attrs[c->nattrs++] = a;
	return 0;
}

/* Parses one compound at the cursor.  It must have at least one part. */
static int
sel_parse_compound(sel_parser *p, sel_compound *c)
{
	memset(c, 0, sizeof *c);
	c->any = 1;
	size_t start = p->i;
	unsigned char ch = (unsigned char)p->src[p->i];
	if (ch == '*') {
		p->i++;
	} else if (sel_isname(ch)) {
		char *name = sel_name(p, 1);
		c->any = 0;
		c->tag = gumbo_tag_enum(name);
		if (c->tag == GUMBO_TAG_UNKNOWN)
			c->tagname = name;
		else
			free(name);
	}
	for (;;) {
		ch = (unsigned char)p->src[p->i];
		if (ch == '#' || ch == '.') {
			p->i++;
			char *name = sel_name(p, 0);
			if (!name)
				return -1;
			if (ch == '#') {
				free(c->id);
				c->id = name;
			} else {
				c->classes = sel_grow(c->classes, c->nclasses, sizeof *c->classes);
				c->classes[c->nclasses++] = name;
			}
		} else if (ch == '[') {
			if (sel_parse_attr(p, c) < 0)
				return -1;
		} else {
			break;
		}
	}
	if (p->i == start) {
		if (ch && !sel_isspace(ch) && ch != ',' && ch != '>')
			return sel_fail(p, "unexpected character");
		return sel_fail(p, "expected a selector");
	}
	return 0;
}

/* Frees what compound c owns (not c itself). */
static void
sel_compound_free(sel_compound *c)
{
	free(c->tagname);
	free(c->id);
	for (int i = 0; i < c->nclasses; i++)
		free(c->classes[i]);
	free(c->classes);
	for (int i = 0; i < c->nattrs; i++) {
		free(c->attrs[i].name);
		free(c->attrs[i].val);
	}
	free(c->attrs);
}

void
sel_free(sel *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		for (int j = 0; j < s->list[i].n; j++)
			sel_compound_free(&s->list[i].c[j]);
		free(s->list[i].c);
	}
	free(s->list);
	free(s);
}

sel *
sel_compile(const char *src, int *pos, const char **why)
{
	sel_parser p = { src, 0, 0, NULL };
	sel *s = calloc(1, sizeof *s);
	if (!s)
		abort();
	sel_skip_space(&p);
	for (;;) {
		s->list = sel_grow(s->list, s->n, sizeof *s->list);
		sel_complex *cx = &s->list[s->n++];
		memset(cx, 0, sizeof *cx);
		char comb = 0;
		for (;;) {
			cx->c = sel_grow(cx->c, cx->n, sizeof *cx->c);
			if (sel_parse_compound(&p, &cx->c[cx->n]) < 0) {
				sel_compound_free(&cx->c[cx->n]);
				goto bad;
			}
			cx->c[cx->n++].comb = comb;
			size_t before = p.i;
			sel_skip_space(&p);
			char ch = src[p.i];
			if (ch == '>') {
				p.i++;
				sel_skip_space(&p);
				comb = '>';
			} else if (ch == ',' || ch == '\0') {
				break;
			} else if (p.i > before) {
				comb = ' ';
			} else {
				sel_fail(&p, "unexpected character");
				goto bad;
			}
		}
		if (src[p.i] == '\0')
			break;
		p.i++;   /* the ',' */
		sel_skip_space(&p);
	}
	return s;
bad:
	*pos = p.pos;
	*why = p.why;
	sel_free(s);
	return NULL;
}

/* ---- matching ------------------------------------------------------------ */

static int
sel_is_element(const GumboNode *n)
{
	return n && (n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE);
}

/* The value of attribute name (lowercase) of element n, or NULL. */
static const char *
sel_get_attr(const GumboNode *n, const char *name)
{
	const GumboAttribute *a = gumbo_get_attribute(&n->v.element.attributes, name);
	return a ? a->value : NULL;
}

/* Whether whitespace-separated list s contains word w (length wn). */
static int
sel_has_word(const char *s, const char *w, size_t wn)
{
	while (*s) {
		while (sel_isspace((unsigned char)*s))
			s++;
		const char *t = s;
		while (*s && !sel_isspace((unsigned char)*s))
			s++;
		if ((size_t)(s - t) == wn && wn && memcmp(t, w, wn) == 0)
			return 1;
	}
	return 0;
}

/* Whether attribute value v (NULL when absent) satisfies a. */
static int
sel_attr_ok(const sel_attr *a, const char *v)
{
	if (!v)
		return 0;
	size_t n = strlen(v);
	switch (a->op) {
	case SEL_HAS: return 1;
	case SEL_EQ: return n == a->vlen && memcmp(v, a->val, n) == 0;
	case SEL_PREFIX: return a->vlen && n >= a->vlen && memcmp(v, a->val, a->vlen) == 0;
	case SEL_SUFFIX: return a->vlen && n >= a->vlen &&
			       memcmp(v + n - a->vlen, a->val, a->vlen) == 0;
	case SEL_SUBSTR: return a->vlen && strstr(v, a->val) != NULL;
	case SEL_WORD: return sel_has_word(v, a->val, a->vlen);
	}
	return 0;
}

/* Whether element n matches every part of compound c. */
static int
sel_compound_ok(const sel_compound *c, const GumboNode *n)
{
	const GumboElement *e = &n->v.element;
	if (!c->any) {
		if (e->tag != c->tag)
			return 0;
		if (c->tag == GUMBO_TAG_UNKNOWN) {
			GumboStringPiece t = e->original_tag;
			gumbo_tag_from_original_text(&t);
			size_t len = strlen(c->tagname);
			if (t.length != len || strncasecmp(t.data, c->tagname, len) != 0)
				return 0;
		}
	}
	if (c->id) {
		const char *v = sel_get_attr(n, "id");
		if (!v || strcmp(v, c->id) != 0)
			return 0;
	}
	if (c->nclasses) {
		const char *v = sel_get_attr(n, "class");
		if (!v)
			return 0;
		for (int i = 0; i < c->nclasses; i++)
			if (!sel_has_word(v, c->classes[i], strlen(c->classes[i])))
				return 0;
	}
	for (int i = 0; i < c->nattrs; i++)
		if (!sel_attr_ok(&c->attrs[i], sel_get_attr(n, c->attrs[i].name)))
			return 0;
	return 1;
}

/* Whether compounds [0..k] of cx match with compound k on node n,
 * right to left; backtracks over ancestors for descendant steps. */
static int
sel_complex_ok(const sel_complex *cx, int k, const GumboNode *n)
{
	if (!sel_compound_ok(&cx->c[k], n))
		return 0;
	if (k == 0)
		return 1;
	const GumboNode *a = n->parent;
	if (cx->c[k].comb == '>')
		return sel_is_element(a) && sel_complex_ok(cx, k - 1, a);
	for (; sel_is_element(a); a = a->parent)
		if (sel_complex_ok(cx, k - 1, a))
			return 1;
	return 0;
}

int
sel_match(const sel *s, const GumboNode *node)
{
	for (int i = 0; i < s->n; i++)
		if (sel_complex_ok(&s->list[i], s->list[i].n - 1, node))
			return 1;
	return 0;
}
