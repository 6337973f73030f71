/* tab — one page in one tab of its own browser context, from the
 * context's creation to its disposal, and the page's record.
 *
 * Steps (each the answer to the one before): createBrowserContext,
 * createTarget (about:blank), attachToTarget (flat: commands carry the
 * sessionId), the session's setup sent at once with Page.navigate last
 * (a session runs its commands in order), then waiting by --wait, then
 * Runtime.evaluate of the DOM, the screenshot and PDF when asked, the
 * record, and disposeBrowserContext, which closes the tab and frees the
 * slot.  A context per page: no cookie, cache or storage passes from one
 * page to the next.
 *
 * Two timers per tab: the cap (--max-wait after Page.navigate) takes the
 * DOM as it is (`rendered.partial`), stopping a script that holds the
 * page's thread first; the deadline (--timeout) ends the page as
 * `timeout` if even that did not come back.
 */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hdr.h"
#include "htab.h"
#include "msg.h"
#include "xalloc.h"
#include "tm.h"
#include "url.h"

enum tag {
	T_IGNORE, T_SETUP, T_CONTEXT, T_TARGET, T_ATTACH, T_NAVIGATE, T_TERMINATE, T_DOM, T_SELECTOR,
	T_BODY, T_SHOT, T_PDF, T_DISPOSE, T_FETCH, T_SETCOOKIES, T_GETCOOKIES
};

enum state { S_FREE, S_OPENING, S_LOADING, S_CAPTURING, S_CLOSING };

typedef struct tab {
	int slot;
	unsigned gen;                  /* counts the pages the slot held */
	enum state state;              /* from here to cap: the page's */
	page *p;
	page *held;                    /* ended, its host held until its cookies are in the jar */
	char *context, *target, *session, *loader, *frame;
	double t0, t_nav;              /* tm_mono at start, at Page.navigate */
	double fetched_at;
	double time_ms, render_ms;
	long status;
	json_t *headers;
	char *ctype, *final_url, *remote_ip;
	char *body;
	size_t body_len;
	unsigned char *shot, *pdf;
	size_t shot_len, pdf_len;
	long requests, blocked, console_errors;
	htab inflight;                 /* ids of requests started, not ended */
	int loaded, idle, partial, committed, from_public;
	int setup_pending;             /* setup commands not yet answered */
	enum fetcherr err;
	char *err_detail;
	enum fetcherr main_blocked;    /* why we refused the main document */
	int doc_sent;                  /* a main document request has gone */
	raw_log raw;                   /* --raw */
	/* The main document's request to another origin, paused until the
	 * driver's tab_hop (NULL: none). */
	char *hop_rid, *hop_url;
	json_t *hop_headers;
	uv_timer_t cap, deadline, poll, quiet;
} tab;

static tab *tabs;
static long ntabs;
/* --share-context: the one context every tab opens in, and whether it is
 * being created (no tab starts meanwhile: each would make its own). */
static char *shared;
static int shared_pending;
/* The done list: what tabs let go of, oldest at done_at.  The driver
 * drains it every loop pass, so it holds at most two entries a tab (an
 * answer, an end): -c bounds it. */
static tab_done *done;
static size_t ndone, done_cap, done_at;

const char *const render_keys[] = {
	"url", "final_url", "host", "status", "error", "error_detail", "ctype", "headers",
	"body", "bytes", "fetched_at", "time_ms", "attempts", "redirects", "rendered",
	"screenshot", "pdf", "exchanges", "ip", "http_version", NULL
};

static void capture(tab *t, int partial);
static void open_target(tab *t);
static void finish(tab *t);

/* Puts p on the done list; the entry is returned for an answer. */
static tab_done *
put_done(int how, page *p)
{
	if (ndone == done_cap) {
		done_cap = done_cap ? done_cap * 2 : 16;
		done = xrealloc(done, done_cap * sizeof *done);
	}
	done[ndone] = (tab_done){ .how = how, .p = p };
	return &done[ndone++];
}

int
tab_done_next(tab_done *d)
{
	if (done_at == ndone) {
		done_at = ndone = 0;
		return 0;
	}
	*d = done[done_at++];
	return 1;
}

/* A copy of s, "" for NULL: the protocol's strings may be missing. */
static char *
dup_or_empty(const char *s)
{
	return xstrdup(s ? s : "");
}

static void
cmd(tab *t, int tag, const char *method, json_t *params)
{
	browser_send(t->slot, t->gen, tag, t->session, method, params);
}

static void
send_browser(tab *t, int tag, const char *method, json_t *params)
{
	browser_send(t->slot, t->gen, tag, NULL, method, params);
}

void
tab_init(void)
{
	ntabs = R.o.tabs;
	tabs = calloc((size_t)ntabs, sizeof *tabs);
	if (!tabs)
		xalloc_die();
	for (long i = 0; i < ntabs; i++) {
		tabs[i].slot = (int)i;
		uv_timer_init(R.loop, &tabs[i].cap);
		uv_timer_init(R.loop, &tabs[i].deadline);
		uv_timer_init(R.loop, &tabs[i].poll);
		uv_timer_init(R.loop, &tabs[i].quiet);
		tabs[i].cap.data = tabs[i].deadline.data = tabs[i].poll.data = &tabs[i];
		tabs[i].quiet.data = &tabs[i];
	}
}

int
tab_free_slot(void)
{
	if (shared_pending)
		return -1;
	for (long i = 0; i < ntabs; i++)
		if (tabs[i].state == S_FREE)
			return (int)i;
	return -1;
}

/* Forgets everything of the page t held, leaving the slot's handles. */
static void
reset(tab *t)
{
	free(t->context), free(t->target), free(t->session), free(t->loader), free(t->frame);
	free(t->ctype), free(t->final_url), free(t->remote_ip), free(t->body);
	free(t->shot), free(t->pdf), free(t->err_detail);
	json_decref(t->headers);
	free(t->hop_rid), free(t->hop_url);
	json_decref(t->hop_headers);
	htab_free(&t->inflight);
	raw_free(&t->raw);
	if (t->held)
		put_done(TAB_ENDED, t->held);
	uv_timer_stop(&t->cap);
	uv_timer_stop(&t->deadline);
	uv_timer_stop(&t->poll);
	uv_timer_stop(&t->quiet);
	memset(&t->state, 0, offsetof(tab, cap) - offsetof(tab, state));
	t->gen++;
}

static void
set_error(tab *t, enum fetcherr e, const char *detail)
{
	if (t->err)
		return;
	t->err = e;
	free(t->err_detail);
	t->err_detail = dup_or_empty(detail);
}

static void
on_cap(uv_timer_t *h)
{
	tab *t = h->data;
	if (t->state == S_LOADING)
		capture(t, 1);
}

static void
on_deadline(uv_timer_t *h)
{
	tab *t = h->data;
	if (t->state != S_LOADING && t->state != S_CAPTURING && t->state != S_OPENING)
		return;
	char d[64];
	snprintf(d, sizeof d, "no DOM within --timeout (%g s)", R.o.timeout);
	if (t->hop_url) {
		char *hd = fetcherr_hop_detail(t->hop_url, "held past --timeout for its host's "
					       "robots.txt or pacing");
		set_error(t, FETCHERR_TIMEOUT, hd ? hd : d);
		free(hd);
	} else {
		set_error(t, FETCHERR_TIMEOUT, d);
	}
	if (t->committed)
		t->partial = 1;
	finish(t);
}

void
tab_start(int slot, page *p)
{
	tab *t = &tabs[slot];
	t->p = p;
	t->state = S_OPENING;
	t->t0 = tm_mono();
	R.busy++;
	uv_timer_start(&t->deadline, on_deadline, (uint64_t)(R.o.timeout * 1000), 0);
	if (shared) {
		t->context = dup_or_empty(shared);
		open_target(t);
		return;
	}
	shared_pending = R.o.share_context;
	send_browser(t, T_CONTEXT, "Target.createBrowserContext",
		     json_pack("{s:b}", "disposeOnDetach", 1));
}

/* One command of the session's setup, counted: the page is opened only
 * once every one is answered. */
static void
setup(tab *t, const char *method, json_t *params)
{
	t->setup_pending++;
	cmd(t, T_SETUP, method, params);
}

/* Sends the session's setup.  The navigation waits for its answers: a
 * request a page's first script makes before the renderer has Network
 * enabled is never reported, and a long poll would then look finished. */
static void
setup_session(tab *t)
{
	setup(t, "Page.enable", NULL);
	setup(t, "Page.setLifecycleEventsEnabled", json_pack("{s:b}", "enabled", 1));
	setup(t, "Network.enable", NULL);
	setup(t, "Runtime.enable", NULL);
	if (R.o.user_agent)
		setup(t, "Network.setUserAgentOverride", json_pack("{s:s}", "userAgent", R.o.user_agent));
	/* Every request passes through us: the page's own schemes and
	 * addresses are checked, what --load leaves out refused. */
	setup(t, "Fetch.enable",
	      json_pack("{s:[{s:s, s:s}]}", "patterns", "urlPattern", "*", "requestStage", "Request"));
	if (R.o.screenshot)
		setup(t, "Emulation.setDeviceMetricsOverride",
		      json_pack("{s:I, s:I, s:f, s:b}", "width", (json_int_t)R.o.vw,
				"height", (json_int_t)R.o.vh, "deviceScaleFactor", 1.0, "mobile", 0));
	send_browser(t, T_IGNORE, "Browser.setDownloadBehavior",
		     json_pack("{s:s, s:s}", "behavior", "deny", "browserContextId", t->context));
}

static void
navigate(tab *t)
{
	t->t_nav = tm_mono();
	t->state = S_LOADING;
	cmd(t, T_NAVIGATE, "Page.navigate", json_pack("{s:s}", "url", t->p->url));
}

/* The error word of a net::ERR_ text from Page.navigate. */
static enum fetcherr
net_error(const char *e)
{
	static const struct { const char *part; enum fetcherr e; } map[] = {
		{ "NAME_NOT_RESOLVED", FETCHERR_DNS }, { "NAME_RESOLUTION", FETCHERR_DNS },
		{ "CONNECTION_REFUSED", FETCHERR_CONNECT }, { "ADDRESS_UNREACHABLE", FETCHERR_CONNECT },
		{ "CONNECTION_FAILED", FETCHERR_CONNECT }, { "INTERNET_DISCONNECTED", FETCHERR_CONNECT },
		{ "TIMED_OUT", FETCHERR_TIMEOUT }, { "CONNECTION_RESET", FETCHERR_RESET },
		{ "CONNECTION_CLOSED", FETCHERR_RESET }, { "EMPTY_RESPONSE", FETCHERR_RESET },
		{ "INVALID_HTTP_RESPONSE", FETCHERR_RESET }, { "CONNECTION_ABORTED", FETCHERR_RESET },
		{ "SSL", FETCHERR_TLS }, { "CERT", FETCHERR_TLS }, { "TOO_MANY_REDIRECTS", FETCHERR_REDIRECTS },
		{ "UNSAFE_REDIRECT", FETCHERR_SCHEME }, { "UNKNOWN_URL_SCHEME", FETCHERR_SCHEME },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strstr(e, map[i].part))
			return map[i].e;
	return FETCHERR_OTHER;
}

static const char dom_js[] =
	"(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n' : '')"
	" + (document.documentElement ? document.documentElement.outerHTML : '')";

/* Takes the DOM now: the wait rule held, or the cap passed (partial). */
static void
capture(tab *t, int partial)
{
	if (t->state != S_LOADING)
		return;
	t->state = S_CAPTURING;
	uv_timer_stop(&t->cap);
	uv_timer_stop(&t->poll);
	uv_timer_stop(&t->quiet);
	t->partial = partial;
	if (partial) {
		/* A script that never yields holds the thread Runtime.evaluate
		 * needs: stop it first (answered once it stopped). */
		cmd(t, T_TERMINATE, "Runtime.terminateExecution", NULL);
		return;
	}
	cmd(t, T_DOM, "Runtime.evaluate", json_pack("{s:s, s:b}", "expression", dom_js,
						     "returnByValue", 1));
}

static void
check_wait(tab *t)
{
	if (t->state != S_LOADING || !t->committed)
		return;
	if ((R.o.wait == WAIT_LOAD && t->loaded) || (R.o.wait == WAIT_IDLE && t->idle))
		capture(t, 0);
}

/* Whether the network is quiet: no request in flight by render's count.
 * Not Chromium's networkIdle: its lifecycle event comes from the renderer
 * and its requests' events from the network service, in no set order, so
 * under load it was seen to call a long poll in flight idle.  A request
 * whose end no event tells costs the page the cap (partial), never a
 * wrong "complete". */
static int
quiet(tab *t)
{
	return t->inflight.n == 0;
}

/* --wait networkidle: 500 ms after the load event and after the last
 * request started, with the network quiet.  Chromium's networkIdle alone
 * can fire before the load event, before a page's timers ran. */
static void
on_quiet(uv_timer_t *h)
{
	tab *t = h->data;
	if (t->loaded && quiet(t)) {
		t->idle = 1;
		check_wait(t);
	}
}

static void
quiet_restart(tab *t)
{
	if (R.o.wait == WAIT_IDLE && t->loaded && quiet(t) && t->state == S_LOADING)
		uv_timer_start(&t->quiet, on_quiet, 500, 0);
}

static void
on_poll(uv_timer_t *h)
{
	tab *t = h->data;
	if (t->state != S_LOADING)
		return;
	json_t *q = json_pack("{s:s, s:b}", "expression", "", "returnByValue", 1);
	char *js = NULL;
	json_t *sel = json_string(R.o.selector);
	char *lit = json_dumps(sel, JSON_ENCODE_ANY);
	json_decref(sel);
	if (asprintf(&js, "!!document.querySelector(%s)", lit) < 0)
		xalloc_die();
	free(lit);
	json_object_set_new(q, "expression", json_string(js));
	free(js);
	cmd(t, T_SELECTOR, "Runtime.evaluate", q);
}

/* After the DOM: the screenshot, the PDF, then the record. */
static void
next_output(tab *t, int after)
{
	if (after < T_SHOT && R.o.screenshot) {
		cmd(t, T_SHOT, "Page.captureScreenshot",
		     json_pack("{s:s, s:b}", "format", "png", "captureBeyondViewport", 1));
		return;
	}
	if (after < T_PDF && R.o.pdf) {
		/* A4 in inches, as printToPDF takes it. */
		cmd(t, T_PDF, "Page.printToPDF",
		     json_pack("{s:f, s:f, s:b}", "paperWidth", 8.27, "paperHeight", 11.69,
			       "printBackground", 1));
		return;
	}
	finish(t);
}

static void
pack_rendered(tab *t)
{
	msgpack_packer *pk = rec_key(&R.build, "rendered");
	msgpack_pack_map(pk, 5);
	msgpack_pack_str_with_body(pk, "ms", 2);
	msgpack_pack_double(pk, t->render_ms);
	msgpack_pack_str_with_body(pk, "requests", 8);
	msgpack_pack_long(pk, t->requests);
	msgpack_pack_str_with_body(pk, "blocked", 7);
	msgpack_pack_long(pk, t->blocked);
	msgpack_pack_str_with_body(pk, "console_errors", 14);
	msgpack_pack_long(pk, t->console_errors);
	msgpack_pack_str_with_body(pk, "partial", 7);
	if (t->partial)
		msgpack_pack_true(pk);
	else
		msgpack_pack_false(pk);
}

static void
pack_headers(tab *t)
{
	msgpack_packer *pk = rec_key(&R.build, "headers");
	msgpack_pack_map(pk, json_object_size(t->headers));
	const char *k;
	json_t *v;
	json_object_foreach(t->headers, k, v) {
		char name[256];
		size_t n = strlen(k);
		if (n >= sizeof name)
			n = sizeof name - 1;
		for (size_t i = 0; i < n; i++)
			name[i] = (char)((k[i] >= 'A' && k[i] <= 'Z') ? k[i] + 32 : k[i]);
		msgpack_pack_str_with_body(pk, name, n);
		/* DevTools joins a repeated header's values with newlines;
		 * fetch's records join them with ", ". */
		const char *s = json_string_value(v);
		size_t len = s ? strlen(s) : 0, extra = 0;
		for (size_t i = 0; i < len; i++)
			extra += s[i] == '\n';
		msgpack_pack_str(pk, len + extra);
		for (size_t i = 0, from = 0; i <= len; i++)
			if (i == len || s[i] == '\n') {
				msgpack_pack_str_body(pk, s + from, i - from);
				if (i < len)
					msgpack_pack_str_body(pk, ", ", 2);
				from = i + 1;
			}
	}
}

/* Writes the record of t's page. */
static void
emit(tab *t)
{
	page *p = t->p;
	rec_build *b = &R.build;
	rec_build_reset(b);
	url_put(b, "url", p->url);
	rec_put_str(b, "host", p->host);
	rec_put_int(b, "status", t->status);
	if (t->err) {
		rec_put_str(b, "error", fetcherr_word(t->err));
		if (t->err_detail)
			rec_put_str(b, "error_detail", t->err_detail);
	}
	rec_put_int(b, "attempts", 1 + p->tries);
	rec_put_double(b, "fetched_at", tm_wall());
	if (t->final_url)
		url_put(b, "final_url", t->final_url);
	if (t->ctype)
		rec_put_str(b, "ctype", t->ctype);
	rec_put_double(b, "time_ms", t->time_ms);
	if (t->headers)
		pack_headers(t);
	if (t->body) {
		rec_put_bin(b, "body", t->body, t->body_len);
		rec_put_int(b, "bytes", (int64_t)t->body_len);
	}
	pack_rendered(t);
	if (R.o.raw && t->body)   /* a record without its body archives nothing */
		raw_pack(&t->raw, b);
	if (t->shot)
		rec_put_bin(b, "screenshot", t->shot, t->shot_len);
	if (t->pdf)
		rec_put_bin(b, "pdf", t->pdf, t->pdf_len);
	if (rec_out_pass(&R.out.out, b, p->in, p->in_len, render_keys) != 0)
		msg_stdout_failed(errno);
	outbuf_record(&R.out);
}

/* Closes t's tab: the context with it, unless it is the shared one. */
static void
dispose(tab *t)
{
	if (!R.o.share_context)
		send_browser(t, T_DISPOSE, "Target.disposeBrowserContext",
			     json_pack("{s:s}", "browserContextId", t->context));
	else if (t->target)
		send_browser(t, T_DISPOSE, "Target.closeTarget", json_pack("{s:s}", "targetId", t->target));
	else {
		reset(t);
		R.busy--;
	}
}

/* Opens the tab in t's context. */
static void
open_target(tab *t)
{
	send_browser(t, T_TARGET, "Target.createTarget",
		     json_pack("{s:s, s:s}", "url", "about:blank", "browserContextId", t->context));
}

/* The main document's Retry-After in seconds (delta or HTTP date), or
 * -1. */
static double
retry_after(tab *t)
{
	const char *k;
	json_t *v;
	json_object_foreach(t->headers, k, v) {
		if (strcasecmp(k, "retry-after") != 0 || !json_is_string(v))
			continue;
		const char *s = json_string_value(v);
		char *end;
		double d = strtod(s, &end);
		if (end != s && !*end && d >= 0)
			return d;
		time_t when = curl_getdate(s, NULL);
		if (when != -1)
			return fmax(0, (double)when - tm_wall());
	}
	return -1;
}

/* Ends the page: its record, then the context's disposal. */
static void
finish(tab *t)
{
	if (t->state == S_CLOSING || t->state == S_FREE)
		return;
	uv_timer_stop(&t->cap);
	uv_timer_stop(&t->poll);
	t->render_ms = t->t_nav ? (tm_mono() - t->t_nav) * 1000 : 0;
	if (t->body && t->err && !fetcherr_body(t->err)) {
		free(t->body);
		t->body = NULL;
	}
	emit(t);
	page *p = t->p;
	t->p = NULL;
	if (t->t_nav) {
		tab_done *d = put_done(TAB_ANSWERED, p);
		d->status = t->status;
		d->latency = t->time_ms / 1000;
		d->retry_after = retry_after(t);
		d->started = t->t_nav;
		d->err = t->err;
	}
	t->state = S_CLOSING;
	if (t->context && browser_ready() && R.o.cookies) {
		/* The page's cookies into the jar, then the disposal.  Its
		 * host's next page waits for them (-p), so it gets them. */
		t->held = p;
		send_browser(t, T_GETCOOKIES, "Storage.getCookies",
			     json_pack("{s:s}", "browserContextId", t->context));
		return;
	}
	put_done(TAB_ENDED, p);
	if (t->context && browser_ready())
		dispose(t);
	else {
		reset(t);
		R.busy--;
	}
}

void
tab_reply(int slot, unsigned gen, int tag, json_t *res, json_t *error)
{
	if (slot < 0 || slot >= ntabs)
		return;
	tab *t = &tabs[slot];
	if (t->gen != gen || t->state == S_FREE)
		return;
	const char *emsg = error ? json_string_value(json_object_get(error, "message")) : NULL;
	switch (tag) {
	case T_CONTEXT:
		shared_pending = 0;
		if (error || !json_string_value(json_object_get(res, "browserContextId"))) {
			set_error(t, FETCHERR_OTHER, emsg ? emsg : "cannot create a browser context");
			finish(t);
			return;
		}
		t->context = dup_or_empty(json_string_value(json_object_get(res, "browserContextId")));
		if (R.o.share_context)
			shared = dup_or_empty(t->context);
		json_t *jar = cookies_params();
		if (jar)   /* the jar first: the tab opens once it is in */
			send_browser(t, T_SETCOOKIES, "Storage.setCookies",
				     json_pack("{s:o, s:s}", "cookies", jar, "browserContextId", t->context));
		else
			open_target(t);
		return;
	case T_SETCOOKIES:
		if (error) {
			set_error(t, FETCHERR_OTHER, emsg ? emsg : "cannot set the cookies");
			finish(t);
			return;
		}
		open_target(t);
		return;
	case T_GETCOOKIES:
		if (!error)
			cookies_merge(json_object_get(res, "cookies"));
		put_done(TAB_ENDED, t->held);
		t->held = NULL;
		dispose(t);
		return;
	case T_TARGET:
		if (error || !json_string_value(json_object_get(res, "targetId"))) {
			set_error(t, FETCHERR_OTHER, emsg ? emsg : "cannot open a tab");
			finish(t);
			return;
		}
		t->target = dup_or_empty(json_string_value(json_object_get(res, "targetId")));
		send_browser(t, T_ATTACH, "Target.attachToTarget",
			     json_pack("{s:s, s:b}", "targetId", t->target, "flatten", 1));
		return;
	case T_ATTACH:
		if (error || !json_string_value(json_object_get(res, "sessionId"))) {
			set_error(t, FETCHERR_OTHER, emsg ? emsg : "cannot attach to the tab");
			finish(t);
			return;
		}
		t->session = dup_or_empty(json_string_value(json_object_get(res, "sessionId")));
		setup_session(t);
		return;
	case T_SETUP:
		if (--t->setup_pending == 0)
			navigate(t);
		return;
	case T_NAVIGATE: {
		const char *et = json_string_value(json_object_get(res, "errorText"));
		if (error || (et && *et)) {
			const char *why = et && *et ? et : emsg ? emsg : "navigation failed";
			enum fetcherr e = t->main_blocked ? t->main_blocked : net_error(why);
			if (strstr(why, "ERR_ABORTED") && !t->main_blocked)
				why = "net::ERR_ABORTED (a download, refused, or a navigation cancelled)";
			if (!t->err_detail)
				set_error(t, e, why);
			t->time_ms = (tm_mono() - t->t_nav) * 1000;
			finish(t);
			return;
		}
		free(t->loader), free(t->frame);
		t->loader = dup_or_empty(json_string_value(json_object_get(res, "loaderId")));
		t->frame = dup_or_empty(json_string_value(json_object_get(res, "frameId")));
		t->committed = 1;
		if (json_is_true(json_object_get(res, "isDownload"))) {
			set_error(t, FETCHERR_OTHER, "a download, refused");
			finish(t);
			return;
		}
		/* The cap counts from the answer: a slow server spends the
		 * --timeout, not the scripts' time. */
		uv_timer_start(&t->cap, on_cap, (uint64_t)(R.o.max_wait * 1000), 0);
		if (R.o.wait == WAIT_SELECTOR)
			uv_timer_start(&t->poll, on_poll, 50, 100);
		check_wait(t);
		return;
	}
	case T_SELECTOR:
		if (json_is_true(json_object_get(json_object_get(res, "result"), "value")))
			capture(t, 0);
		return;
	case T_TERMINATE:
		cmd(t, T_DOM, "Runtime.evaluate", json_pack("{s:s, s:b}", "expression", dom_js,
							     "returnByValue", 1));
		return;
	case T_DOM: {
		json_t *v = json_object_get(json_object_get(res, "result"), "value");
		if (error || !json_is_string(v)) {
			const char *d = emsg ? emsg : "the DOM could not be read";
			json_t *ex = json_object_get(res, "exceptionDetails");
			if (ex)
				d = "the DOM could not be read: the page's script was stopped";
			set_error(t, FETCHERR_OTHER, d);
			finish(t);
			return;
		}
		size_t n = json_string_length(v);
		if (n > R.o.max_body) {
			char d[96];
			snprintf(d, sizeof d, "the DOM is %zu bytes, more than --max-body", n);
			set_error(t, FETCHERR_TOO_LARGE, d);
			finish(t);
			return;
		}
		t->body = malloc(n + 1);
		if (!t->body)
			xalloc_die();
		memcpy(t->body, json_string_value(v), n);
		t->body_len = n;
		if (R.o.raw && raw_body_id(&t->raw)) {
			cmd(t, T_BODY, "Network.getResponseBody",
			    json_pack("{s:s}", "requestId", raw_body_id(&t->raw)));
			return;
		}
		next_output(t, T_DOM);
		return;
	}
	case T_BODY: {
		json_t *body = json_object_get(res, "body");
		raw_payload(&t->raw, json_string_value(body), json_string_length(body),
			    json_is_true(json_object_get(res, "base64Encoded")), R.o.max_body);
		next_output(t, T_BODY);
		return;
	}
	case T_SHOT:
	case T_PDF: {
		const char *d = json_string_value(json_object_get(res, "data"));
		if (d) {
			if (tag == T_SHOT)
				t->shot = raw_unbase64(d, &t->shot_len);
			else
				t->pdf = raw_unbase64(d, &t->pdf_len);
		} else if (!t->err) {
			char *shown = url_shown(t->p->url);
			msg_warn("%s of %s: %s", tag == T_SHOT ? "screenshot" : "pdf",
				 shown ? shown : t->p->url, emsg ? emsg : "no data");
			free(shown);
		}
		next_output(t, tag);
		return;
	}
	case T_DISPOSE:
		reset(t);
		R.busy--;
		return;
	default:
		return;
	}
}

static tab *
by_session(const char *sid)
{
	for (long i = 0; i < ntabs; i++)
		if (tabs[i].session && strcmp(tabs[i].session, sid) == 0 && tabs[i].state != S_FREE)
			return &tabs[i];
	return NULL;
}

/* Whether a request to url, made by t's page, is refused; sets *why. */
static enum fetcherr
refused(tab *t, const char *url, const char *type, const char **why)
{
	size_t n = strlen(url);
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0 &&
	    strncmp(url, "data:", 5) != 0 && strncmp(url, "blob:", 5) != 0) {
		*why = "only http and https are rendered";
		return FETCHERR_SCHEME;
	}
	if (R.o.load == LOAD_DOM && type &&
	    (!strcmp(type, "Stylesheet") || !strcmp(type, "Image") || !strcmp(type, "Media") ||
	     !strcmp(type, "Font"))) {
		*why = "stylesheets, images, media and fonts are not loaded (--load all)";
		return FETCHERR_OTHER;
	}
	/* The tab's icon: the browser's request, not the page's ("Other"). */
	if (R.o.load == LOAD_DOM && type && !strcmp(type, "Other") && n >= 12 &&
	    !strcmp(url + n - 12, "/favicon.ico")) {
		*why = "the favicon is an image (--load all)";
		return FETCHERR_OTHER;
	}
	if (t->from_public && !R.o.allow_private && strncmp(url, "http", 4) == 0) {
		url_parts u;
		const char *w;
		if (url_canon(url, n, &u, &w) == 0) {
			char ip[64];
			size_t hl = strlen(u.host);
			/* An address literal is checked here; names are left to
			 * Chromium's own Local Network Access checks (docs). */
			if (u.host[0] == '[' && hl < sizeof ip + 1) {
				memcpy(ip, u.host + 1, hl - 2);
				ip[hl - 2] = 0;
			} else {
				snprintf(ip, sizeof ip, "%s", u.host);
			}
			int priv = cidr_has_text(R.o.private_ranges, ip) || strcmp(u.host, "localhost") == 0;
			url_parts_free(&u);
			if (priv) {
				*why = "a private address from a public page (--private-ranges)";
				return FETCHERR_PRIVATE_ADDRESS;
			}
		}
	}
	return FETCHERR_NONE;
}

static int is_main(tab *t, json_t *params);

/* Request id (DevTools' requestId, the Fetch domain's networkId) is in
 * flight.  Kept as a set: either domain may tell first, and a redirect
 * is the same request again. */
static void
request_started(tab *t, const char *id)
{
	int added;
	if (!id)
		return;
	if (!htab_put(&t->inflight, id, strlen(id), &added))
		xalloc_die();
	if (added)
		uv_timer_stop(&t->quiet);
}

/* The request's headers (a DevTools headers object) with -H's lines
 * applied, as Fetch.continueRequest's list, which replaces them all; the
 * secret ones only when url is the page's own origin (the input URL's:
 * scheme, host and port, as fetch's rule across redirects).  NULL when
 * -H gave none. */
static json_t *
extra_headers(tab *t, const char *url, json_t *have)
{
	if (!R.o.headers)
		return NULL;
	json_t *h = json_object();
	const char *k;
	json_t *v;
	if (json_is_object(have))
		json_object_foreach(have, k, v)
			if (json_is_string(v))
				json_object_set(h, k, v);
	int own = hdr_same_origin(url, t->p->url);
	for (const struct curl_slist *l = R.o.headers; l; l = l->next) {
		const char *line = l->data;
		size_t n = hdr_name_len(line);
		if (!own && hdr_is_secret(line, n))
			continue;
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)n, line);
		void *it = json_object_iter(h);
		while (it) {   /* one name, whatever its case */
			void *next = json_object_iter_next(h, it);
			if (strcasecmp(json_object_iter_key(it), name) == 0)
				json_object_del(h, json_object_iter_key(it));
			it = next;
		}
		const char *val = line + n + 1;
		while (*val == ' ' || *val == '\t')
			val++;
		if (line[n] == ':' && !*val)
			continue;   /* "Name:" drops the header */
		json_object_set_new(h, name, json_string(line[n] == ';' ? "" : val));
	}
	json_t *list = json_array();
	json_object_foreach(h, k, v)
		json_array_append_new(list, json_pack("{s:s, s:O}", "name", k, "value", v));
	json_decref(h);
	return list;
}

/* Lets request rid (to url, with its headers) of t's page go on;
 * network_id is put in flight (NULL: it already is). */
static void
go_on(tab *t, const char *rid, const char *network_id, const char *url, json_t *headers)
{
	/* Only a request let through is in flight: one refused ends by our
	 * word, and a browser-made one (the favicon) may never see its end
	 * reported. */
	request_started(t, network_id);
	t->requests++;
	json_t *c = json_pack("{s:s}", "requestId", rid);
	json_t *hs = url ? extra_headers(t, url, headers) : NULL;
	if (hs)
		json_object_set_new(c, "headers", hs);
	cmd(t, T_FETCH, "Fetch.continueRequest", c);
}

static void
fail_request(tab *t, const char *rid)
{
	t->blocked++;
	cmd(t, T_FETCH, "Fetch.failRequest",
	    json_pack("{s:s, s:s}", "requestId", rid, "errorReason", "BlockedByClient"));
}

/* Pauses the main document's request rid to url, a hop (a redirect, or
 * a navigation of the page's own) or the first request of another
 * origin than the page's: its host's robots.txt and pacing are the
 * driver's to ask (tab_hop answers), as fetch asks them at every hop.  A
 * second one replaces the first, refused. */
static void
hold(tab *t, const char *rid, const char *url, json_t *params)
{
	if (t->hop_rid) {
		fail_request(t, t->hop_rid);
		free(t->hop_rid), free(t->hop_url);
		json_decref(t->hop_headers);
	}
	t->hop_rid = dup_or_empty(rid);
	t->hop_url = dup_or_empty(url);
	t->hop_headers = json_incref(json_object_get(json_object_get(params, "request"), "headers"));
	request_started(t, json_string_value(json_object_get(params, "networkId")));
	put_done(TAB_HOP, t->p)->url = dup_or_empty(url);
}

void
tab_hop(page *p, enum fetcherr e, const char *why)
{
	tab *t = NULL;
	for (long i = 0; i < ntabs && !t; i++)
		if (tabs[i].p == p && tabs[i].hop_rid)
			t = &tabs[i];
	if (!t || t->state == S_CLOSING)
		return;
	char *rid = t->hop_rid, *url = t->hop_url;
	json_t *hs = t->hop_headers;
	t->hop_rid = t->hop_url = NULL;
	t->hop_headers = NULL;
	if (e == FETCHERR_NONE) {
		t->doc_sent = 1;
		go_on(t, rid, NULL, url, hs);
	} else {
		/* Nothing reaches the hop's host: the page ends here, as
		 * fetch's record of a refused hop. */
		char *d = fetcherr_hop_detail(url, why);
		fail_request(t, rid);
		t->main_blocked = e;
		set_error(t, e, d ? d : why);
		free(d);
		finish(t);
	}
	free(rid), free(url);
	json_decref(hs);
}

static void
on_request_paused(tab *t, json_t *params)
{
	const char *rid = json_string_value(json_object_get(params, "requestId"));
	json_t *req = json_object_get(params, "request");
	const char *url = json_string_value(json_object_get(req, "url"));
	const char *type = json_string_value(json_object_get(params, "resourceType"));
	if (!rid)
		return;
	const char *why = NULL;
	enum fetcherr e = url ? refused(t, url, type, &why) : FETCHERR_NONE;
	int main_doc = type && strcmp(type, "Document") == 0 && is_main(t, params);
	if (e == FETCHERR_NONE && main_doc && (t->doc_sent || !hdr_same_origin(url, t->p->url))) {
		hold(t, rid, url, params);
		return;
	}
	if (e == FETCHERR_NONE) {
		if (main_doc && !t->doc_sent)
			put_done(TAB_SENT, t->p)->started = tm_mono();
		t->doc_sent |= main_doc;
		go_on(t, rid, json_string_value(json_object_get(params, "networkId")), url,
		      json_object_get(req, "headers"));
		return;
	}
	if (main_doc) {
		t->main_blocked = e;
		set_error(t, e, why);
	}
	fail_request(t, rid);
}

static int
is_main(tab *t, json_t *params)
{
	const char *f = json_string_value(json_object_get(params, "frameId"));
	return f && ((t->frame && strcmp(f, t->frame) == 0) || (t->target && strcmp(f, t->target) == 0));
}

/* Notes whether the main document's first answer (ip, as DevTools
 * writes it, "[v6]" or "v4") came from a public address: from then on
 * the page's requests to private ones are refused. */
static void
note_address(tab *t, const char *ip)
{
	if (!ip || t->remote_ip)
		return;
	t->remote_ip = dup_or_empty(ip);
	char a[64];
	size_t n = strlen(ip);
	if (ip[0] == '[' && n < sizeof a && n >= 2) {
		memcpy(a, ip + 1, n - 2);
		a[n - 2] = 0;
	} else {
		snprintf(a, sizeof a, "%s", ip);
	}
	t->from_public = !cidr_has_text(R.o.private_ranges, a);
}

static void
on_response(tab *t, json_t *params)
{
	const char *type = json_string_value(json_object_get(params, "type"));
	if (!type || strcmp(type, "Document") != 0 || !is_main(t, params))
		return;
	json_t *r = json_object_get(params, "response");
	t->status = (long)json_integer_value(json_object_get(r, "status"));
	json_decref(t->headers);
	t->headers = json_incref(json_object_get(r, "headers"));
	free(t->final_url);
	const char *fu = json_string_value(json_object_get(r, "url"));
	t->final_url = fu ? dup_or_empty(fu) : NULL;   /* a message without one: none */
	note_address(t, json_string_value(json_object_get(r, "remoteIPAddress")));
	free(t->ctype);
	t->ctype = NULL;
	const char *k;
	json_t *v;
	json_object_foreach(t->headers, k, v)
		if (strcasecmp(k, "content-type") == 0 && json_string_value(v))
			t->ctype = dup_or_empty(json_string_value(v));
	if (!t->ctype && json_string_value(json_object_get(r, "mimeType")))
		t->ctype = dup_or_empty(json_string_value(json_object_get(r, "mimeType")));
	t->time_ms = (tm_mono() - t->t_nav) * 1000;
}

void
tab_event(const char *sid, const char *method, json_t *params)
{
	tab *t = by_session(sid);
	if (!t || t->state == S_CLOSING)
		return;
	if (R.o.raw && strncmp(method, "Network.re", 10) == 0) {
		const char *type = json_string_value(json_object_get(params, "type"));
		raw_event(&t->raw, method, params, type && !strcmp(type, "Document") && is_main(t, params));
	}
	if (strcmp(method, "Fetch.requestPaused") == 0) {
		on_request_paused(t, params);
	} else if (strcmp(method, "Network.requestWillBeSent") == 0) {
		/* A server's redirect of the page: its answer counts as the
		 * page's first. */
		json_t *rr = json_object_get(params, "redirectResponse");
		const char *type = json_string_value(json_object_get(params, "type"));
		if (rr && type && !strcmp(type, "Document") && is_main(t, params))
			note_address(t, json_string_value(json_object_get(rr, "remoteIPAddress")));
		request_started(t, json_string_value(json_object_get(params, "requestId")));
	} else if (strcmp(method, "Network.loadingFinished") == 0 ||
		   strcmp(method, "Network.loadingFailed") == 0) {
		const char *id = json_string_value(json_object_get(params, "requestId"));
		if (id)
			htab_del(&t->inflight, id, strlen(id));
		quiet_restart(t);
	} else if (strcmp(method, "Network.responseReceived") == 0) {
		on_response(t, params);
	} else if (strcmp(method, "Page.lifecycleEvent") == 0) {
		const char *name = json_string_value(json_object_get(params, "name"));
		const char *loader = json_string_value(json_object_get(params, "loaderId"));
		if (!name || !is_main(t, params) || !loader || !t->loader || strcmp(loader, t->loader))
			return;
		if (strcmp(name, "load") == 0) {
			t->loaded = 1;
			quiet_restart(t);
		}
		check_wait(t);
	} else if (strcmp(method, "Page.frameNavigated") == 0) {
		/* A script's navigation (location.href): wait for the new
		 * document instead. */
		json_t *f = json_object_get(params, "frame");
		const char *l = json_string_value(json_object_get(f, "loaderId"));
		if (!json_object_get(f, "parentId") && l && t->loader && strcmp(l, t->loader)) {
			free(t->loader);
			t->loader = dup_or_empty(l);
			t->loaded = t->idle = 0;
			htab_clear(&t->inflight);   /* the old document's end unseen */
			uv_timer_stop(&t->quiet);
		}
	} else if (strcmp(method, "Runtime.exceptionThrown") == 0) {
		t->console_errors++;
	} else if (strcmp(method, "Runtime.consoleAPICalled") == 0) {
		const char *type = json_string_value(json_object_get(params, "type"));
		if (type && strcmp(type, "error") == 0)
			t->console_errors++;
	} else if (strcmp(method, "Page.javascriptDialogOpening") == 0) {
		/* alert, confirm, prompt, beforeunload: dismissed, or the page
		 * would wait for a person forever. */
		cmd(t, T_IGNORE, "Page.handleJavaScriptDialog", json_pack("{s:b}", "accept", 1));
	} else if (strcmp(method, "Inspector.targetCrashed") == 0) {
		set_error(t, FETCHERR_RENDER_CRASH, "the tab's renderer process crashed");
		finish(t);
	}
}

void
tab_browser_lost(int hung)
{
	free(shared);   /* it went with the browser */
	shared = NULL;
	shared_pending = 0;
	for (long i = 0; i < ntabs; i++) {
		tab *t = &tabs[i];
		if (t->state == S_FREE)
			continue;
		if (t->state != S_CLOSING && t->p->tries == 0) {
			page *p = t->p;   /* once more, in a new Chromium */
			t->p = NULL;
			put_done(TAB_AGAIN, p);
		} else if (t->state != S_CLOSING) {
			char why[128];
			snprintf(why, sizeof why, hung ?
				 "chromium answered nothing for %.0f s, twice with this page open" :
				 "chromium exited twice with this page open", R.o.browser_timeout);
			set_error(t, FETCHERR_BROWSER_LOST, why);
			free(t->context);
			t->context = NULL;
			finish(t);   /* without a context it frees the slot itself */
			continue;
		}
		reset(t);
		R.busy--;
	}
}

void
tab_abort_all(void)
{
	for (long i = 0; i < ntabs; i++) {
		tab *t = &tabs[i];
		if (t->state == S_OPENING || t->state == S_LOADING || t->state == S_CAPTURING) {
			set_error(t, FETCHERR_INTERRUPTED, "stopped by signal before the page was rendered");
			finish(t);
		}
	}
}

void
tab_close(void)
{
	free(shared);
	shared = NULL;
	for (long i = 0; i < ntabs; i++) {
		reset(&tabs[i]);
		uv_close((uv_handle_t *)&tabs[i].cap, NULL);
		uv_close((uv_handle_t *)&tabs[i].deadline, NULL);
		uv_close((uv_handle_t *)&tabs[i].poll, NULL);
		uv_close((uv_handle_t *)&tabs[i].quiet, NULL);
	}
	free(done);
}
