/* url — canonical URLs, the identity of a record.
 *
 * Built on libcurl's URL API: scheme and host lowercased, the default
 * port dropped, the fragment removed, dot segments resolved, an empty
 * path made "/".  Two spellings of one page give one canonical string, so
 * reruns and sinks key on it.
 */
#ifndef SLUICE_URL_H
#define SLUICE_URL_H

#include <stddef.h>

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
 * Returns 0 and fills p, or -1 and points *why at a static reason (from
 * curl's URL parser) when s is not an absolute URL.  Any scheme is
 * accepted here; callers decide which they fetch. */
int url_canon(const char *s, unsigned long n, url_parts *p, const char **why);

/* Lowercases the host of absolute URL u in place (user:password@ kept
 * as is): curl keeps a host's case, and URLs differing only there are the
 * same URL. */
void url_lower_host(char *u);

/* Length of the origin ("http://host:8080") that starts canonical URL u:
 * a host's identity for pacing and robots.txt.  Canonical URLs drop the
 * default port, so one origin has one spelling. */
size_t url_origin_len(const char *u);

/* Whether scheme is one we fetch: http or https. */
int url_fetchable(const char *scheme);

void url_parts_free(url_parts *p);

#endif
