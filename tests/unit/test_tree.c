/* Unit tests of parser/tree.h, the steps of parse's walks over gumbo's
 * tree: children by index and by sibling, document order with and
 * without a subtree left out, tags and attributes, on a small page whose
 * nodes read as names (an element by its id, a text by its text). */
#include "tree.h"

#include <gumbo.h>
#include <stdio.h>
#include <string.h>

#define CHECK_PROG "test_tree"
#include "check.h"

static const char page[] =
	"<!doctype html><html id=html><head id=head></head>"
	"<body id=body>"
	"<div id=d1>a<p id=p1>b<em id=e1>c</em></p>d</div>"
	"<template id=t1><i id=i1>e</i></template>"
	"<p id=p2 class=x>f</p>"
	"</body></html>";

static GumboOutput *doc;

/* The node's name: an element's id, a text's text, "#" for the
 * document, "?" for anything else. */
static const char *
name(const GumboNode *n)
{
	if (!n)
		return "(none)";
	if (tree_is_element(n)) {
		const char *id = tree_attr(n, "id");
		return id ? id : "?";
	}
	if (n->type == GUMBO_NODE_TEXT)
		return n->v.text.text;
	return n->type == GUMBO_NODE_DOCUMENT ? "#" : "?";
}

/* The element with id in the document, found with tree_next. */
static const GumboNode *
by_id(const char *id)
{
	for (const GumboNode *n = doc->document; n; n = tree_next(n, doc->document))
		if (tree_is_element(n) && strcmp(name(n), id) == 0)
			return n;
	return NULL;
}

/* The names of top's subtree in document order, top first; the
 * subtree of the element with id skip (NULL: none) left out. */
static void
order(const GumboNode *top, const char *skip, char *out, size_t len)
{
	out[0] = '\0';
	for (const GumboNode *n = top; n;) {
		size_t k = strlen(out);
		snprintf(out + k, len - k, "%s%s", k ? " " : "", name(n));
		if (skip && tree_is_element(n) && strcmp(name(n), skip) == 0)
			n = tree_after(n, top);
		else
			n = tree_next(n, top);
	}
}

int
main(void)
{
	doc = gumbo_parse(page);
	char got[256];

	/* Document order, templates' content included, within top only. */
	order(doc->document, NULL, got, sizeof got);
	check_str("tree_next walks the document",
		  "# html head body d1 a p1 b e1 c d t1 i1 e p2 f", got);
	order(by_id("d1"), NULL, got, sizeof got);
	check_str("tree_next stays inside its top", "d1 a p1 b e1 c d", got);
	order(by_id("e1"), NULL, got, sizeof got);
	check_str("a walk from a leaf's parent", "e1 c", got);
	order(by_id("body"), "p1", got, sizeof got);
	check_str("tree_after leaves a subtree out", "body d1 a p1 d t1 i1 e p2 f", got);
	order(by_id("body"), "d1", got, sizeof got);
	check_str("tree_after from a first child", "body d1 t1 i1 e p2 f", got);
	check_str("tree_after of the top is none", "(none)",
		  name(tree_after(by_id("d1"), by_id("d1"))));

	/* Children by index and by sibling. */
	const GumboNode *d1 = by_id("d1");
	check_str("the document's one child", "html", name(tree_kid(doc->document, 0)));
	check_str("the document's second", "(none)", name(tree_kid(doc->document, 1)));
	check_str("a template's child", "i1", name(tree_kid(by_id("t1"), 0)));
	check_str("tree_kid 0", "a", name(tree_kid(d1, 0)));
	check_str("tree_kid 2", "d", name(tree_kid(d1, 2)));
	check_str("tree_kid past the last", "(none)", name(tree_kid(d1, 3)));
	check_str("tree_kid of a text", "(none)", name(tree_kid(tree_kid(d1, 0), 0)));
	got[0] = '\0';
	for (const GumboNode *k = tree_kid(by_id("body"), 0); k; k = tree_sibling(k)) {
		size_t n = strlen(got);
		snprintf(got + n, sizeof got - n, "%s%s", n ? " " : "", name(k));
	}
	check_str("tree_sibling iterates the children", "d1 t1 p2", got);

	/* Tags and attributes. */
	check_int("tree_tag of an element", GUMBO_TAG_P, tree_tag(by_id("p2")));
	check_int("tree_tag of a template", GUMBO_TAG_TEMPLATE, tree_tag(by_id("t1")));
	check_true("a text is no element", !tree_is_element(tree_kid(d1, 0)));
	check_true("the document is no element", !tree_is_element(doc->document));
	check_str("tree_attr present", "x", tree_attr(by_id("p2"), "class"));
	check_str("tree_attr absent", NULL, tree_attr(by_id("p1"), "class"));

	gumbo_destroy_output(&kGumboDefaultOptions, doc);
	return check_done();
}
