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
	H_PAGES, O_WAIT, O_TIMEOUT, O_MAX_WAIT, O_MAX_BODY, O_UA, O_HEADER, O_SECRET_HEADER, O_COOKIES, O_LOAD_IMAGES,
	O_PRIVATE_RANGES, O_ALLOW_PRIVATE, O_ROBOTS_AGENT, O_NO_ROBOTS,
	H_OUTPUTS, O_ONLY_SHELLS, O_MIN_TEXT, O_SCREENSHOT, O_PDF, O_VIEWPORT,
	H_STREAMS, O_MAX_HOSTS, O_PENDING, O_BUFFER, O_MAX_RECORD, O_JSON,
	H_OTHER, O_CHROMIUM, O_BROWSER_TIMEOUT, O_BROWSER_LOG, O_QUIET, O_HELP, O_VERSION, O_N
};

static const opt_def opts[O_N] = {
	[H_PACING] = { NULL, 0, NULL, "Concurrency and pacing:", NULL },
	[O_TABS] = { "concurrency", 'c', "N", "tabs (pages) in flight", "4" },
	[O_PER_HOST] = { "per-host", 'p', "N", "pages in flight per host", "1" },
	[O_DELAY] = { "delay", 'd', "S", "min seconds between navigations per host", "0" },
	[O_SHARE_CONTEXT] = { "share-context", 0, NULL, "one browser context for every tab (cookies, cache\nand storage shared) instead of one per page", NULL },
	[H_PAGES] = { NULL, 0, NULL, "Pages:", NULL },
	[O_WAIT] = { "wait", 0, "RULE", "when the DOM is taken: load, networkidle (no request\nfor 500 ms) or selector:CSS", "networkidle" },
	[O_TIMEOUT] = { "timeout", 't', "S", "seconds per page before it ends as timeout", "30" },
	[O_MAX_WAIT] = { "max-wait", 0, "S", "seconds after navigating before the DOM is taken\nas it is (rendered.partial)", "10" },
	[O_MAX_BODY] = { "max-body", 0, "BYTES", "largest DOM kept, K/M/G suffixes", "16M" },
	[O_UA] = { "user-agent", 0, "S", "User-Agent header and navigator.userAgent", "Chromium's" },
	[O_HEADER] = { "header", 'H', "LINE", "send header LINE with the page's requests, as\ncurl's -H; @FILE: one a line; secrets only to the\npage's own origin", NULL },
	[O_SECRET_HEADER] = { "secret-header", 0, "NAME", "a secret like Authorization: never sent to\nanother origin, never shown", NULL },
	[O_COOKIES] = { "cookies", 0, "FILE", "cookie jar (Netscape format, as fetch's): loaded\ninto each page's context, written back at exit", NULL },
	[O_LOAD_IMAGES] = { "load-images", 0, NULL, "load images, media and fonts (refused by default)", NULL },
	[O_PRIVATE_RANGES] = { "private-ranges", 0, "L", "addresses a public page may not reach (as fetch)", NULL },
	[O_ALLOW_PRIVATE] = { "allow-private", 0, NULL, "let public pages reach them", NULL },
	[O_ROBOTS_AGENT] = { "robots-agent", 0, "T", "token robots.txt groups are matched by", "sluice" },
	[O_NO_ROBOTS] = { "no-robots", 0, NULL, "ignore robots.txt (only for sites you may crawl)", NULL },
	[H_OUTPUTS] = { NULL, 0, NULL, "Outputs:", NULL },
	[O_ONLY_SHELLS] = { "only-shells", 0, NULL, "pass input records on untouched unless their body\nis a JavaScript shell (validate's js_shell rule)", NULL },
	[O_MIN_TEXT] = { "min-text", 0, "N", "--only-shells: shorter text is a shell", "200" },
	[O_SCREENSHOT] = { "screenshot", 0, NULL, "add `screenshot`: the full page as PNG", NULL },
	[O_PDF] = { "pdf", 0, NULL, "add `pdf`: the page printed on A4", NULL },
	[O_VIEWPORT] = { "viewport", 0, "WxH", "window size (the screenshot's width)", "1280x800" },
	[H_STREAMS] = { NULL, 0, NULL, "Streams:", NULL },
	[O_MAX_HOSTS] = { "max-hosts", 0, "N", "host states kept before idle ones are dropped", "10000" },
	[O_PENDING] = { "pending", 0, "N", "URLs held in memory ahead of starts", "256" },
	[O_BUFFER] = { "buffer", 0, "BYTES", "output held while stdout's reader is slow before\nno page starts, K/M/G suffixes", "4M" },
	[O_MAX_RECORD] = { "max-record", 0, "BYTES", "largest input record and DevTools message", "64M" },
	[O_JSON] = { "json", 0, NULL, "write JSON lines", NULL },
	[H_OTHER] = { NULL, 0, NULL, "Other:", NULL },
	[O_CHROMIUM] = { "chromium", 0, "PATH", "the Chromium binary", "/usr/lib/chromium/chromium" },
	[O_BROWSER_TIMEOUT] = { "browser-timeout", 0, "S", "seconds Chromium may leave a command unanswered\nbefore it is restarted and its pages tried again", "30" },
	[O_BROWSER_LOG] = { "browser-log", 0, NULL, "pass Chromium's messages on to stderr", NULL },
	[O_QUIET] = { "quiet", 'q', NULL, "no notices on stderr", NULL },
	[O_HELP] = { "help", 0, NULL, "print this and exit", NULL },
	[O_VERSION] = { "version", 0, NULL, "print the versions and exit", NULL },
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
	*o = (render_opts){
		.tabs = 4, .per_host = 1, .pending = 256, .max_hosts = 10000, .out_buffer = (size_t)4 << 20, .timeout = 30, .max_wait = 10,
		.wait = WAIT_IDLE, .robots_agent = "sluice", .robots = 1, .min_text = 200,
		.vw = 1280, .vh = 800, .max_body = (size_t)16 << 20,
		.max_record = REC_MAX_RECORD_DEFAULT, .chromium = "/usr/lib/chromium/chromium", .browser_timeout = 30,
	};
	const char *ranges = CIDR_PRIVATE;
	int i;
	while ((i = opt_next(argc, argv, opts, O_N)) != -1) {
		const char *a = optarg, *name = opts[i].name;
		switch (i) {
		case O_TABS: opt_long(name, a, 1, 256, &o->tabs); break;
		case O_PER_HOST: opt_long(name, a, 1, 256, &o->per_host); break;
		case O_DELAY: opt_seconds(name, a, 0, 0, "seconds, 0 or more", &o->delay); break;
		case O_SHARE_CONTEXT: o->share_context = 1; break;
		case O_WAIT:
			if (strcmp(a, "load") == 0)
				o->wait = WAIT_LOAD;
			else if (strcmp(a, "networkidle") == 0)
				o->wait = WAIT_IDLE;
			else if (strncmp(a, "selector:", 9) == 0 && a[9])
				o->wait = WAIT_SELECTOR, o->selector = a + 9;
			else
				opt_bad(name, a, "load, networkidle or selector:CSS");
			break;
		case O_TIMEOUT: opt_seconds(name, a, 0, 1, "seconds, more than 0", &o->timeout); break;
		case O_MAX_WAIT: opt_seconds(name, a, 0, 1, "seconds, more than 0", &o->max_wait); break;
		case O_MAX_BODY: opt_size(name, a, 0, "a size, K/M/G suffixes", &o->max_body); break;
		case O_UA: o->user_agent = a; break;
		case O_HEADER: {
			char err[512];
			if (hdr_add(&o->headers, a, err, sizeof err) != 0)
				msg_usage("--header: %s", err);
			break;
		}
		case O_SECRET_HEADER:
			if (hdr_secret_add(a) != 0)
				opt_bad(name, a, "a header name");
			break;
		case O_COOKIES: o->cookies = a; break;
		case O_LOAD_IMAGES: o->load_images = 1; break;
		case O_PRIVATE_RANGES: ranges = a; break;
		case O_ALLOW_PRIVATE: o->allow_private = 1; break;
		case O_ROBOTS_AGENT:
			if (!robots_token_valid(a))
				opt_bad(name, a, "a product token of letters, '_' and '-'");
			o->robots_agent = a;
			break;
		case O_NO_ROBOTS: o->robots = 0; break;
		case O_ONLY_SHELLS: o->only_shells = 1; break;
		case O_MIN_TEXT: opt_long(name, a, 1, 1L << 30, &o->min_text); break;
		case O_SCREENSHOT: o->screenshot = 1; break;
		case O_PDF: o->pdf = 1; break;
		case O_VIEWPORT: {
			char x;
			int used = 0;
			if (sscanf(a, "%ld%c%ld%n", &o->vw, &x, &o->vh, &used) != 3 || x != 'x' ||
			    a[used] || o->vw < 100 || o->vw > 10000 || o->vh < 100 || o->vh > 10000)
				opt_bad(name, a, "WIDTHxHEIGHT, each from 100 to 10000");
			break;
		}
		case O_MAX_HOSTS: opt_long(name, a, 1, 100000000, &o->max_hosts); break;
		case O_PENDING: opt_long(name, a, 1, 1000000, &o->pending); break;
		case O_BUFFER: opt_size(name, a, 1024, "a size of 1K or more, K/M/G suffixes", &o->out_buffer); break;
		case O_MAX_RECORD: opt_size(name, a, 64, "a size of 64 or more, K/M/G suffixes", &o->max_record); break;
		case O_JSON: o->json = 1; break;
		case O_CHROMIUM: o->chromium = a; break;
		case O_BROWSER_TIMEOUT: opt_seconds(name, a, 0, 1, "seconds, more than 0", &o->browser_timeout); break;
		case O_BROWSER_LOG: o->browser_log = 1; break;
		case O_QUIET: msg_quiet = 1; break;
		case O_HELP: opt_help(usage, opts, O_N);
		case O_VERSION: print_version();
		}
	}
	char why[256];
	if (!(o->private_ranges = cidr_parse(ranges, why, sizeof why))) {
		char want[300];
		snprintf(want, sizeof want, "ADDR/PREFIX ranges, comma-separated (%s)", why);
		opt_bad("private-ranges", ranges, want);
	}
	if (o->cookies && cookies_load(o->cookies, why, sizeof why) != 0)
		msg_die(EX_NOINPUT, "%s", why);
	if (access(o->chromium, X_OK) != 0)
		msg_die(EX_OSERR, "cannot run %s: install chromium (make deps)", o->chromium);
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
	hdr_free();
	rec_build_free(&R.build);
	if (R.bad_input)
		return EX_DATAERR;
	if (R.failed_open)
		return EX_NOINPUT;
	return exit_signal ? 128 + exit_signal : 0;
}
