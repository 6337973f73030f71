/* hdr — request headers given on the command line (-H, curl's syntax),
 * which of them are secrets, and the origin rule that keeps secrets
 * home.  Shared by fetch (fetcher/req.c) and render.
 *
 * A secret is Authorization, Cookie, Proxy-Authorization, any name
 * holding a credential word (key, token, secret, auth, session,
 * password, signature: X-Api-Key, X-Auth-Token...) and each name given
 * to hdr_secret_add (--secret-header).  Secrets go only to the input
 * URL's own origin (scheme, host and port: curl's rule).
 */
#ifndef SLUICE_HDR_H
#define SLUICE_HDR_H

#include <curl/curl.h>
#include <stddef.h>

/* Length of the name of header line h: up to its ':' or ';'. */
size_t hdr_name_len(const char *h);
/* Whether s[0..n) is a header name (RFC 9110 token). */
int hdr_name_ok(const char *s, size_t n);
/* Whether header line h is curl's -H syntax, "Name: value", "Name:"
 * (drop the default header) or "Name;" (an empty one), without CR or
 * LF: 0, or -1. */
int hdr_check(const char *h);
/* Appends -H's argument arg to *l: a header line, or @FILE for one a
 * line (blank lines skipped).  0, or -1 with the reason in err (a line
 * of a file is named by number, never echoed; a secret value is shown
 * as ***). */
int hdr_add(struct curl_slist **l, const char *arg, char *err, size_t errlen);
/* --secret-header NAME: a header dropped across origins, like
 * Authorization.  0, or -1 when name is not a header name. */
int hdr_secret_add(const char *name);
/* Whether header name s[0..n) is a secret (any case). */
int hdr_is_secret(const char *s, size_t n);
/* The length of the scheme://host:port of canonical URL u; *host is
 * where its host starts (past any user:pass@). */
size_t hdr_origin(const char *u, const char **host);
/* Whether canonical URLs a and b have one origin: scheme, host and
 * port (user:pass@ aside).  curl's rule for sending credentials. */
int hdr_same_origin(const char *a, const char *b);
/* Frees the names hdr_secret_add kept. */
void hdr_free(void);

#endif
