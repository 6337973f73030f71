/* exchange — one HTTP exchange as an archive keeps it, packed as a map
 * of a record's `exchanges` (docs/records.md): fetch --raw's (libcurl's
 * bytes) and render --raw's (DevTools' account of the page's answer).
 * Shared so both write the same keys and redact alike. */
#ifndef SLUICE_EXCHANGE_H
#define SLUICE_EXCHANGE_H

#include <curl/curl.h>
#include <msgpack.h>
#include <stddef.h>

typedef struct exchange_parts {
	const char *url;               /* the URL requested */
	double date;                   /* unix s: when the request was sent */
	const char *ip;                /* the address answering, "" unknown */
	const char *http_version;      /* "1.0", "1.1", "2" or "3" */
	const char *req, *head, *payload;
	size_t req_len, head_len, payload_len;
	int chunked;                   /* the payload's chunked coding was undone */
	int payload_cut;               /* it is not whole: cut at --max-body, or not had */
	int decoded;                   /* its content coding was undone (render's) */
} exchange_parts;

/* Header block h[0..n) (a request or status line, then header lines)
 * rewritten line by line past its first: a header orig names
 * (NULL-terminated, any case; NULL: none) kept as X-Orig-Name, as an
 * archive keeps a coding that was undone; the value of one redact names
 * shown as ***.  Malloc'd, its length in *out_n. */
char *exchange_head_rewrite(const char *h, size_t n, const char *const *orig,
			    const struct curl_slist *redact, size_t *out_n);

/* Packs x as one exchange map: the URL's password shown as ***, and in
 * the request and response header blocks the value of every header
 * redact names (case-insensitively; NULL: none) as ***, for an archive
 * that must be shared. */
void exchange_pack(msgpack_packer *pk, const exchange_parts *x, const struct curl_slist *redact);

#endif
