/* req — what a request carries besides its URL: the headers of -H and
 * --policy and which of them are secrets, --user's credentials, the
 * cookie jar (--cookies), and how a URL with a password is shown.
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
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "hdr.h"
#include "msg.h"
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

/* --cookies: one share holds every transfer's cookies (and the Public
 * Suffix List libcurl checks Set-Cookie domains against); `jar` is the
 * handle that loads the file into it and reads it back out.  All on the
 * loop thread, so the share needs no lock functions. */
static CURLSH *share;
static CURL *jar;

int
req_cookies_open(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f && errno != ENOENT) {
		snprintf(err, errlen, "cannot read cookie jar '%s': %s", path, strerror(errno));
		return -1;
	}
	if (f)
		fclose(f);
	if (!(share = curl_share_init()) || !(jar = curl_easy_init()))
		xalloc_die();
	curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE);
	curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_PSL);
	curl_easy_setopt(jar, CURLOPT_SHARE, share);
	/* A missing file is a new jar, written at exit. */
	curl_easy_setopt(jar, CURLOPT_COOKIEFILE, f ? path : "");
	curl_easy_setopt(jar, CURLOPT_COOKIELIST, "RELOAD");
	return 0;
}

void
req_cookies_use(CURL *e)
{
	if (!share)
		return;
	curl_easy_setopt(e, CURLOPT_SHARE, share);
	/* "" turns the cookie engine on without reading a file: the jar was
	 * read once, into the share. */
	curl_easy_setopt(e, CURLOPT_COOKIEFILE, "");
}

void
req_cookies_reset(CURL *e)
{
	/* libcurl 7.88's reset drops the handle's list of cookie file names
	 * without freeing it; NULL frees it (and detaches the share's
	 * cookies, which req_cookies_use attaches again). */
	if (share)
		curl_easy_setopt(e, CURLOPT_COOKIEFILE, NULL);
}

char *
req_cookies_dump(void)
{
	if (!jar)
		return NULL;
	struct curl_slist *l = NULL;
	curl_easy_getinfo(jar, CURLINFO_COOKIELIST, &l);
	size_t n = 1;
	for (struct curl_slist *c = l; c; c = c->next)
		n += strlen(c->data) + 1;
	char *s = xmalloc(n), *p = s;
	for (struct curl_slist *c = l; c; c = c->next) {
		size_t k = strlen(c->data);
		memcpy(p, c->data, k);
		p[k] = '\n';
		p += k + 1;
	}
	*p = '\0';
	curl_slist_free_all(l);
	return s;
}

void
req_cookies_load(const char *lines)
{
	if (!jar || !lines)
		return;
	char *copy = xstrdup(lines), *save = NULL;
	for (char *t = strtok_r(copy, "\n", &save); t; t = strtok_r(NULL, "\n", &save))
		curl_easy_setopt(jar, CURLOPT_COOKIELIST, t);
	free(copy);
}

int
req_cookies_save(void)
{
	char *lines = req_cookies_dump();
	if (!lines)
		return 0;
	/* Written aside and renamed over, so a crash leaves the old jar;
	 * 0600, since it holds sessions. */
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", F.o.cookies);
	int rc = -1;
	FILE *f = NULL;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && (f = fdopen(fd, "w"))) {
		fputs("# Netscape HTTP Cookie File\n# written by sluice fetch (libcurl's format)\n\n", f);
		fputs(lines, f);
		rc = fflush(f) == 0 && fsync(fd) == 0 ? 0 : -1;
		if (fclose(f) != 0)
			rc = -1;
	} else if (fd >= 0)
		close(fd);
	if (rc == 0 && rename(tmp, F.o.cookies) != 0)
		rc = -1;
	if (rc != 0) {
		msg_warn("cannot write cookie jar '%s': %s", F.o.cookies, strerror(errno));
		unlink(tmp);
	}
	free(lines);
	return rc;
}

void
req_free(void)
{
	if (jar)
		curl_easy_cleanup(jar);
	if (share)
		curl_share_cleanup(share);
	jar = NULL;
	share = NULL;
	hdr_free();
}
