/* exchange — packing one HTTP exchange of --raw (exchange.h). */
#include "exchange.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "url.h"
#include "xalloc.h"

/* Whether header line l (n bytes) is one redact names. */
static int
redacted(const struct curl_slist *redact, const char *l, size_t n)
{
	for (const struct curl_slist *r = redact; r; r = r->next) {
		size_t k = strlen(r->data);
		if (n > k && l[k] == ':' && strncasecmp(l, r->data, k) == 0)
			return 1;
	}
	return 0;
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
	/* A line grows by at most " ***" for an empty value. */
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += b[i] == '\n';
	char *out = xmalloc(len + lines * 4 + 1);
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		const char *l = b + i, *nl = memchr(l, '\n', len - i);
		size_t n = nl ? (size_t)(nl - l) + 1 : len - i;
		const char *colon = memchr(l, ':', n);
		if (colon && redacted(redact, l, n)) {
			size_t keep = (size_t)(colon - l) + 1;
			const char *tail = n >= 2 && l[n - 2] == '\r' ? " ***\r\n" : nl ? " ***\n" : " ***";
			memcpy(out + o, l, keep);
			o += keep;
			memcpy(out + o, tail, strlen(tail));
			o += strlen(tail);
		} else {
			memcpy(out + o, l, n);
			o += n;
		}
		i += n;
	}
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
