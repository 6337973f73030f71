/* lnk — resolve hrefs to absolute http(s) URLs and de-duplicate them.
 *
 * Resolution is the WHATWG URL standard's (lib/wurl), so a link is the
 * URL a browser would follow, and fetch, which canonicalizes with the
 * same code, gives it the same name.  Links are fragment-free.  Only
 * http and https survive: javascript:, mailto:, data:, ftp: and the
 * like are dropped, and so are links the standard rejects (bad hosts,
 * ports, IPv4 forms).
 */
#ifndef PARSE_LINKS_H
#define PARSE_LINKS_H

#include <stddef.h>

#include "buf.h"

typedef struct lnk lnk;

lnk *lnk_new(void);
void lnk_free(lnk *l);

/* Starts a record: sets the document URL (final_url, else url; may be
 * NULL) and forgets the previous record's links.  A document URL that
 * does not parse leaves relative links unresolvable (dropped). */
void lnk_begin(lnk *l, const char *url, size_t n);

/* Applies <base href>: resolved against the document URL, it becomes
 * the base for every later lnk_resolve.  Ignored when the standard says
 * failure; a base in another scheme leaves relative links unresolvable. */
void lnk_base(lnk *l, const char *href);

/* Resolves href against the base.  Returns 1 and sets *s and *n to the
 * absolute, fragment-free http(s) URL (valid until the next call), or 0
 * when it is not one. */
int lnk_resolve(lnk *l, const char *href, const char **s, size_t *n);

/* Remembers s[0..n) for this record; returns 1 when it was new. */
int lnk_add(lnk *l, const char *s, size_t n);

/* The links added this record in first-seen order: count, and the i-th. */
size_t lnk_count(const lnk *l);
void lnk_get(const lnk *l, size_t i, const char **s, size_t *n);

#endif
