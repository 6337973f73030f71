/* fetcherr — the table of fetch's error words.  Each row is copied to
 * docs/records.md verbatim; test_fetcherr checks that it still is. */
#include "fetcherr.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "url.h"

const fetcherr_row fetcherr_table[FETCHERR_COUNT] = {
	[FETCHERR_BAD_URL] = { "bad_url", FETCHERR_UNSENT, 0,
		"not an absolute URL (also: an input record without `url`)" },
	[FETCHERR_SCHEME] = { "scheme", FETCHERR_FINAL, 0,
		"not http or https, in the input or in a redirect" },
	[FETCHERR_ROBOTS] = { "robots", FETCHERR_UNSENT, 0,
		"refused by the host's robots.txt, or its robots.txt answered 5xx, 429 or timed out"
		" on an open connection every time (RFC 9309's unreachable: disallow all)" },
	[FETCHERR_DNS] = { "dns", FETCHERR_FINAL, 0,
		"the host name did not resolve" },
	[FETCHERR_CONNECT] = { "connect", FETCHERR_RETRIED, 0,
		"connection refused or unreachable (retried only at a host that answered before)" },
	[FETCHERR_TLS] = { "tls", FETCHERR_FINAL, 0,
		"TLS handshake or certificate failure" },
	[FETCHERR_PROXY] = { "proxy", FETCHERR_FINAL, 0,
		"the proxy did not resolve, could not be reached, or refused the tunnel" },
	[FETCHERR_TIMEOUT] = { "timeout", FETCHERR_RETRIED, 0,
		"`--timeout`, `--connect-timeout` or the low-speed limit hit" },
	[FETCHERR_RESET] = { "reset", FETCHERR_RETRIED, 0,
		"connection reset, closed early (also inside the headers), or a malformed response" },
	[FETCHERR_TOO_LARGE] = { "too_large", FETCHERR_FINAL, 0,
		"the decoded body passed `--max-body`, or one response header line passed libcurl's 100 KiB" },
	[FETCHERR_REDIRECTS] = { "redirects", FETCHERR_FINAL, 0,
		"a redirect loop, or more than `--max-redirs` redirects" },
	[FETCHERR_OFFSITE_REDIRECT] = { "offsite_redirect", FETCHERR_FINAL, 0,
		"a redirect outside `--redirects same-host` or `same-site`" },
	[FETCHERR_PRIVATE_ADDRESS] = { "private_address", FETCHERR_FINAL, 0,
		"a redirect from a public address into `--private-ranges`" },
	[FETCHERR_ENCODING] = { "encoding", FETCHERR_FINAL, 0,
		"the body's content encoding could not be decoded" },
	[FETCHERR_RETRIES_EXHAUSTED] = { "retries_exhausted", FETCHERR_VERDICT, 1,
		"the last answer was a status in `--retry-on` and no retry was left (`status` holds it)" },
	[FETCHERR_RETRY_AFTER] = { "retry_after", FETCHERR_VERDICT, 1,
		"the server asked to wait longer than `--max-retry-after`" },
	[FETCHERR_DEADLINE] = { "deadline", FETCHERR_VERDICT, 0,
		"`--max-elapsed` passed before the first attempt, while the host was failing" },
	[FETCHERR_INTERRUPTED] = { "interrupted", FETCHERR_VERDICT, 0,
		"fetch was stopped by a signal before this URL finished" },
	[FETCHERR_ATTEMPTS_EXHAUSTED] = { "attempts_exhausted", FETCHERR_VERDICT, 0,
		"with `--queue`: the URL was leased `--max-attempts` times and never acknowledged"
		" (its records never reached `sink --queue`, e.g. dropped by `validate --drop`,"
		" or a fetch died holding it); no request was made for this record" },
	[FETCHERR_RENDER_CRASH] = { "render_crash", FETCHERR_FINAL, 0,
		"render: the page's renderer process crashed (out of memory, killed, a bug); the other"
		" tabs go on" },
	[FETCHERR_BROWSER_LOST] = { "browser_lost", FETCHERR_VERDICT, 0,
		"render: Chromium exited or hung with this page open, and again on its second try" },
	[FETCHERR_OTHER] = { "other", FETCHERR_FINAL, 0,
		"anything else curl reported; see `error_detail`" },
};

const char *
fetcherr_word(enum fetcherr e)
{
	return (unsigned)e < FETCHERR_COUNT ? fetcherr_table[e].word : NULL;
}

int
fetcherr_retried(enum fetcherr e)
{
	return e != FETCHERR_NONE && (unsigned)e < FETCHERR_COUNT &&
	       fetcherr_table[e].retry == FETCHERR_RETRIED;
}

int
fetcherr_body(enum fetcherr e)
{
	return e == FETCHERR_NONE || ((unsigned)e < FETCHERR_COUNT && fetcherr_table[e].body);
}

char *
fetcherr_hop_detail(const char *to, const char *why)
{
	if (!to)
		return strdup(why);
	char detail[512], *shown = url_shown(to);
	snprintf(detail, sizeof detail, "redirect to %.400s: %s", shown ? shown : to, why);
	free(shown);
	return strdup(detail);
}
