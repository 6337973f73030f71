#include "links.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wurl.h"
#include "xalloc.h"

struct lnk {
	wurl doc;         /* the document URL; doc.href NULL when none */
	wurl base;        /* doc, or <base href> resolved against it; href NULL when none */
	wurl out;         /* the last resolved link */
	/* Links kept this record: strings back to back in arena, with
	 * start offsets in off; set is an open-addressing hash of indexes
	 * into off (+1, 0 = empty) for de-duplication. */
	pbuf arena;
	size_t *off;
	size_t n, cap;
	uint32_t *set;
	size_t setcap;    /* power of two */
};

lnk *
lnk_new(void)
{
	lnk *l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	pbuf_init(&l->arena);
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
	pbuf_free(&l->arena);
	free(l->off);
	free(l->set);
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
	pbuf_reset(&l->arena);
	if (l->setcap)
		memset(l->set, 0, l->setcap * sizeof *l->set);
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

static uint32_t
lnk_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;   /* FNV-1a: short keys, good spread */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Doubles the de-duplication table (or creates it) and re-inserts every
 * link. */
static void
lnk_rehash(lnk *l)
{
	size_t cap = l->setcap ? l->setcap * 2 : 256;
	uint32_t *set = calloc(cap, sizeof *set);
	if (!set)
		abort();
	for (size_t i = 0; i < l->n; i++) {
		const char *s;
		size_t n;
		lnk_get(l, i, &s, &n);
		size_t j = lnk_hash(s, n) & (cap - 1);
		while (set[j])
			j = (j + 1) & (cap - 1);
		set[j] = (uint32_t)(i + 1);
	}
	free(l->set);
	l->set = set;
	l->setcap = cap;
}

int
lnk_add(lnk *l, const char *s, size_t n)
{
	/* Keep the table at most half full. */
	if ((l->n + 1) * 2 > l->setcap)
		lnk_rehash(l);
	size_t j = lnk_hash(s, n) & (l->setcap - 1);
	while (l->set[j]) {
		const char *t;
		size_t tn;
		lnk_get(l, l->set[j] - 1, &t, &tn);
		if (tn == n && memcmp(s, t, n) == 0)
			return 0;
		j = (j + 1) & (l->setcap - 1);
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->off = realloc(l->off, (l->cap + 1) * sizeof *l->off);
		if (!l->off)
			abort();
	}
	l->off[l->n] = l->arena.len;
	pbuf_put(&l->arena, s, n);
	l->n++;
	l->off[l->n] = l->arena.len;
	l->set[j] = (uint32_t)l->n;
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
	*s = l->arena.p + l->off[i];
	*n = l->off[i + 1] - l->off[i];
}
