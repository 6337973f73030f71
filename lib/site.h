/* site — the registrable domain of a host name, from the Public Suffix
 * List (libpsl): "a.example.co.uk" and "b.example.co.uk" are one site,
 * "example.co.uk", while "a.co.uk" and "b.co.uk" are two.  The unit a
 * site's operators see as one, for pacing (fetch --pace-by site) and
 * scope (sink --scope domain, fetch --redirects same-site).
 */
#ifndef SLUICE_SITE_H
#define SLUICE_SITE_H

/* The site of host (lowercase, punycode, as canonical URLs spell it):
 * its registrable domain, a suffix of host itself; or host whole when
 * it has none (an IP address, a public suffix, a name like
 * "localhost").  The list is the system's (Debian's publicsuffix
 * package) when libpsl finds it, else the one built into libpsl. */
const char *site_of(const char *host);

/* Whether domain (lowercase, punycode) is a public suffix, one under
 * which anyone may register a name ("com", "co.uk", "github.io"), by
 * the same list and its implicit "*" rule: a top-level name it does not
 * list ("localhost", "test") is one too.  No cookie may be set for one
 * but by that very host (RFC 6265 section 5.3). */
int site_is_public_suffix(const char *domain);

#endif
