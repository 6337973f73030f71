#include "links.h"

#include <curl/curl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "url.h"

struct lnk {
	CURLU *doc;       /* the document URL, or NULL */
	CURLU *base;      /* doc, or <base href> resolved against it */
	CURLU *work;      /* scratch handle for each resolution */
	char *out;        /* last resolved URL (curl_free) */
	pbuf clean;       /* the cleaned href */
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
	pbuf_init(&l->clean);
	pbuf_init(&l->arena);
	return l;
}

/* Frees the document and base handles of the previous record. */
static void
lnk_drop_urls(lnk *l)
{
	if (l->base && l->base != l->doc)
		curl_url_cleanup(l->base);
	if (l->doc)
		curl_url_cleanup(l->doc);
	l->doc = l->base = NULL;
}

void
lnk_free(lnk *l)
{
	if (!l)
		return;
	lnk_drop_urls(l);
	if (l->work)
		curl_url_cleanup(l->work);
	curl_free(l->out);
	pbuf_free(&l->clean);
	pbuf_free(&l->arena);
	free(l->off);
	free(l->set);
	free(l);
}

/* Cleans href into l->clean as described in links.h.  Returns 0 when
 * nothing is left but a fragment (a link to the document itself). */
static int
lnk_clean(lnk *l, const char *href)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(href);
	/* WHATWG: strip leading and trailing C0 controls and spaces. */
	while (n && (unsigned char)*href <= 0x20)
		href++, n--;
	while (n && (unsigned char)href[n - 1] <= 0x20)
		n--;
	pbuf_reset(&l->clean);
	pbuf_reserve(&l->clean, n * 3);
	char *d = l->clean.p;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)href[i];
		if (c == '#')
			break;
		if (c == '\t' || c == '\n' || c == '\r')
			continue;
		if (c == '\\')
			c = '/';
		if (c <= 0x20 || c >= 0x7f || c == '"' || c == '<' || c == '>' ||
		    c == '`' || c == '{' || c == '}' || c == '|' || c == '^') {
			*d++ = '%';
			*d++ = hex[c >> 4];
			*d++ = hex[c & 15];
		} else {
			*d++ = (char)c;
		}
	}
	l->clean.len = (size_t)(d - l->clean.p);
	l->clean.p[l->clean.len] = '\0';
	return l->clean.len > 0;
}

/* The scheme of s ("http", ...) if it starts with one: sets *n to its
 * length and returns 1. */
static int
lnk_scheme(const char *s, size_t *n)
{
	size_t i = 0;
	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	       (s[i] >= '0' && s[i] <= '9') || s[i] == '+' || s[i] == '-' || s[i] == '.')
		i++;
	if (s[i] != ':')
		return 0;
	*n = i;
	return 1;
}

/* Whether scheme s[0..n) is http or https, in any case. */
static int
lnk_is_web(const char *s, size_t n)
{
	return (n == 4 && strncasecmp(s, "http", 4) == 0) ||
	       (n == 5 && strncasecmp(s, "https", 5) == 0);
}

/* Resolves l->clean (non-empty) against base into l->out; 1 or 0. */
static int
lnk_curl(lnk *l, CURLU *base, int web_only)
{
	if (l->work)
		curl_url_cleanup(l->work);
	l->work = base ? curl_url_dup(base) : curl_url();
	if (!l->work)
		return 0;
	if (curl_url_set(l->work, CURLUPART_URL, l->clean.p, CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
		return 0;
	curl_free(l->out);
	l->out = NULL;
	if (curl_url_get(l->work, CURLUPART_URL, &l->out, CURLU_NO_DEFAULT_PORT) != CURLUE_OK)
		return 0;
	size_t sn;
	if (web_only && !(lnk_scheme(l->out, &sn) && lnk_is_web(l->out, sn)))
		return 0;
	url_lower_host(l->out);
	return 1;
}

void
lnk_begin(lnk *l, const char *url, size_t n)
{
	lnk_drop_urls(l);
	l->n = 0;
	pbuf_reset(&l->arena);
	if (l->setcap)
		memset(l->set, 0, l->setcap * sizeof *l->set);
	if (!url || n == 0)
		return;
	char *s = strndup(url, n);
	if (!s)
		abort();
	CURLU *u = curl_url();
	if (u && curl_url_set(u, CURLUPART_URL, s, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK) {
		/* The document itself is fragment-free too: "#top" and ""
		 * resolve to it. */
		curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0);
		l->doc = l->base = u;
	} else if (u) {
		curl_url_cleanup(u);
	}
	free(s);
}

void
lnk_base(lnk *l, const char *href)
{
	if (!lnk_clean(l, href) || !lnk_curl(l, l->doc, 0))
		return;
	if (l->base != l->doc)
		curl_url_cleanup(l->base);
	l->base = l->work;
	l->work = NULL;
	curl_url_set(l->base, CURLUPART_FRAGMENT, NULL, 0);
}

int
lnk_resolve(lnk *l, const char *href, const char **s, size_t *n)
{
	int any = lnk_clean(l, href);
	size_t sn;
	if (any && lnk_scheme(l->clean.p, &sn) && !lnk_is_web(l->clean.p, sn))
		return 0;
	if (!any) {
		/* Empty or "#frag": the base itself.  curl 7.88 resolves
		 * these to the base's directory, so they are done here. */
		if (!l->base)
			return 0;
		curl_free(l->out);
		l->out = NULL;
		if (curl_url_get(l->base, CURLUPART_URL, &l->out, CURLU_NO_DEFAULT_PORT) != CURLUE_OK ||
		    !lnk_scheme(l->out, &sn) || !lnk_is_web(l->out, sn))
			return 0;
		url_lower_host(l->out);
	} else if (!lnk_curl(l, l->base, 1)) {
		return 0;
	}
	*s = l->out;
	*n = strlen(l->out);
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
