#include "url.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

/* Normalizes u in place (host case, fragment) and returns its canonical
 * string, or NULL. */
static char *
canon(CURLU *u)
{
	char *host = NULL, *out = NULL;
	if (curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
		for (char *c = host; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		curl_url_set(u, CURLUPART_HOST, host, 0);
		curl_free(host);
	}
	curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0);
	if (curl_url_get(u, CURLUPART_URL, &out, CURLU_NO_DEFAULT_PORT) != CURLUE_OK)
		return NULL;
	char *s = strdup(out);
	curl_free(out);
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

int
url_canon(const char *s, unsigned long n, url_parts *p, const char **why)
{
	memset(p, 0, sizeof *p);
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
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
	p->scheme = part(u, CURLUPART_SCHEME, 0);
	p->host = part(u, CURLUPART_HOST, 0);
	if (!p->host && p->scheme && !url_fetchable(p->scheme))
		p->host = strdup("");   /* file:///x: the scheme is what is wrong */
	char *port = part(u, CURLUPART_PORT, CURLU_DEFAULT_PORT);
	p->port = port ? atoi(port) : 0;
	free(port);
	if (!p->canon || !p->scheme || !p->host) {
		*why = "no host part in the URL";
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

char *
url_resolve(const char *base, const char *ref)
{
	CURLU *u = curl_url();
	char *out = NULL;
	if (u && curl_url_set(u, CURLUPART_URL, base, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
	    curl_url_set(u, CURLUPART_URL, ref, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK)
		out = canon(u);
	curl_url_cleanup(u);
	return out;
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
