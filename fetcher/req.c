/* req — what a request carries besides its URL: the headers of -H and
 * --policy and which of them are secrets, --user's credentials, the
 * cookie jar (--cookies, lib/cookie), and how a URL with a password is
 * shown.
 *
 * Every attempt gets a header list of its own (set on the easy handle,
 * freed with the attempt), built from:
 *   - the -H lines, for every host;
 *   - the header= lines of --policy for the target's host name only;
 * minus the secret ones (Authorization, Cookie, Proxy-Authorization, any
 * name holding a credential word such as X-Api-Key or X-Auth-Token, and
 * each --secret-header NAME) when the target is not the input URL's
 * origin (scheme, host and port: curl's rule for credentials), so a
 * redirect to another host never carries them.  fetch follows redirects
 * itself (redirect.c), one attempt per hop, so the rule is applied here,
 * per hop; libcurl's own following (robots.txt) gets no secret at all.
 */
#include "fetch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cookiefile.h"
#include "hdr.h"
#include "msg.h"
#include "tm.h"
#include "url.h"
#include "xalloc.h"

/* Copies canonical URL u's host name (no port, no brackets) into out. */
static void
host_of(const char *u, char *out, size_t outlen)
{
	const char *h;
	size_t n = hdr_origin(u, &h);
	size_t len = n - (size_t)(h - u);
	if (len && h[0] == '[') {
		const char *close = memchr(h, ']', len);
		len = close ? (size_t)(close - h) - 1 : len - 1;
		h++;
	} else {
		const char *colon = memchr(h, ':', len);
		if (colon)
			len = (size_t)(colon - h);
	}
	snprintf(out, outlen, "%.*s", (int)len, h);
}

/* Appends header line h to *l (copied). */
static void
append(struct curl_slist **l, const char *h)
{
	struct curl_slist *n = curl_slist_append(*l, h);
	if (!n)
		xalloc_die();
	*l = n;
}

/* A header list being built, and whether secrets go into it. */
struct building {
	struct curl_slist *l;
	int keep_secret;
};

static void
add_line(const char *line, void *arg)
{
	struct building *b = arg;
	if (b->keep_secret || !hdr_is_secret(line, hdr_name_len(line)))
		append(&b->l, line);
}

struct curl_slist *
req_headers(const job *j)
{
	const char *to = job_target(j);
	int own = !j->is_robots && hdr_same_origin(to, j->url);
	struct building b = { NULL, own };
	for (const struct curl_slist *h = F.o.headers; h; h = h->next)
		add_line(h->data, &b);
	char host[256];
	host_of(to, host, sizeof host);
	policy_headers(F.policy, host, add_line, &b);
	return b.l;
}

int
req_credentials(const job *j)
{
	return !j->is_robots && hdr_same_origin(job_target(j), j->url);
}

void
req_url_credentials(CURL *e, const job *j)
{
	if (!j->target)
		return;   /* libcurl takes them from the URL itself */
	CURLU *u = curl_url();
	char *user = NULL, *pass = NULL;
	if (u && curl_url_set(u, CURLUPART_URL, j->url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_USER, &user, CURLU_URLDECODE) == CURLUE_OK) {
		curl_easy_setopt(e, CURLOPT_USERNAME, user);
		if (curl_url_get(u, CURLUPART_PASSWORD, &pass, CURLU_URLDECODE) == CURLUE_OK)
			curl_easy_setopt(e, CURLOPT_PASSWORD, pass);
	}
	curl_free(user);
	curl_free(pass);
	curl_url_cleanup(u);
}

/* --cookies: the jar (lib/cookie), used on the loop thread only: read
 * at start, written at exit, and copied to the job with --queue
 * (beat.c). */
static cookie_jar *jar;

int
req_cookies_open(const char *path, char *err, size_t errlen)
{
	jar = cookie_jar_new((size_t)F.o.max_cookies, COOKIE_SITE_MAX);
	return cookiefile_load(jar, path, F.o.max_cookies, tm_wall(), err, errlen);
}

void
req_cookies_use(CURL *e, const job *j)
{
	if (!jar)
		return;
	char *h = cookie_header(jar, job_target(j), tm_wall());
	if (h)
		curl_easy_setopt(e, CURLOPT_COOKIE, h);   /* copied */
	free(h);
}

void
req_cookies_set(const job *j, const char *line, size_t len)
{
	if (jar)
		cookie_set(jar, job_target(j), line, len, tm_wall());
}

int
req_cookies_counts(cookie_counts *c)
{
	if (!jar)
		return -1;
	*c = cookie_jar_counts(jar);
	return 0;
}

char *
req_cookies_dump(void)
{
	return jar ? cookie_dump(jar, tm_wall()) : NULL;
}

void
req_cookies_load(const char *lines)
{
	if (!jar || !lines)
		return;
	cookie_loaded r;
	cookie_load_str(jar, lines, tm_wall(), &r);
	cookiefile_say("the job's cookie jar", &r, F.o.max_cookies);
}

int
req_cookies_save(void)
{
	return jar ? cookiefile_save(jar, F.o.cookies, "fetch", tm_wall()) : 0;
}

void
req_free(void)
{
	cookie_jar_free(jar);
	jar = NULL;
	hdr_free();
}
