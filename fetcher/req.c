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

#include "msg.h"
#include "url.h"
#include "xalloc.h"

/* The secret header names beyond the built-in ones (--secret-header). */
static char **secret;
static size_t n_secret;

static const char *const builtin_secret[] = {
	"authorization", "cookie", "proxy-authorization",
};

/* Words that make a header name a secret wherever they stand in it:
 * how APIs name the credentials they take (X-Api-Key, Api-Key,
 * X-Auth-Token, X-Session-Id, X-Client-Secret...).  A false positive
 * costs a header on a cross-host hop; a false negative leaks a key. */
static const char *const secret_word[] = {
	"key", "token", "secret", "auth", "session", "password", "signature",
};

/* Length of the name of header line h: up to its ':' or ';'. */
static size_t
name_len(const char *h)
{
	return strcspn(h, ":;");
}

int
req_name_ok(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		/* RFC 9110's tchar */
		if (!isalnum(c) && !strchr("!#$%&'*+-.^_`|~", c))
			return 0;
	}
	return 1;
}

int
req_secret_add(const char *name)
{
	if (!req_name_ok(name, strlen(name)))
		return -1;
	secret = xrealloc(secret, (n_secret + 1) * sizeof *secret);
	secret[n_secret] = xstrdup(name);
	n_secret++;
	return 0;
}

int
req_is_secret(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof builtin_secret / sizeof *builtin_secret; i++)
		if (strlen(builtin_secret[i]) == n && strncasecmp(builtin_secret[i], name, n) == 0)
			return 1;
	for (size_t i = 0; i < n_secret; i++)
		if (strlen(secret[i]) == n && strncasecmp(secret[i], name, n) == 0)
			return 1;
	char low[128];
	if (n >= sizeof low)
		return 1;   /* no real header name is this long: keep it home */
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[n] = '\0';
	for (size_t i = 0; i < sizeof secret_word / sizeof *secret_word; i++)
		if (strstr(low, secret_word[i]))
			return 1;
	return 0;
}

int
req_header_check(const char *h)
{
	size_t n = name_len(h);
	if (!req_name_ok(h, n) || !h[n])
		return -1;
	if (h[n] == ';' && h[n + 1])
		return -1;   /* "Name;" is curl's empty header: nothing may follow */
	return strpbrk(h, "\r\n") ? -1 : 0;
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

int
req_header_add(struct curl_slist **l, const char *arg, char *err, size_t errlen)
{
	if (arg[0] != '@') {
		if (req_header_check(arg) != 0) {
			/* Only a name is shown, and only when a separator ends
			 * it: a line of token characters alone may be the key
			 * itself (hex, base64url, a JWT). */
			size_t n = 0;
			while (arg[n] && req_name_ok(arg + n, 1))
				n++;
			if (!arg[n] || !strchr(":; \t", arg[n]))
				n = 0;
			snprintf(err, errlen, "'%.*s...': want 'Name: value', 'Name:' or 'Name;'",
				 (int)(n > 100 ? 100 : n), arg);
			return -1;
		}
		append(l, arg);
		return 0;
	}
	FILE *f = fopen(arg + 1, "r");
	if (!f) {
		snprintf(err, errlen, "cannot open '%s': %s", arg + 1, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0)
			continue;   /* blank lines separate nothing: skipped, as curl does */
		if (req_header_check(line) != 0) {
			/* The line is not echoed: the file holds secrets. */
			snprintf(err, errlen, "%s:%d: not a header line ('Name: value', 'Name:' or 'Name;')",
				 arg + 1, lineno);
			rc = -1;
			break;
		}
		append(l, line);
	}
	free(line);
	fclose(f);
	return rc;
}

/* The length of the scheme://host:port of canonical URL u, and where
 * its host starts (past any user:pass@). */
static size_t
origin_parts(const char *u, const char **host)
{
	size_t n = url_origin_len(u);
	const char *p = strstr(u, "://");
	*host = p ? p + 3 : u;
	for (const char *q = *host; q < u + n; q++)
		if (*q == '@')
			*host = q + 1;
	return n;
}

int
req_same_origin(const char *a, const char *b)
{
	const char *ha, *hb;
	size_t na = origin_parts(a, &ha), nb = origin_parts(b, &hb);
	size_t sa = (size_t)(strstr(a, "://") ? strstr(a, "://") - a : 0);
	size_t sb = (size_t)(strstr(b, "://") ? strstr(b, "://") - b : 0);
	size_t la = na - (size_t)(ha - a), lb = nb - (size_t)(hb - b);
	return sa == sb && strncasecmp(a, b, sa) == 0 && la == lb && strncasecmp(ha, hb, la) == 0;
}

/* Copies canonical URL u's host name (no port, no brackets) into out. */
static void
host_of(const char *u, char *out, size_t outlen)
{
	const char *h;
	size_t n = origin_parts(u, &h);
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

/* A header list being built, and whether secrets go into it. */
struct building {
	struct curl_slist *l;
	int keep_secret;
};

static void
add_line(const char *line, void *arg)
{
	struct building *b = arg;
	if (b->keep_secret || !req_is_secret(line, name_len(line)))
		append(&b->l, line);
}

struct curl_slist *
req_headers(const job *j)
{
	const char *to = job_target(j);
	int own = !j->is_robots && req_same_origin(to, j->url);
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
	return req_same_origin(job_target(j), j->url);
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
	for (size_t i = 0; i < n_secret; i++)
		free(secret[i]);
	free(secret);
	secret = NULL;
	n_secret = 0;
}
