#include "stream.h"

#include <stdlib.h>
#include <string.h>

#include "tree.h"

/* A `$RC("B:x","S:y")` call of the page's scripts: boundary x takes
 * part y. */
typedef struct stream_rc {
	const char *b, *s;
	size_t bn, sn;
} stream_rc;

/* A part or a template and its number, read once: a fallback blanked
 * later (stream_blank) may hold it, and its node is then no element. */
typedef struct stream_el {
	GumboNode *n;
	const char *num;
	int used;  /* a template that took its part: a hostile page's second
		    * part of the same number finds it taken */
} stream_el;

/* The page's parts, templates and calls, and the work left to spend. */
typedef struct stream {
	stream_el *part, *seg, *bnd;  /* S:n, P:n, B:n */
	size_t nparts, nsegs, nbnds;
	stream_rc *rc;
	size_t nrc;
	size_t work;  /* nodes stepped over, left */
} stream;

/* The number of element n's id when it is `<kind>:<number>` (React's
 * numbers are hexadecimal), else NULL. */
static const char *
stream_id(const GumboNode *n, char kind)
{
	const char *id = tree_attr(n, "id");
	if (!id || id[0] != kind || id[1] != ':' || !id[2])
		return NULL;
	return id[2 + strspn(id + 2, "0123456789abcdef")] ? NULL : id + 2;
}

/* Orders a set of templates by their numbers, for stream_find. */
static int
stream_cmp(const void *a, const void *b)
{
	return strcmp(((const stream_el *)a)->num, ((const stream_el *)b)->num);
}

/* The template of set[0..n) (sorted by stream_cmp) numbered num[0..len),
 * or NULL. */
static stream_el *
stream_find(stream_el *set, size_t n, const char *num, size_t len)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(set[mid].num, num, len);
		if (c == 0 && set[mid].num[len])
			c = 1;
		if (c == 0)
			return &set[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Reads the `$RC("B:x","S:y")` calls of script text s[0..n) into st->rc. */
static void
stream_calls(stream *st, const char *s, size_t n)
{
	const char *end = s + n, *p = s;
	while (st->nrc < STREAM_MAX && (p = memmem(p, (size_t)(end - p), "$RC(\"B:", 7))) {
		const char *b = p + 7, *q = b;
		while (q < end && *q != '"')
			q++;
		if (end - q < 6 || memcmp(q, "\",\"S:", 5) != 0) {
			p = b;
			continue;
		}
		const char *sv = q + 5, *r = sv;
		while (r < end && *r != '"')
			r++;
		if (r == end)
			break;
		st->rc[st->nrc++] = (stream_rc){ b, sv, (size_t)(q - b), (size_t)(r - sv) };
		p = r;
	}
}

/* Charges n steps to the work left; 0 when there is not that much. */
static int
stream_spend(stream *st, size_t n)
{
	if (n > st->work)
		return 0;
	st->work -= n;
	return 1;
}

/* Whether node n is in the tree (each node up to the document listed by
 * its parent where its index says) and not inside other. */
static int
stream_attached(stream *st, const GumboNode *n, const GumboNode *other)
{
	for (; n->type != GUMBO_NODE_DOCUMENT; n = n->parent) {
		const GumboNode *p = n->parent;
		if (n == other || !p || (p->type != GUMBO_NODE_DOCUMENT && !tree_is_element(p)) ||
		    !stream_spend(st, 1))
			return 0;
		const GumboVector *v = tree_children(p);
		if (n->index_within_parent >= v->length || v->data[n->index_within_parent] != n)
			return 0;
	}
	return 1;
}

/* Makes node n an empty comment: a fallback the part replaces, gone as
 * React removes it, without rewriting its parent's list. */
static void
stream_blank(GumboNode *n)
{
	n->type = GUMBO_NODE_COMMENT;
	n->v.text.text = "";
	n->v.text.original_text.data = NULL;
	n->v.text.original_text.length = 0;
}

/* Blanks the fallback after node at (its boundary's template, now the
 * part): its next siblings up to the comment closing the boundary
 * (<!--/$-->; React's comments nest as "$", "$?" and "$!" open and "/$"
 * closes), that comment kept.  Blanks nothing when none closes it (a
 * page cut short). */
static void
stream_fallback(stream *st, const GumboNode *at)
{
	GumboVector *v = (GumboVector *)tree_children(at->parent);
	size_t i = at->index_within_parent + 1, end = i;
	for (int depth = 0;; end++) {
		if (end == v->length || !stream_spend(st, 1))
			return;
		const GumboNode *k = v->data[end];
		if (k->type != GUMBO_NODE_COMMENT)
			continue;
		const char *c = k->v.text.text;
		if (strcmp(c, "/$") == 0 && depth-- == 0)
			break;
		if (strcmp(c, "$") == 0 || strcmp(c, "$?") == 0 || strcmp(c, "$!") == 0)
			depth++;
	}
	for (; i < end; i++)
		stream_blank(v->data[i]);
}

/* Shows part: its `hidden` attribute is renamed. */
static void
stream_show(GumboNode *part)
{
	GumboVector *at = &part->v.element.attributes;
	for (unsigned i = 0; i < at->length; i++) {
		GumboAttribute *a = at->data[i];
		if (strcmp(a->name, "hidden") == 0)
			a->name = "data-streamed";
	}
}

/* Puts part in the place of its template t: the two swap places, so no
 * list of children is rewritten (the empty template stays hidden where
 * the part was), and the part is shown.  A boundary's fallback
 * (boundary set) goes. */
static void
stream_place(stream *st, GumboNode *part, GumboNode *t, int boundary)
{
	GumboNode *tp = t->parent, *pp = part->parent;
	size_t ti = t->index_within_parent, pi = part->index_within_parent;
	((GumboVector *)tree_children(tp))->data[ti] = part;
	((GumboVector *)tree_children(pp))->data[pi] = t;
	part->parent = tp;
	part->index_within_parent = ti;
	t->parent = pp;
	t->index_within_parent = pi;
	stream_show(part);
	if (boundary)
		stream_fallback(st, part);
}

/* The template part S:num goes to: its segment P:num; else the boundary
 * a `$RC` call names for it; else, when the page has no such calls (cut
 * before its scripts), the boundary of the same number. */
static stream_el *
stream_target(const stream *st, const char *num, int *boundary)
{
	size_t len = strlen(num);
	stream_el *t = stream_find(st->seg, st->nsegs, num, len);
	*boundary = t == NULL;
	if (t)
		return t;
	for (size_t i = 0; i < st->nrc; i++)
		if (st->rc[i].sn == len && memcmp(st->rc[i].s, num, len) == 0)
			return stream_find(st->bnd, st->nbnds, st->rc[i].b, st->rc[i].bn);
	return st->nrc ? NULL : stream_find(st->bnd, st->nbnds, num, len);
}

size_t
stream_complete(GumboOutput *out, const char *html, size_t n, arena *mem)
{
	if (!memmem(html, n, "<template", 9))
		return 0;
	stream st = { 0 };
	st.part = arena_alloc(mem, STREAM_MAX * sizeof *st.part);
	st.seg = arena_alloc(mem, STREAM_MAX * sizeof *st.seg);
	st.bnd = arena_alloc(mem, STREAM_MAX * sizeof *st.bnd);
	st.rc = arena_alloc(mem, STREAM_MAX * sizeof *st.rc);
	size_t nodes = 0;
	GumboNode *top = out->document;
	for (GumboNode *k = top; k; k = (GumboNode *)tree_next(k, top)) {
		nodes++;
		if (!tree_is_element(k))
			continue;
		GumboTag t = tree_tag(k);
		const char *num;
		if (t == GUMBO_TAG_DIV && (num = stream_id(k, 'S')) && tree_attr(k, "hidden")) {
			if (st.nparts < STREAM_MAX)
				st.part[st.nparts++] = (stream_el){ k, num, 0 };
			else
				stream_show(k);
		}
		else if (t == GUMBO_TAG_TEMPLATE && st.nsegs < STREAM_MAX &&
			 (num = stream_id(k, 'P')))
			st.seg[st.nsegs++] = (stream_el){ k, num, 0 };
		else if (t == GUMBO_TAG_TEMPLATE && st.nbnds < STREAM_MAX &&
			 (num = stream_id(k, 'B')))
			st.bnd[st.nbnds++] = (stream_el){ k, num, 0 };
		else if (t == GUMBO_TAG_SCRIPT && k->v.element.children.length == 1) {
			const GumboNode *s = k->v.element.children.data[0];
			if (s->type == GUMBO_NODE_TEXT)
				stream_calls(&st, s->v.text.text, strlen(s->v.text.text));
		}
	}
	if (!st.nparts)
		return 0;
	qsort(st.seg, st.nsegs, sizeof *st.seg, stream_cmp);
	qsort(st.bnd, st.nbnds, sizeof *st.bnd, stream_cmp);
	/* A place is one swap; checking that a part is not moved inside
	 * itself (nor its template into the part) climbs their ancestors,
	 * which a hostile nesting makes long: that climb is what the budget
	 * bounds, to a few times the page.  Parts left when it runs out are
	 * shown where they are, at the end of the body, in the order sent:
	 * out of place, but not lost, as a reader without scripts would
	 * lose them. */
	st.work = 4 * nodes + 4096;
	size_t placed = 0, i;
	for (i = 0; i < st.nparts && st.work; i++) {
		GumboNode *part = st.part[i].n;
		int boundary;
		stream_el *te = stream_target(&st, st.part[i].num, &boundary);
		/* A fallback blanked before may have held this part or its
		 * template: both must still be the elements they were. */
		if (!te || te->used || part->type != GUMBO_NODE_ELEMENT ||
		    te->n->type != GUMBO_NODE_TEMPLATE)
			continue;
		if (!stream_attached(&st, te->n, part) || !stream_attached(&st, part, te->n)) {
			if (!st.work)
				break;
			continue;
		}
		stream_place(&st, part, te->n, boundary);
		te->used = 1;
		placed++;
	}
	for (; i < st.nparts; i++)
		if (st.part[i].n->type == GUMBO_NODE_ELEMENT)
			stream_show(st.part[i].n);
	return placed;
}
