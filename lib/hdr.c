/* hdr — request headers given on the command line (-H, as curl's
 * syntax), which of them are secrets, and the origin rule that keeps
 * secrets home: shared by fetch (fetcher/req.c) and render.
 */
#include "hdr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
size_t
hdr_name_len(const char *h)
{
	return strcspn(h, ":;");
}

int
hdr_name_ok(const char *s, size_t n)
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
hdr_secret_add(const char *name)
{
	if (!hdr_name_ok(name, strlen(name)))
		return -1;
	secret = xrealloc(secret, (n_secret + 1) * sizeof *secret);
	secret[n_secret] = xstrdup(name);
	n_secret++;
	return 0;
}

int
hdr_is_secret(const char *name, size_t n)
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
hdr_check(const char *h)
{
	size_t n = hdr_name_len(h);
	if (!hdr_name_ok(h, n) || !h[n])
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
hdr_add(struct curl_slist **l, const char *arg, char *err, size_t errlen)
{
	if (arg[0] != '@') {
		if (hdr_check(arg) != 0) {
			/* Only a name is shown, and only when a separator ends
			 * it: a line of token characters alone may be the key
			 * itself (hex, base64url, a JWT). */
			size_t n = 0;
			while (arg[n] && hdr_name_ok(arg + n, 1))
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
		if (hdr_check(line) != 0) {
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
size_t
hdr_origin(const char *u, const char **host)
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
hdr_same_origin(const char *a, const char *b)
{
	const char *ha, *hb;
	size_t na = hdr_origin(a, &ha), nb = hdr_origin(b, &hb);
	size_t sa = (size_t)(strstr(a, "://") ? strstr(a, "://") - a : 0);
	size_t sb = (size_t)(strstr(b, "://") ? strstr(b, "://") - b : 0);
	size_t la = na - (size_t)(ha - a), lb = nb - (size_t)(hb - b);
	return sa == sb && strncasecmp(a, b, sa) == 0 && la == lb && strncasecmp(ha, hb, la) == 0;
}

void
hdr_free(void)
{
	for (size_t i = 0; i < n_secret; i++)
		free(secret[i]);
	free(secret);
	secret = NULL;
	n_secret = 0;
}
