/* fetcherr — fetch's error vocabulary: the words a record's `error` key
 * may hold, in one table.  Classification (fetcher/xfer.c), the retry
 * policy, the record writer and --stats read it; docs/records.md's
 * "The `error` vocabulary" table shows it, and tests/unit/test_fetcherr
 * fails when the two disagree.  It lives in lib/ so that test can link
 * it.
 *
 * A new word is one enum constant and one row here, one row in the
 * docs; nothing else compares strings.
 */
#ifndef SLUICE_FETCHERR_H
#define SLUICE_FETCHERR_H

/* The words, in the docs' order.  FETCHERR_NONE (0, false) is a URL
 * that ended with a final HTTP response. */
enum fetcherr {
	FETCHERR_NONE,
	FETCHERR_BAD_URL, FETCHERR_SCHEME, FETCHERR_ROBOTS, FETCHERR_DNS,
	FETCHERR_CONNECT, FETCHERR_TLS, FETCHERR_PROXY, FETCHERR_TIMEOUT, FETCHERR_RESET,
	FETCHERR_TOO_LARGE, FETCHERR_REDIRECTS, FETCHERR_OFFSITE_REDIRECT,
	FETCHERR_PRIVATE_ADDRESS, FETCHERR_ENCODING, FETCHERR_RETRIES_EXHAUSTED,
	FETCHERR_RETRY_AFTER, FETCHERR_DEADLINE, FETCHERR_INTERRUPTED,
	FETCHERR_ATTEMPTS_EXHAUSTED, FETCHERR_RENDER_CRASH, FETCHERR_BROWSER_LOST,
	FETCHERR_OTHER,
	FETCHERR_COUNT
};

/* The docs' "retried" column: whether fetch tries the URL again itself
 * (up to --retries) after an attempt that ended so. */
enum fetcherr_retry {
	FETCHERR_RETRIED,        /* "yes": a network failure worth another try */
	FETCHERR_FINAL,          /* "no": the same request would fail the same way */
	FETCHERR_UNSENT,         /* "no, never requested": refused before any request */
	FETCHERR_VERDICT         /* "—": fetch's own end, after or instead of retries */
};

typedef struct fetcherr_row {
	const char *word;        /* as written in the record */
	enum fetcherr_retry retry;
	int body;                /* the record keeps the last answer's body */
	const char *meaning;     /* the docs' "meaning" cell, Markdown */
} fetcherr_row;

/* Indexed by enum fetcherr; row FETCHERR_NONE is all zero. */
extern const fetcherr_row fetcherr_table[FETCHERR_COUNT];

/* e's word; NULL for FETCHERR_NONE. */
const char *fetcherr_word(enum fetcherr e);

/* Whether fetch retries an attempt that ended with e. */
int fetcherr_retried(enum fetcherr e);

/* Whether a record ending with e keeps its body (true for NONE). */
int fetcherr_body(enum fetcherr e);

/* An error_detail (malloc'd, NULL when out of memory): why, after
 * "redirect to TO: " when the refusal is of a redirect target (to not
 * NULL), its password shown as ***. */
char *fetcherr_hop_detail(const char *to, const char *why);

#endif
