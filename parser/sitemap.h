/* sitemap — sitemaps.org XML (<urlset> and <sitemapindex>, plain or
 * gzip) into `links` and a `sitemap` map.
 *
 * libxml2's streaming reader walks the document once, keeping only the
 * node it is on, with the network off, no DTD loading, no entity
 * substitution and an external entity loader that refuses everything:
 * an XML bomb or `<!ENTITY x SYSTEM "file:///...">` costs a parse error,
 * never memory or a file's content.  A gzip body is inflated by zlib as
 * the reader asks for bytes, so it is never held whole.  The protocol's
 * limits bound the rest: SITEMAP_MAX_BYTES of XML, SITEMAP_MAX_URLS
 * entries (docs/parse.md, "Sitemaps").
 */
#ifndef PARSE_SITEMAP_H
#define PARSE_SITEMAP_H

#include <msgpack.h>
#include <stddef.h>

#include "links.h"
#include "rec.h"

#define SITEMAP_MAX_URLS 50000                  /* entries kept per file */
#define SITEMAP_MAX_BYTES ((size_t)50 << 20)    /* XML per file, after gunzip */
#define SITEMAP_MAX_LOC 8192                    /* bytes of one <loc>; longer is skipped */
#define SITEMAP_MAX_LASTMOD 64                  /* bytes of one <lastmod> kept */

typedef struct sitemap sitemap;

/* A reader, NULL when out of memory.  The first one sets libxml2's
 * process-wide external entity loader to one that loads nothing. */
sitemap *sitemap_new(void);
void sitemap_free(sitemap *s);

/* Whether record in may be a sitemap: no `error`, a `body`, and a
 * `ctype` of application/xml, text/xml, application/gzip or
 * application/x-gzip, or a body starting with gzip's magic bytes, or a
 * url ending in .xml.gz. */
int sitemap_candidate(const msgpack_object *in);

/* Outcomes of sitemap_put. */
enum { SITEMAP_NOT, SITEMAP_OK, SITEMAP_ERR };

/* Reads the body of candidate in, whose document URL is url[0..un) (may
 * be NULL), resolving each <loc> with l (lnk_begin is called here).
 * SITEMAP_NOT: well-formed up to a root element that is not urlset or
 * sitemapindex (sitemaps.org namespace or none); nothing put, the record
 * passes through.  SITEMAP_OK: `links` and `sitemap` put in b.
 * SITEMAP_ERR: `parse_error` (too_large, bad_gzip or bad_xml) and
 * `parse_error_detail` put in b, and a notice naming url printed. */
int sitemap_put(sitemap *s, lnk *l, rec_build *b, const msgpack_object *in,
		const char *url, size_t un);

/* A robots.txt answer: the record's document URL (url[0..un)) has the
 * path /robots.txt, its status is 2xx and it has a body and no error.
 * Puts `links`, its Sitemap: lines (lib/robots: canonical, at most
 * ROBOTS_MAX_SITEMAPS), or the origin's /sitemap.xml when it names
 * none, the conventional place, and `sitemap` {"kind": "robots",
 * "urls": N}, so a crawl seeded with a host's robots.txt (fetch
 * --sitemaps) follows its sitemaps.  SITEMAP_OK, or SITEMAP_NOT for any
 * other record. */
int sitemap_robots(lnk *l, rec_build *b, const msgpack_object *in, const char *url, size_t un);

/* The parser tag of a sitemap record. */
const char *sitemap_parser(void);

#endif
