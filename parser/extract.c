#include "extract.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "noscript.h"
#include "tree.h"
#include "xalloc.h"

/* A <noscript>'s first end tag is looked for in its first
 * EX_NOSCRIPT_SCAN bytes (the `text` key in docs/parse.md): on the 990
 * pages of the extraction set a misread noscript's first end tag came
 * within 8 KiB, and a page of nested noscripts must not cost its length
 * squared. */
#define EX_NOSCRIPT_SCAN 16384

/* Whether the <noscript> n ends where a browser ends it.  A browser runs
 * scripts, so it reads a noscript's content as text up to the first
 * "</noscript>".  gumbo reads it as markup: in "<noscript><div></noscript>"
 * that end tag cannot close the open div and is ignored, and the rest of
 * the page falls inside the noscript, which ends at a later end tag or
 * at the end of the document.  Such a noscript holds the page, not a
 * message for browsers without scripts. */
static int
ex_noscript_closed(const GumboNode *n)
{
	const GumboStringPiece *a = &n->v.element.original_tag, *z = &n->v.element.original_end_tag;
	if (!z->length || !a->data || z->data < a->data + a->length)
		return 0;
	const char *p = a->data + a->length;
	size_t left = (size_t)(z->data - p);
	if (left > EX_NOSCRIPT_SCAN)
		left = EX_NOSCRIPT_SCAN;
	return !noscript_find_end(p, p + left, "noscript", 8);
}

int
ex_is_hidden(const GumboNode *n)
{
	GumboTag t = tree_tag(n);
	if (t == GUMBO_TAG_NOSCRIPT)
		return ex_noscript_closed(n);
	return t == GUMBO_TAG_SCRIPT || t == GUMBO_TAG_STYLE || t == GUMBO_TAG_TEMPLATE ||
	       t == GUMBO_TAG_HEAD || t == GUMBO_TAG_TITLE;
}

/* Inline elements do not separate words: "<b>bo</b>ld" is one word.
 * Every other element boundary counts as whitespace, so block text such
 * as "<p>a</p><p>b</p>" reads "a b" instead of "ab". */
static unsigned char ex_inline[GUMBO_TAG_LAST + 1];

static void
ex_init_tables(void)
{
	static int done;
	if (done)
		return;
	static const GumboTag tags[] = {
		GUMBO_TAG_A, GUMBO_TAG_ABBR, GUMBO_TAG_B, GUMBO_TAG_BDI,
		GUMBO_TAG_BDO, GUMBO_TAG_CITE, GUMBO_TAG_CODE, GUMBO_TAG_DATA,
		GUMBO_TAG_DFN, GUMBO_TAG_EM, GUMBO_TAG_FONT, GUMBO_TAG_I,
		GUMBO_TAG_KBD, GUMBO_TAG_MARK, GUMBO_TAG_Q, GUMBO_TAG_S,
		GUMBO_TAG_SAMP, GUMBO_TAG_SMALL, GUMBO_TAG_SPAN, GUMBO_TAG_STRONG,
		GUMBO_TAG_SUB, GUMBO_TAG_SUP, GUMBO_TAG_TIME, GUMBO_TAG_U,
		GUMBO_TAG_VAR, GUMBO_TAG_TT, GUMBO_TAG_BIG, GUMBO_TAG_STRIKE,
		GUMBO_TAG_INS, GUMBO_TAG_DEL, GUMBO_TAG_LABEL, GUMBO_TAG_NOBR,
		GUMBO_TAG_RUBY, GUMBO_TAG_RB, GUMBO_TAG_RT, GUMBO_TAG_RP,
		GUMBO_TAG_WBR, GUMBO_TAG_IMG,
	};
	for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
		ex_inline[tags[i]] = 1;
	done = 1;
}

void
ex_init(ex_result *r)
{
	memset(r, 0, sizeof *r);
	pbuf_init(&r->title);
	pbuf_init(&r->text);
	ex_init_tables();
}

void
ex_free(ex_result *r)
{
	pbuf_free(&r->title);
	pbuf_free(&r->text);
	free(r->hrefs);
	free(r->m);
	free(r->done);
	for (int i = 0; i < r->nmemo; i++)
		sel_memo_free(r->memo[i]);
	free(r->memo);
}

/* Records an href (a pointer into the tree) for resolution after the
 * walk. */
static void
ex_push_href(ex_result *r, const char *href)
{
	if (r->nhrefs == r->caphrefs) {
		r->caphrefs = r->caphrefs ? r->caphrefs * 2 : 64;
		r->hrefs = xrealloc(r->hrefs, r->caphrefs * sizeof *r->hrefs);
	}
	r->hrefs[r->nhrefs++] = href;
}

/* Records that element n matched field; matches stay in document order. */
static void
ex_push_match(ex_result *r, int field, const GumboNode *n)
{
	if (r->nm == r->capm) {
		r->capm = r->capm ? r->capm * 2 : 16;
		r->m = xrealloc(r->m, r->capm * sizeof *r->m);
	}
	r->m[r->nm].field = field;
	r->m[r->nm++].node = n;
}

/* Whether rel (a space-separated token list) contains "canonical". */
static int
ex_rel_canonical(const char *rel)
{
	const char *p = rel;
	while ((p = strcasestr(p, "canonical")) != NULL) {
		int before = p == rel || pbuf_isspace((unsigned char)p[-1]);
		int after = p[9] == '\0' || pbuf_isspace((unsigned char)p[9]);
		if (before && after)
			return 1;
		p += 9;
	}
	return 0;
}

/* The per-element work of the walk: the page fields and selectors.
 * depth is n's depth in the walk (for the selector memos). */
static void
ex_element(ex_result *r, const GumboNode *n, size_t depth, const ex_field *f, int nf)
{
	const GumboElement *e = &n->v.element;
	const char *v;
	switch (e->tag) {
	case GUMBO_TAG_A:
	case GUMBO_TAG_AREA:
		if ((v = tree_attr(n, "href")) != NULL)
			ex_push_href(r, v);
		break;
	case GUMBO_TAG_HTML:
		if (!r->lang && (v = tree_attr(n, "lang")) != NULL)
			r->lang = v;
		break;
	case GUMBO_TAG_BASE:
		if (!r->base && (v = tree_attr(n, "href")) != NULL)
			r->base = v;
		break;
	case GUMBO_TAG_LINK:
		if (!r->canonical && (v = tree_attr(n, "rel")) != NULL &&
		    ex_rel_canonical(v) && (v = tree_attr(n, "href")) != NULL)
			r->canonical = v;
		break;
	case GUMBO_TAG_META:
		if ((v = tree_attr(n, "name")) != NULL) {
			const char *c = tree_attr(n, "content");
			if (!c)
				break;
			if (!r->description && strcasecmp(v, "description") == 0)
				r->description = c;
			else if (!r->robots && strcasecmp(v, "robots") == 0)
				r->robots = c;
		}
		break;
	case GUMBO_TAG_TITLE:
		/* An <svg><title> is a tooltip, not the document's title. */
		if (!r->has_title && e->tag_namespace == GUMBO_NAMESPACE_HTML) {
			r->has_title = 1;
			ex_text(&r->title, n);
		}
		break;
	default:
		break;
	}
	for (int i = 0; i < nf; i++) {
		if (!f[i].all && r->done[i])
			continue;
		if (sel_match(f[i].sel, n, depth, r->memo[i])) {
			ex_push_match(r, i, n);
			if (!f[i].all)
				r->done[i] = 1;
		}
	}
}

/* Entering (d = 1) or leaving (d = -1) element n below the top of a
 * walk: an element that hides its content counts in *hidden; any other
 * non-inline element is a word break in b (when b is not NULL).  Head and
 * title hide their content unless head_shown. */
static void
ex_edge(const GumboNode *n, int d, pbuf *b, int head_shown, int *hidden)
{
	GumboTag t = tree_tag(n);
	if (ex_is_hidden(n) && !(head_shown && (t == GUMBO_TAG_HEAD || t == GUMBO_TAG_TITLE)))
		*hidden += d;
	else if (!ex_inline[t] && b)
		pbuf_break(b);
}

/* The walk of ex_walk and ex_text: top's subtree in document order,
 * iterative so that a deep tree cannot overflow the stack.  Text outside
 * hidden elements goes to b, when b is not NULL.  When r is not NULL,
 * each element also goes to ex_element (top included).  When skip is not
 * NULL, it is asked about each element below top on entry, and the
 * subtree of one it returns non-zero for is left out. */
static void
ex_visit(const GumboNode *top, pbuf *b, int head_shown, ex_result *r,
	 const ex_field *f, int nf, ex_skip_fn skip, void *ctx)
{
	/* hidden counts the open elements whose text is not visible; text
	 * is taken only at zero. */
	int hidden = 0;
	/* depth: n's distance from top, for the selector memos. */
	size_t depth = 0;
	const GumboNode *n = top;
	for (;;) {
		/* Enter n. */
		int skipped = 0;
		if (tree_is_element(n)) {
			if (r)
				ex_element(r, n, depth, f, nf);
			if (n != top && skip && skip(n, ctx)) {
				/* Still a word break, like any block. */
				if (b)
					pbuf_break(b);
				skipped = 1;
			} else if (n != top) {
				ex_edge(n, 1, b, head_shown, &hidden);
			}
		} else if (n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_CDATA ||
			   n->type == GUMBO_NODE_WHITESPACE) {
			if (b && !hidden)
				pbuf_text(b, n->v.text.text, strlen(n->v.text.text));
		}
		const GumboNode *kid = skipped ? NULL : tree_kid(n, 0);
		if (kid) {
			n = kid;
			depth++;
			continue;
		}
		/* Leave n and every ancestor whose last child it is. */
		for (;;) {
			if (n == top)
				return;
			if (skipped)
				skipped = 0;
			else if (tree_is_element(n))
				ex_edge(n, -1, b, head_shown, &hidden);
			const GumboNode *s = tree_sibling(n);
			if (s) {
				n = s;
				break;
			}
			n = n->parent;
			depth--;
		}
	}
}

void
ex_walk(ex_result *r, const GumboOutput *out, const ex_field *f, int nf,
	int want_text)
{
	pbuf_reset(&r->title);
	pbuf_reset(&r->text);
	r->has_title = 0;
	r->lang = r->description = r->robots = r->canonical = r->base = NULL;
	r->nhrefs = r->nm = 0;
	if (nf > r->ndone) {
		r->done = xrealloc(r->done, (size_t)nf);
		r->ndone = nf;
	}
	if (nf)
		memset(r->done, 0, (size_t)nf);
	if (nf > r->nmemo) {
		r->memo = xrealloc(r->memo, (size_t)nf * sizeof *r->memo);
		while (r->nmemo < nf)
			r->memo[r->nmemo++] = sel_memo_new();
	}
	for (int i = 0; i < nf; i++)
		sel_memo_reset(r->memo[i], f[i].sel);

	ex_visit(out->document, want_text ? &r->text : NULL, 0, r, f, nf, NULL, NULL);
}

void
ex_text(pbuf *b, const GumboNode *top)
{
	/* Elements hidden anywhere (script, style) stay hidden here, but
	 * head and title do not: `-f t=title` should give the title, and a
	 * match that is itself a script (JSON-LD) gives its content. */
	ex_visit(top, b, 1, NULL, NULL, 0, NULL, NULL);
}

void
ex_text_skip(pbuf *b, const GumboNode *top, ex_skip_fn skip, void *ctx)
{
	ex_visit(top, b, 0, NULL, NULL, 0, skip, ctx);
}

int
ex_is_inline(GumboTag t)
{
	return ex_inline[t];
}
