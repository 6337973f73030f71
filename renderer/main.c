/* render — fetch's records, with the DOM a headless Chromium built.
 *
 *   render [OPTION...] [FILE...]
 *
 * Reads URL lines or msgpack records with a `url` key from the FILEs or
 * stdin, opens each in a tab of a headless Chromium driven over the
 * DevTools pipe, and writes one record per input.  See docs/render.md.
 */
#include "render.h"

#include <curl/curl.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hdr.h"
#include "msg.h"
#include "num.h"
#include "opt.h"
#include "robots.h"
#include "xalloc.h"

render_state R;
static int exit_signal;
static uv_signal_t sig_int, sig_term;

static const char usage[] =
	"usage: render [OPTION...] [FILE...]\n"
	"Open each URL (text lines, or msgpack records with a `url` key) in headless\n"
	"Chromium and write one record per input, its body the DOM after scripts ran.\n"
	"\n";

enum {
	H_PACING, O_TABS, O_PER_HOST, O_DELAY, O_SHARE_CONTEXT,
	H_PAGES, O_WAIT, O_TIMEOUT, O_MAX_WAIT, O_MAX_BODY, O_UA, O_HEADER, O_SECRET_HEADER, O_COOKIES, O_MAX_COOKIES, O_LOAD, O_LOAD_IMAGES,
	O_PRIVATE_RANGES, O_ALLOW_PRIVATE, O_ROBOTS_AGENT, O_NO_ROBOTS,
	H_OUTPUTS, O_ONLY_SHELLS, O_MIN_TEXT, O_SCREENSHOT, O_PDF, O_VIEWPORT, O_RAW, O_WARC_REDACT,
	H_STREAMS, O_MAX_HOSTS, O_PENDING, O_BUFFER, O_MAX_RECORD, O_JSON,
	H_BROWSER, O_CHROMIUM, O_BROWSER_USER, O_NO_SANDBOX, O_RECYCLE, O_MAX_BROWSER_MEMORY,
	O_BROWSER_TIMEOUT, O_BROWSER_LOG, H_OTHER, O_QUIET, O_HELP, O_VERSION, O_N
};

static const char *private_ranges;   /* --private-ranges, read after the loop */

/* --wait RULE into the render_opts at dst. */
static int
wait_rule(void *dst, const char *a)
{
	render_opts *o = dst;
	if (strcmp(a, "load") == 0)
		o->wait = WAIT_LOAD;
	else if (strcmp(a, "networkidle") == 0)
		o->wait = WAIT_IDLE;
	else if (strncmp(a, "selector:", 9) == 0 && a[9])
		o->wait = WAIT_SELECTOR, o->selector = a + 9;
	else
		return -1;
	return 0;
}

/* --load WHAT into the int at dst. */
static int
load_what(void *dst, const char *a)
{
	int *load = dst;
	if (strcmp(a, "dom") == 0)
		*load = LOAD_DOM;
	else if (strcmp(a, "all") == 0)
		*load = LOAD_ALL;
	else
		return -1;
	return 0;
}

/* A repeatable option's argument, appended to the list at dst. */
static int
slist_add(void *dst, const char *a)
{
	struct curl_slist **l = dst, *n = curl_slist_append(*l, a);
	if (!n)
		xalloc_die();
	*l = n;
	return 0;
}

/* --viewport WxH into the render_opts at dst. */
static int
viewport(void *dst, const char *a)
{
	render_opts *o = dst;
	char x;
	int used = 0;
	if (sscanf(a, "%ld%c%ld%n", &o->vw, &x, &o->vh, &used) != 3 || x != 'x' || a[used] ||
	    o->vw < 100 || o->vw > 10000 || o->vh < 100 || o->vh > 10000)
		return -1;
	return 0;
}

static const opt_def opts[O_N] = {
	[H_PACING] = OPT_HEADING("Concurrency and pacing:"),
	[O_TABS] = OPT_LONG('c', "concurrency", "N", &R.o.tabs, 1, 256, "4", "tabs (pages) in flight"),
	[O_PER_HOST] = OPT_LONG('p', "per-host", "N", &R.o.per_host, 1, 256, "1", "pages in flight per host"),
	[O_DELAY] = OPT_SECONDS('d', "delay", "S", &R.o.delay, 0, "0", "min seconds between navigations per host"),
	[O_SHARE_CONTEXT] = OPT_FLAG(0, "share-context", &R.o.share_context, 1,
		"one browser context for every tab (cookies, cache\nand storage shared) instead of one per page"),
	[H_PAGES] = OPT_HEADING("Pages:"),
	[O_WAIT] = OPT_CALL(0, "wait", "RULE", &R.o, wait_rule, "networkidle",
		"when the DOM is taken: load, networkidle (no request\nfor 500 ms) or selector:CSS",
		.want = "load, networkidle or selector:CSS"),
	[O_TIMEOUT] = OPT_SECONDS_ABOVE('t', "timeout", "S", &R.o.timeout, 0, "30", "seconds per page before it ends as timeout"),
	[O_MAX_WAIT] = OPT_SECONDS_ABOVE(0, "max-wait", "S", &R.o.max_wait, 0, "10",
		"seconds after navigating before the DOM is taken\nas it is (rendered.partial)"),
	[O_MAX_BODY] = OPT_SIZE(0, "max-body", "BYTES", &R.o.max_body, 0, "16M", "largest DOM kept, K/M/G suffixes"),
	[O_UA] = OPT_STRING(0, "user-agent", "S", &R.o.user_agent, "Chromium's",
		"User-Agent header and navigator.userAgent", .init = opt_none),
	[O_HEADER] = OPT_SPECIAL('H', "header", "LINE",
		"send header LINE with the page's requests, as\ncurl's -H; @FILE: one a line; secrets only to the\npage's own origin"),
	[O_SECRET_HEADER] = OPT_TAKE(0, "secret-header", "NAME", hdr_secret_add, NULL,
		"a secret like Authorization: never sent to\nanother origin, never shown", .want = "a header name"),
	[O_COOKIES] = OPT_STRING(0, "cookies", "FILE", &R.o.cookies, NULL,
		"cookie jar (Netscape format, as fetch's): loaded\ninto each page's context, written back at exit"),
	[O_MAX_COOKIES] = OPT_LONG(0, "max-cookies", "N", &R.o.max_cookies, 1, 1000000, "3000",
		"cookies kept in all with --cookies, oldest evicted first",
		.man = "with \\fB\\-\\-cookies\\fR: cookies kept in all (besides 180 a site, as browsers, and as fetch keeps them), the oldest evicted first"),
	[O_LOAD] = OPT_CALL(0, "load", "WHAT", &R.o.load, load_what, "dom",
		"what pages load: dom (documents, scripts, XHR:\nno stylesheets, images, media, fonts) or all\n(what --screenshot and --pdf load)",
		.want = "dom or all"),
	[O_LOAD_IMAGES] = OPT_FLAG(0, "load-images", &R.o.load, LOAD_ALL, "the older spelling of --load all"),
	[O_PRIVATE_RANGES] = OPT_STRING(0, "private-ranges", "L", &private_ranges, NULL,
		"addresses a public page may not reach (as fetch)", .init = CIDR_PRIVATE),
	[O_ALLOW_PRIVATE] = OPT_FLAG(0, "allow-private", &R.o.allow_private, 1, "let public pages reach them"),
	[O_ROBOTS_AGENT] = OPT_CALL(0, "robots-agent", "T", &R.o.robots_agent, robots_agent_opt, "sluice",
		"token robots.txt groups are matched by", .want = "a product token of letters, '_' and '-'"),
	[O_NO_ROBOTS] = OPT_FLAG(0, "no-robots", &R.o.robots, 0, "ignore robots.txt (only for sites you may crawl)",
		.init = "1"),
	[H_OUTPUTS] = OPT_HEADING("Outputs:"),
	[O_ONLY_SHELLS] = OPT_FLAG(0, "only-shells", &R.o.only_shells, 1,
		"pass input records on untouched unless their body\nis a JavaScript shell (validate's js_shell rule)"),
	[O_MIN_TEXT] = OPT_LONG(0, "min-text", "N", &R.o.min_text, 1, 1L << 30, "200", "--only-shells: shorter text is a shell"),
	[O_SCREENSHOT] = OPT_FLAG(0, "screenshot", &R.o.screenshot, 1, "add `screenshot`: the full page as PNG"),
	[O_PDF] = OPT_FLAG(0, "pdf", &R.o.pdf, 1, "add `pdf`: the page printed on A4"),
	[O_VIEWPORT] = OPT_CALL(0, "viewport", "WxH", &R.o, viewport, "1280x800", "window size (the screenshot's width)",
		.want = "WIDTHxHEIGHT, each from 100 to 10000"),
	[O_RAW] = OPT_FLAG(0, "raw", &R.o.raw, 1, "add `exchanges`: the page's own answer, each\nredirect's and the last, for sink's WARC",
		.man = "add the record's exchanges, as fetch \\fB\\-\\-raw\\fR does: the main document's requests as sent and answers as received, every redirect's and the last, as DevTools reports them, the last with its payload as the browser decoded it (docs/render.md, docs/archive.md)"),
	[O_WARC_REDACT] = OPT_CALL(0, "warc-redact", "NAME", &R.o.warc_redact, slist_add, NULL,
		"with --raw: header NAME's value shown as ***", .want = "a header name",
		.man = "with \\fB\\-\\-raw\\fR: the value of header \\fINAME\\fR (request or response, as Authorization, Cookie, Set\\-Cookie) is *** in the exchanges, where the archive must be shared; repeatable"),
	[H_STREAMS] = OPT_HEADING("Streams:"),
	[O_MAX_HOSTS] = OPT_LONG(0, "max-hosts", "N", &R.o.max_hosts, 1, 100000000, "10000",
		"host states kept before idle ones are dropped"),
	[O_PENDING] = OPT_LONG(0, "pending", "N", &R.o.pending, 1, 1000000, "256", "URLs held in memory ahead of starts"),
	[O_BUFFER] = OPT_SIZE(0, "buffer", "BYTES", &R.o.out_buffer, 1024, "4M",
		"output held while stdout's reader is slow before\nno page starts, K/M/G suffixes"),
	[O_MAX_RECORD] = OPT_MAX_RECORD(&R.o.max_record, 64, "largest input record and DevTools message"),
	[O_JSON] = OPT_JSON(&R.o.json, "write JSON lines"),
	[H_BROWSER] = OPT_HEADING("The browser:"),
	[O_CHROMIUM] = OPT_STRING(0, "chromium", "PATH", &R.o.chromium, "/usr/lib/chromium/chromium", "the Chromium binary"),
	[O_BROWSER_USER] = OPT_STRING(0, "browser-user", "USER", &R.o.browser_user, "nobody",
		"as root: the unprivileged user Chromium runs as,\nits sandbox on"),
	[O_NO_SANDBOX] = OPT_FLAG(0, "no-sandbox", &R.o.no_sandbox, 1,
		"run Chromium without its sandbox (warned): only\nwhere the kernel allows none"),
	[O_RECYCLE] = OPT_LONG(0, "recycle", "N", &R.o.recycle, 0, 1000000000, "200",
		"restart Chromium after N pages (0: never)"),
	[O_MAX_BROWSER_MEMORY] = OPT_SIZE(0, "max-browser-memory", "SIZE", &R.o.max_browser_memory, 0, "1G",
		"restart Chromium once its processes' PSS passes\nSIZE (0: never), K/M/G suffixes"),
	[O_BROWSER_TIMEOUT] = OPT_SECONDS_ABOVE(0, "browser-timeout", "S", &R.o.browser_timeout, 0, "30",
		"seconds Chromium may leave a command unanswered\nbefore it is restarted and its pages tried again"),
	[O_BROWSER_LOG] = OPT_FLAG(0, "browser-log", &R.o.browser_log, 1, "pass Chromium's messages on to stderr"),
	[H_OTHER] = OPT_HEADING("Other:"),
	[O_QUIET] = OPT_QUIET("no notices on stderr"),
	[O_HELP] = OPT_HELP(),
	[O_VERSION] = OPT_VERSION(),
};

static _Noreturn void
print_version(void)
{
	char uv[32], js[32], mp[32];
	snprintf(uv, sizeof uv, "libuv/%s", uv_version_string());
	snprintf(js, sizeof js, "jansson/%s", jansson_version_str());
	snprintf(mp, sizeof mp, "msgpack-c/%s", msgpack_version());
	const char *libs[] = { uv, js, mp, curl_version(), NULL };
	msg_version(libs);
}

static void
parse_options(int argc, char **argv)
{
	render_opts *o = &R.o;
	int i;
	while ((i = opt_next(argc, argv, usage, opts, O_N)) != -1) {
		switch (i) {
		case O_HEADER: {
			char err[512];
			if (optarg[0] == '@')
				msg_need_input("header", optarg + 1, MSG_IN_FILE);
			if (hdr_add(&o->headers, optarg, err, sizeof err) != 0)
				msg_usage("--header: %s", err);
			break;
		}
		case O_VERSION: print_version();
		}
	}
	if (o->screenshot || o->pdf)   /* a picture of the page needs its looks */
		o->load = LOAD_ALL;
	if (o->warc_redact && !o->raw)
		msg_usage("--warc-redact needs --raw");
	char why[256];
	if (!(o->private_ranges = cidr_parse(private_ranges, why, sizeof why))) {
		char want[300];
		snprintf(want, sizeof want, "ADDR/PREFIX ranges, comma-separated (%s)", why);
		opt_bad("private-ranges", private_ranges, want);
	}
	/* The jar is written at exit: a place it cannot go is found now,
	 * before a page is rendered (lib/msg.h's rule). */
	if (o->cookies)
		msg_need_output("cookies", o->cookies);
	if (o->cookies && cookies_load(o->cookies, why, sizeof why) != 0)
		msg_die(EX_NOINPUT, "%s", why);
	if (access(o->chromium, X_OK) != 0)
		msg_die(EX_OSERR, "cannot run %s: install chromium (make deps)", o->chromium);
	browser_check();
}

/* First signal: start nothing more, finish the pages in tabs.  Second:
 * end those too. */
static void
on_signal(uv_signal_t *s, int signum)
{
	(void)s;
	exit_signal = signum;
	if (R.stopping)
		tab_abort_all();
	R.stopping = 1;
}

static void
close_handle(uv_handle_t *h, void *arg)
{
	(void)arg;
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

int
main(int argc, char **argv)
{
	msg_init("render");
	parse_options(argc, argv);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		msg_die(EX_SOFTWARE, "cannot initialize libcurl");
	R.loop = uv_default_loop();
	outbuf_init(&R.out, R.loop, 1, R.o.json ? 1 : -1, R.o.out_buffer);
	rec_build_init(&R.build);
	uv_signal_init(R.loop, &sig_int);
	uv_signal_init(R.loop, &sig_term);
	uv_signal_start(&sig_int, on_signal, SIGINT);
	uv_signal_start(&sig_term, on_signal, SIGTERM);
	tab_init();
	sched_init(argv + optind, argc - optind);
	uv_run(R.loop, UV_RUN_DEFAULT);

	R.stopping = 1;
	browser_stop();
	cookies_save();
	outbuf_close(&R.out);
	sched_close();
	tab_close();
	uv_walk(R.loop, close_handle, NULL);
	uv_run(R.loop, UV_RUN_DEFAULT);
	uv_loop_close(R.loop);
	curl_global_cleanup();
	cidr_free(R.o.private_ranges);
	curl_slist_free_all(R.o.headers);
	curl_slist_free_all(R.o.warc_redact);
	hdr_free();
	rec_build_free(&R.build);
	if (R.bad_input)
		return EX_DATAERR;
	if (R.failed_open)
		return EX_NOINPUT;
	return exit_signal ? 128 + exit_signal : 0;
}
