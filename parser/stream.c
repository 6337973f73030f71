#include "stream.h"

#include <string.h>

#include "tree.h"

/* The parts and templates of a page, and the work left to spend on
 * them. */
typedef struct stream {
	GumboNode **part, **tmpl;
	size_t nparts, ntmpl;
	size_t work;  /* child slots written and nodes stepped over, left */
	arena *mem;
} stream;

/* The number of element n's id when it is `<kind>:<number>`, else NULL. */
static const char *
stream_id(const GumboNode *n, char kind)
{
	const char *id = tree_attr(n, "id");
	return id && id[0] == kind && id[1] == ':' && id[2] ? id + 2 : NULL;
}

/* Charges n to the work left; 0 when there is not that much left. */
static int
stream_spend(stream *s, size_t n)
{
	if (n > s->work)
		return 0;
	s->work -= n;
	return 1;
}

/* Replaces children [at, at + drop) of p with all the children of src
 * (none when src is NULL), which src loses.  Returns 0, changing
 * nothing, when the work left does not cover the new list. */
static int
stream_splice(stream *s, GumboNode *p, size_t at, size_t drop, GumboNode *src)
{
	GumboVector *v = (GumboVector *)tree_children(p);
	GumboVector *from = src ? &src->v.element.children : NULL;
	size_t add = from ? from->length : 0;
	size_t len = v->length - drop + add;
	if (!stream_spend(s, len + 1))
		return 0;
	void **d = arena_alloc(s->mem, (len ? len : 1) * sizeof *d);
	memcpy(d, v->data, at * sizeof *d);
	if (add)
		memcpy(d + at, from->data, add * sizeof *d);
	memcpy(d + at + add, v->data + at + drop, (v->length - at - drop) * sizeof *d);
	v->data = d;
	v->length = v->capacity = (unsigned)len;
	for (size_t i = at; i < len; i++) {
		GumboNode *k = d[i];
		k->parent = p;
		k->index_within_parent = i;
	}
	if (from)
		from->length = 0;
	return 1;
}

/* How many of t's next siblings a boundary's fallback holds: those up to
 * the comment closing the boundary t opens (<!--/$-->, React's comments
 * nesting as "$", "$?" and "$!" open and "/$" closes), or 0 when none
 * closes it. */
static size_t
stream_fallback(stream *s, const GumboNode *t)
{
	const GumboVector *v = tree_children(t->parent);
	int depth = 0;
	for (size_t i = t->index_within_parent + 1; i < v->length; i++) {
		const GumboNode *k = v->data[i];
		if (!stream_spend(s, 1))
			return 0;
		if (k->type != GUMBO_NODE_COMMENT)
			continue;
		const char *c = k->v.text.text;
		if (strcmp(c, "/$") == 0 && depth-- == 0)
			return i - t->index_within_parent - 1;
		if (strcmp(c, "$") == 0 || strcmp(c, "$?") == 0 || strcmp(c, "$!") == 0)
			depth++;
	}
	return 0;
}

/* Whether node t is in the tree (its parent still lists it) and outside
 * part's subtree: a part is never moved into itself. */
static int
stream_placeable(stream *s, const GumboNode *t, const GumboNode *part)
{
	const GumboVector *v = t->parent ? tree_children(t->parent) : NULL;
	if (!v || t->index_within_parent >= v->length || v->data[t->index_within_parent] != t)
		return 0;
	for (const GumboNode *a = t->parent; a; a = a->parent)
		if (a == part || !stream_spend(s, 1))
			return 0;
	return 1;
}

/* Puts part in place of its template t; 0 when the work ran out. */
static int
stream_place(stream *s, GumboNode *part, GumboNode *t)
{
	GumboNode *p = t->parent;
	size_t at = t->index_within_parent;
	size_t drop = 1;
	if (tree_attr(t, "id")[0] == 'B')
		drop += stream_fallback(s, t);
	GumboNode *home = part->parent;
	if (!stream_splice(s, p, at, drop, part))
		return 0;
	return stream_splice(s, home, part->index_within_parent, 1, NULL);
}

size_t
stream_complete(GumboOutput *out, const char *html, size_t n, arena *mem)
{
	if (!memmem(html, n, "id=\"S:", 6))
		return 0;
	stream s = { .mem = mem };
	s.part = arena_alloc(mem, STREAM_MAX * sizeof *s.part);
	s.tmpl = arena_alloc(mem, STREAM_MAX * sizeof *s.tmpl);
	size_t nodes = 0;
	GumboNode *top = out->document;
	for (GumboNode *k = top; k; k = (GumboNode *)tree_next(k, top)) {
		nodes++;
		if (!tree_is_element(k))
			continue;
		GumboTag t = tree_tag(k);
		if (t == GUMBO_TAG_DIV && s.nparts < STREAM_MAX && stream_id(k, 'S') &&
		    tree_attr(k, "hidden"))
			s.part[s.nparts++] = k;
		else if (t == GUMBO_TAG_TEMPLATE && s.ntmpl < STREAM_MAX &&
			 (stream_id(k, 'B') || stream_id(k, 'P')))
			s.tmpl[s.ntmpl++] = k;
	}
	/* Each move writes at most the page's nodes once more: a few times
	 * the page in all, and a page of many parts under one parent
	 * stops there rather than going quadratic. */
	s.work = 4 * nodes + 4096;
	size_t placed = 0;
	for (size_t i = 0; i < s.nparts; i++) {
		const char *num = stream_id(s.part[i], 'S');
		for (size_t j = 0; j < s.ntmpl; j++) {
			if (!stream_spend(&s, 1))
				return placed;
			if (strcmp(tree_attr(s.tmpl[j], "id") + 2, num) != 0 ||
			    !stream_placeable(&s, s.tmpl[j], s.part[i]))
				continue;
			if (!stream_place(&s, s.part[i], s.tmpl[j]))
				return placed;
			placed++;
			break;
		}
	}
	return placed;
}
