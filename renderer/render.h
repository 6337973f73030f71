/* render — fetch's records, with the DOM a headless Chromium built.
 *
 * Modules in call order, by layer: calls go down the list, never up.  A
 * module reports up through what it was handed or what it keeps for the
 * driver to take: browser.c calls the callbacks browser_start
 * registered, tab.c puts what it let go of on its done list.
 *
 * driver
 *   main.c     options, the loop's life, shutdown
 *   sched.c    the pass: the done list drained, input read as room
 *              frees, the queue, pages started; records of pages that
 *              never reach a tab (sched_)
 * policy
 *   host.c     what a host lets start: its pacing (lib/pace), its
 *              robots.txt fetched on libuv's thread pool, the verdict
 *              on a page or a hop to its host (host_)
 * services
 *   tab.c      one page in one tab: DevTools steps, its record, the
 *              done list (tab_)
 *   cookies.c  --cookies: the jar, carried from context to context (cookies_)
 *   raw.c      --raw: the page's own answer, from DevTools' events (raw_)
 *   browser.c  the Chromium child and the DevTools pipe, fds 3 and 4 (browser_)
 *
 * Event callbacks only change state; sched.c's pass (a uv_check_t, once
 * per loop pass) does the work.  Nothing blocks the loop thread:
 * robots.txt is fetched on libuv's thread pool.
 */
#ifndef SLUICE_RENDER_H
#define SLUICE_RENDER_H

#include <curl/curl.h>
#include <jansson.h>
#include <stddef.h>
#include <uv.h>

#include "cidr.h"
#include "fetcherr.h"
#include "outbuf.h"
#include "pace.h"
#include "rec.h"

enum render_wait { WAIT_LOAD, WAIT_IDLE, WAIT_SELECTOR };
/* --load: what a page's requests may fetch.  LOAD_DOM refuses what only
 * its looks need (stylesheets, images, media, fonts); LOAD_ALL is 1, as
 * --load-images, the older spelling, sets it. */
enum render_load { LOAD_DOM, LOAD_ALL };

typedef struct render_opts {
	long tabs, per_host, pending, max_hosts;
	size_t out_buffer;             /* --buffer: output bytes before starts stop */
	double delay, timeout, max_wait;
	enum render_wait wait;
	const char *selector;          /* --wait selector:CSS */
	const char *user_agent;        /* NULL: Chromium's own */
	struct curl_slist *headers;    /* -H lines, @FILEs read (lib/hdr) */
	const char *cookies;           /* --cookies FILE, or NULL */
	long max_cookies;              /* --max-cookies: the jar's bound in all */
	int share_context;             /* one browser context for every tab */
	const char *robots_agent;
	int load;                      /* enum render_load */
	int robots, only_shells, screenshot, pdf, json;
	int raw;                       /* --raw: the page's own answer as exchanges */
	struct curl_slist *warc_redact;  /* --warc-redact NAME: shown as *** there */
	long min_text;                 /* --only-shells threshold */
	long vw, vh;                   /* --viewport */
	size_t max_body, max_record;
	const char *chromium;          /* the binary */
	const char *browser_user;      /* who Chromium runs as when render is root */
	int no_sandbox;                /* --no-sandbox: Chromium's sandbox off */
	long recycle;                  /* pages a browser opens before it is restarted; 0: no limit */
	size_t max_browser_memory;     /* the tree's PSS that restarts it; 0: no limit */
	int browser_log;               /* Chromium's stderr passed through */
	double browser_timeout;        /* a browser command unanswered this long: hung */
	struct cidr *private_ranges;
	int allow_private;
} render_opts;

/* A host's pacing and robots.txt state, kept for the run. */
typedef struct rhost {
	char *origin;                  /* "http://h:port", robots' scope */
	long inflight;
	long pages;                    /* pages that point here (waiting, in a tab) */
	struct pace pace;              /* -d, Crawl-delay and what answers taught (lib/pace) */
	int robots_state;              /* 0 none, 1 loading, 2 ready */
	struct robots *robots;
} rhost;

/* One input URL from its read to its one record. */
typedef struct page {
	char *url;                     /* canonical, or as given when refused */
	char *host;                    /* host name, NULL when refused */
	char *in;                      /* the input record, or NULL */
	size_t in_len;
	rhost *h;
	int tries;                     /* times a lost Chromium took it down (0 or 1) */
	struct page *next;
	/* A request of its main document to another origin than url's (a
	 * redirect, or a navigation of the page's own), held in its tab
	 * until hop_h lets it go (canonical; NULL: none held). */
	char *hop;
	rhost *hop_h;
	struct page *hop_next;
} page;

typedef struct render_state {
	render_opts o;
	uv_loop_t *loop;
	outbuf out;                    /* records go out through it, never blocking */
	rec_build build;
	int input_done, stopping, bad_input, failed_open;
	long queued;                   /* pages read and not yet ended */
	long busy;                     /* tabs holding a page or closing */
} render_state;

extern render_state R;

/* Keys render writes: an input record's stale values of these never
 * pass through, even when this page's record leaves one out. */
extern const char *const render_keys[];

/* ---- sched.c */
/* Starts the pass on the loop, reading files[0..n) (none: stdin), and
 * runs it once.  It stops the loop once everything is done: input read,
 * no page waiting or in a tab, no robots.txt on its way. */
void sched_init(char **files, int n);
void sched_close(void);

/* ---- host.c */
/* The host of canonical URL canon, made on first sight (its pacing from
 * -d, its robots.txt not yet asked for, or not needed under
 * --no-robots).  Above --max-hosts, hosts no page holds and that wait
 * for nothing are dropped first. */
rhost *host_of(const char *canon);
/* What one navigation taught h's pacing: the main document's status
 * (0: none), latency, Retry-After (< 0: none) and start, and the
 * page's error (tab_done's fields). */
void host_answered(rhost *h, long status, double latency, double retry_after, double started,
		   enum fetcherr e);
/* What h says to a request for canonical URL url now: HOST_GO (its
 * robots.txt allows url and its pacing lets a request start: whoever
 * starts one calls pace_started), HOST_WAIT (until *at, tm_mono's
 * clock; INFINITY while its robots.txt is not in: host_robots_ask it
 * when robots_state is 0), or HOST_REFUSE (robots.txt disallows url,
 * *why its robots_reason).  -p is the caller's to count. */
enum host_verdict { HOST_GO, HOST_WAIT, HOST_REFUSE };
enum host_verdict host_may(rhost *h, const char *url, double now, double *at, const char **why);
/* Fetches h's robots.txt on the thread pool: robots_state 1, then 2
 * with h->robots (NULL: no rules) and its Crawl-delay. */
void host_robots_ask(rhost *h);
/* Whether a robots.txt fetch is under way. */
int host_robots_loading(void);
/* Frees every host. */
void host_close(void);

/* ---- tab.c */
/* What a tab lets go of, on the done list the driver drains: an
 * answer (the fields below), a page ended (its record written, its
 * host's slot free, p the taker's to free), a page taken from its
 * tab unended (a hung Chromium's) to be tried again, a hop of p's main
 * document (a redirect, a navigation of its own) held until tab_hop
 * says what becomes of it (url: its URL), or p's first request sent to
 * its host at `started` (the page started earlier: its tab's setup
 * came first, and the host's pace counts from what the host saw). */
enum { TAB_ANSWERED, TAB_ENDED, TAB_AGAIN, TAB_HOP, TAB_SENT };
typedef struct tab_done {
	int how;
	page *p;
	/* TAB_ANSWERED: what its host's pacing learns: the main document's
	 * status (0: none), latency (seconds from the navigation to its
	 * answer), its Retry-After in seconds (< 0: none), when the
	 * navigation started (tm_mono), and p's error. */
	long status;
	double latency, retry_after, started;
	enum fetcherr err;
	char *url;                     /* TAB_HOP: the taker's to free */
} tab_done;

void tab_init(void);
/* Takes the oldest entry of the done list into d: 1, or 0 when it is
 * empty.  A page's TAB_ANSWERED comes before its TAB_ENDED. */
int tab_done_next(tab_done *d);
/* A free tab, or -1. */
int tab_free_slot(void);
/* Starts p in tab slot. */
void tab_start(int slot, page *p);
/* p's held hop (TAB_HOP) goes on (e FETCHERR_NONE), or is refused and
 * p ends with error e, its detail naming the hop and why.  Nothing when
 * p's tab holds none (the page ended meanwhile). */
void tab_hop(page *p, enum fetcherr e, const char *why);
/* The browser answered command tag of tab slot (gen: the page it was
 * sent for); error is NULL on success. */
void tab_reply(int slot, unsigned gen, int tag, json_t *result, json_t *error);
/* An event of the session sid. */
void tab_event(const char *sid, const char *method, json_t *params);
/* The browser went away (hung: killed when it hung): every page in a
 * tab is handed back once (TAB_AGAIN), and on its second try ends as
 * browser_lost. */
void tab_browser_lost(int hung);
/* Interrupted: pages in tabs end now as `interrupted`. */
void tab_abort_all(void);
void tab_close(void);

/* ---- cookies.c */
/* Reads the Netscape jar file (a missing file is an empty jar, written
 * at exit).  0, or -1 with the reason in err. */
int cookies_load(const char *file, char *err, size_t errlen);
/* The jar as Storage.setCookies' cookies (new reference), or NULL
 * without --cookies. */
json_t *cookies_params(void);
/* Adds or replaces the cookies of Storage.getCookies' answer. */
void cookies_merge(json_t *cookies);
/* Writes the jar back (0600, renamed over), frees it.  0 or -1 (said). */
int cookies_save(void);

/* ---- raw.c */
/* What DevTools told of a page's main document, for --raw. */
typedef struct raw_log {
	char *main_id;                 /* its request id, NULL: none seen */
	json_t *hops;                  /* [{url, method, date, headers, response}] */
	json_t *extra;                 /* request id -> {req: [...], res: [...]}: ExtraInfo */
	char *payload;                 /* the last answer's body, decoded */
	size_t payload_len;
	int payload_cut;               /* cut at --max-body, or none had */
} raw_log;

/* Notes a Network event of the page (main_doc: of its main document). */
void raw_event(raw_log *l, const char *method, json_t *params, int main_doc);
/* The request id Network.getResponseBody is asked about, or NULL. */
const char *raw_body_id(const raw_log *l);
/* Network.getResponseBody's answer: body, n bytes (NULL: none), base64
 * or text, kept up to max bytes. */
void raw_payload(raw_log *l, const char *body, size_t n, int base64, size_t max);
/* Puts `exchanges` (every hop that got an answer, the last with the
 * payload), `ip` and `http_version` in b; nothing when none answered. */
void raw_pack(raw_log *l, rec_build *b);
/* Frees l's contents and zeroes it. */
void raw_free(raw_log *l);
/* Base64 text s (DevTools' data) decoded into a malloc'd buffer. */
unsigned char *raw_unbase64(const char *s, size_t *len);

/* ---- browser.c */
/* Why a browser went away. */
enum browser_end { BROWSER_EXITED, BROWSER_HUNG, BROWSER_RECYCLED };

/* What the browser reports, from the loop, to whoever started it. */
typedef struct browser_cb {
	/* The answer to command tag of slot (gen: the page it was sent
	 * for); error is NULL on success. */
	void (*reply)(int slot, unsigned gen, int tag, json_t *result, json_t *error);
	/* An event of the session sid. */
	void (*event)(const char *sid, const char *method, json_t *params);
	/* The browser went away (why): no command sent to it will be
	 * answered. */
	void (*lost)(enum browser_end why);
} browser_cb;

/* Decides how Chromium will run: as root, as --browser-user; with its
 * sandbox unless --no-sandbox (then says so).  Dies, naming what is
 * missing, when the sandbox cannot work: neither user namespaces nor the
 * setuid helper (71), or a $TMPDIR that user cannot reach (73).  Once,
 * before browser_start. */
void browser_check(void);
/* Starts Chromium (once ready, browser_ready() is true), reporting
 * through callbacks (copied) until it goes away, as uv_read_start
 * takes its callbacks: each start registers them anew.  0 or -1. */
int browser_start(const browser_cb *callbacks);
int browser_ready(void);
/* Whether browser_start was called (and browser_stop not yet). */
int browser_started(void);
/* Sends method with params (stolen; NULL for none) on session sid (NULL:
 * the browser); its answer goes to the reply callback with slot, gen
 * and tag.  Slot -1 is the browser's own: its answers are kept here. */
long browser_send(int slot, unsigned gen, int tag, const char *sid, const char *method,
		  json_t *params);
/* Asks Chromium to quit (its pipe closed), killing it after 3 s if it
 * does not; the lost callback then says BROWSER_RECYCLED, and
 * browser_start may start the next.  For a browser with no tab open. */
void browser_recycle(void);
/* The browser's processes (its session) as /proc shows them: each
 * one's PSS (lib/smaps: a page shared by n processes counts 1/n in
 * each), its RSS where PSS cannot be read. */
typedef struct browser_mem {
	size_t pss;                    /* bytes, summed */
	int procs;
	int renderer;                  /* pid of the largest renderer, 0: none */
	size_t renderer_pss;
} browser_mem;
/* Fills m for the running browser: 0, or -1 when none is ready. */
int browser_memory(browser_mem *m);
/* Kills process pid if it is still one of the browser's. */
void browser_kill(int pid);
/* Ends Chromium and removes its profile; safe to call twice, and from
 * atexit. */
void browser_stop(void);

#endif
