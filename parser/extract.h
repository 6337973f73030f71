/* ex — one walk over a gumbo tree that collects everything parse writes.
 *
 * The walk is iterative (gumbo trees of broken pages can be deeper than
 * a thread's stack allows for recursion) and visits each node once.  It
 * keeps pointers into the tree rather than copies where it can: the
 * caller turns them into output before the tree is freed.
 */
#ifndef PARSE_EXTRACT_H
#define PARSE_EXTRACT_H

#include <gumbo.h>
#include <stddef.h>

#include "buf.h"
#include "sel.h"

/* A -f/-F request: the first (or, with all, every) element matching sel
 * gives its collapsed text, or the value of attribute attr. */
typedef struct ex_field {
	const char *name;
	sel *sel;
	const char *attr;   /* NULL for text; lowercased */
	int all;            /* -F */
} ex_field;

typedef struct ex_match {
	int field;
	const GumboNode *node;
} ex_match;

typedef struct ex_result {
	pbuf title, text;
	int has_title;
	/* Attribute values inside the tree, or NULL when absent. */
	const char *lang, *description, *robots, *canonical, *base;
	/* a[href] and area[href] values in document order, unresolved:
	 * resolution waits until the walk has seen <base>. */
	const char **hrefs;
	size_t nhrefs, caphrefs;
	/* Selector matches in document order. */
	ex_match *m;
	size_t nm, capm;
	unsigned char *done;   /* per -f field: first match found */
	int ndone;
	sel_memo **memo;       /* per field: its selector's memo */
	int nmemo;
} ex_result;

void ex_init(ex_result *r);
void ex_free(ex_result *r);

/* Walks the document of out, filling r (reset first).  want_text: build
 * r->text, the page's visible text. */
void ex_walk(ex_result *r, const GumboOutput *out, const ex_field *f, int nf,
	     int want_text);

/* Appends the visible text of the subtree at n to b, collapsed: what a
 * selector match without @ATTR yields. */
void ex_text(pbuf *b, const GumboNode *n);

/* Asked by ex_text_skip about each element below its top, in document
 * order: non-zero leaves the element's subtree out. */
typedef int (*ex_skip_fn)(const GumboNode *n, void *ctx);

/* Like ex_text, but leaves out the subtrees skip picks (each still a
 * word break), and head and title stay hidden: the main content's text. */
void ex_text_skip(pbuf *b, const GumboNode *top, ex_skip_fn skip, void *ctx);

/* Whether tag t is inline (no word break at its edges), and whether
 * element n's content is never visible text: the rules of `text`. */
int ex_is_inline(GumboTag t);
int ex_is_hidden(const GumboNode *n);

#endif
