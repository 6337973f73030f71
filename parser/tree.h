/* tree — the small steps of every walk over gumbo's tree in parser/.
 *
 * gumbo keeps a document's children and an element's in different
 * places, gives templates a node type of their own and has no link to a
 * node's next sibling; each walk of parse wrote those answers again.
 * These are inline: they run for every node of every page.
 */
#ifndef PARSE_TREE_H
#define PARSE_TREE_H

#include <gumbo.h>
#include <stddef.h>

/* Whether n has element data: an element or a template (gumbo's own
 * node type for <template>, with the same fields). */
static inline int
tree_is_element(const GumboNode *n)
{
	return n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE;
}

/* The tag of n, an element (tree_is_element: a template's is
 * GUMBO_TAG_TEMPLATE).  Not asked of other nodes: a check here would
 * cost the walks that already made it, for every element they see. */
static inline GumboTag
tree_tag(const GumboNode *n)
{
	return n->v.element.tag;
}

/* The children of n: a document's or an element's; NULL for a node that
 * has none by its type (text, comment). */
static inline const GumboVector *
tree_children(const GumboNode *n)
{
	if (n->type == GUMBO_NODE_DOCUMENT)
		return &n->v.document.children;
	if (tree_is_element(n))
		return &n->v.element.children;
	return NULL;
}

/* n's i-th child, or NULL when n has i children or fewer: with
 * tree_sibling, `for (k = tree_kid(n, 0); k; k = tree_sibling(k))`
 * visits them all. */
static inline const GumboNode *
tree_kid(const GumboNode *n, size_t i)
{
	const GumboVector *v = tree_children(n);
	return v && i < v->length ? v->data[i] : NULL;
}

/* The child of n's parent after n, or NULL when n is the last; n is
 * not the document (every other node has a parent). */
static inline const GumboNode *
tree_sibling(const GumboNode *n)
{
	return tree_kid(n->parent, n->index_within_parent + 1);
}

/* The node after n's subtree in document order, inside top's subtree
 * (n is top or below it); NULL when there is none.  A walk that leaves
 * a subtree out steps with this instead of tree_next. */
static inline const GumboNode *
tree_after(const GumboNode *n, const GumboNode *top)
{
	for (; n != top; n = n->parent) {
		const GumboNode *s = tree_sibling(n);
		if (s)
			return s;
	}
	return NULL;
}

/* The node after n in document order (pre-order), inside top's subtree
 * (n is top or below it); NULL after its last node.  A walk from top
 * with it is a loop: no recursion, however deep the tree. */
static inline const GumboNode *
tree_next(const GumboNode *n, const GumboNode *top)
{
	const GumboNode *k = tree_kid(n, 0);
	return k ? k : tree_after(n, top);
}

/* The value of element n's attribute name (lowercase, as gumbo stores
 * names), or NULL when n has none of that name. */
static inline const char *
tree_attr(const GumboNode *n, const char *name)
{
	const GumboAttribute *a = gumbo_get_attribute(&n->v.element.attributes, name);
	return a ? a->value : NULL;
}

#endif
