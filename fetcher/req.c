/* req — what a request carries besides its URL: the headers of -H and
 * --policy, and which of them are secrets.
 *
 * Every attempt gets a header list of its own (set on the easy handle,
 * freed with the attempt), built from:
 *   - the -H lines, for every host;
 *   - the header= lines of --policy for the target's host name only;
 * minus the secret ones (Authorization, Cookie, Proxy-Authorization and
 * each --secret-header NAME) when the target is not the input URL's
 * origin (scheme, host and port: curl's rule for credentials), so a
 * redirect to another host never carries them.  fetch follows redirects
 * itself (redirect.c), one attempt per hop, so the rule is applied here,
 * per hop; libcurl's own following (robots.txt) gets no secret at all.
 */
#include "fetch.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msg.h"
#include "url.h"

/* The secret header names beyond the built-in ones (--secret-header). */
static char **secret;
static size_t n_secret;

static const char *const builtin_secret[] = {
	"authorization", "cookie", "proxy-authorization",
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
	char **v = realloc(secret, (n_secret + 1) * sizeof *v);
	if (!v || !(v[n_secret] = strdup(name)))
		abort();
	secret = v;
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
	return 0;
}

void
req_mask(const char *line, char *out, size_t outlen)
{
	size_t n = name_len(line);
	if (line[n] == ':' && req_is_secret(line, n))
		snprintf(out, outlen, "%.*s: ***", (int)(n > 200 ? 200 : n), line);
	else
		snprintf(out, outlen, "%s", line);
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

/* Appends header line h to *l (copied); aborts when out of memory. */
static void
append(struct curl_slist **l, const char *h)
{
	struct curl_slist *n = curl_slist_append(*l, h);
	if (!n)
		abort();
	*l = n;
}

int
req_header_add(struct curl_slist **l, const char *arg, char *err, size_t errlen)
{
	if (arg[0] != '@') {
		if (req_header_check(arg) != 0) {
			/* Only the name is shown: a malformed line may hold a key. */
			size_t n = 0;
			while (arg[n] && req_name_ok(arg + n, 1))
				n++;
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

char *
req_url_shown(const char *u)
{
	const char *p = strstr(u, "://");
	if (!p)
		return NULL;
	p += 3;
	size_t auth = strcspn(p, "/?#");
	const char *at = NULL;
	for (const char *q = p; q < p + auth; q++)
		if (*q == '@')
			at = q;
	const char *colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;
	if (!colon)
		return NULL;
	size_t head = (size_t)(colon + 1 - u), tail = strlen(at);
	char *s = malloc(head + 3 + tail + 1);
	if (!s)
		abort();
	memcpy(s, u, head);
	memcpy(s + head, "***", 3);
	memcpy(s + head + 3, at, tail + 1);
	return s;
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

void
req_free(void)
{
	for (size_t i = 0; i < n_secret; i++)
		free(secret[i]);
	free(secret);
	secret = NULL;
	n_secret = 0;
}
