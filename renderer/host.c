/* host — what a host lets start: its pacing and its robots.txt.
 *
 * One rhost per origin, made on first sight and dropped once idle above
 * --max-hosts.  Its pacing is lib/pace's, on fetch's defaults
 * (PACE_CONF_DEFAULT): -d, robots.txt's Crawl-delay, what its answers
 * taught, a Retry-After.  robots.txt is fetched with libcurl on libuv's
 * thread pool, once per origin, so the loop never waits for a slow host.
 */
#include "render.h"

#include <curl/curl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "msg.h"
#include "robots.h"
#include "tm.h"
#include "url.h"
#include "xalloc.h"

static htab hosts;                 /* origin -> rhost */
static long robots_loading;
static const struct pace_conf pace_conf = PACE_CONF_DEFAULT;

static void
host_free(rhost *h)
{
	robots_free(h->robots);
	free(h->origin);
	free(h);
}

/* Frees every host no page holds, whose robots.txt is not loading and
 * whose pacing has nothing left to wait for.  Above --max-hosts only
 * hosts with work keep state, so memory follows the flags, not the
 * number of hosts in the input; one that comes back starts afresh. */
static void
evict(double now)
{
	size_t i = 0;
	for (htab_ent *e; (e = htab_next(&hosts, &i));) {
		rhost *h = e->val;
		if (h->pages == 0 && h->robots_state != 1 && pace_idle(&h->pace, now)) {
			host_free(h);
			htab_del(&hosts, e->key, e->len);
		}
	}
}

rhost *
host_of(const char *canon)
{
	size_t n = url_origin_len(canon);
	int added;
	/* Hosts with pages cannot go (at most --pending of them): sweep
	 * again only once the table doubled. */
	static size_t sweep_at;
	if (hosts.n >= (size_t)R.o.max_hosts && hosts.n >= sweep_at) {
		evict(tm_mono());
		sweep_at = hosts.n * 2;
	}
	htab_ent *e = htab_put(&hosts, canon, n, &added);
	if (!e)
		xalloc_die();
	if (added) {
		rhost *h = calloc(1, sizeof *h);
		if (!h || !(h->origin = strndup(canon, n)))
			xalloc_die();
		h->robots_state = R.o.robots ? 0 : 2;
		h->pace.delay = R.o.delay;
		pace_begin(&h->pace, tm_mono());
		e->val = h;
	}
	return e->val;
}

void
host_answered(rhost *h, long status, double latency, double retry_after, double started,
	      enum fetcherr e)
{
	double now = tm_mono();
	if (status > 0)
		pace_answer(&h->pace, &pace_conf, status, latency, retry_after, started, now);
	pace_outcome(&h->pace, &pace_conf, fetcherr_retried(e), status > 0, now,
		     (double)rand() / ((double)RAND_MAX + 1));
}

enum host_verdict
host_may(rhost *h, const char *url, double now, double *at, const char **why)
{
	*at = INFINITY;
	if (h->robots_state != 2)
		return HOST_WAIT;
	const char *path = url + strlen(h->origin);
	if (h->robots && !robots_allowed(h->robots, *path ? path : "/")) {
		*why = robots_reason(h->robots);
		return HOST_REFUSE;
	}
	*at = pace_ready_at(&h->pace, now);
	return now >= *at ? HOST_GO : HOST_WAIT;
}

typedef struct robots_work {
	uv_work_t w;
	rhost *h;
	char *body;
	size_t len;
	long status;
	CURLcode rc;
} robots_work;

static size_t
on_robots_data(char *p, size_t sz, size_t n, void *arg)
{
	robots_work *r = arg;
	size_t k = sz * n, take = k;
	if (r->len + take > ROBOTS_MAX_BYTES)
		take = ROBOTS_MAX_BYTES - r->len;
	char *b = realloc(r->body, r->len + take + 1);
	if (!b)
		return 0;
	r->body = b;
	memcpy(b + r->len, p, take);
	r->len += take;
	return take == k ? k : 0;   /* cut at ROBOTS_MAX_BYTES: a whole answer */
}

/* On a pool thread: a blocking GET of the origin's robots.txt. */
static void
robots_get(uv_work_t *w)
{
	robots_work *r = (robots_work *)w;
	CURL *c = curl_easy_init();
	if (!c) {
		r->rc = CURLE_OUT_OF_MEMORY;
		return;
	}
	char url[1024];
	snprintf(url, sizeof url, "%.1000s/robots.txt", r->h->origin);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(fmin(R.o.timeout, 30) * 1000));
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
	/* Without --user-agent the pages go with Chromium's own; robots.txt
	 * with fetch's, which names the crawler. */
	curl_easy_setopt(c, CURLOPT_USERAGENT, R.o.user_agent ? R.o.user_agent :
			 "sluice/" SLUICE_VERSION " (+https://sluice.invalid/bot)");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_robots_data);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
	r->rc = curl_easy_perform(c);
	if (r->rc == CURLE_WRITE_ERROR && r->len == ROBOTS_MAX_BYTES)
		r->rc = CURLE_OK;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
	curl_easy_cleanup(c);
}

/* Back on the loop: the rules, none (4xx), or refuse all (5xx, no
 * answer), as RFC 9309 says and fetch does (without fetch's retries). */
static void
robots_got(uv_work_t *w, int status)
{
	(void)status;
	robots_work *r = (robots_work *)w;
	rhost *h = r->h;
	robots_loading--;
	if (r->rc == CURLE_OK && r->status >= 200 && r->status < 300) {
		double cd = 0;
		h->robots = robots_parse(r->body ? r->body : "", r->len, R.o.robots_agent, &cd);
		h->pace.crawl_delay = fmin(cd, 60);
	} else if (!(r->rc == CURLE_OK && r->status >= 400 && r->status < 500 && r->status != 429)) {
		h->robots = robots_deny_all();
		char *shown = url_shown(h->origin);
		msg_note("robots.txt of %s unreachable, its URLs are refused", shown ? shown : h->origin);
		free(shown);
	}
	h->robots_state = 2;
	free(r->body);
	free(r);
}

void
host_robots_ask(rhost *h)
{
	robots_work *r = calloc(1, sizeof *r);
	if (!r)
		xalloc_die();
	r->h = h;
	h->robots_state = 1;
	robots_loading++;
	if (uv_queue_work(R.loop, &r->w, robots_get, robots_got) != 0)
		msg_die(EX_SOFTWARE, "cannot queue the robots.txt fetch");
}

int
host_robots_loading(void)
{
	return robots_loading > 0;
}

void
host_close(void)
{
	size_t i = 0;
	htab_ent *e;
	while ((e = htab_next(&hosts, &i)))
		host_free(e->val);
	htab_free(&hosts);
}
