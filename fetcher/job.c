/* job — one input URL from its first read to its one output record:
 * making it, writing its record (the keys fetch owns, the input record's
 * other keys passed through) and freeing it. */
#include "fetch.h"

#include <stdlib.h>
#include <string.h>

#include "tm.h"
#include "url.h"
#include "xalloc.h"

/* Keys fetch writes: an input record's stale values of these never pass
 * through, even when this attempt leaves one of them out (`error` on a
 * success). */
static const char *const fetch_keys[] = {
	"url", "final_url", "host", "status", "error", "error_detail", "ctype",
	"headers", "body", "bytes", "fetched_at", "time_ms", "attempts", "redirects", "not_modified",
	NULL
};

/* Packs the response headers that on_header kept, as a map. */
static void
pack_headers(job *j)
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

/* Writes j's one record and frees it. */
void
job_emit(job *j)
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
	redirect_pack(j);
	if (j->target && !j->easy)
		url_put(b, "final_url", j->target);   /* a hop refused before it was sent */
	if (j->easy) {
		char *final = NULL, *ctype = NULL;
		curl_off_t us = 0;
		curl_easy_getinfo(j->easy, CURLINFO_EFFECTIVE_URL, &final);
		curl_easy_getinfo(j->easy, CURLINFO_CONTENT_TYPE, &ctype);
		curl_easy_getinfo(j->easy, CURLINFO_TOTAL_TIME_T, &us);
		if (final)
			url_put(b, "final_url", final);
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
	if (j->in) {
		msgpack_zone z;
		msgpack_object in = { .type = MSGPACK_OBJECT_NIL };
		size_t off = 0;
		msgpack_zone_init(&z, 2048);
		msgpack_unpack(j->in, j->in_len, &off, &z, &in);
		rec_out_build(output_rec(), b, &in, fetch_keys);
		msgpack_zone_destroy(&z);
	} else {
		rec_out_build(output_rec(), b, NULL, fetch_keys);
	}
	stats_record(j);
	output_record();
	F.alive--;
	job_free(j);
}

job *
job_new(char *url, const char *in, size_t in_len)
{
	if (!url)
		xalloc_die();
	job *j = xcalloc(1, sizeof *j);
	if (in_len) {
		j->in = xmalloc(in_len);
		memcpy(j->in, in, in_len);
	}
	j->in_len = in_len;
	j->url = url;
	F.alive++;
	return j;
}

void
job_drop(job *j)
{
	F.alive--;
	job_free(j);
}

void
job_free(job *j)
{
	if (j->easy)
		xfer_release(j->easy);
	redirect_free(j);
	free(j->url);
	free(j->hname);
	free(j->in);
	free(j->body);
	free(j->hdrs);
	free(j->etag);
	free(j->last_modified);
	curl_slist_free_all(j->req_hdrs);
	free(j->error_detail);
	free(j);
}
