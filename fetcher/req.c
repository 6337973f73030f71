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
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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
/* The file a save writes first, for on_save_signal. */
static char save_tmp[4096];

/* Says, once per load, what a jar (from) left out. */
static void
say_loaded(const char *from, const cookie_loaded *r)
{
	if (r->bad)
		msg_warn("%s: %lu lines skipped: malformed, holding control bytes or for a public suffix",
			 from, r->bad);
	if (r->evicted)
		msg_note("%s: kept the newest %lu of its %lu cookies (--max-cookies %ld, %d a site)", from,
			 r->cookies - r->bad - r->evicted, r->cookies - r->bad, F.o.max_cookies,
			 COOKIE_SITE_MAX);
}

int
req_cookies_open(const char *path, char *err, size_t errlen)
{
	jar = cookie_jar_new((size_t)F.o.max_cookies, COOKIE_SITE_MAX);
	FILE *f = fopen(path, "r");
	if (!f && errno == ENOENT)
		return 0;   /* a new jar, written at exit */
	cookie_loaded r;
	if (!f || cookie_load(jar, f, tm_wall(), &r) != 0) {
		snprintf(err, errlen, "cannot read cookie jar '%s': %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	char from[4200];
	snprintf(from, sizeof from, "cookie jar '%s'", path);
	say_loaded(from, &r);
	return 0;
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
	say_loaded("the job's cookie jar", &r);
}

/* A signal while the jar is written: the file stays as it was and fetch
 * ends at once.  (A first signal has had its orderly stop by then.) */
static void
on_save_signal(int sig)
{
	unlink(save_tmp);
	_exit(128 + sig);
}

int
req_cookies_save(void)
{
	if (!jar)
		return 0;
	/* Written aside and renamed over, so a crash leaves the old jar;
	 * 0600, since it holds sessions.  The jar is bounded by
	 * --max-cookies, so is the time; a stuck file system is not. */
	snprintf(save_tmp, sizeof save_tmp, "%s.tmp", F.o.cookies);
	struct sigaction stop = { .sa_handler = on_save_signal }, old_int, old_term;
	sigemptyset(&stop.sa_mask);
	sigaction(SIGINT, &stop, &old_int);
	sigaction(SIGTERM, &stop, &old_term);
	int rc = -1;
	FILE *f = NULL;
	int fd = open(save_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && (f = fdopen(fd, "w"))) {
		fputs("# Netscape HTTP Cookie File\n# written by sluice fetch\n\n", f);
		rc = cookie_save(jar, f, tm_wall()) == 0 && fflush(f) == 0 && fsync(fd) == 0 ? 0 : -1;
		if (fclose(f) != 0)
			rc = -1;
	} else if (fd >= 0)
		close(fd);
	if (rc == 0 && rename(save_tmp, F.o.cookies) != 0)
		rc = -1;
	if (rc != 0) {
		msg_warn("cannot write cookie jar '%s': %s", F.o.cookies, strerror(errno));
		unlink(save_tmp);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}

void
req_free(void)
{
	cookie_jar_free(jar);
	jar = NULL;
	hdr_free();
}
