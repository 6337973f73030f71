#include "links.h"

#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "wurl.h"
#include "xalloc.h"

struct lnk {
	wurl doc;         /* the document URL; doc.href NULL when none */
	wurl base;        /* doc, or <base href> resolved against it; href NULL when none */
	wurl out;         /* the last resolved link */
	/* Links kept this record: set de-duplicates them (its keys are
	 * the strings), list holds them in first-seen order. */
	htab set;
	struct lnk_item { const char *s; size_t n; } *list;
	size_t n, cap;
};

lnk *
lnk_new(void)
{
	lnk *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	return l;
}

/* Frees the document and base URLs of the previous record. */
static void
lnk_drop_urls(lnk *l)
{
	wurl_free(&l->doc);
	wurl_free(&l->base);
}

void
lnk_free(lnk *l)
{
	if (!l)
		return;
	lnk_drop_urls(l);
	wurl_free(&l->out);
	htab_free(&l->set);
	free(l->list);
	free(l);
}

/* Copies URL a into *to (a fresh string); 0 when out of memory. */
static int
lnk_copy(wurl *to, const wurl *a)
{
	*to = *a;
	to->href = strdup(a->href);
	return to->href != NULL;
}

void
lnk_begin(lnk *l, const char *url, size_t n)
{
	lnk_drop_urls(l);
	l->n = 0;
	htab_clear(&l->set);
	const char *why;
	if (!url || n == 0 || wurl_parse(url, n, NULL, &l->doc, &why) != WURL_OK)
		return;
	if (!lnk_copy(&l->base, &l->doc))
		xalloc_die();
}

void
lnk_base(lnk *l, const char *href)
{
	const char *why;
	wurl b;
	int rc = wurl_parse(href, strlen(href), l->doc.href ? &l->doc : NULL, &b, &why);
	if (rc == WURL_FAIL)
		return;   /* the standard keeps the document's base */
	wurl_free(&l->base);
	/* A base in another scheme (file:, data:) leaves relative links
	 * nothing to resolve against: they are dropped, as not http(s). */
	if (rc == WURL_OK)
		l->base = b;
}

int
lnk_resolve(lnk *l, const char *href, const char **s, size_t *n)
{
	const char *why;
	wurl u;
	if (wurl_parse(href, strlen(href), l->base.href ? &l->base : NULL, &u, &why) != WURL_OK)
		return 0;
	wurl_free(&l->out);
	l->out = u;
	*s = u.href;
	*n = u.len;
	return 1;
}

int
lnk_add(lnk *l, const char *s, size_t n)
{
	int added;
	htab_ent *e = htab_put(&l->set, s, n, &added);
	if (!e)
		xalloc_die();
	if (!added)
		return 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->list = xrealloc(l->list, l->cap * sizeof *l->list);
	}
	l->list[l->n++] = (struct lnk_item){ e->key, e->len };
	return 1;
}

size_t
lnk_count(const lnk *l)
{
	return l->n;
}

void
lnk_get(const lnk *l, size_t i, const char **s, size_t *n)
{
	*s = l->list[i].s;
	*n = l->list[i].n;
}
