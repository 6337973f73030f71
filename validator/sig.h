/* sig — the signatures of pages that refuse us, as data: challenge and
 * bot-check interstitials, captcha walls, login walls the crawl did not
 * ask for (reason `blocked`), and cookie-consent walls that hide the
 * page (reason `consent`).  One row a marker, each with where it was
 * documented or seen.  refusal.c matches them; docs/validate.md's table
 * "Signatures" lists them row for row, and tests/unit/test_sig.c fails
 * when the two differ.
 *
 * A row matches when its pattern (PCRE2, ignoring case) matches its
 * field and every condition in its `when` holds.  The first row that
 * matches names the page: `blocked WHAT` or `consent WHAT`.
 */
#ifndef VALIDATE_SIG_H
#define VALIDATE_SIG_H

#include <stddef.h>

/* A refusal page says what it is in a few sentences; an article about
 * one (a post on captchas, a news story on Cloudflare) is longer.  The
 * pages the sources show carry about 100 (a challenge) to 1100 (Google's
 * unusual-traffic page, an IAB TCF consent wall) characters of text; an
 * article quoting them runs to thousands.  A short news item that
 * quotes a challenge word for word is the price of the bound. */
#define SIG_SHORT_CHARS 1500

/* A page whose main content parse --main found under this many
 * characters (its own CT_MIN_MAIN: not an article) has nothing besides
 * the consent wall: parse drops the wall from main_text. */
#define SIG_BARE_MAIN 200

/* Body rows read the first bytes only: the markers are in the head or
 * the first screen (a Cloudflare interstitial's script, 118 KB pages
 * included), and a 16 MB body must not be scanned once per row. */
#define SIG_BODY_BYTES 131072

enum sig_kind { SIG_BLOCKED, SIG_CONSENT };

/* What a row's pattern is matched against. */
enum sig_field {
	SIG_TITLE, SIG_TEXT, SIG_DESCRIPTION,
	SIG_FINAL_URL,   /* the URL that answered: a redirect's target */
	SIG_BODY,        /* the HTML, when the record still has it */
	SIG_HEADER,      /* the response header named by `header` */
};

/* Conditions, besides the pattern. */
enum {
	SIG_SHORT = 1,     /* `text` under SIG_SHORT_CHARS characters */
	SIG_REFUSED = 2,   /* status 401, 403, 429 or 503 */
	SIG_UNASKED = 4,   /* `url`, what was asked for, is no login page */
	SIG_BARE = 8,      /* short, and main_text (when the record has
			    * one) under SIG_BARE_MAIN */
};

struct sig {
	enum sig_kind kind;
	const char *what;      /* the reason's detail */
	enum sig_field field;
	const char *header;    /* SIG_HEADER: its name, lowercase */
	unsigned when;
	const char *pattern;
	const char *source;    /* where the marker is documented or seen */
};

extern const struct sig sig_table[];
extern const size_t sig_count;

/* URLs of login pages, for SIG_UNASKED: a redirect there from a page
 * that is not one is a login wall. */
extern const char sig_login_url[];

#endif
