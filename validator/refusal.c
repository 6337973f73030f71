#include "refusal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsshell.h"
#include "msg.h"
#include "rec.h"
#include "vre.h"
#include "xalloc.h"

static vre **re;       /* sig_table's patterns, row for row */
static vre *login;     /* sig_login_url */

/* Compiles pattern ignoring case; a bad one is a bug of the table,
 * which tests/unit/test_sig.c compiles row by row. */
static vre *
compile(const char *pattern)
{
	char err[200];
	size_t n = strlen(pattern) + 5;
	char *p = xmalloc(n);
	snprintf(p, n, "(?i)%s", pattern);
	vre *r = vre_compile(p, err, sizeof err);
	if (!r)
		msg_die(EX_SOFTWARE, "signature '%s': bad pattern %s", pattern, err);
	free(p);
	return r;
}

static void
compile_all(void)
{
	re = xcalloc(sig_count, sizeof *re);
	for (size_t i = 0; i < sig_count; i++)
		re[i] = compile(sig_table[i].pattern);
	login = compile(sig_login_url);
}

/* A string (or bin) value of rec's key, or NULL with *n 0. */
static const char *
get(const msgpack_object *rec, const char *key, size_t *n)
{
	const char *s;
	if (rec_str(rec, key, &s, n))
		return s;
	*n = 0;
	return NULL;
}

/* Whether s[0..n) has fewer than limit characters (jsshell_chars),
 * counted only when its length leaves it open: a character is one to
 * four bytes, so a text page of any size costs at most 4 * limit. */
static int
fewer_chars(const char *s, size_t n, size_t limit)
{
	return n < limit || (n < 4 * limit && jsshell_chars(s, n) < limit);
}

/* What one record offers the rows, looked up once. */
typedef struct page {
	const msgpack_object *rec;
	int short_text, refused, unasked, bare;
} page;

static void
page_init(page *p, const msgpack_object *rec)
{
	size_t n, m;
	const char *text = get(rec, "text", &n), *body;
	p->rec = rec;
	/* Straight after fetch there is no text yet: the HTML's, as
	 * render --only-shells measures it, else none at all. */
	if (text || !(body = get(rec, "body", &m)))
		p->short_text = fewer_chars(text, n, SIG_SHORT_CHARS);
	else
		p->short_text = jsshell_html(body, m, SIG_SHORT_CHARS);
	const char *main_text = get(rec, "main_text", &m);
	p->bare = p->short_text && (!main_text || fewer_chars(main_text, m, SIG_BARE_MAIN));
	int64_t st;
	p->refused = rec_int(rec, "status", &st) && (st == 401 || st == 403 || st == 429 || st == 503);
	const char *url = get(rec, "url", &n);
	p->unasked = url && !vre_match(login, url, n);
}

/* The value row s reads, or NULL. */
static const char *
field(const page *p, const struct sig *s, size_t *n)
{
	switch (s->field) {
	case SIG_TITLE: return get(p->rec, "title", n);
	case SIG_TEXT: return get(p->rec, "text", n);
	case SIG_DESCRIPTION: return get(p->rec, "description", n);
	case SIG_FINAL_URL: return get(p->rec, "final_url", n);
	case SIG_HEADER: {
		const msgpack_object *h = rec_get(p->rec, "headers");
		return h && h->type == MSGPACK_OBJECT_MAP ? get(h, s->header, n) : NULL;
	}
	case SIG_BODY: {
		const char *b = get(p->rec, "body", n);
		if (*n > SIG_BODY_BYTES)
			*n = SIG_BODY_BYTES;
		return b;
	}
	}
	return NULL;
}

const struct sig *
refusal_find(const msgpack_object *rec, enum sig_kind kind)
{
	if (!re)
		compile_all();
	page p;
	page_init(&p, rec);
	for (size_t i = 0; i < sig_count; i++) {
		const struct sig *s = &sig_table[i];
		if (s->kind != kind || ((s->when & SIG_SHORT) && !p.short_text) ||
		    ((s->when & SIG_REFUSED) && !p.refused) || ((s->when & SIG_UNASKED) && !p.unasked) ||
		    ((s->when & SIG_BARE) && !p.bare))
			continue;
		size_t n;
		const char *v = field(&p, s, &n);
		if (v && vre_match(re[i], v, n))
			return s;
	}
	return NULL;
}

void
refusal_free(void)
{
	if (!re)
		return;
	for (size_t i = 0; i < sig_count; i++)
		vre_free(re[i]);
	free(re);
	vre_free(login);
	re = NULL, login = NULL;
}
