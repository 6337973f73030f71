/* url — canonical URLs, the identity of a record.
 *
 * An http(s) URL's canonical form is its WHATWG URL serialization
 * (lib/wurl) without the fragment: what a browser requests, and what
 * parse writes for links, so one page has one name in the whole
 * pipeline, in the frontier and per host.
 */
#ifndef SLUICE_URL_H
#define SLUICE_URL_H

#include <stddef.h>

#include "rec.h"

typedef struct url_parts {
	char *canon;    /* canonical URL, malloc'd */
	char *scheme;   /* "http", "https", or another scheme, malloc'd */
	char *host;     /* lowercase host name or address, malloc'd */
} url_parts;

/* Drops the whitespace around s (*n bytes): returns where the rest
 * starts and sets *n to its length.  The part of an input line that is
 * the URL, for url_canon and for records of URLs that are not fetched. */
const char *url_trim(const char *s, size_t *n);

/* Canonicalizes the URL s (n bytes, surrounding whitespace ignored).
 * Returns 0 and fills p, or -1 and points *why at a static reason when
 * s is not an absolute URL or the standard rejects it (a bad host or
 * port).  A URL of another scheme is kept as given, with an empty
 * host: callers decide which schemes they fetch. */
int url_canon(const char *s, unsigned long n, url_parts *p, const char **why);

/* Length of the origin ("http://host:8080") that starts canonical URL u:
 * a host's identity for pacing and robots.txt.  Canonical URLs drop the
 * default port, so one origin has one spelling. */
size_t url_origin_len(const char *u);

/* Whether scheme is one we fetch: http or https. */
int url_fetchable(const char *scheme);

void url_parts_free(url_parts *p);

/* URL u with the password of its user:pass@ (and of a postgresql://
 * URI's password= parameter, or of libpq's keyword form, "host=db
 * password=x") as *** (malloc'd), or NULL when it has none: how a URL,
 * a URI or a database is shown in records and messages. */
char *url_shown(const char *u);
/* Puts URL u in record b under key, shown as url_shown shows it: how
 * every URL of a record is written. */
void url_put(rec_build *b, const char *key, const char *u);

#endif
