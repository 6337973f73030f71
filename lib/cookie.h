/* cookie — a cookie store by RFC 6265 with bounds: what Set-Cookie
 * lines store, what a request's Cookie header carries, and the Netscape
 * jar format curl and wget read and write.
 *
 * Storage (section 5.3): the Domain, Path, Expires, Max-Age, Secure and
 * HttpOnly attributes; SameSite is read and ignored (a crawler is no
 * browser: every request is its own top-level one).  A cookie without
 * Domain is host-only; one whose Domain does not domain-match the
 * request's host, or is a public suffix (lib/site, libpsl) other than
 * the host itself, is refused.  A Domain in Unicode is refused too
 * (canonical URLs spell hosts in punycode).  A cookie replaces the one
 * of the same name, domain and path, keeping its creation time.
 *
 * Bounds: a cookie's name and value together hold at most
 * COOKIE_NAME_VALUE_MAX bytes, an attribute's value at most
 * COOKIE_ATTR_MAX (past it the attribute is ignored, as RFC 6265bis
 * says), and a control byte (below 0x20, or 0x7f) anywhere in the name,
 * value, domain or path refuses the cookie: it would break the jar's
 * lines, or a header.  The jar holds at most max_site cookies per site
 * (the registrable domain, lib/site: a.example.com and b.example.com
 * share one) and max_total in all; past either the oldest (by creation)
 * goes.  Expired cookies go when a request to their site meets them,
 * and are never sent or saved.  So whatever a server sends, storing a
 * cookie costs the same, and a request's header at most its site's
 * cookies: they are found in its site's list, never in the whole jar.
 *
 * Pure: no I/O but the FILE* or string a call is given, and the time is
 * the caller's (`now`, unix seconds), so tests set the clock.
 */
#ifndef SLUICE_COOKIE_H
#define SLUICE_COOKIE_H

#include <stddef.h>
#include <stdio.h>

enum {
	COOKIE_SITE_MAX = 180,          /* per site, as browsers keep */
	COOKIE_NAME_VALUE_MAX = 4096,   /* as browsers accept */
	COOKIE_ATTR_MAX = 1024,
};

typedef struct cookie_jar cookie_jar;

/* What a jar holds and has done. */
typedef struct cookie_counts {
	size_t kept;                 /* cookies held now */
	unsigned long long evicted;  /* pushed out past a cap, oldest first */
	unsigned long long refused;  /* Set-Cookie lines not stored (malformed,
				      * another domain, a public suffix, too
				      * long, control bytes), and the bad
				      * lines of cookie_load and
				      * cookie_load_str */
} cookie_counts;

/* A jar of at most max_total cookies in all and max_site per site
 * (both at least 1).  Dies when out of memory (lib/xalloc), as every
 * call here does. */
cookie_jar *cookie_jar_new(size_t max_total, size_t max_site);
void cookie_jar_free(cookie_jar *j);

/* What j holds and has pushed out so far, for --stats and the notes. */
cookie_counts cookie_jar_counts(const cookie_jar *j);

/* Stores the cookie of Set-Cookie value line (len bytes, without the
 * header's name) that came in the answer to url (canonical http or
 * https, lib/url).  An expired one removes the stored cookie it
 * matches.  0, or -1 when the line was refused (counted). */
int cookie_set(cookie_jar *j, const char *url, const char *line, size_t len, double now);

/* The Cookie header's value for a request to url: the unexpired
 * cookies whose domain and path match it (Secure ones only over
 * https), longer paths first, then earlier created, as "a=1; b=2";
 * malloc'd, or NULL when none matches.  Drops the expired cookies of
 * url's site on the way. */
char *cookie_header(cookie_jar *j, const char *url, double now);

/* One line of a Netscape jar: domain, "TRUE" when it is not host-only
 * (the domain then starts with a dot), path, "TRUE" for Secure, expiry
 * in unix seconds (0 for a session cookie), name, value; separated by
 * tabs, the domain prefixed with "#HttpOnly_" for HttpOnly, as curl
 * writes it.  Lines starting with another "#" and blank ones are
 * comments. */
enum cookie_line {
	COOKIE_LINE_KEPT,      /* a cookie, now in the jar */
	COOKIE_LINE_SKIPPED,   /* a comment, a blank line, an expired cookie */
	COOKIE_LINE_BAD,       /* not of that shape, a control byte, too
				* long, a domain cookie of a public suffix */
};

/* Adds the cookie of jar line line (len bytes, a final "\n" or "\r\n"
 * allowed) as the newest, or replaces the one of the same name, domain
 * and path, keeping its place.  Returns an enum cookie_line. */
int cookie_add_line(cookie_jar *j, const char *line, size_t len, double now);

/* What a load read. */
typedef struct cookie_loaded {
	unsigned long cookies;   /* lines that were unexpired cookies, bad ones included */
	unsigned long bad;       /* COOKIE_LINE_BAD lines */
	unsigned long evicted;   /* cookies the caps pushed out meanwhile */
} cookie_loaded;

/* cookie_add_line for each line of f, or of the string s: later lines
 * are newer, so past the caps the jar keeps the file's last cookies.  A
 * line over 8 KiB is bad.  cookie_load returns 0, or -1 when reading f
 * failed (errno says why; what was read is kept). */
int cookie_load(cookie_jar *j, FILE *f, double now, cookie_loaded *r);
void cookie_load_str(cookie_jar *j, const char *s, double now, cookie_loaded *r);

/* Writes the unexpired cookies to f as jar lines, oldest first (so a
 * load keeps their order), session cookies included.  0, or -1 when a
 * write failed.  cookie_dump returns the same lines as one malloc'd
 * string ("" when none). */
int cookie_save(const cookie_jar *j, FILE *f, double now);
char *cookie_dump(const cookie_jar *j, double now);

/* Whether the jar holds exactly the cookie of jar line line (len
 * bytes): the one of its name, domain and path, with its value,
 * expiry and flags, as cookie_save would write it. */
int cookie_holds(const cookie_jar *j, const char *line, size_t len);

#endif
