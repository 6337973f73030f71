/* raw — render --raw: the page's own answer as fetch --raw keeps it.
 *
 * DevTools tells of the main document's request in pieces, in no set
 * order: Network.requestWillBeSent for each hop (a redirect's answer
 * comes with the next hop's), Network.responseReceived for the last,
 * and the *ExtraInfo events with the headers as they went on the wire
 * (cookies among them; the answer's headersText where HTTP/1 gives it),
 * one of each a hop, matched by their order.  Network.getResponseBody
 * gives the payload, decoded: the exchange says so (content_decoded)
 * and its headers no longer claim a content coding.
 */
#include "render.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exchange.h"
#include "xalloc.h"

void
raw_free(raw_log *l)
{
	free(l->main_id);
	json_decref(l->hops);
	json_decref(l->extra);
	free(l->payload);
	memset(l, 0, sizeof *l);
}

/* The ExtraInfo events of request id, {"req": [...], "res": [...]}. */
static json_t *
extra_of(raw_log *l, const char *id)
{
	if (!l->extra)
		l->extra = json_object();
	json_t *e = json_object_get(l->extra, id);
	if (!e) {
		e = json_pack("{s:[], s:[]}", "req", "res");
		json_object_set_new(l->extra, id, e);
	}
	return e;
}

void
raw_event(raw_log *l, const char *method, json_t *params, int main_doc)
{
	const char *id = json_string_value(json_object_get(params, "requestId"));
	if (!id)
		return;
	int req = strcmp(method, "Network.requestWillBeSentExtraInfo") == 0;
	if (req || strcmp(method, "Network.responseReceivedExtraInfo") == 0) {
		/* Kept for the page's own request only; until that is known,
		 * for every request. */
		if (!l->main_id || strcmp(l->main_id, id) == 0)
			json_array_append(json_object_get(extra_of(l, id), req ? "req" : "res"), params);
		return;
	}
	if (!main_doc)
		return;
	if (strcmp(method, "Network.requestWillBeSent") == 0) {
		if (!l->main_id || strcmp(l->main_id, id) != 0) {
			/* The page's request, or a script's navigation to a new
			 * document: the exchanges are the last document's. */
			free(l->main_id);
			l->main_id = xstrdup(id);
			json_decref(l->hops);
			l->hops = json_array();
			json_t *mine = json_incref(json_object_get(l->extra, id));
			json_decref(l->extra);
			l->extra = json_object();
			if (mine)
				json_object_set_new(l->extra, id, mine);
		}
		size_t n = json_array_size(l->hops);
		json_t *rr = json_object_get(params, "redirectResponse");
		if (rr && n)
			json_object_set(json_array_get(l->hops, n - 1), "response", rr);
		json_t *r = json_object_get(params, "request");
		json_array_append_new(l->hops, json_pack("{s:O?, s:O?, s:O?, s:O?}",
			"url", json_object_get(r, "url"), "method", json_object_get(r, "method"),
			"date", json_object_get(params, "wallTime"), "headers", json_object_get(r, "headers")));
	} else if (strcmp(method, "Network.responseReceived") == 0 && l->main_id &&
		   strcmp(l->main_id, id) == 0 && json_array_size(l->hops)) {
		json_object_set(json_array_get(l->hops, json_array_size(l->hops) - 1), "response",
				json_object_get(params, "response"));
	}
}

const char *
raw_body_id(const raw_log *l)
{
	return l->main_id;
}

unsigned char *
raw_unbase64(const char *s, size_t *len)
{
	size_t n = strlen(s);
	unsigned char *o = malloc(n / 4 * 3 + 3);
	if (!o)
		xalloc_die();
	uint32_t acc = 0;
	int bits = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
				       s[i]);
		if (!p || !s[i])
			continue;   /* '=' padding, whitespace */
		acc = acc << 6 | (uint32_t)(p - "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/");
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			o[k++] = (unsigned char)(acc >> bits);
		}
	}
	*len = k;
	return o;
}

void
raw_payload(raw_log *l, const char *body, size_t n, int base64, size_t max)
{
	free(l->payload);
	l->payload = NULL;
	l->payload_len = 0;
	if (!body) {
		l->payload_cut = 1;   /* DevTools had none: a page still loading */
		return;
	}
	if (base64) {
		l->payload = (char *)raw_unbase64(body, &l->payload_len);
	} else {
		l->payload = xmalloc(n + 1);
		memcpy(l->payload, body, n);
		l->payload_len = n;
	}
	if (l->payload_len > max) {
		l->payload_len = max;
		l->payload_cut = 1;
	}
}

/* DevTools' protocol name ("http/1.1", "h2", "h3") as fetch writes an
 * HTTP version. */
static const char *
version_word(const char *protocol)
{
	if (!protocol)
		return "1.1";
	if (strcasecmp(protocol, "http/1.0") == 0)
		return "1.0";
	if (strcasecmp(protocol, "h2") == 0)
		return "2";
	if (strncasecmp(protocol, "h3", 2) == 0 || strcasecmp(protocol, "quic") == 0)
		return "3";
	return "1.1";
}

/* Appends string s to b. */
static void
put(msgpack_sbuffer *b, const char *s)
{
	msgpack_sbuffer_write(b, s, strlen(s));
}

/* Appends a DevTools headers object as header lines (a repeated
 * header's values, which DevTools joins with newlines, one a line;
 * HTTP/2's pseudo-headers left out: the first line says them), then the
 * blank line.  With decoded, Content-Encoding and then Content-Length
 * are written as X-Orig-: the payload beside them has neither. */
static void
put_headers(msgpack_sbuffer *b, json_t *h, int decoded)
{
	const char *k;
	json_t *v;
	int coded = 0;
	json_object_foreach(h, k, v)
		coded |= strcasecmp(k, "content-encoding") == 0;
	json_object_foreach(h, k, v) {
		const char *s = json_string_value(v);
		if (!s || k[0] == ':')
			continue;
		int orig = decoded && (strcasecmp(k, "content-encoding") == 0 ||
				       (coded && strcasecmp(k, "content-length") == 0));
		for (const char *p = s;;) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			if (orig)
				put(b, "X-Orig-");
			put(b, k);
			put(b, ": ");
			msgpack_sbuffer_write(b, p, n);
			put(b, "\r\n");
			if (!nl)
				break;
			p = nl + 1;
		}
	}
	put(b, "\r\n");
}

/* headersText as received, with decoded its Content-Encoding line and
 * then Content-Length as X-Orig- (put_headers' rule). */
static void
put_text(msgpack_sbuffer *b, const char *text, int decoded)
{
	int coded = decoded && strcasestr(text, "\ncontent-encoding:") != NULL;
	const char *const orig[] = { "content-encoding", coded ? "content-length" : NULL, NULL };
	size_t n;
	char *out = exchange_head_rewrite(text, strlen(text), decoded ? orig : NULL, NULL, &n);
	msgpack_sbuffer_write(b, out, n);
	free(out);
}

/* The request target of URL u: its path and query, "/" for none. */
static void
put_target(msgpack_sbuffer *b, const char *u)
{
	const char *p = strstr(u, "://");
	p = p ? p + 3 : u;
	p += strcspn(p, "/?#");
	size_t n = strcspn(p, "#");
	if (!n || *p != '/')
		put(b, "/");
	msgpack_sbuffer_write(b, p, n);
}

/* Whether a headers object says the body came chunked. */
static int
chunked(json_t *h)
{
	const char *k;
	json_t *v;
	json_object_foreach(h, k, v)
		if (strcasecmp(k, "transfer-encoding") == 0 && json_string_value(v) &&
		    strcasestr(json_string_value(v), "chunked"))
			return 1;
	return 0;
}

void
raw_pack(raw_log *l, rec_build *rb)
{
	size_t nh = json_array_size(l->hops), n = 0;
	for (size_t i = 0; i < nh; i++)
		n += json_object_get(json_array_get(l->hops, i), "response") != NULL;
	if (!n)
		return;
	json_t *ex = json_object_get(l->extra, l->main_id);
	msgpack_packer *pk = rec_key(rb, "exchanges");
	msgpack_pack_array(pk, n);
	const char *ip = "", *version = "1.1";
	char ipbuf[64];
	for (size_t i = 0; i < nh; i++) {
		json_t *hop = json_array_get(l->hops, i), *r = json_object_get(hop, "response");
		if (!r)
			continue;
		int last = i + 1 == nh;
		json_t *rqx = json_array_get(json_object_get(ex, "req"), i);
		json_t *rsx = json_array_get(json_object_get(ex, "res"), i);
		version = version_word(json_string_value(json_object_get(r, "protocol")));
		const char *url = json_string_value(json_object_get(hop, "url"));
		const char *method = json_string_value(json_object_get(hop, "method"));
		msgpack_sbuffer req, head;
		msgpack_sbuffer_init(&req);
		msgpack_sbuffer_init(&head);
		put(&req, method ? method : "GET");
		put(&req, " ");
		put_target(&req, url ? url : "");
		put(&req, " HTTP/");
		put(&req, version);
		put(&req, "\r\n");
		put_headers(&req,
			    json_object_get(rqx ? rqx : hop, "headers"), 0);
		json_t *rh = json_object_get(rsx ? rsx : r, "headers");
		const char *text = json_string_value(json_object_get(rsx, "headersText"));
		if (!text)
			text = json_string_value(json_object_get(r, "headersText"));
		if (text) {
			put_text(&head, text, last);
		} else {
			char line[128];
			const char *st = json_string_value(json_object_get(r, "statusText"));
			snprintf(line, sizeof line, "HTTP/%s %lld %.80s\r\n", version,
				 (long long)json_integer_value(json_object_get(r, "status")), st ? st : "");
			put(&head, line);
			put_headers(&head, rh, last);
		}
		/* DevTools writes a v6 address in brackets; fetch's ip has
		 * none. */
		ip = json_string_value(json_object_get(r, "remoteIPAddress"));
		size_t il = ip ? strlen(ip) : 0;
		if (il > 2 && il < sizeof ipbuf && ip[0] == '[') {
			snprintf(ipbuf, sizeof ipbuf, "%.*s", (int)il - 2, ip + 1);
			ip = ipbuf;
		}
		exchange_parts x = {
			.url = url ? url : "", .ip = ip ? ip : "", .http_version = version,
			.date = json_number_value(json_object_get(hop, "date")),
			.req = req.data, .req_len = req.size, .head = head.data, .head_len = head.size,
			.chunked = chunked(rh),
			/* DevTools keeps no redirect's payload. */
			.payload_cut = last ? l->payload_cut : 1,
			.payload = last ? l->payload : NULL, .payload_len = last ? l->payload_len : 0,
			.decoded = last,
		};
		exchange_pack(pk, &x, R.o.warc_redact);
		msgpack_sbuffer_destroy(&req);
		msgpack_sbuffer_destroy(&head);
	}
	rec_put_str(rb, "ip", ip ? ip : "");
	rec_put_str(rb, "http_version", version);
}
