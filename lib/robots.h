/* robots — robots.txt rules per RFC 9309: parsing a file for one product
 * token, deciding whether a path may be fetched, and the file's Sitemap:
 * URLs.  Pure: no I/O, no fetch state (fetcher/robots.c fetches the
 * file), so tests and fuzzers link it alone.
 *
 * Bounded whatever the file holds: only the first ROBOTS_MAX_BYTES are
 * parsed (RFC 9309 §2.5 asks crawlers to parse at least 500 KiB), a line
 * is cut at ROBOTS_MAX_LINE bytes, and matching is iterative: at most
 * pattern length × path length steps per rule, with constant stack.  So a
 * decision costs at most ROBOTS_MAX_BYTES × path length steps.
 */
#ifndef SLUICE_ROBOTS_H
#define SLUICE_ROBOTS_H

#include <stddef.h>

#define ROBOTS_MAX_BYTES (500 * 1024)
#define ROBOTS_MAX_LINE (16 * 1024)
#define ROBOTS_MAX_SITEMAPS 64          /* Sitemap: URLs kept per file */
#define ROBOTS_MAX_SITEMAP_URL 2048     /* bytes of one, canonical (the
                                         * sitemaps protocol's URL limit) */

struct robots;

/* Parses robots.txt txt (n bytes, NULs allowed: they end a line) for
 * product token agent; sets *crawl_delay (0 when none).  Returns the
 * rules, NULL only when out of memory. */
struct robots *robots_parse(const char *txt, size_t n, const char *agent, double *crawl_delay);

/* Whether s is a valid product token for robots_parse: [A-Za-z_-]+
 * (RFC 9309 §2.2.1). */
int robots_token_valid(const char *s);

/* --robots-agent's OPT_CALL function (lib/opt.h): s into the const
 * char * at dst, or -1 when it is not a valid product token. */
int robots_agent_opt(void *dst, const char *s);

/* Rules that refuse every path: robots.txt could not be had. */
struct robots *robots_deny_all(void);

/* Whether path (from the first '/', query included, percent-encoded as
 * a canonical URL is) may be fetched; NULL rules allow everything. */
int robots_allowed(const struct robots *r, const char *path);

/* The Sitemap: URLs of the file r was parsed from.  They stand outside
 * the groups (RFC 9309 §2.2.4), so every one counts whatever agent the
 * rules are for.  Each is absolute http(s), canonical (lib/url.h), once,
 * in file order; relative URLs, other schemes, URLs longer than
 * ROBOTS_MAX_SITEMAP_URL and those after the first ROBOTS_MAX_SITEMAPS
 * are left out.  Returns their count and points *urls at them (valid
 * until robots_free); 0 for NULL rules and robots_deny_all. */
size_t robots_sitemaps(const struct robots *r, const char *const **urls);

/* The error_detail of a refusal by r. */
const char *robots_reason(const struct robots *r);

void robots_free(struct robots *r);

#endif
