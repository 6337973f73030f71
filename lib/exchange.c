/* exchange — packing one HTTP exchange of --raw (exchange.h). */
#include "exchange.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "url.h"
#include "xalloc.h"

/* Whether header line l (n bytes) is one of names (NULL-terminated),
 * or of redact's. */
static int
named(const char *const *names, const struct curl_slist *redact, const char *l, size_t n)
{
	for (size_t i = 0; names && names[i]; i++) {
		size_t k = strlen(names[i]);
		if (n > k && l[k] == ':' && strncasecmp(l, names[i], k) == 0)
			return 1;
	}
	for (const struct curl_slist *r = redact; r; r = r->next) {
		size_t k = strlen(r->data);
		if (n > k && l[k] == ':' && strncasecmp(l, r->data, k) == 0)
			return 1;
	}
	return 0;
}

char *
exchange_head_rewrite(const char *h, size_t n, const char *const *orig,
		      const struct curl_slist *redact, size_t *out_n)
{
	/* A line grows by at most "X-Orig-" and " ***" (an empty value). */
	size_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += h[i] == '\n';
	char *out = xmalloc(n + lines * 11 + 1);
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		const char *l = h + i, *nl = memchr(l, '\n', n - i);
		size_t len = nl ? (size_t)(nl - l) + 1 : n - i;
		const char *colon = memchr(l, ':', len);
		if (i && colon && named(orig, NULL, l, len)) {
			memcpy(out + o, "X-Orig-", 7);
			o += 7;
		}
		if (i && colon && named(NULL, redact, l, len)) {
			size_t keep = (size_t)(colon - l) + 1;
			const char *tail = len >= 2 && l[len - 2] == '\r' ? " ***\r\n" : nl ? " ***\n" : " ***";
			memcpy(out + o, l, keep);
			o += keep;
			memcpy(out + o, tail, strlen(tail));
			o += strlen(tail);
		} else {
			memcpy(out + o, l, len);
			o += len;
		}
		i += len;
	}
	*out_n = o;
	return out;
}

/* Packs header block b[0..len) as bin, the values of redact's names as
 * ***: a WARC records what was sent, unless the user must share it. */
static void
pack_head(msgpack_packer *pk, const char *b, size_t len, const struct curl_slist *redact)
{
	if (!b)
		b = "";
	if (!redact) {
		msgpack_pack_bin_with_body(pk, b, len);
		return;
	}
	size_t o;
	char *out = exchange_head_rewrite(b, len, NULL, redact, &o);
	msgpack_pack_bin_with_body(pk, out, o);
	free(out);
}

static void
pack_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str_with_body(pk, s, strlen(s));
}

void
exchange_pack(msgpack_packer *pk, const exchange_parts *x, const struct curl_slist *redact)
{
	msgpack_pack_map(pk, 7 + (x->chunked != 0) + (x->payload_cut != 0) + (x->decoded != 0));
	pack_str(pk, "url");
	char *shown = url_shown(x->url);
	pack_str(pk, shown ? shown : x->url);
	free(shown);
	pack_str(pk, "date");
	msgpack_pack_double(pk, x->date);
	pack_str(pk, "ip");
	pack_str(pk, x->ip ? x->ip : "");
	pack_str(pk, "http_version");
	pack_str(pk, x->http_version);
	pack_str(pk, "request");
	pack_head(pk, x->req, x->req_len, redact);
	pack_str(pk, "response");
	pack_head(pk, x->head, x->head_len, redact);
	pack_str(pk, "payload");
	msgpack_pack_bin_with_body(pk, x->payload ? x->payload : "", x->payload_len);
	if (x->chunked) {
		pack_str(pk, "transfer_encoding");
		pack_str(pk, "chunked");
	}
	if (x->payload_cut) {
		pack_str(pk, "payload_cut");
		msgpack_pack_true(pk);
	}
	if (x->decoded) {
		pack_str(pk, "content_decoded");
		msgpack_pack_true(pk);
	}
}
