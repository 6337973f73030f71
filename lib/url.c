#include "url.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wurl.h"
#include "xalloc.h"

const char *
url_trim(const char *s, size_t *n)
{
	while (*n && isspace((unsigned char)*s))
		s++, (*n)--;
	while (*n && isspace((unsigned char)s[*n - 1]))
		(*n)--;
	return s;
}

int
url_canon(const char *s, unsigned long len, url_parts *p, const char **why)
{
	memset(p, 0, sizeof *p);
	size_t n = len;
	s = url_trim(s, &n);
	if (n == 0 || memchr(s, '\0', n)) {
		*why = n ? "NUL byte in URL" : "empty URL";
		return -1;
	}
	wurl u;
	int rc = wurl_parse(s, n, NULL, &u, why);
	if (rc == WURL_FAIL)
		return -1;
	if (rc == WURL_OTHER) {
		/* Not ours to name: the URL as given, and its scheme. */
		p->canon = strndup(s, n);
		p->scheme = strndup(s, strcspn(p->canon ? p->canon : "", ":"));
		p->host = strdup("");
	} else {
		p->canon = u.href;
		p->scheme = strndup(u.href, strcspn(u.href, ":"));
		p->host = strndup(u.href + u.host, u.host_end - u.host);
	}
	for (char *c = p->scheme; c && *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (!p->canon || !p->scheme || !p->host) {
		*why = "out of memory";
		url_parts_free(p);
		return -1;
	}
	return 0;
}

size_t
url_origin_len(const char *u)
{
	const char *p = strstr(u, "://");
	if (!p)
		return strlen(u);
	p += 3;
	return (size_t)(p - u) + strcspn(p, "/?#");
}

int
url_fetchable(const char *scheme)
{
	return strcmp(scheme, "http") == 0 || strcmp(scheme, "https") == 0;
}

void
url_parts_free(url_parts *p)
{
	free(p->canon);
	free(p->scheme);
	free(p->host);
	memset(p, 0, sizeof *p);
}

/* A copy of u with its bytes [from, to) replaced by ***. */
static char *
masked(const char *u, size_t from, size_t to)
{
	size_t n = strlen(u);
	char *s = xmalloc(n - (to - from) + 3 + 1);
	memcpy(s, u, from);
	memcpy(s + from, "***", 3);
	memcpy(s + from + 3, u + to, n - to + 1);
	return s;
}

/* The value of a password= parameter in a postgresql:// URI's query
 * (libpq takes one there too): [*from, *to), or 0 when there is none. */
static int
query_password(const char *u, size_t *from, size_t *to)
{
	if (strncasecmp(u, "postgresql://", 13) && strncasecmp(u, "postgres://", 11))
		return 0;
	const char *q = strchr(u, '?');
	for (const char *k = q; k && *k && *k != '#'; k = strchr(k + 1, '&')) {
		if (strncasecmp(k + 1, "password=", 9) == 0) {
			*from = (size_t)(k + 10 - u);
			*to = *from + strcspn(u + *from, "&#");
			return 1;
		}
	}
	return 0;
}

/* The value of the first password keyword at or after byte start of a
 * libpq keyword/value string u ("host=db password='a b'"), read as
 * libpq reads it (spaces around '=', a value quoted in '' or ending at a
 * space, backslash escapes): [*from, *to), or 0 when there is none, or
 * u is not such a string. */
static int
keyword_password(const char *u, size_t start, size_t *from, size_t *to)
{
	if (strstr(u, "://"))
		return 0;
	for (const char *p = u + start;;) {
		while (isspace((unsigned char)*p))
			p++;
		const char *k = p;
		while (*p && *p != '=' && !isspace((unsigned char)*p))
			p++;
		size_t klen = (size_t)(p - k);
		while (isspace((unsigned char)*p))
			p++;
		if (klen == 0 || *p != '=')
			return 0;
		for (p++; isspace((unsigned char)*p); p++)
			;
		const char *v = p;
		int quoted = *p == '\'';
		for (p += quoted; *p && (quoted ? *p != '\'' : !isspace((unsigned char)*p)); p++)
			if (*p == '\\' && p[1])
				p++;
		p += quoted && *p;
		if (klen == 8 && strncasecmp(k, "password", 8) == 0) {
			*from = (size_t)(v - u);
			*to = (size_t)(p - u);
			return 1;
		}
	}
}

char *
url_shown(const char *u)
{
	char *s = NULL;
	size_t from, to;
	const char *p = strstr(u, "://");
	if (p) {
		p += 3;
		size_t auth = strcspn(p, "/?#");
		const char *at = NULL;
		for (const char *q = p; q < p + auth; q++)
			if (*q == '@')
				at = q;
		const char *colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;
		if (colon)
			s = masked(u, (size_t)(colon + 1 - u), (size_t)(at - u));
	}
	if (query_password(s ? s : u, &from, &to)) {
		char *t = masked(s ? s : u, from, to);
		free(s);
		s = t;
	}
	/* libpq takes the last password given: every one is masked. */
	for (size_t at = 0; keyword_password(s ? s : u, at, &from, &to); at = from + 3) {
		char *t = masked(s ? s : u, from, to);
		free(s);
		s = t;
	}
	return s;
}

void
url_put(rec_build *b, const char *key, const char *u)
{
	char *shown = url_shown(u);
	rec_put_str(b, key, shown ? shown : u);
	free(shown);
}
