/* record — a job's one record: the keys fetch owns, packed from the
 * job and its last transfer, then the input record's other keys passed
 * through; written to output, counted, and the job freed. */
#include "fetch.h"

#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include "tm.h"
#include "url.h"

/* Keys fetch writes: an input record's stale values of these never pass
 * through, even when this attempt leaves one of them out (`error` on a
 * success). */
static const char *const fetch_keys[] = {
	"url", "final_url", "host", "status", "error", "error_detail", "ctype",
	"headers", "body", "bytes", "fetched_at", "time_ms", "attempts", "redirects", "not_modified",
	"exchanges", "ip", "http_version",
	NULL
};

/* Packs the response headers that xfer.c kept, as a map. */
static void
pack_headers(const job *j)
{
	msgpack_packer *pk = rec_key(&F.build, "headers");
	uint32_t n = 0;
	for (size_t i = 0; i < j->hdrs_len; i += strlen(j->hdrs + i) + 1)
		n++;
	msgpack_pack_map(pk, n / 2);
	for (size_t i = 0; i < j->hdrs_len; i += strlen(j->hdrs + i) + 1) {
		size_t l = strlen(j->hdrs + i);
		msgpack_pack_str(pk, l);
		msgpack_pack_str_body(pk, j->hdrs + i, l);
	}
}

/* Packs j's redirect chain as `redirects`, if any: each hop's URL (its
 * password shown as ***) and status. */
static void
pack_chain(const job *j)
{
	if (!j->n_chain)
		return;
	msgpack_packer *pk = rec_key(&F.build, "redirects");
	msgpack_pack_array(pk, (size_t)j->n_chain);
	for (int i = 0; i < j->n_chain; i++) {
		msgpack_pack_map(pk, 2);
		msgpack_pack_str_with_body(pk, "url", 3);
		char *shown = url_shown(j->chain[i].url);
		const char *u = shown ? shown : j->chain[i].url;
		msgpack_pack_str_with_body(pk, u, strlen(u));
		free(shown);
		msgpack_pack_str_with_body(pk, "status", 6);
		msgpack_pack_long(pk, j->chain[i].status);
	}
}

/* HTTP version v (CURL_HTTP_VERSION_*) as the status line writes it. */
static const char *
version_word(long v)
{
	switch (v) {
	case CURL_HTTP_VERSION_1_0: return "1.0";
	case CURL_HTTP_VERSION_2_0: return "2";
	case CURL_HTTP_VERSION_3: return "3";
	default: return "1.1";
	}
}

/* Packs one exchange of --raw as a map (lib/exchange). */
static void
pack_exchange(msgpack_packer *pk, const exchange *x)
{
	exchange_parts e = {
		.url = x->url, .date = x->date, .ip = x->ip,
		.http_version = version_word(x->http_version),
		.req = x->req.p, .req_len = x->req.len, .head = x->head.p, .head_len = x->head.len,
		.payload = x->payload.p, .payload_len = x->payload.len,
		.chunked = x->chunked, .payload_cut = x->payload_cut,
	};
	exchange_pack(pk, &e, F.o.warc_redact);
}

/* --raw: `exchanges`, every hop's and the last answer's, and that
 * answer's `ip` and `http_version`; only exchanges that got an answer,
 * of a record that keeps its body. */
static void
pack_raw(const job *j)
{
	int last = j->raw.url && j->raw.head.len > 0;
	int n = last;
	for (int i = 0; i < j->n_chain; i++)
		n += j->hops_raw && j->hops_raw[i].head.len > 0;
	if (!n)
		return;
	msgpack_packer *pk = rec_key(&F.build, "exchanges");
	msgpack_pack_array(pk, (size_t)n);
	for (int i = 0; i < j->n_chain; i++)
		if (j->hops_raw && j->hops_raw[i].head.len > 0)
			pack_exchange(pk, &j->hops_raw[i]);
	if (last) {
		pack_exchange(pk, &j->raw);
		rec_put_str(&F.build, "ip", j->raw.ip);
		rec_put_str(&F.build, "http_version", version_word(j->raw.http_version));
	}
}

/* The last URL that answered j: the one its last attempt asked when it
 * got a status (in flight or waiting to be retried), else the last hop
 * of its chain (a hop refused before it was sent, or one that got no
 * answer); NULL when nothing answered. */
static const char *
answered(const job *j)
{
	if (j->status > 0) {
		char *u = NULL;
		if (j->easy && curl_easy_getinfo(j->easy, CURLINFO_EFFECTIVE_URL, &u) == CURLE_OK && u)
			return u;
		if (!j->target || j->hop_attempts)
			return job_target(j);
	}
	return j->n_chain ? j->chain[j->n_chain - 1].url : NULL;
}

void
record_emit(job *j)
{
	rec_build *b = &F.build;
	rec_build_reset(b);
	url_put(b, "url", j->url);
	if (j->hname)
		rec_put_str(b, "host", j->hname);
	rec_put_int(b, "status", j->status);
	if (j->error) {
		rec_put_str(b, "error", fetcherr_word(j->error));
		if (j->error_detail)
			rec_put_str(b, "error_detail", j->error_detail);
	}
	rec_put_int(b, "attempts", j->prior + j->attempts);
	rec_put_double(b, "fetched_at", tm_wall());
	pack_chain(j);
	if (F.o.raw && fetcherr_body(j->error))   /* a dead letter archives nothing */
		pack_raw(j);
	const char *final = answered(j);
	if (final)
		url_put(b, "final_url", final);
	if (j->easy) {
		char *ctype = NULL;
		curl_off_t us = 0;
		curl_easy_getinfo(j->easy, CURLINFO_CONTENT_TYPE, &ctype);
		curl_easy_getinfo(j->easy, CURLINFO_TOTAL_TIME_T, &us);
		if (ctype)
			rec_put_str(b, "ctype", ctype);
		rec_put_double(b, "time_ms", (double)us / 1000.0);
		if (j->status)
			pack_headers(j);
		if (job_not_modified(j))
			rec_put_bool(b, "not_modified", 1);   /* and no body: none came */
		else if (fetcherr_body(j->error)) {
			rec_put_bin(b, "body", j->body ? j->body : "", j->body_len);
			rec_put_int(b, "bytes", (int64_t)j->body_len);
		}
	}
	rec_out_pass(output_rec(), b, j->in, j->in_len, fetch_keys);
	counters_record(j);
	output_record();
	job_drop(j);
}

void
record_fail(job *j, enum fetcherr e, char *detail)
{
	job_set_error(j, e, detail);
	record_emit(j);
}
