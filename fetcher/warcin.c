/* warcin — fetch --from-warc: the records of WARC files, each HTTP
 * answer (and HTML resource) a fetch-shaped record, in file order,
 * without a request made.
 *
 * The files are read on the loop thread as output takes the records:
 * nothing is read while the output buffer is blocked (the driver's pass
 * calls warcin_want again once it opens), a pipe is read when the loop
 * says it is readable, and a pass reads at most PASS_BYTES so that
 * signals and output are seen in between.  Work is done in the order
 * that saves most: the WARC header decides first (type, target,
 * --include and --exclude), then the HTTP status line (--status), and
 * only a record kept has its digests checked and its body decoded.
 */
#include "fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunked.h"
#include "decode.h"
#include "msg.h"
#include "num.h"
#include "url.h"
#include "vre.h"
#include "warc.h"
#include "xalloc.h"

#define PASS_BYTES ((uint64_t)8 << 20)   /* block bytes one pass reads */

static char **files;
static int nfiles, fi = -1;
static const char *name;         /* the file read, as given ("-": stdin) */
static int fd = -1, saved_flags = -1;
static warc_reader *rd;
static uv_poll_t *poll_r;        /* the file is a pipe: watched while we wait */
static int polling;
static uv_idle_t idle;           /* a pass stopped at PASS_BYTES: come back */
static int started;
static warc_http http;
static decoder dec;
static char *joined;             /* a repeated header's values, joined */
static size_t joined_cap;
int warcin_failed_open;

/* What was read, for the notice at the end. */
#define N_TYPES 8
static struct {
	unsigned long long read, written, not_http, not_html, bad_http, too_large, filtered;
	struct { char name[24]; unsigned long long n; } type[N_TYPES];   /* skipped by type */
	unsigned long long other_types;
} n;

static void
close_file(void)
{
	if (fd < 0)
		return;
	if (poll_r) {
		uv_close((uv_handle_t *)poll_r, (uv_close_cb)free);
		poll_r = NULL;
	}
	polling = 0;
	if (saved_flags >= 0)
		fcntl(fd, F_SETFL, saved_flags);
	saved_flags = -1;
	if (fd > 0)
		close(fd);
	fd = -1;
	warc_close(rd);
	rd = NULL;
}

/* Opens the next file that opens: 1, or 0 after the last. */
static int
next_file(void)
{
	close_file();
	while (++fi < (nfiles ? nfiles : 1)) {
		name = nfiles ? files[fi] : "-";
		fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			msg_warn("cannot open '%s': %s", name, strerror(errno));
			warcin_failed_open = 1;
			continue;
		}
		struct stat st;
		if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
			/* A pipe must not block the loop: read what it has,
			 * then wait for it to be readable. */
			poll_r = xmalloc(sizeof *poll_r);
			if (uv_poll_init(F.loop, poll_r, fd) != 0) {
				free(poll_r);
				poll_r = NULL;   /* e.g. /dev/null: read it directly */
			} else if ((saved_flags = fcntl(fd, F_GETFL)) >= 0) {
				fcntl(fd, F_SETFL, saved_flags | O_NONBLOCK);
			}
		}
		rd = warc_open(fd, F.o.max_body);
		return 1;
	}
	return 0;
}

static void
on_readable(uv_poll_t *p, int status, int events)
{
	(void)p, (void)status, (void)events;   /* the driver's pass reads */
}

static void
on_idle(uv_idle_t *h)
{
	(void)h;   /* the driver's pass reads on */
}

/* Counts a record skipped for its WARC-Type t. */
static void
skip_type(const char *t)
{
	for (int i = 0; i < N_TYPES; i++) {
		if (!n.type[i].name[0] && strlen(t) < sizeof n.type[i].name)
			snprintf(n.type[i].name, sizeof n.type[i].name, "%s", t);
		if (strcasecmp(n.type[i].name, t) == 0) {
			n.type[i].n++;
			return;
		}
	}
	n.other_types++;
}

/* Whether Content-Type ct is media type type (case aside), parameters
 * after it. */
static int
media(const char *ct, const char *type)
{
	size_t k = strlen(type);
	return ct && strncasecmp(ct, type, k) == 0 && (!ct[k] || ct[k] == ';' || ct[k] == ' ');
}

/* Whether a response record's Content-Type says it holds an HTTP
 * answer: application/http, its msgtype response (or not given). */
static int
http_answer(const char *ct)
{
	if (!media(ct, "application/http"))
		return 0;
	const char *m = strcasestr(ct, "msgtype=");
	return !m || strncasecmp(m + 8, "response", 8) == 0 || strncasecmp(m + 8, "\"response\"", 10) == 0;
}

/* Whether url passes --exclude and --include. */
static int
wanted(const char *url)
{
	size_t len = strlen(url);
	for (int i = 0; i < F.o.n_exclude; i++)
		if (vre_match(F.o.exclude[i], url, len))
			return 0;
	for (int i = 0; i < F.o.n_include; i++)
		if (vre_match(F.o.include[i], url, len))
			return 1;
	return F.o.n_include == 0;
}

/* Packs the answer's headers as a map, names lowercase, a repeated
 * header's values joined with ", ", as fetch writes them. */
static void
pack_headers(void)
{
	msgpack_packer *pk = rec_key(&F.build, "headers");
	uint32_t distinct = 0;
	for (size_t i = 0; i < http.n_headers; i++) {
		size_t k = 0;
		while (k < i && strcmp(http.headers[k].name, http.headers[i].name) != 0)
			k++;
		distinct += k == i;
	}
	msgpack_pack_map(pk, distinct);
	for (size_t i = 0; i < http.n_headers; i++) {
		const char *h = http.headers[i].name;
		size_t k = 0, len = 0;
		while (k < i && strcmp(http.headers[k].name, h) != 0)
			k++;
		if (k < i)
			continue;   /* joined with its first */
		for (k = i; k < http.n_headers; k++) {
			if (strcmp(http.headers[k].name, h) != 0)
				continue;
			size_t v = strlen(http.headers[k].value);
			if (len + v + 2 > joined_cap) {
				joined_cap = 2 * (len + v + 2);
				joined = xrealloc(joined, joined_cap);
			}
			if (len) {
				memcpy(joined + len, ", ", 2);
				len += 2;
			}
			memcpy(joined + len, http.headers[k].value, v);
			len += v;
		}
		msgpack_pack_str_with_body(pk, h, strlen(h));
		msgpack_pack_str_with_body(pk, joined, len);
	}
}

/* Packs `warc`: the file, the record's offset and id, and whether the
 * archive cut it (WARC-Truncated's reason). */
static void
pack_origin(const warc_record *rec)
{
	const char *id = warc_get(rec, "WARC-Record-ID");
	const char *cut = warc_get(rec, "WARC-Truncated");
	msgpack_packer *pk = rec_key(&F.build, "warc");
	msgpack_pack_map(pk, 3 + (cut != NULL));
	msgpack_pack_str_with_body(pk, "file", 4);
	msgpack_pack_str_with_body(pk, name, strlen(name));
	msgpack_pack_str_with_body(pk, "offset", 6);
	msgpack_pack_uint64(pk, rec->offset);
	msgpack_pack_str_with_body(pk, "record_id", 9);
	if (id)
		msgpack_pack_str_with_body(pk, id, strlen(id));
	else
		msgpack_pack_nil(pk);
	if (cut) {
		msgpack_pack_str_with_body(pk, "truncated", 9);
		msgpack_pack_str_with_body(pk, cut, strlen(cut));
	}
}

/* One record of the file: written, or skipped and counted. */
static void
one(const warc_record *rec)
{
	n.read++;
	const char *type = warc_get(rec, "WARC-Type");
	const char *ct = warc_get(rec, "Content-Type");
	int response = type && strcasecmp(type, "response") == 0;
	if (!response && !(type && strcasecmp(type, "resource") == 0)) {
		skip_type(type ? type : "untyped");
		return;
	}
	if (response ? !http_answer(ct) : !media(ct, "text/html") && !media(ct, "application/xhtml+xml")) {
		if (response)
			n.not_http++;
		else
			n.not_html++;
		return;
	}
	if (!rec->block) {
		n.too_large++;
		msg_note("%s: record at byte %llu skipped: its block of %llu bytes is over --max-body", name,
			 (unsigned long long)rec->offset, (unsigned long long)rec->length);
		return;
	}
	/* WARC/1.0's grammar put the URI in angle brackets */
	const char *t = warc_get(rec, "WARC-Target-URI");
	size_t tlen = t ? strlen(t) : 0;
	if (tlen >= 2 && t[0] == '<' && t[tlen - 1] == '>')
		t++, tlen -= 2;
	url_parts u;
	const char *why;
	if (!t || url_canon(t, tlen, &u, &why) != 0 || !url_fetchable(u.scheme)) {
		if (t)
			url_parts_free(&u);   /* zeroed when url_canon failed */
		n.not_http++;
		return;
	}
	long status = 200;   /* a resource: the record is the page itself */
	char *body = rec->block;
	size_t len = rec->length;
	if (!wanted(u.canon)) {
		n.filtered++;
		goto done;
	}
	if (response) {
		if (warc_http_parse(&http, rec->block, rec->length) != 0) {
			n.bad_http++;
			goto done;
		}
		status = http.status, body = http.body, len = http.body_len;
	}
	if (!num_in_ranges(status, F.o.status, F.o.n_status)) {
		n.filtered++;
		goto done;
	}
	/* Digests before the chunks are undone in place.  Writers differ on
	 * whether a chunked payload is digested with its chunks or
	 * without: a payload digest that fails is tried on both. */
	const char *pd = warc_get(rec, "WARC-Payload-Digest");
	enum warc_digest block_d = warc_digest_check(warc_get(rec, "WARC-Block-Digest"), rec->block,
						     rec->length);
	enum warc_digest payload_d = warc_digest_check(pd, body, len);
	const char *te = response ? warc_http_header(&http, "transfer-encoding") : NULL;
	if (te && strcasestr(te, "chunked")) {
		/* Stored with its chunks by some writers: undone, unless the
		 * body is not chunked after all (the writer undid them). */
		int whole;
		size_t k = chunked_decode(body, len, &whole);
		if (k || whole) {
			len = k;
			if (payload_d == WARC_DIGEST_BAD)
				payload_d = warc_digest_check(pd, body, len);
		}
	}
	const char *cut = warc_get(rec, "WARC-Truncated");
	const char *ce = response ? warc_http_header(&http, "content-encoding") : NULL;
	const char *out = body;
	size_t out_len = len;
	int rc = ce ? decode_body(&dec, ce, body, len, F.o.max_body, cut != NULL, &out, &out_len) : DECODE_OK;

	rec_build *b = &F.build;
	rec_build_reset(b);
	url_put(b, "url", u.canon);
	url_put(b, "final_url", u.canon);
	rec_put_str(b, "host", u.host);
	rec_put_int(b, "status", status);
	if (rc != DECODE_OK) {
		rec_put_str(b, "error", fetcherr_word(rc == DECODE_TOO_LARGE ? FETCHERR_TOO_LARGE
									     : FETCHERR_ENCODING));
		rec_put_str(b, "error_detail", rc == DECODE_TOO_LARGE ? "the decoded body passed --max-body" :
			    "the body is not of its Content-Encoding");
	}
	const char *ctype = response ? warc_http_header(&http, "content-type") : ct;
	if (ctype)
		rec_put_str(b, "ctype", ctype);
	if (response)
		pack_headers();
	if (rc == DECODE_OK) {
		rec_put_bin(b, "body", out, out_len);
		rec_put_int(b, "bytes", (int64_t)out_len);
	}
	double at = warc_date(warc_get(rec, "WARC-Date"));
	if (at >= 0)
		rec_put_double(b, "fetched_at", at);
	const char *ip = warc_get(rec, "WARC-IP-Address");
	if (ip)
		rec_put_str(b, "ip", ip);
	if (response)
		rec_put_str(b, "http_version", http.version);
	pack_origin(rec);
	if (block_d == WARC_DIGEST_BAD || payload_d == WARC_DIGEST_BAD)
		rec_put_bool(b, "warc_digest_mismatch", 1);
	rec_out_build(output_rec(), b, NULL, NULL);
	output_record();
	n.written++;
done:
	url_parts_free(&u);
}

void
warcin_want(void)
{
	uint64_t read = 0;
	while (started && !F.input_done) {
		if (F.stopping || (!rd && !next_file())) {
			close_file();
			F.input_done = 1;
			break;
		}
		if (output_blocked())
			break;   /* the pass after it opens reads on */
		if (read >= PASS_BYTES) {
			uv_idle_start(&idle, on_idle);
			return;
		}
		warc_record rec;
		int rc = warc_next(rd, &rec);
		if (rc == WARC_OK) {
			read += rec.length + 1;
			one(&rec);
			continue;
		}
		if (rc == WARC_NEED) {
			if (!polling)
				uv_poll_start(poll_r, UV_READABLE, on_readable);
			polling = 1;
			uv_idle_stop(&idle);
			return;
		}
		if (rc != WARC_EOF) {
			msg_warn("%s: %s", name, warc_error(rd));
			if (rc == WARC_IOERR)
				warcin_failed_open = 1;
			else
				F.bad_input = 1;
		}
		close_file();
	}
	if (polling) {
		uv_poll_stop(poll_r);
		polling = 0;
	}
	if (started)
		uv_idle_stop(&idle);
}

void
warcin_init(char **f, int k)
{
	files = f;
	nfiles = k;
	started = 1;
	uv_idle_init(F.loop, &idle);
}

/* Appends ", N WHAT" to s (size cap) when N is not 0. */
static void
count(char *s, size_t cap, unsigned long long k, const char *what)
{
	size_t l = strlen(s);
	if (k && l < cap)
		snprintf(s + l, cap - l, ", %llu %s", k, what);
}

void
warcin_close(void)
{
	if (!started)
		return;
	close_file();
	char skipped[512] = "";
	for (int i = 0; i < N_TYPES; i++)
		count(skipped, sizeof skipped, n.type[i].n, n.type[i].name);
	count(skipped, sizeof skipped, n.other_types, "of other types");
	count(skipped, sizeof skipped, n.not_http, "not HTTP");
	count(skipped, sizeof skipped, n.not_html, "resources not HTML");
	count(skipped, sizeof skipped, n.bad_http, "malformed HTTP");
	count(skipped, sizeof skipped, n.too_large, "over --max-body");
	count(skipped, sizeof skipped, n.filtered, "filtered out");
	msg_note("%llu WARC records read, %llu written%s%s", n.read, n.written,
		 skipped[0] ? "; skipped" : "", skipped[0] ? skipped + 1 : "");
	warc_http_free(&http);
	decode_free(&dec);
	free(joined);
	started = 0;
}
