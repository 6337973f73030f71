/* xfer — one attempt of one job: the easy handle's options and
 * callbacks, pausing while output is blocked, the private-address guard,
 * and the mapping of curl's result onto the record's `error` vocabulary.
 *
 * The guard: when a redirect chain began at a public address, a hop may
 * not connect to one in --private-ranges (`private_address`: a crawler
 * in a cloud must not be steered into its metadata service or
 * intranet).  The address is checked as connected, in the open-socket
 * callback, and a reused connection's before anything is sent, so DNS
 * cannot smuggle one in.  Which hops are guarded is redirect.c's rule
 * (job->guard). */
#include "fetch.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "chunked.h"
#include "tm.h"
#include "xalloc.h"

#define CURL_HEADER_BLOCK_MAX (300 * 1024)   /* curl 7.88's MAX_HTTP_RESP_HEADER_SIZE */

/* Paused transfers, so output_drain can resume them.  Bounded by -c. */
static job **paused;
static size_t n_paused, cap_paused;

static int
grow_buf(char **p, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16384;
	while (n < need)
		n *= 2;
	char *q = realloc(*p, n);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* CURLOPT_WRITEFUNCTION: appends decoded body bytes.  Stops the transfer
 * past --max-body (the decoded size, so a compression bomb stops too) and
 * pauses it while output is blocked, so bodies stop growing when the
 * consumer stalls.  libcurl keeps the refused bytes and offers them
 * again after xfer_unpause_all. */
static size_t
on_body(char *data, size_t size, size_t n, void *userp)
{
	job *j = userp;
	size_t len = size * n;
	/* robots.txt is read up to what its parser reads. */
	size_t cap = j->is_robots ? ROBOTS_MAX_BYTES : F.o.max_body;
	if (j->body_len + len > cap) {
		j->too_large = 1;
		return 0;
	}
	if (output_blocked()) {
		if (!j->paused) {
			if (n_paused == cap_paused) {
				size_t c = cap_paused ? cap_paused * 2 : 64;
				job **p = realloc(paused, c * sizeof *p);
				if (!p)
					return 0;
				paused = p, cap_paused = c;
			}
			j->paused = 1;
			paused[n_paused++] = j;
		}
		return CURL_WRITEFUNC_PAUSE;
	}
	if (grow_buf(&j->body, &j->body_cap, j->body_len + len) != 0)
		return 0;
	memcpy(j->body + j->body_len, data, len);
	j->body_len += len;
	return len;
}

size_t
xfer_paused(void)
{
	return n_paused;
}

/* Resumes every paused transfer.  libcurl 7.88 may hand a transfer's
 * kept bytes to on_body from inside curl_easy_pause, which can pause it
 * again and append to the list: walk a copy.  What libcurl had read from
 * the socket beyond those bytes is delivered only when the multi handle
 * is driven again (the socket may never become readable again), so the
 * caller must follow with loop_kick. */
void
xfer_unpause_all(void)
{
	size_t n = n_paused;
	if (n == 0)
		return;
	job **list = malloc(n * sizeof *list);
	if (!list)
		return;
	memcpy(list, paused, n * sizeof *list);
	n_paused = 0;
	for (size_t i = 0; i < n; i++) {
		list[i]->paused = 0;
		curl_easy_pause(list[i]->easy, CURLPAUSE_CONT);
	}
	free(list);
}

static void
unlist_paused(job *j)
{
	for (size_t i = 0; i < n_paused; i++)
		if (paused[i] == j) {
			paused[i] = paused[--n_paused];
			break;
		}
	j->paused = 0;
}

/* Offset of the NUL that ends header name's value in j->hdrs (names
 * are stored lowercase, name may be any case), or SIZE_MAX. */
static size_t
find_header(const job *j, const char *name, size_t n)
{
	for (size_t i = 0; i < j->hdrs_len;) {
		const char *k = j->hdrs + i;
		size_t kl = strlen(k), vl = strlen(k + kl + 1);
		if (kl == n && strncasecmp(k, name, n) == 0)
			return i + kl + 1 + vl;
		i += kl + vl + 2;
	}
	return SIZE_MAX;
}

/* CURLOPT_HEADERFUNCTION: keeps the headers of the last response only
 * (each status line, of a redirect hop or a 100 Continue, starts afresh)
 * as "name\0value\0" pairs, names lowercase.  A repeated header's values
 * are joined with ", " as RFC 9110 allows (Set-Cookie aside, which
 * records rarely need).  Each Set-Cookie line of every answer goes to
 * the jar on its own (robots.txt's aside: libcurl follows its
 * redirects, so the URL that answered is not known here). */
static size_t
on_header(char *data, size_t size, size_t n, void *userp)
{
	job *j = userp;
	size_t len = size * n;
	if (len >= 5 && memcmp(data, "HTTP/", 5) == 0) {
		j->hdrs_len = 0;
		j->hdrs_end = 0;
		return len;
	}
	if (len <= 2 && (len == 0 || data[0] == '\r' || data[0] == '\n')) {
		j->hdrs_end = 1;   /* the blank line: this header block is whole */
		return len;
	}
	char *colon = memchr(data, ':', len);
	if (!colon || colon == data)
		return len;
	size_t nlen = (size_t)(colon - data);
	const char *v = colon + 1, *end = data + len;
	while (v < end && (*v == ' ' || *v == '\t'))
		v++;
	while (end > v && isspace((unsigned char)end[-1]))
		end--;
	size_t vlen = (size_t)(end - v);
	if (nlen == 10 && strncasecmp(data, "set-cookie", 10) == 0 && !j->is_robots)
		req_cookies_set(j, v, vlen);
	size_t at = find_header(j, data, nlen);
	size_t add = at == SIZE_MAX ? nlen + vlen + 2 : vlen + 2;
	/* Headers beyond 256 KiB are not kept: a hostile server cannot grow
	 * us through them (curl itself caps each header at 100 KiB). */
	if (j->hdrs_len + add > 262144 || grow_buf(&j->hdrs, &j->hdrs_cap, j->hdrs_len + add) != 0)
		return len;
	if (at != SIZE_MAX) {
		char *p = j->hdrs + at;
		memmove(p + 2 + vlen, p, j->hdrs_len - at);
		memcpy(p, ", ", 2);
		memcpy(p + 2, v, vlen);
	} else {
		char *p = j->hdrs + j->hdrs_len;
		for (size_t i = 0; i < nlen; i++)
			p[i] = (char)tolower((unsigned char)data[i]);
		p[nlen] = '\0';
		memcpy(p + nlen + 1, v, vlen);
		p[nlen + 1 + vlen] = '\0';
	}
	j->hdrs_len += add;
	return len;
}

/* Appends n bytes of data to b, up to cap bytes in all; returns 0, or
 * -1 when some did not fit (what fitted is kept). */
static int
raw_add(rawbuf *b, const char *data, size_t n, size_t cap)
{
	int cut = 0;
	if (b->len + n > cap) {
		n = cap > b->len ? cap - b->len : 0;
		cut = 1;
	}
	if (n && grow_buf(&b->p, &b->cap, b->len + n) == 0) {
		memcpy(b->p + b->len, data, n);
		b->len += n;
	}
	return cut ? -1 : 0;
}

#define RAW_REQUEST_MAX (64 * 1024)   /* a request's line and headers kept */

/* CURLOPT_DEBUGFUNCTION with --raw: the exchange as it crossed the wire.
 * libcurl hands the body over before undoing its chunked coding and its
 * content coding (transfer.c), the headers as sent and as received, a
 * request again when it was sent again on a fresh connection. */
static int
on_debug(CURL *e, curl_infotype type, char *data, size_t n, void *userp)
{
	(void)e;
	exchange *x = &((job *)userp)->raw;
	switch (type) {
	case CURLINFO_HEADER_OUT:
		x->req.len = 0;   /* the whole block in one call: the last one sent */
		raw_add(&x->req, data, n, RAW_REQUEST_MAX);
		break;
	case CURLINFO_DATA_OUT:
		raw_add(&x->req, data, n, RAW_REQUEST_MAX);
		break;
	case CURLINFO_HEADER_IN:
		if (n >= 5 && memcmp(data, "HTTP/", 5) == 0)
			x->head.len = 0;   /* a new status line: an interim answer before */
		raw_add(&x->head, data, n, CURL_HEADER_BLOCK_MAX + 1024);
		break;
	case CURLINFO_DATA_IN:
		if (raw_add(&x->payload, data, n, F.o.max_body) != 0)
			x->payload_cut = 1;
		break;
	default:
		break;
	}
	return 0;
}

/* Whether the header block h says Transfer-Encoding: chunked. */
static int
head_chunked(const rawbuf *h)
{
	static const char name[] = "transfer-encoding:";
	for (size_t i = 0; i < h->len;) {
		const char *l = h->p + i, *nl = memchr(l, '\n', h->len - i);
		size_t n = nl ? (size_t)(nl - l) + 1 : h->len - i;
		if (n > sizeof name - 1 && strncasecmp(l, name, sizeof name - 1) == 0 &&
		    memmem(l, n, "chunked", 7))
			return 1;
		i += n;
	}
	return 0;
}

/* The exchange's end: its answer's HTTP version, its payload without
 * the chunked coding. */
static void
raw_end(job *j)
{
	exchange *x = &j->raw;
	curl_easy_getinfo(j->easy, CURLINFO_HTTP_VERSION, &x->http_version);
	if (head_chunked(&x->head)) {
		int whole;
		x->payload.len = chunked_decode(x->payload.p ? x->payload.p : "", x->payload.len, &whole);
		x->chunked = 1;
	}
}

/* CURLOPT_OPENSOCKETFUNCTION: a guarded hop may not connect to a
 * private address. */
static curl_socket_t
open_socket(void *userp, curlsocktype purpose, struct curl_sockaddr *a)
{
	job *j = userp;
	(void)purpose;
	if (j->guard && cidr_has_addr(F.o.private_ranges, &a->addr)) {
		j->refused_private = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype | SOCK_CLOEXEC, a->protocol);
}

/* The same for a reused connection to ip. */
static int
private_ip(job *j, const char *ip)
{
	if (j->guard && cidr_has_text(F.o.private_ranges, ip)) {
		j->refused_private = 1;
		return 1;
	}
	return 0;
}

char *
xfer_private_detail(const job *j)
{
	return fetcherr_hop_detail(j->target, "a private address after a public one (--private-ranges)");
}

/* CURLOPT_PREREQFUNCTION: the request goes on the wire now.  The host's
 * interval and its token bucket count from here as well as from the
 * scheduled start: a request held up after its start (a connection to
 * open, the loop busy elsewhere) must not arrive right before the next
 * one. */
static int
on_send(void *userp, char *ip, char *local_ip, int port, int local_port)
{
	(void)local_ip, (void)port, (void)local_port;
	job *j = userp;
	/* A reused connection was not opened for this hop: its address is
	 * checked here, before anything is sent. */
	if (ip && private_ip(j, ip))
		return CURL_PREREQFUNC_ABORT;
	if (j->raw.url) {
		j->raw.date = tm_wall();
		snprintf(j->raw.ip, sizeof j->raw.ip, "%s", ip ? ip : "");
	}
	host *h = j->host;
	if (!h)
		return CURL_PREREQFUNC_OK;
	pace_sent(&h->pace, tm_mono());
	return CURL_PREREQFUNC_OK;
}

/* A handle with the fixed options set.  A spare (pool.c) is reset first: curl
 * 7.88 counts a handle's retries of dead reused connections over its
 * whole life and gives up at the sixth, so a handle that lived through
 * five keep-alive timeouts would fail the next one. */
static CURL *
easy_get(void)
{
	CURL *e;
	if ((e = pool_take()))
		curl_easy_reset(e);
	else if (!(e = curl_easy_init()))
		return NULL;
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	/* Pages' redirects are followed by redirect.c, one scheduled
	 * request per hop; robots.txt's by libcurl (xfer_start). */
	curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	/* The names are resolved by dns.c, which hands libcurl the
	 * addresses per transfer: libcurl's own cache, walked whole at
	 * each resolve, is kept to what a second brings. */
	curl_easy_setopt(e, CURLOPT_DNS_CACHE_TIMEOUT, 1L);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)(F.o.timeout * 1000));
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, (long)(F.o.connect_timeout * 1000));
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, F.o.low_speed_limit);
	curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, F.o.low_speed_time);
	curl_easy_setopt(e, CURLOPT_USERAGENT, F.o.user_agent);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, on_send);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	/* The transport: proxy (else libcurl reads *_proxy and no_proxy from
	 * the environment, as curl does), TLS trust, the HTTP version. */
	if (F.o.proxy)
		curl_easy_setopt(e, CURLOPT_PROXY, F.o.proxy);
	if (F.o.noproxy)
		curl_easy_setopt(e, CURLOPT_NOPROXY, F.o.noproxy);
	if (F.o.proxy_userpwd)
		curl_easy_setopt(e, CURLOPT_PROXYUSERPWD, F.o.proxy_userpwd);
	if (F.o.cacert)
		curl_easy_setopt(e, CURLOPT_CAINFO, F.o.cacert);
	if (F.o.capath)
		curl_easy_setopt(e, CURLOPT_CAPATH, F.o.capath);
	if (F.o.insecure) {
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
		curl_easy_setopt(e, CURLOPT_PROXY_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(e, CURLOPT_PROXY_SSL_VERIFYHOST, 0L);
	}
	if (F.o.http_version)
		curl_easy_setopt(e, CURLOPT_HTTP_VERSION, F.o.http_version);
	return e;
}

/* Appends to list the conditional request headers of j (a recrawl's:
 * the validators of the page stored for its URL, lease.c) and notes in
 * j->conditional whether there were any.  Sent on every hop: the stored
 * validators are the final answer's, and an http:// URL's first hop is
 * usually a redirect to its https:// page.  Returns the list. */
static struct curl_slist *
conditional_headers(job *j, struct curl_slist *list)
{
	const char *name[2] = { "If-None-Match", "If-Modified-Since" };
	const char *value[2] = { j->etag, j->last_modified };
	j->conditional = 0;
	for (int i = 0; i < 2; i++) {
		/* A line break would end the header and start another: a
		 * frontier's value comes from records, which anyone may write. */
		if (!value[i] || strpbrk(value[i], "\r\n"))
			continue;
		char *h;
		if (asprintf(&h, "%s: %s", name[i], value[i]) < 0)
			xalloc_die();
		struct curl_slist *l = curl_slist_append(list, h);
		free(h);
		if (!l)
			xalloc_die();
		list = l;
		j->conditional = 1;
	}
	return list;
}

/* What j's attempt on e carries beyond the URL: its headers, and the
 * credentials (--user's, or the input URL's own) while the target is
 * the input's origin (CURLOPT_UNRESTRICTED_AUTH stays off for
 * robots.txt's redirects, which libcurl follows). */
static void
set_request(CURL *e, job *j)
{
	curl_slist_free_all(j->req_hdrs);
	j->req_hdrs = conditional_headers(j, req_headers(j));
	if (j->req_hdrs)
		curl_easy_setopt(e, CURLOPT_HTTPHEADER, j->req_hdrs);
	/* robots.txt carries no secret at all: no credentials, netrc or
	 * cookies (its URL has no userinfo: host.c keys origins without). */
	if (j->is_robots)
		return;
	req_cookies_use(e, j);
	if (req_credentials(j)) {
		if (F.o.userpwd)
			curl_easy_setopt(e, CURLOPT_USERPWD, F.o.userpwd);
		else
			req_url_credentials(e, j);
	}
	if (F.o.netrc) {
		curl_easy_setopt(e, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		if (F.o.netrc_file)
			curl_easy_setopt(e, CURLOPT_NETRC_FILE, F.o.netrc_file);
	}
}

/* Starts one attempt of j: an easy handle into the multi.  Returns 0,
 * or -1 with j->error set when no handle could be made. */
int
xfer_start(job *j)
{
	CURL *e = easy_get();
	if (!e) {
		j->error = FETCHERR_OTHER;
		return -1;
	}
	double now = tm_mono();
	j->attempts++;
	j->hop_attempts++;
	j->refused_private = 0;
	counters_started(j);
	j->start = now;
	j->body_len = j->hdrs_len = 0;
	j->status = 0;
	j->too_large = 0;
	j->hdrs_end = 0;
	j->errbuf[0] = '\0';
	j->easy = e;
	/* robots.txt is read up to ROBOTS_MAX_BYTES whatever --max-body
	 * says (on_body cuts it), so only pages get libcurl's early refusal
	 * by Content-Length. */
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE,
			 j->is_robots ? (curl_off_t)0 : (curl_off_t)F.o.max_body);
	curl_easy_setopt(e, CURLOPT_URL, job_target(j));
	if (F.o.raw && !j->is_robots) {
		job_raw_clear(&j->raw);
		j->raw.url = xstrdup(job_target(j));
		curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, on_debug);
		curl_easy_setopt(e, CURLOPT_DEBUGDATA, j);
		curl_easy_setopt(e, CURLOPT_VERBOSE, 1L);
	}
	curl_slist_free_all(j->resolve);
	j->resolve = dns_resolve_list(j, job_target(j));
	curl_easy_setopt(e, CURLOPT_RESOLVE, j->resolve);
	set_request(e, j);
	curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, (long)j->is_robots);
	/* The last request to a host closes its connection: kept idle, a
	 * broad crawl's would fill libcurl's cache, and curl 7.88 evicts the
	 * oldest by walking every host it ever cached (the host's entry
	 * stays behind), which made each request cost the number of hosts
	 * seen.  A host with requests waiting keeps its connection. */
	curl_easy_setopt(e, CURLOPT_FORBID_REUSE,
			 (long)(!j->is_robots && !j->host->fresh && !j->host->retry));
	curl_easy_setopt(e, CURLOPT_OPENSOCKETDATA, j);
	curl_easy_setopt(e, CURLOPT_PRIVATE, (char *)j);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, j);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, j);
	curl_easy_setopt(e, CURLOPT_PREREQDATA, j);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, j->errbuf);
	/* Waiting for a connection that may multiplex pays off only where
	 * HTTP/2 can happen (TLS); on plain HTTP/1.1 it would hold each
	 * host's next requests behind its first one. */
	curl_easy_setopt(e, CURLOPT_PIPEWAIT, strncmp(j->url, "https:", 6) == 0 ? 1L : 0L);
	loop_add(j);
	return 0;
}

/* Why rc ended j's transfer when it is one of curl 7.88's caps on
 * response headers, or NULL: a line over 100 KiB (CURLE_OUT_OF_MEMORY,
 * which it names only in its verbose log) while the headers are still
 * coming, or the block over 300 KiB (CURLE_RECV_ERROR, when the header
 * bytes it counted passed the cap).  Elsewhere these are a real
 * shortage and a reset. */
static const char *
header_overflow(const job *j, CURLcode rc)
{
	long size = 0;
	if (rc == CURLE_OUT_OF_MEMORY && !j->hdrs_end)
		return "response header larger than libcurl accepts (100 KiB)";
	if (rc == CURLE_RECV_ERROR && !j->hdrs_end &&
	    curl_easy_getinfo(j->easy, CURLINFO_HEADER_SIZE, &size) == CURLE_OK &&
	    size > CURL_HEADER_BLOCK_MAX)
		return "response headers larger than libcurl accepts (300 KiB)";
	return NULL;
}

/* The record's error word for curl result rc. */
static enum fetcherr
classify(const job *j, CURLcode rc)
{
	switch (rc) {
	case CURLE_OK: return FETCHERR_NONE;
	case CURLE_COULDNT_CONNECT:
	case CURLE_ABORTED_BY_CALLBACK:
		if (j->refused_private)
			return FETCHERR_PRIVATE_ADDRESS;
		if (rc == CURLE_ABORTED_BY_CALLBACK)
			return FETCHERR_OTHER;
		/* curl 7.88 does not say whether it was the proxy that did
		 * not answer: with --proxy (and no --noproxy list) every
		 * connection is the proxy's. */
		return F.o.proxy && !F.o.noproxy ? FETCHERR_PROXY : FETCHERR_CONNECT;
	case CURLE_COULDNT_RESOLVE_HOST: return FETCHERR_DNS;
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_PROXY: return FETCHERR_PROXY;
	case CURLE_OPERATION_TIMEDOUT: return FETCHERR_TIMEOUT;
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CIPHER:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH: return FETCHERR_TLS;
	case CURLE_RECV_ERROR: {
		long tunnel = 0;   /* the proxy's answer to CONNECT */
		curl_easy_getinfo(j->easy, CURLINFO_HTTP_CONNECTCODE, &tunnel);
		if (header_overflow(j, rc))
			return FETCHERR_TOO_LARGE;
		return tunnel >= 300 ? FETCHERR_PROXY : FETCHERR_RESET;
	}
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_WEIRD_SERVER_REPLY: return FETCHERR_RESET;
	case CURLE_FILESIZE_EXCEEDED: return FETCHERR_TOO_LARGE;
	case CURLE_WRITE_ERROR: return j->too_large ? FETCHERR_TOO_LARGE : FETCHERR_OTHER;
	case CURLE_OUT_OF_MEMORY: return header_overflow(j, rc) ? FETCHERR_TOO_LARGE : FETCHERR_OTHER;
	case CURLE_TOO_MANY_REDIRECTS: return FETCHERR_REDIRECTS;
	case CURLE_UNSUPPORTED_PROTOCOL: {
		/* Also curl's word for a reply that is not HTTP at all
		 * (HTTP/0.9): a malformed response unless a redirect really
		 * left http(s). */
		char *u = NULL;
		curl_easy_getinfo(j->easy, CURLINFO_EFFECTIVE_URL, &u);
		return u && (strncmp(u, "http://", 7) == 0 || strncmp(u, "https://", 8) == 0)
		       ? FETCHERR_RESET : FETCHERR_SCHEME;
	}
	case CURLE_URL_MALFORMAT: return FETCHERR_BAD_URL;
	case CURLE_BAD_CONTENT_ENCODING: return FETCHERR_ENCODING;
	default: return FETCHERR_OTHER;
	}
}

static void
set_detail(job *j, const char *s)
{
	free(j->error_detail);
	j->error_detail = s && *s ? strdup(s) : NULL;
}

void
xfer_end(job *j, CURLcode rc)
{
	loop_remove(j);
	unlist_paused(j);
	curl_easy_getinfo(j->easy, CURLINFO_RESPONSE_CODE, &j->status);
	j->error = classify(j, rc);
	set_detail(j, rc == CURLE_OK ? NULL : j->errbuf[0] ? j->errbuf : curl_easy_strerror(rc));
	if (j->refused_private && !j->is_robots) {
		free(j->error_detail);
		j->error_detail = xfer_private_detail(j);
	} else if (j->too_large)
		set_detail(j, "body larger than --max-body");
	else if (header_overflow(j, rc))
		set_detail(j, header_overflow(j, rc));
	if (rc == CURLE_OK && j->status > 0 && !j->hdrs_end) {
		/* curl 7.88 takes a status line and a close for a reply. */
		j->error = FETCHERR_RESET;
		set_detail(j, "connection closed inside the response headers");
	}
	curl_off_t connect_us = 0;
	curl_easy_getinfo(j->easy, CURLINFO_CONNECT_TIME_T, &connect_us);
	j->connected = connect_us > 0;
	if (j->raw.url)
		raw_end(j);
	counters_finished(j);
}
