/* wurl — the WHATWG URL standard's parser and serializer, for http and
 * https URLs: what a browser makes of a link, so every program of the
 * pipeline gives one page one name.
 *
 * Implemented: the basic URL parser's states for special schemes
 * (relative references against a base, scheme-relative "//host",
 * "http:foo" on an http base, backslashes as slashes, runs of slashes
 * after the scheme), the host parser (percent-decoding, IDNA to punycode
 * by libidn2 with UTS #46 non-transitional mapping, forbidden code
 * points, IPv4 in decimal, octal, hex and short forms, IPv6 compressed),
 * ports (the default dropped), the path, query and userinfo
 * percent-encode sets, and dot segments including %2e.  The fragment is
 * not kept: a link and its URL are fragment-free.
 *
 * Not implemented: other schemes (wurl_parse says WURL_OTHER and the
 * caller decides), and input encodings other than UTF-8 for the query.
 */
#ifndef SLUICE_WURL_H
#define SLUICE_WURL_H

#include <stddef.h>

enum { WURL_OK, WURL_FAIL, WURL_OTHER };

/* A parsed http(s) URL: href is its serialization without fragment,
 * "scheme://[userinfo@]host[:port]/path[?query]"; the offsets cut it. */
typedef struct wurl {
	char *href;        /* malloc'd, NUL-terminated */
	size_t len;
	size_t host;       /* where the host starts (after "://" and any "user@") */
	size_t host_end;
	size_t path;       /* where the path starts (after any ":port") */
	size_t query;      /* where "?query" starts, or len */
} wurl;

/* Parses s (n bytes) against base (NULL, or a URL from wurl_parse).
 * Returns WURL_OK and fills *u; WURL_OTHER when s is absolute in
 * another scheme (javascript:, ftp:, file:, ...); WURL_FAIL when the
 * standard says failure (a bad host or port, or a relative URL with no
 * base), with *why pointing at a static reason.  *u is untouched unless
 * OK. */
int wurl_parse(const char *s, size_t n, const wurl *base, wurl *u, const char **why);

void wurl_free(wurl *u);

#endif
