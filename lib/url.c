#include "url.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

void
url_lower_host(char *u)
{
	char *p = strstr(u, "://");
	if (!p)
		return;
	p += 3;
	size_t end = strcspn(p, "/?#");
	/* Skip user:password@, whose case matters. */
	char *at = memchr(p, '@', end);
	if (at) {
		end -= (size_t)(at + 1 - p);
		p = at + 1;
	}
	for (size_t i = 0; i < end; i++)
		p[i] = (char)tolower((unsigned char)p[i]);
}

/* Drops u's fragment and returns its canonical string (host lowercased,
 * default port dropped), or NULL. */
static char *
canon(CURLU *u)
{
	char *out = NULL;
	curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0);
	if (curl_url_get(u, CURLUPART_URL, &out, CURLU_NO_DEFAULT_PORT) != CURLUE_OK)
		return NULL;
	char *s = strdup(out);
	curl_free(out);
	if (s)
		url_lower_host(s);
	return s;
}

static char *
part(CURLU *u, CURLUPart what, unsigned flags)
{
	char *v = NULL;
	if (curl_url_get(u, what, &v, flags) != CURLUE_OK)
		return NULL;
	char *s = strdup(v);
	curl_free(v);
	return s;
}

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
	char *in = NULL;
	CURLU *u = NULL;
	/* Checked on s: strndup stops at a NUL, so its copy is shorter. */
	if (n == 0 || memchr(s, '\0', n)) {
		*why = n ? "NUL byte in URL" : "empty URL";
		goto fail;
	}
	in = strndup(s, n);
	u = curl_url();
	if (!in || !u) {
		*why = "out of memory";
		goto fail;
	}
	CURLUcode rc = curl_url_set(u, CURLUPART_URL, in, CURLU_NON_SUPPORT_SCHEME);
	if (rc != CURLUE_OK) {
		*why = curl_url_strerror(rc);
		goto fail;
	}
	p->canon = canon(u);
	/* libcurl normalizes some hosts only when it parses them whole:
	 * "http:/%31" comes out as "http://1/", which parses again as
	 * "http://0.0.0.1/".  Re-parse until the name is stable, so a URL
	 * has one name in the frontier and per host (found by fuzz/).  A
	 * name that does not parse again ("http://a%7fb/" decodes to a DEL
	 * in the host) is no name at all: refused below for http(s). */
	int reparses = 1;
	for (int round = 0; p->canon && round < 3; round++) {
		CURLU *again = curl_url();
		char *c = NULL;
		if (again && curl_url_set(again, CURLUPART_URL, p->canon, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK)
			c = canon(again);
		else
			reparses = 0;
		if (!c || strcmp(c, p->canon) == 0) {
			free(c);
			curl_url_cleanup(again);
			break;
		}
		free(p->canon);
		p->canon = c;
		curl_url_cleanup(u);
		u = again;
	}
	p->scheme = part(u, CURLUPART_SCHEME, 0);
	p->host = part(u, CURLUPART_HOST, 0);
	if (!p->host && p->scheme && !url_fetchable(p->scheme))
		p->host = strdup("");   /* file:///x: the scheme is what is wrong */
	for (char *c = p->host; c && *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (!p->canon || !p->scheme || !p->host) {
		*why = "no host part in the URL";
		url_parts_free(p);
		goto fail;
	}
	if (!reparses && url_fetchable(p->scheme)) {
		*why = "bad byte in the host name";
		url_parts_free(p);
		goto fail;
	}
	curl_url_cleanup(u);
	free(in);
	return 0;
fail:
	curl_url_cleanup(u);
	free(in);
	return -1;
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
