/* sched — the pass: what render reads, what waits, and when a page
 * starts.
 *
 * Once per loop pass (a uv_check_t) it drains the tabs' done list,
 * reads input (lib/inlet, as fetch's) while fewer than --pending pages
 * wait and the output has room, and starts waiting pages in order: a
 * page starts when a tab is free, its host has fewer than -p pages open,
 * its pacing lets it and its robots.txt allows it (host.c); a tab's hop
 * to another origin (a redirect) waits for that host's word alike.
 * Pages that never reach a tab (refused, interrupted before they
 * started) get their record here.
 */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inlet.h"
#include "jsshell.h"
#include "msg.h"
#include "xalloc.h"
#include "tm.h"
#include "url.h"

static inlet in;
static page *head, *tail;          /* pages waiting to start, in order */
static page *hops;                 /* pages in tabs whose hop is held (hop_next) */
static uv_check_t check;
static uv_timer_t wake, mem_timer;
/* The browser's life: pages started in it, whether it is to be
 * restarted once its tabs are free (no page starts meanwhile), and
 * whether its memory is due to be read. */
static long opened;
static int draining, mem_due;

static void drive(void);

/* Drops p's hold on its host: a host no page holds may be evicted. */
static void
page_unhost(page *p)
{
	if (p->h)
		p->h->pages--;
	p->h = NULL;
}

/* Lets go of p's held hop, if any. */
static void
hop_drop(page *p)
{
	if (!p->hop)
		return;
	for (page **q = &hops; *q; q = &(*q)->hop_next)
		if (*q == p) {
			*q = p->hop_next;
			break;
		}
	p->hop_h->pages--;
	free(p->hop);
	p->hop = NULL;
	p->hop_h = NULL;
}

static void
page_free(page *p)
{
	if (!p)
		return;
	hop_drop(p);
	page_unhost(p);
	free(p->url), free(p->host), free(p->in);
	free(p);
}

/* Ends p, whose record was written. */
static void
page_end(page *p)
{
	if (p->h)
		p->h->inflight--;
	page_free(p);
	R.queued--;
}

/* ---- records without a tab ----------------------------------------- */

/* Writes p's record with error e (detail), no DOM, and ends p. */
static void
fail(page *p, enum fetcherr e, const char *detail)
{
	rec_build *b = &R.build;
	rec_build_reset(b);
	url_put(b, "url", p->url);
	if (p->host)
		rec_put_str(b, "host", p->host);
	rec_put_int(b, "status", 0);
	rec_put_str(b, "error", fetcherr_word(e));
	if (detail)
		rec_put_str(b, "error_detail", detail);
	rec_put_int(b, "attempts", 0);
	rec_put_double(b, "fetched_at", tm_wall());
	if (rec_out_pass(&R.out.out, b, p->in, p->in_len, render_keys) != 0)
		msg_stdout_failed(errno);
	outbuf_record(&R.out);
	page_end(p);
}

/* host_may, robots.txt asked for first when h has none yet. */
static enum host_verdict
verdict(rhost *h, const char *url, double now, double *at, const char **why)
{
	if (h->robots_state == 0)
		host_robots_ask(h);
	return host_may(h, url, now, at, why);
}

/* Holds p's hop to url (malloc'd, taken) for its host's word: the
 * driver's pass asks it, as it asks a page's host.  A URL that does not
 * parse is refused at once. */
static void
hop_hold(page *p, char *url)
{
	url_parts u;
	const char *why;
	hop_drop(p);
	if (url_canon(url, strlen(url), &u, &why) != 0) {
		tab_hop(p, FETCHERR_BAD_URL, why);
		free(url);
		return;
	}
	free(url);
	p->hop = u.canon;
	u.canon = NULL;
	url_parts_free(&u);
	p->hop_h = host_of(p->hop);
	p->hop_h->pages++;
	p->hop_next = hops;
	hops = p;
}

/* Held hops whose host has its word: refused by its robots.txt, or let
 * go as its start when its pacing allows; the others wait, the soonest
 * of them kept in *soonest. */
static void
hops_pass(double now, double *soonest)
{
	for (page **hp = &hops; *hp;) {
		page *p = *hp;
		double at;
		const char *why = NULL;
		enum host_verdict v = verdict(p->hop_h, p->hop, now, &at, &why);
		if (v == HOST_WAIT) {
			*soonest = fmin(*soonest, at);
			hp = &p->hop_next;
			continue;
		}
		if (v == HOST_GO)
			pace_started(&p->hop_h->pace, now);
		tab_hop(p, v == HOST_GO ? FETCHERR_NONE : FETCHERR_ROBOTS, why);
		hop_drop(p);   /* *hp is the next one now */
	}
}

/* What the tabs let go of since the last pass, in the order they did:
 * answers teach their host's pacing, a page's first request sent moves
 * its host's next start, ended pages free their host's slot, a hung Chromium's pages go back to the head of the queue. */
static void
drain(void)
{
	tab_done d;
	while (tab_done_next(&d)) {
		page *p = d.p;
		switch (d.how) {
		case TAB_ANSWERED:
			if (p->h)
				host_answered(p->h, d.status, d.latency, d.retry_after, d.started, d.err);
			break;
		case TAB_ENDED:
			page_end(p);
			break;
		case TAB_HOP:
			hop_hold(p, d.url);
			break;
		case TAB_SENT:
			if (p->h)
				pace_sent(&p->h->pace, d.started);
			break;
		case TAB_AGAIN:
			hop_drop(p);
			p->tries++;
			p->h->inflight--;
			p->next = head;
			head = p;
			if (!tail)
				tail = p;
			break;
		}
	}
}

/* Whether input record o is passed on untouched under --only-shells:
 * fetch gave up on it (`error`), or it is not a 2xx HTML answer, or its
 * body is no JavaScript shell.  A record without a body (a URL from
 * elsewhere) is rendered. */
static int
pass_through(const msgpack_object *o)
{
	const char *body, *ct;
	size_t n, ctn;
	int64_t st;
	if (!R.o.only_shells || !rec_str(o, "body", &body, &n))
		return 0;
	if (rec_get(o, "error") || (rec_int(o, "status", &st) && (st < 200 || st > 299)))
		return 1;
	if (rec_str(o, "ctype", &ct, &ctn) && !memmem(ct, ctn, "html", 4))
		return 1;
	return !jsshell_html(body, n, R.o.min_text);
}

/* Queues one URL (s, n bytes) with its input record, or writes its
 * error record at once when it cannot be rendered. */
static void
new_page(const char *s, size_t n, const char *raw, size_t raw_len)
{
	page *p = calloc(1, sizeof *p);
	if (!p)
		xalloc_die();
	if (raw_len) {
		if (!(p->in = malloc(raw_len)))
			xalloc_die();
		memcpy(p->in, raw, raw_len);
		p->in_len = raw_len;
	}
	R.queued++;
	url_parts u;
	const char *why;
	if (url_canon(s, n, &u, &why) != 0) {
		const char *t = url_trim(s, &n);
		p->url = strndup(t, n);
		fail(p, FETCHERR_BAD_URL, why);
		return;
	}
	if (!url_fetchable(u.scheme)) {
		const char *t = url_trim(s, &n);
		p->url = strndup(t, n);
		url_parts_free(&u);
		fail(p, FETCHERR_SCHEME, "only http and https are rendered");
		return;
	}
	p->url = u.canon;
	p->host = u.host;
	u.canon = u.host = NULL;
	url_parts_free(&u);
	p->h = host_of(p->url);
	p->h->pages++;
	if (tail)
		tail->next = p;
	else
		head = p;
	tail = p;
}

/* One input: passed on untouched, or a page. */
static void
take(const rec_item *it)
{
	if (it->raw && pass_through(&it->rec)) {
		if (rec_out_put(&R.out.out, it->raw, it->raw_len) != 0)
			msg_stdout_failed(errno);
		outbuf_record(&R.out);
		return;
	}
	new_page(it->url ? it->url : "", it->url ? it->url_len : 0, it->raw, it->raw_len);
}

static void
input_want(void)
{
	rec_item it;
	int rc = REC_OK;
	/* Records passed through or refused go straight to the output:
	 * while it is full, no more is read. */
	while (!R.input_done && !R.stopping && R.queued < R.o.pending && !outbuf_blocked(&R.out) &&
	       (rc = inlet_next(&in, &it)) == REC_OK)
		take(&it);
	R.failed_open = in.failed_open;
	if (rc == REC_NEED)
		return;   /* the pipe is watched: the loop wakes when it can be read */
	inlet_hold(&in);
	if (rc != REC_OK)
		R.input_done = 1;
	if (rc == REC_ERR)
		R.bad_input = 1;
}

/* ---- the pass ---------------------------------------------------------- */

/* The browser went away: its tabs' pages come back once (then end as
 * browser_lost); it starts again with the next page that needs it. */
static void
on_browser_lost(enum browser_end why)
{
	if (why != BROWSER_RECYCLED) {
		if (!R.stopping && why == BROWSER_EXITED)
			msg_warn("chromium exited, starting it again");
		tab_browser_lost(why == BROWSER_HUNG);
	}
	opened = 0;
	draining = 0;
}

static void
on_mem_timer(uv_timer_t *t)
{
	(void)t;
	mem_due = 1;
}

/* --max-browser-memory: past it, no page starts and the browser is
 * restarted once its open pages are done; past half as much again, the
 * largest renderer (a page running away with memory) is killed, its tab
 * ending as render_crash while the others finish. */
static void
memory_check(void)
{
	browser_mem m;
	mem_due = 0;
	if (!R.o.max_browser_memory || browser_memory(&m) != 0 || m.pss <= R.o.max_browser_memory)
		return;
	if (!draining)
		msg_note("chromium's processes hold %zu MiB, more than --max-browser-memory: "
			 "restarting it once its open pages are done", m.pss >> 20);
	draining = 1;
	if (m.pss > R.o.max_browser_memory / 2 * 3 && m.renderer) {
		msg_warn("chromium's processes hold %zu MiB: killing the largest renderer (%zu MiB)",
			 m.pss >> 20, m.renderer_pss >> 20);
		browser_kill(m.renderer);
	}
}

static const browser_cb browser_events = { tab_reply, tab_event, on_browser_lost };

static void
on_wake(uv_timer_t *t)
{
	(void)t;   /* the check handle runs the pass */
}

static void
drive(void)
{
	drain();
	input_want();
	if (mem_due)
		memory_check();
	if (browser_ready() && R.o.recycle && opened >= R.o.recycle)
		draining = 1;
	if (draining && R.busy == 0)
		browser_recycle();
	if (R.stopping) {
		while (head) {
			page *p = head;
			head = p->next;
			page_unhost(p);
			fail(p, FETCHERR_INTERRUPTED, "stopped by signal before the page was started");
		}
		tail = NULL;
	}
	/* Chromium starts with the first page that needs it: a stream that
	 * --only-shells passes through never pays for it. */
	if (head && !browser_started() && browser_start(&browser_events) != 0)
		msg_die(EX_OSERR, "cannot start chromium");
	double now = tm_mono(), soonest = INFINITY;
	hops_pass(now, &soonest);
	page **pp = &head, *prev = NULL;
	/* While the output holds --buffer bytes no page starts: a stalled
	 * reader downstream holds render back, never its loop. */
	while (*pp && browser_ready() && !draining && !outbuf_blocked(&R.out)) {
		page *p = *pp;
		rhost *h = p->h;
		double at;
		const char *why = NULL;
		enum host_verdict v = verdict(h, p->url, now, &at, &why);
		if (v == HOST_REFUSE) {
			*pp = p->next;
			if (tail == p)
				tail = prev;
			page_unhost(p);
			fail(p, FETCHERR_ROBOTS, why);
			continue;
		}
		int slot = -1;
		if (v == HOST_WAIT && h->inflight < R.o.per_host)
			soonest = fmin(soonest, at);
		if (v != HOST_GO || h->inflight >= R.o.per_host || (slot = tab_free_slot()) < 0) {
			if (tab_free_slot() < 0)
				break;
			prev = p;
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		if (tail == p)
			tail = prev;
		p->next = NULL;
		h->inflight++;
		pace_started(&h->pace, now);
		opened++;
		tab_start(slot, p);
	}
	if (soonest < INFINITY)
		uv_timer_start(&wake, on_wake, (uint64_t)((soonest - now) * 1000) + 1, 0);
}

/* Done: the input read, or no longer read once stopping (a signal with
 * stdin still open, or input not yet read, must not wait for it). */
static int
sched_idle(void)
{
	return (R.input_done || R.stopping) && !head && R.busy == 0 && !host_robots_loading();
}

static void
on_check(uv_check_t *c)
{
	(void)c;
	drive();
	outbuf_drain(&R.out);
	if (sched_idle())
		uv_stop(R.loop);
}

void
sched_init(char **f, int n)
{
	inlet_init(&in, R.loop, f, n, R.o.max_record);
	uv_check_init(R.loop, &check);
	uv_check_start(&check, on_check);
	uv_timer_init(R.loop, &wake);
	uv_timer_init(R.loop, &mem_timer);
	if (R.o.max_browser_memory) {
		uv_timer_start(&mem_timer, on_mem_timer, 1000, 1000);
		uv_unref((uv_handle_t *)&mem_timer);   /* no work of its own */
	}
	/* The first pass: it starts what wakes the loop (the input's
	 * watch, Chromium); a check handle alone would never run. */
	drive();
	if (sched_idle())
		uv_stop(R.loop);
}

void
sched_close(void)
{
	inlet_close(&in);
	uv_check_stop(&check);
	uv_close((uv_handle_t *)&check, NULL);
	uv_close((uv_handle_t *)&wake, NULL);
	uv_close((uv_handle_t *)&mem_timer, NULL);
	while (head) {
		page *p = head;
		head = p->next;
		page_free(p);
	}
	host_close();
}
