#include "sel.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tree.h"
#include "xalloc.h"

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
	int off;         /* index of c[0] among all compounds of the list */
} sel_complex;

struct sel {
	sel_complex *list;
	int n;
	int ncomp;       /* compounds in all of list */
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
	return xrealloc(p, (size_t)(n + 1) * size);
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
	char *s = xstrndup(p->src + start, p->i - start);
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
		a.val = xstrndup(p->src + start, a.vlen);
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
	sel *s = xcalloc(1, sizeof *s);
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
		cx->off = s->ncomp;
		s->ncomp += cx->n;
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
		const char *v = tree_attr(n, "id");
		if (!v || strcmp(v, c->id) != 0)
			return 0;
	}
	if (c->nclasses) {
		const char *v = tree_attr(n, "class");
		if (!v)
			return 0;
		for (int i = 0; i < c->nclasses; i++)
			if (!sel_has_word(v, c->classes[i], strlen(c->classes[i])))
				return 0;
	}
	for (int i = 0; i < c->nattrs; i++)
		if (!sel_attr_ok(&c->attrs[i], tree_attr(n, c->attrs[i].name)))
			return 0;
	return 1;
}

/* ---- the memo ------------------------------------------------------------ */

/* Bits of a memo byte: what is known about one compound k of a complex
 * at one element, and the answers.  "exact": compounds [0..k] match with
 * k on this element.  "anc": exact holds on this element or on one of
 * its ancestors, which is what a descendant step asks. */
enum { SEL_EX_KNOWN = 1, SEL_EX = 2, SEL_ANC_KNOWN = 4, SEL_ANC = 8 };

/* Rows kept by sel_memo_reset: a very deep page's memo is freed after
 * it rather than held for good. */
#define SEL_MEMO_KEEP 4096

/* Which element a row describes, and for which document. */
typedef struct sel_slot {
	const GumboNode *node;
	unsigned long long gen;
} sel_slot;

/* One row per depth of the walk: the walk visits elements in document
 * order, so the ancestors of the element being matched are exactly the
 * rows above its depth, and a row whose slot names another element is
 * stale (that element's subtree is finished). */
struct sel_memo {
	int ncomp;                /* bytes per row: compounds of the list */
	unsigned long long gen;   /* this document; older slots are stale */
	size_t cap;               /* rows allocated */
	sel_slot *slot;
	unsigned char *st;        /* cap * ncomp memo bytes */
};

sel_memo *
sel_memo_new(void)
{
	sel_memo *m = xcalloc(1, sizeof *m);
	m->gen = 1;
	return m;
}

void
sel_memo_free(sel_memo *m)
{
	if (!m)
		return;
	free(m->slot);
	free(m->st);
	free(m);
}

void
sel_memo_reset(sel_memo *m, const sel *s)
{
	/* Bumping the generation forgets every row at once; only a memo
	 * grown past SEL_MEMO_KEEP rows, or sized for another list, is
	 * given back. */
	if (m->cap > SEL_MEMO_KEEP || m->ncomp != s->ncomp) {
		free(m->slot);
		free(m->st);
		m->slot = NULL;
		m->st = NULL;
		m->cap = 0;
	}
	m->ncomp = s->ncomp;
	m->gen++;
}

/* Makes room for rows [0..depth] (zeroed rows are stale: gen 0 is never
 * a document's). */
static void
sel_memo_grow(sel_memo *m, size_t depth)
{
	if (depth < m->cap)
		return;
	size_t cap = m->cap ? m->cap : 64;
	while (cap <= depth)
		cap *= 2;
	m->slot = xrealloc(m->slot, cap * sizeof *m->slot);
	m->st = xrealloc(m->st, cap * (size_t)m->ncomp);
	memset(m->slot + m->cap, 0, (cap - m->cap) * sizeof *m->slot);
	m->cap = cap;
}

/* The memo byte of compound index i (into the whole list) for element n
 * at depth d; the row is claimed for n, and cleared, when it held
 * another element.  d < m->cap (sel_match grows the memo first). */
static unsigned char *
sel_memo_at(sel_memo *m, const GumboNode *n, size_t d, int i)
{
	sel_slot *sl = &m->slot[d];
	unsigned char *row = m->st + d * (size_t)m->ncomp;
	if (sl->node != n || sl->gen != m->gen) {
		sl->node = n;
		sl->gen = m->gen;
		memset(row, 0, (size_t)m->ncomp);
	}
	return row + i;
}

/* ---- matching, memoized ----------------------------------------------------
 *
 * The plain right-to-left match backtracks: for `section div div span`
 * every span tries every pair of div ancestors before giving up, which is
 * cubic in the depth per span.  Here the two questions a step asks about
 * an element, "exact" and "anc" (see the bits above), are answered once
 * per (element, compound) and remembered in the row of the element's
 * depth, so a document costs O(elements × compounds) memo updates and
 * the memo holds at most depth × compounds bytes.  Recursion goes one
 * level per compound (never per ancestor): ancestor chains are walked
 * with loops. */

static int sel_exact_memo(const sel_complex *cx, int k, const GumboNode *n,
			  size_t d, sel_memo *m);

/* Whether compounds [0..k) of cx match to the left of element n, given
 * that compound k matches n itself; n is at depth d. */
static int
sel_left_ok(const sel_complex *cx, int k, const GumboNode *n, size_t d, sel_memo *m)
{
	if (k == 0)
		return 1;
	const GumboNode *a = n->parent;
	/* The root element sits at depth 0 or more: an element ancestor
	 * at depth d - 1 needs d > 0. */
	if (!tree_is_element(a) || d == 0)
		return 0;
	if (cx->c[k].comb == '>')
		return sel_exact_memo(cx, k - 1, a, d - 1, m);
	/* anc(k - 1) of the parent: walk up until an element where exact
	 * holds or where anc is already known; every element passed gets
	 * the answer, so no ancestor is walked twice for this compound. */
	int i = cx->off + k - 1, v = 0;
	size_t steps = 0, j = d - 1;
	for (const GumboNode *b = a; tree_is_element(b); b = b->parent, j--) {
		steps++;
		unsigned char st = *sel_memo_at(m, b, j, i);
		if (st & SEL_ANC_KNOWN) {
			v = (st & SEL_ANC) != 0;
			break;
		}
		if (sel_exact_memo(cx, k - 1, b, j, m)) {
			v = 1;
			break;
		}
		if (j == 0)
			break;
	}
	j = d - 1;
	for (const GumboNode *b = a; steps > 0; b = b->parent, j--, steps--)
		*sel_memo_at(m, b, j, i) |= SEL_ANC_KNOWN | (v ? SEL_ANC : 0);
	return v;
}

/* Whether compounds [0..k] of cx match with compound k on element n at
 * depth d, remembered in n's row.  The work below only touches rows of
 * smaller depths, so n's memo byte stays n's. */
static int
sel_exact_memo(const sel_complex *cx, int k, const GumboNode *n, size_t d, sel_memo *m)
{
	unsigned char st = *sel_memo_at(m, n, d, cx->off + k);
	if (st & SEL_EX_KNOWN)
		return (st & SEL_EX) != 0;
	int v = sel_compound_ok(&cx->c[k], n) && sel_left_ok(cx, k, n, d, m);
	*sel_memo_at(m, n, d, cx->off + k) |= SEL_EX_KNOWN | (v ? SEL_EX : 0);
	return v;
}

int
sel_match(const sel *s, const GumboNode *node, size_t depth, sel_memo *m)
{
	for (int i = 0; i < s->n; i++) {
		const sel_complex *cx = &s->list[i];
		/* Most elements fail the rightmost compound: that costs no
		 * memo work.  node itself is asked once per walk, so its own
		 * answer is not remembered; its ancestors' are. */
		if (!sel_compound_ok(&cx->c[cx->n - 1], node))
			continue;
		if (cx->n == 1)
			return 1;
		sel_memo_grow(m, depth);
		if (sel_left_ok(cx, cx->n - 1, node, depth, m))
			return 1;
	}
	return 0;
}
