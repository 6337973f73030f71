/* fetch — fetch URLs politely and concurrently, one record per URL.
 *
 *   fetch [OPTION...] [FILE...]
 *
 * Reads URL lines or msgpack records with a `url` key from the FILEs or
 * stdin and writes one record per input to stdout.  See docs/fetch.md.
 */
#include "fetch.h"

#include <errno.h>
#include <getopt.h>   /* optarg, optind */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "frontier.h"
#include "msg.h"
#include "num.h"
#include "opt.h"
#include "sql.h"
#include "url.h"
#include "vre.h"
#include "xalloc.h"

#define SLUICE_URL "https://sluice.invalid/bot"

fetch F;
static int exit_signal;
static int report;   /* 1 --report, 2 --requeue-dead */
static const char *pause_host;   /* --pause or --resume HOST */
static int pause_on;

static const char usage[] =
	"usage: fetch [OPTION...] [FILE...]\n"
	"Fetch each URL (text lines, or msgpack records with a `url` key) and\n"
	"write one record per input to stdout (JSON lines on a terminal).\n"
	"\n";

enum {
	H_PACING, O_CONCURRENCY, O_PER_HOST, O_DELAY, O_RATE, O_BURST, O_POLICY,
	O_PACE_BY,
	H_LIMITS, O_TIMEOUT, O_CONNECT_TIMEOUT, O_LOW_LIMIT, O_LOW_TIME,
	O_MAX_REDIRS, O_REDIRECTS, O_PRIVATE_RANGES, O_ALLOW_PRIVATE, O_RESOLVE,
	O_MAX_BODY, O_UA,
	H_REQUESTS, O_HEADER, O_SECRET_HEADER, O_USER, O_NETRC, O_NETRC_FILE, O_COOKIES,
	O_MAX_COOKIES, O_PROXY, O_PROXY_USER, O_NOPROXY, O_CACERT, O_CAPATH, O_INSECURE, O_HTTP11, O_HTTP2,
	H_RETRIES, O_RETRIES, O_RETRY_ON, O_BACKOFF, O_MAX_RETRY_AFTER,
	O_MAX_ELAPSED, O_TARGET_CONC, O_MAX_DELAY, O_NO_ADAPT, O_HOST_FAILURES,
	O_HOST_PAUSE, O_ROBOTS_AGENT, O_NO_ROBOTS,
	H_STREAMS, O_PENDING, O_BUFFER, O_MAX_RECORD, O_MAX_HOSTS, O_STATS, O_METRICS, O_SINK_STATS,
	O_PROGRESS, O_NO_PROGRESS, O_JSON, O_RAW, O_WARC_REDACT, O_SHARD,
	H_JOBS, O_QUEUE, O_SITEMAPS, O_LEASE, O_MAX_ATTEMPTS, O_SYNC_MODE, O_REPORT, O_REQUEUE,
	O_PAUSE, O_RESUME, O_MIN_YIELD, O_YIELD_WINDOW, O_RECRAWL,
	H_ALERTS, O_ON_ALERT, O_ALERT_EVERY, O_ALERT_429, O_ALERT_LAG, O_ALERT_GRACE,
	H_WARC, O_FROM_WARC, O_INCLUDE, O_EXCLUDE, O_STATUS,
	H_OTHER, O_QUIET, O_HELP, O_VERSION, O_N
};

static const char *private_ranges;   /* --private-ranges, read after the loop */

/* --retry-on LIST into the fetch_opts at dst. */
static int
retry_on(void *dst, const char *s)
{
	fetch_opts *o = dst;
	char *copy = xstrdup(s), *save = NULL;
	int rc = 0;
	o->n_retry_on = 0;
	for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
		long st;
		if (num_long(t, 599, &st) != 0 || st < 100 || o->n_retry_on == FETCH_MAX_RETRY_ON)
			rc = -1;
		else
			o->retry_on[o->n_retry_on++] = (int)st;
	}
	free(copy);
	return rc;
}

/* Appends a copy of s to the curl_slist at dst (--resolve, --sitemaps). */
static int
slist_add(void *dst, const char *s)
{
	struct curl_slist **l = dst, *n = curl_slist_append(*l, s);
	if (!n)
		xalloc_die();
	*l = n;
	return 0;
}

/* --status RANGE into the fetch_opts at dst. */
static int
status_ranges(void *dst, const char *s)
{
	fetch_opts *o = dst;
	free(o->status);
	return num_status_ranges(s, &o->status, &o->n_status);
}

static const opt_choice pace_units[] = {
	{ "host", PACE_BY_HOST }, { "site", PACE_BY_SITE }, { "ip", PACE_BY_IP }, { NULL, 0 }
};
static const opt_choice redirect_scopes[] = {
	{ "any", REDIR_ANY }, { "same-site", REDIR_SAME_SITE }, { "same-host", REDIR_SAME_HOST }, { NULL, 0 }
};

static const opt_def opts[O_N] = {
	[H_PACING] = OPT_HEADING("Concurrency and pacing:"),
	[O_CONCURRENCY] = OPT_LONG('c', "concurrency", "N", &F.o.concurrency, 1, 100000, "64",
		"requests in flight over all hosts"),
	[O_PER_HOST] = OPT_LONG('p', "per-host", "N", &F.o.per_host, 1, 10000, "4", "requests in flight per host"),
	[O_DELAY] = OPT_SECONDS('d', "delay", "S", &F.o.delay, 0, "0", "min seconds between request starts per host"),
	[O_RATE] = OPT_SECONDS(0, "rate", "R", &F.o.rate, 0, "off", "starts per second per host, token bucket",
		.init = "0", .want = "starts per second, 0 for off",
		.man = "per-host token bucket: \\fIR\\fR starts per second"),
	[O_BURST] = OPT_SECONDS(0, "burst", "B", &F.o.burst, 1, "1", "token bucket depth for --rate",
		.want = "a number of 1 or more",
		.man = "the token bucket of \\fB\\-\\-rate\\fR: \\fIB\\fR starts at once"),
	[O_POLICY] = OPT_STRING(0, "policy", "FILE", &F.policy_path, NULL, "per-host overrides (docs/fetch.md)",
		.man = "per-host overrides: lines of \\fIhost key=value...\\fR, or \\fIsite=DOMAIN key=value...\\fR to pace a registrable domain's hosts as one (docs/fetch.md)"),
	[O_PACE_BY] = OPT_CHOICE(0, "pace-by", "UNIT", &F.o.pace_by, pace_units, "host",
		"host; site: hosts of a registrable domain share one\nbudget; ip: hosts at one address do",
		.man = "the unit of pacing: host, a host name whatever its scheme and port; site, the registrable domain by the Public Suffix List; or ip, the first address the name resolves to, so many small sites on one server (shared hosting) share one budget (a CDN puts unrelated sites on one address: see PACING BY ADDRESS)"),
	[H_LIMITS] = OPT_HEADING("Limits:"),
	[O_TIMEOUT] = OPT_SECONDS_ABOVE('t', "timeout", "S", &F.o.timeout, 0, "30", "seconds per attempt"),
	[O_CONNECT_TIMEOUT] = OPT_SECONDS_ABOVE(0, "connect-timeout", "S", &F.o.connect_timeout, 0, "10",
		"seconds to connect"),
	[O_LOW_LIMIT] = OPT_LONG(0, "low-speed-limit", "B", &F.o.low_speed_limit, 0, 1L << 30, "100",
		"abort below B bytes/s ...",
		.man = "an attempt slower than \\fIB\\fR bytes/s for \\fB\\-\\-low\\-speed\\-time\\fR seconds ends as timeout"),
	[O_LOW_TIME] = OPT_LONG(0, "low-speed-time", "S", &F.o.low_speed_time, 0, 86400, "10", "... for S seconds",
		.man = "seconds an attempt may stay under \\fB\\-\\-low\\-speed\\-limit\\fR"),
	[O_MAX_REDIRS] = OPT_LONG(0, "max-redirs", "N", &F.o.max_redirs, 0, 1000, "10", "redirects followed per URL",
		.man = "redirects followed per URL, each hop a request through the scheduler (robots.txt, pacing, caps)"),
	[O_REDIRECTS] = OPT_CHOICE(0, "redirects", "SCOPE", &F.o.redirects, redirect_scopes, "any",
		"where a redirect may lead: any, same-site or\nsame-host, as the input URL",
		.man = "where a redirect may lead from the input URL: any, same-site or same-host; others end as offsite_redirect"),
	[O_PRIVATE_RANGES] = OPT_STRING(0, "private-ranges", "L", &private_ranges, NULL,
		"addresses a redirect from a public address may not\nreach (loopback, private, link-local; docs/fetch.md)",
		.init = CIDR_PRIVATE,
		.man = "address ranges (CIDR, comma-separated) a redirect from a public address may not connect to, or it ends as private_address; by default loopback, RFC 1918, shared, link-local and ULA"),
	[O_ALLOW_PRIVATE] = OPT_FLAG(0, "allow-private", &F.o.allow_private, 1, "let redirects reach them",
		.man = "lift the \\fB\\-\\-private\\-ranges\\fR rule"),
	[O_RESOLVE] = OPT_CALL(0, "resolve", "H:P:A", &F.o.resolve, slist_add, NULL,
		"connect to address A for host H, port P (as curl)",
		.man = "connect to address \\fIA\\fR for host \\fIH\\fR, port \\fIP\\fR, as curl's option; repeatable"),
	[O_MAX_BODY] = OPT_SIZE(0, "max-body", "BYTES", &F.o.max_body, 0, "16M", "decoded body limit, K/M/G suffixes",
		.man = "the decoded body limit, K/M/G suffixes"),
	[O_UA] = OPT_STRING(0, "user-agent", "S", &F.o.user_agent, "sluice/" SLUICE_VERSION " (+" SLUICE_URL ")",
		"User-Agent header",
		.man = "the User-Agent header; name yourself and a contact when you crawl sites you do not run"),
	[H_REQUESTS] = OPT_HEADING("Requests (docs/fetch.md):"),
	[O_HEADER] = OPT_SPECIAL('H', "header", "LINE", "send header LINE to every host, as curl's -H;\n@FILE: one a line from FILE",
		.man = "send header \\fILINE\\fR to every host, in curl's syntax (\\(lqName: value\\(rq; \\(lqName:\\(rq removes a default header, \\(lqName;\\(rq sends it empty); \\fB@\\fR\\fIFILE\\fR reads one a line from \\fIFILE\\fR; repeatable.  A \\fB\\-\\-policy\\fR header= line sends one to its hosts only"),
	[O_SECRET_HEADER] = OPT_TAKE(0, "secret-header", "NAME", hdr_secret_add, NULL,
		"a secret like Authorization: never sent to\nanother origin, never shown", .want = "a header name",
		.man = "header \\fINAME\\fR is a secret like Authorization, Cookie, Proxy-Authorization and the names holding key, token, secret, auth, session, password or signature (X\\-Api\\-Key): sent only while a redirect stays at the input URL's origin, never shown; repeatable"),
	[O_USER] = OPT_SPECIAL('u', "user", "U:P", "Basic credentials for the input URLs' origins;\n@FILE: from FILE's first line",
		.man = "HTTP Basic credentials for the input URLs' origins, never sent past a redirect to another; \\fB@\\fR\\fIFILE\\fR reads them from \\fIFILE\\fR's first line.  fetch never prompts"),
	[O_NETRC] = OPT_FLAG(0, "netrc", &F.o.netrc, 1, "credentials from ~/.netrc for the hosts it names",
		.man = "credentials from ~/.netrc for the hosts it names (libcurl's netrc)"),
	[O_NETRC_FILE] = OPT_SPECIAL(0, "netrc-file", "FILE", "... from FILE",
		.man = "credentials from \\fIFILE\\fR, a netrc file"),
	[O_COOKIES] = OPT_STRING(0, "cookies", "FILE", &F.o.cookies, NULL, "read and write this Netscape cookie jar",
		.man = "one cookie jar for all transfers, by RFC 6265's rules: read from \\fIFILE\\fR (if it exists) at start, written to it at exit, also after a signal (a signal during that write ends fetch, the file as it was).  At most 180 cookies a site and \\fB\\-\\-max\\-cookies\\fR in all, the oldest evicted first.  With \\fB\\-\\-queue\\fR the job keeps the cookies too, so a rerun or another fetch has the session"),
	[O_MAX_COOKIES] = OPT_LONG(0, "max-cookies", "N", &F.o.max_cookies, 1, 1000000, "3000",
		"cookies kept in all with --cookies, oldest evicted first",
		.man = "with \\fB\\-\\-cookies\\fR: cookies kept in all (besides 180 a site, as browsers), the oldest evicted first; the job's jar with \\fB\\-\\-queue\\fR keeps the same bounds"),
	[O_PROXY] = OPT_STRING(0, "proxy", "URL", &F.o.proxy, NULL,
		"through this proxy (http, https, socks5h);\nelse *_proxy variables, as curl",
		.man = "send requests through the proxy at \\fIURL\\fR (http, https, socks5h).  Without it libcurl reads http_proxy, https_proxy, all_proxy and no_proxy from the environment, as curl does"),
	[O_PROXY_USER] = OPT_SPECIAL(0, "proxy-user", "U:P", "the proxy's credentials; @FILE as --user",
		.man = "the proxy's credentials; \\fB@\\fR\\fIFILE\\fR reads them from \\fIFILE\\fR's first line"),
	[O_NOPROXY] = OPT_STRING(0, "noproxy", "LIST", &F.o.noproxy, NULL, "hosts reached without the proxy, as curl",
		.man = "hosts (comma-separated, \\(lq*\\(rq for all) reached without the proxy, as curl's option"),
	[O_CACERT] = OPT_STRING(0, "cacert", "FILE", &F.o.cacert, NULL, "trust the CA certificates in FILE (PEM)",
		.man = "trust the CA certificates in \\fIFILE\\fR (PEM) instead of the system's"),
	[O_CAPATH] = OPT_STRING(0, "capath", "DIR", &F.o.capath, NULL, "trust the CA certificates in DIR",
		.man = "trust the CA certificates in \\fIDIR\\fR (hashed, openssl rehash) instead of the system's"),
	[O_INSECURE] = OPT_FLAG('k', "insecure", &F.o.insecure, 1, "do not verify TLS certificates",
		.man = "verify no TLS certificate; a notice on stderr says so"),
	/* http_version is a long, as libcurl's option: no FLAG row. */
	[O_HTTP11] = OPT_SPECIAL(0, "http1.1", NULL, "speak HTTP/1.1 only"),
	[O_HTTP2] = OPT_SPECIAL(0, "http2", NULL, "HTTP/2, also over plain http (upgrade)",
		.man = "HTTP/2 also over plain http (h2c upgrade); by default HTTP/2 where TLS offers it"),
	[H_RETRIES] = OPT_HEADING("Retries and politeness:"),
	[O_RETRIES] = OPT_LONG(0, "retries", "N", &F.o.retries, 0, 1000, "3", "retries after the first attempt"),
	[O_RETRY_ON] = OPT_CALL(0, "retry-on", "LIST", &F.o, retry_on, "429,502,503,504", "HTTP statuses to retry",
		.want = "up to 32 HTTP statuses from 100 to 599, comma-separated"),
	[O_BACKOFF] = OPT_SECONDS(0, "backoff", "S", &F.o.backoff, 0, "1", "base of exponential backoff with jitter"),
	[O_MAX_RETRY_AFTER] = OPT_SECONDS(0, "max-retry-after", "S", &F.o.max_retry_after, 0, "300",
		"longer Retry-After ends the URL",
		.man = "longest Retry-After honoured; a longer one ends the URL"),
	[O_MAX_ELAPSED] = OPT_SECONDS(0, "max-elapsed", "S", &F.o.max_elapsed, 0, "600",
		"give a URL up S seconds after taking it",
		.man = "per-URL deadline: give a URL up \\fIS\\fR seconds after taking it"),
	[O_TARGET_CONC] = OPT_SECONDS_ABOVE(0, "target-concurrency", "N", &F.o.target_concurrency, 0, "2",
		"pace each host to about N requests at once:\nstart interval = its latency / N",
		.want = "a number more than 0",
		.man = "adaptive pacing: each host's start interval follows its latency / \\fIN\\fR, up at once, down by averaging, never below \\fB\\-d\\fR or Crawl-delay nor above \\fB\\-\\-max\\-delay\\fR; a 429/503 with Retry-After holds the host that long, one without doubles the interval once (to at least 0.25 s)"),
	[O_MAX_DELAY] = OPT_SECONDS(0, "max-delay", "S", &F.o.max_delay, 0, "60", "longest interval learnt from a host",
		.man = "longest start interval adaptive pacing learns from a host"),
	[O_NO_ADAPT] = OPT_FLAG(0, "no-adapt", &F.o.adapt, 0, "keep -d: no pacing by latency or 429/503", .init = "1",
		.man = "no adaptive pacing: \\fB\\-d\\fR alone sets the interval; 429/503 do not slow a host"),
	[O_HOST_FAILURES] = OPT_LONG(0, "host-failures", "N", &F.o.host_failures, 1, 1000000, "10",
		"transient failures in a row that pause a host",
		.man = "the circuit breaker: transient failures in a row that pause a host"),
	[O_HOST_PAUSE] = OPT_SECONDS(0, "host-pause", "S", &F.o.host_pause, 0, "60", "first pause of a failing host"),
	[O_ROBOTS_AGENT] = OPT_CALL(0, "robots-agent", "T", &F.o.robots_agent, robots_agent_opt, "sluice",
		"token robots.txt groups are matched by", .want = "a product token of letters, '_' and '-'",
		.man = "product token robots.txt groups are matched by, case-insensitively"),
	[O_NO_ROBOTS] = OPT_FLAG(0, "no-robots", &F.o.robots, 0, "ignore robots.txt (only for sites you may crawl)",
		.init = "1", .man = "ignore robots.txt; only for sites you own or may crawl"),
	[H_STREAMS] = OPT_HEADING("Streams:"),
	[O_PENDING] = OPT_LONG(0, "pending", "N", &F.o.pending, 1, 10000000, "1024", "URLs held in memory ahead of starts",
		.man = "URLs held in memory ahead of starts.  Input is read only while fewer than \\fB\\-\\-pending\\fR URLs are held, so a window full of one host's URLs delays the hosts further down the input: interleave the hosts, raise \\fB\\-\\-pending\\fR, or use \\fB\\-\\-queue\\fR"),
	[O_BUFFER] = OPT_SIZE(0, "buffer", "BYTES", &F.o.out_buffer, 1024, "4M", "output bytes buffered before pausing"),
	[O_MAX_RECORD] = OPT_MAX_RECORD(&F.o.max_record, 64, "largest input record"),
	[O_MAX_HOSTS] = OPT_LONG(0, "max-hosts", "N", &F.o.max_hosts, 1, 100000000, "10000",
		"host states kept before idle ones are dropped"),
	[O_STATS] = OPT_STRING(0, "stats", "FILE", &F.o.stats, NULL, "write counters as JSON to FILE every 5 s and at exit",
		.man = "counters as JSON, overall and per host, rewritten every 5 s and at exit; with the event loop's lag (loop_lag_ms: p50, p99, max of how late a 100 ms timer runs)"),
	[O_METRICS] = OPT_STRING(0, "metrics", "FILE", &F.o.metrics, NULL,
		"write counters in Prometheus's text format to FILE\nevery 5 s and at exit (docs/operating.md)",
		.man = "counters in Prometheus's text exposition format, per host up to \\fB\\-\\-max\\-hosts\\fR (evicted hosts in host=\"other\"), rewritten every 5 s and at exit through a temporary file and rename, as node_exporter's textfile collector wants (docs/fetch.md, docs/operating.md)"),
	[O_SINK_STATS] = OPT_STRING(0, "sink-stats", "FILE", &F.o.sink_stats, NULL,
		"show sink's accepted/s from its --stats FILE\non the status line",
		.man = "the \\fB\\-\\-stats\\fR file of the sink downstream: the status line shows its accepted records per second over the last minute (with \\fB\\-\\-queue\\fR and without this, the job's, from the frontier's count)"),
	[O_PROGRESS] = OPT_FLAG(0, "progress", &F.o.progress, 1, "draw a status line on stderr (on a terminal without -q)",
		.init = "-1", .man = "draw the status line on stderr: the default on a terminal without \\fB\\-q\\fR"),
	[O_NO_PROGRESS] = OPT_FLAG(0, "no-progress", &F.o.progress, 0, "never draw it", .init = "-1",
		.man = "never draw the status line"),
	[O_JSON] = OPT_JSON(&F.o.json, "write JSON lines"),
	[O_RAW] = OPT_FLAG(0, "raw", &F.o.raw, 1, "keep each exchange as sent and received, for\nsink's WARC (docs/archive.md)",
		.man = "keep each exchange, every redirect hop's and the last, as sent and received: the request line and headers as sent (with every secret they carry), the status line and headers as received, the payload with its content coding, as the record's exchanges, for sink's WARC and WACZ (docs/archive.md)"),
	[O_WARC_REDACT] = OPT_CALL(0, "warc-redact", "NAME", &F.o.warc_redact, slist_add, NULL,
		"with --raw: header NAME's value shown as ***", .want = "a header name",
		.man = "with \\fB\\-\\-raw\\fR: the value of header \\fINAME\\fR (request or response, as Authorization, Cookie, Set\\-Cookie) is *** in the exchanges, where the archive must be shared; repeatable"),
	[O_SHARD] = OPT_SPECIAL(0, "shard", "K/N", "take only the URLs whose host is in shard K of N\n(docs/scale.md)",
		.man = "take only the URLs whose host is in shard \\fIK\\fR of \\fIN\\fR (1 <= K <= N); see SHARDING"),
	[H_JOBS] = OPT_HEADING("Durable jobs (docs/queue.md):"),
	[O_QUEUE] = OPT_STRING(0, "queue", "DB", &F.o.queue, NULL,
		"take URLs from the frontier DB, an SQLite file or a\npostgresql:// URI (FILEs seed it)",
		.man = "durable jobs over a frontier, an SQLite file or a PostgreSQL database named by a postgresql:// URI that fetches on several machines share, each host owned by one fetch at a time (docs/queue.md); FILEs seed it; a URL to retry goes back to the frontier with the time it may go"),
	[O_SITEMAPS] = OPT_CALL(0, "sitemaps", "HOST", &F.o.sitemaps, slist_add, NULL,
		"seed the job with HOST's robots.txt, whose sitemaps\nparse and sink --follow then crawl; repeatable",
		.man = "seed the job with the robots.txt of \\fIHOST\\fR (a host name, https assumed, or an origin such as http://host:8080); parse turns its \\fBSitemap:\\fR lines (or /sitemap.xml when it names none) into links that \\fBsink \\-\\-follow\\fR admits, and the sitemaps' own links follow; repeatable; with no \\fIFILE\\fR, standard input is not read"),
	[O_LEASE] = OPT_SECONDS_ABOVE(0, "lease", "S", &F.o.lease, 0, "900",
		"retake a live fetch's lease after S seconds;\na dead fetch's leases are retaken at once",
		.man = "leases of a fetch that no longer runs are retaken at once, those of a live one after \\fIS\\fR seconds"),
	[O_MAX_ATTEMPTS] = OPT_LONG(0, "max-attempts", "N", &F.o.max_attempts, 1, 1000000, "5",
		"leases of a URL before it is a dead letter",
		.man = "a URL leased \\fIN\\fR times without an acknowledgement ends as error attempts_exhausted"),
	[O_SYNC_MODE] = OPT_TAKE(0, "sync", "normal|full", sql_sync_arg, "normal", "full: each frontier commit on the disk",
		.want = "normal or full",
		.man = "full syncs every frontier commit to the disk (power loss keeps it); normal survives only a killed fetch"),
	[O_REPORT] = OPT_FLAG(0, "report", &report, 1, "print the job's state and exit"),
	[O_REQUEUE] = OPT_FLAG(0, "requeue-dead", &report, 2, "put dead URLs back to pending, then --report"),
	[O_PAUSE] = OPT_SPECIAL(0, "pause", "HOST", "stop every fetch on the job starting HOST, and exit"),
	[O_RESUME] = OPT_SPECIAL(0, "resume", "HOST", "let them start it again, and exit"),
	[O_MIN_YIELD] = OPT_FRACTION(0, "min-yield", "F", &F.o.min_yield, "off",
		"halve a host's rate, then again, then pause it\nwhile its accepted share is below F", .init = "0",
		.man = "the yield guard: a host whose accepted share over its last \\fB\\-\\-yield\\-window\\fR stored records is below \\fIF\\fR has its rate halved; still below over the next window, halved again (x0.25); still below, it is paused for every fetch on the job.  A window back at \\fIF\\fR or above undoes one halving.  Each step is said on stderr, counted in \\fB\\-\\-stats\\fR and shown by \\fB\\-\\-report\\fR"),
	[O_YIELD_WINDOW] = OPT_LONG(0, "yield-window", "N", &F.o.yield_window, 1, FR_RECENT, "50",
		"... over its last N stored records"),
	[O_RECRAWL] = OPT_DURATION(0, "recrawl", "AGE", &F.o.recrawl, "off",
		"fetch again, conditionally, the done URLs stored\nmore than AGE ago (seconds, or 12h, 1d)", .init = "-1",
		.man = "at the start and at every heartbeat, the done URLs whose page sink stored more than \\fIAGE\\fR ago (seconds, or a number with s, m, h or d: 12h, 1d), and before this fetch started, go back to pending, their stored ETag and Last\\-Modified sent as If\\-None\\-Match and If\\-Modified\\-Since; see RECRAWLS"),
	[H_ALERTS] = OPT_HEADING("Alerts (docs/fetch.md, \"Alerts\"):"),
	[O_ON_ALERT] = OPT_STRING(0, "on-alert", "CMD", &F.o.on_alert, NULL,
		"run CMD (sh -c) when a rule trips: the yield guard,\na breaker, --alert-429, --alert-lag",
		.man = "run \\fICMD\\fR through \\fBsh \\-c\\fR when a rule trips, with SLUICE_RULE (yield, paused, blocked, breaker, 429 or lag), SLUICE_HOST (empty for lag), SLUICE_VALUE and SLUICE_MESSAGE in its environment, at most once per host per rule per \\fB\\-\\-alert\\-every\\fR (a pause always), at most 4 at once (more are dropped and said); see ALERTS"),
	[O_ALERT_EVERY] = OPT_DURATION(0, "alert-every", "AGE", &F.o.alert_every, "10m",
		"run it at most once per host and rule in AGE",
		.man = "at most one run per host and rule in \\fIAGE\\fR (seconds, or a number with s, m, h or d)"),
	[O_ALERT_429] = OPT_FRACTION(0, "alert-429", "F", &F.o.alert_429, "0.5",
		"rule 429: a host's 429 share over its last 20\nanswers reaches F (0: off)",
		.man = "rule 429: a host answered 429 to a share of at least \\fIF\\fR of its last 20 answers; 0 turns it off"),
	[O_ALERT_LAG] = OPT_SECONDS(0, "alert-lag", "S", &F.o.alert_lag, 0, "1",
		"rule lag: the event loop runs a timer S late (0: off)",
		.man = "rule lag: a timer of the event loop, due every 100 ms, ran more than \\fIS\\fR seconds late; 0 turns it off"),
	[O_ALERT_GRACE] = OPT_SECONDS(0, "alert-grace", "S", &F.o.alert_grace, 0, "5",
		"at exit, wait S for alert commands, then end them",
		.man = "at exit, alert commands still running get \\fIS\\fR seconds to finish; then their process groups get SIGTERM, and SIGKILL a second later"),
	[H_WARC] = OPT_HEADING("Reading archives (docs/archive.md):"),
	[O_FROM_WARC] = OPT_FLAG(0, "from-warc", &F.o.from_warc, 1,
		"read the FILEs as WARC (plain or gzip; - stdin):\na record per HTTP answer, nothing fetched",
		.man = "read each \\fIFILE\\fR (\\fB\\-\\fR or none: standard input) as a WARC file, WARC/1.0 or 1.1, plain, gzip per record or one gzip stream, and write a record for each HTTP answer it holds (a response record of application/http, a resource record of HTML) in file order, its body decoded, without a request; other records, and blocks over \\fB\\-\\-max\\-body\\fR, are skipped and counted; see READING WARC"),
	[O_INCLUDE] = OPT_SPECIAL(0, "include", "REGEX", "with --from-warc: only URLs matching one;\nrepeatable",
		.man = "with \\fB\\-\\-from\\-warc\\fR: keep only the records whose URL matches one of these PCRE2 patterns; repeatable"),
	[O_EXCLUDE] = OPT_SPECIAL(0, "exclude", "REGEX", "... never URLs matching one; repeatable",
		.man = "with \\fB\\-\\-from\\-warc\\fR: drop the records whose URL matches one of these; repeatable, checked before \\fB\\-\\-include\\fR"),
	[O_STATUS] = OPT_CALL(0, "status", "RANGE", &F.o, status_ranges, "any",
		"... only these statuses: N, N-M or Nxx, comma-\nseparated, as validate's",
		.want = "N, N-M or Nxx, statuses from 100 to 599, comma-separated, or any",
		.man = "with \\fB\\-\\-from\\-warc\\fR: keep only the answers whose status is in \\fIRANGE\\fR: \\fIN\\fR, \\fIN\\fR\\-\\fIM\\fR or a class \\fIN\\fRxx, comma-separated, as validate's \\fB\\-\\-status\\fR; a resource record counts as 200"),
	[H_OTHER] = OPT_HEADING("Other:"),
	[O_QUIET] = OPT_QUIET("no notices on stderr"),
	[O_HELP] = OPT_HELP(.man = "print the options with their defaults and exit"),
	[O_VERSION] = OPT_VERSION(),
};

/* --user or --proxy-user's value: USER:PASS, or @FILE whose first line
 * it is (kept out of ps).  The value is never echoed. */
static char *
credentials(const char *name, const char *a)
{
	char *v = NULL;
	if (a[0] == '@') {
		msg_need_input(name, a + 1, MSG_IN_FILE);
		FILE *f = fopen(a + 1, "r");
		size_t cap = 0;
		if (!f)   /* gone since the check */
			msg_die(EX_NOINPUT, "--%s: cannot read '%s': %s", name, a + 1, strerror(errno));
		ssize_t n = getline(&v, &cap, f);
		fclose(f);
		if (n < 0)
			msg_usage("--%s: '%s' is empty", name, a + 1);
		v[strcspn(v, "\r\n")] = '\0';
	} else
		v = xstrdup(a);
	if (!strchr(v, ':') || v[0] == ':')
		opt_bad(name, "***", "USER:PASS, or @FILE holding it (fetch never prompts)");
	return v;
}

/* Whether libcurl sends requests through proxy URL p: its scheme is one
 * of libcurl's proxy schemes (none: http), https only when libcurl was
 * built with HTTPS proxy support.  Any other scheme libcurl would refuse
 * at the first request, after the crawl had started. */
static int
proxy_ok(const char *p)
{
	static const char *const schemes[] = {
		"http", "https", "socks4", "socks4a", "socks5", "socks5h", NULL
	};
	const char *end = strstr(p, "://");
	if (!end)
		return 1;
	size_t n = (size_t)(end - p);
	for (const char *const *s = schemes; *s; s++)
		if (strlen(*s) == n && strncasecmp(p, *s, n) == 0)
			return strcmp(*s, "https") != 0 ||
			       (curl_version_info(CURLVERSION_NOW)->features & CURL_VERSION_HTTPS_PROXY);
	return 0;
}

/* The files the options name, by lib/msg.h's rule: each read or made
 * later is checked now, so a mistake stops fetch before its first
 * request rather than after its last (exits 64, 66 or 73). */
static void
check_files(const fetch_opts *o)
{
	if (o->proxy && !proxy_ok(o->proxy)) {
		char *shown = url_shown(o->proxy);   /* never its password */
		opt_bad("proxy", shown ? shown : o->proxy,
			"SCHEME://HOST[:PORT] with SCHEME http, https, socks4, socks4a,"
			" socks5 or socks5h");
	}
	if (F.policy_path)
		msg_need_input("policy", F.policy_path, MSG_IN_FILE);
	if (o->cacert)
		msg_need_input("cacert", o->cacert, MSG_IN_FILE);
	if (o->capath)
		msg_need_input("capath", o->capath, MSG_IN_DIR);
	if (o->netrc_file)
		msg_need_input("netrc-file", o->netrc_file, MSG_IN_FILE);
	if (o->sink_stats)
		msg_need_input("sink-stats", o->sink_stats, MSG_IN_LATER);
	if (o->stats)
		msg_need_output("stats", o->stats);
	if (o->metrics)
		msg_need_output("metrics", o->metrics);
	if (o->cookies)
		msg_need_output("cookies", o->cookies);
}

static _Noreturn void
print_version(void)
{
	char msgpack[32];
	snprintf(msgpack, sizeof msgpack, "msgpack-c/%s", msgpack_version());
	char uv[32];
	snprintf(uv, sizeof uv, "libuv/%s", uv_version_string());
	const char *libs[] = { curl_version(), uv, msgpack, NULL };
	msg_version(libs);
}

/* Parses argv into F.o, F.policy and the statics above; exits 64 on any
 * usage error, 66 or 73 for a file (check_files), 0 after --help or
 * --version. */
static void
parse_options(int argc, char **argv)
{
	fetch_opts *o = &F.o;
	char err[512];
	int i;
	while ((i = opt_next(argc, argv, usage, opts, O_N)) != -1) {
		const char *a = optarg, *name = opts[i].name;
		switch (i) {
		case O_HEADER:
			if (a[0] == '@')
				msg_need_input(name, a + 1, MSG_IN_FILE);
			if (hdr_add(&o->headers, a, err, sizeof err) != 0)
				msg_usage("--header: %s", err);
			break;
		case O_USER: free(o->userpwd); o->userpwd = credentials(name, a); break;
		case O_NETRC_FILE: o->netrc = 1; o->netrc_file = a; break;
		case O_PROXY_USER: free(o->proxy_userpwd); o->proxy_userpwd = credentials(name, a); break;
		case O_HTTP11: o->http_version = CURL_HTTP_VERSION_1_1; break;
		case O_HTTP2: o->http_version = CURL_HTTP_VERSION_2_0; break;
		case O_SHARD:
			if (shard_parse(a, &o->shard_k, &o->shard_n))
				opt_bad(name, a, "K/N with 1 <= K <= N");
			break;
		case O_PAUSE: pause_host = a; pause_on = 1; break;
		case O_RESUME: pause_host = a; pause_on = 0; break;
		case O_INCLUDE:
		case O_EXCLUDE: {
			vre *re = vre_compile(a, err, sizeof err);
			if (!re)
				msg_usage("bad regex '%s' %s", a, err);
			int *k = i == O_INCLUDE ? &o->n_include : &o->n_exclude;
			vre ***l = i == O_INCLUDE ? &o->include : &o->exclude;
			*l = xrealloc(*l, (size_t)(*k + 1) * sizeof **l);
			(*l)[(*k)++] = re;
			break;
		}
		case O_VERSION: print_version();
		}
	}
	char why[256];
	if (!(o->private_ranges = cidr_parse(private_ranges, why, sizeof why))) {
		char want[300];
		snprintf(want, sizeof want, "ADDR/PREFIX ranges, comma-separated (%s)", why);
		opt_bad("private-ranges", private_ranges, want);
	}
	check_files(o);
	if (F.policy_path) {
		int rc = policy_load(F.policy_path, &F.policy, err, sizeof err);
		if (rc == EX_USAGE)
			msg_usage("%s", err);
		if (rc)
			msg_die(rc, "%s", err);
	}
	/* A shared frontier hands its workers their URLs itself. */
	if (o->shard_n && o->queue)
		msg_usage("--shard and --queue cannot be used together");
	if (o->from_warc && (o->queue || o->raw || o->shard_n))
		msg_usage("--from-warc cannot be used with --queue, --raw or --shard");
	if ((o->include || o->exclude || o->status) && !o->from_warc)
		msg_usage("--include, --exclude and --status need --from-warc");
	if (o->warc_redact && !o->raw)
		msg_usage("--warc-redact needs --raw");
	if (o->pace_by == PACE_BY_IP && o->proxy)
		msg_usage("--pace-by ip and --proxy cannot be used together: the proxy resolves the names");
	if (o->min_yield > 0 && !o->queue)
		msg_usage("--min-yield needs --queue");
	if (o->recrawl >= 0 && !o->queue)
		msg_usage("--recrawl needs --queue");
	if ((report || pause_host) && !o->queue)
		msg_usage("--report, --requeue-dead, --pause and --resume need --queue");
	if (o->sitemaps && !o->queue)
		msg_usage("--sitemaps needs --queue");
}

/* The policies' flags (struct retry_conf, redirect_conf, robots_conf),
 * from the options. */
static void
configure(void)
{
	const fetch_opts *o = &F.o;
	struct retry_conf *r = &F.conf.retry;
	memcpy(r->retry_on, o->retry_on, sizeof r->retry_on);
	r->n_retry_on = o->n_retry_on;
	r->retries = o->retries;
	r->backoff = o->backoff;
	r->max_retry_after = o->max_retry_after;
	r->max_elapsed = o->max_elapsed;
	F.conf.redirect = (struct redirect_conf){
		.max_redirs = o->max_redirs, .scope = o->redirects,
		.private_ranges = o->private_ranges, .allow_private = o->allow_private,
		.via_proxy = o->proxy != NULL,
	};
	F.conf.robots = (struct robots_conf){
		.retries = o->retries, .backoff = o->backoff, .agent = o->robots_agent,
	};
}

/* Counts a SIGHUP; the driver re-reads --policy (drive.c). */
static void
on_hup(uv_signal_t *s, int signum)
{
	(void)s;
	(void)signum;
	F.reloads++;
}

/* Counts the signal; the driver acts on it (drive.c). */
static void
on_signal(uv_signal_t *s, int signum)
{
	(void)s;
	exit_signal = signum;
	F.interrupts++;
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
	int cookie_failed = 0;
	msg_init("fetch");
	parse_options(argc, argv);
	configure();
	if (F.o.queue) {
		dbq_open(F.o.queue);
		if (pause_host)
			return jobctl_pause(pause_host, pause_on);
		if (report)
			return jobctl_report(report == 2) == 0 ? 0 : EX_IOERR;
	}
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	/* Name lookups run on libuv's thread pool (dns.c): more than its 4
	 * threads, unless the user chose. */
	setenv("UV_THREADPOOL_SIZE", "16", 0);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0 || loop_init() != 0)
		msg_die(EX_SOFTWARE, "cannot initialize libcurl");
	if (F.o.insecure)
		msg_note("--insecure: TLS certificates are not verified");
	if (F.o.cookies) {
		char err[512];
		if (req_cookies_open(F.o.cookies, err, sizeof err) != 0)
			msg_die(EX_NOINPUT, "%s", err);
	}
	curl_multi_setopt(F.multi, CURLMOPT_MAX_HOST_CONNECTIONS,
			  policy_max_per_host(F.policy, F.o.per_host));
	rec_build_init(&F.build);
	uv_timer_init(F.loop, &F.sched_timer);
	if (F.o.queue && (lease_init() != 0 || beat_init() != 0))
		msg_die(EX_SOFTWARE, "cannot start the queue's timers");
	stats_init();
	metrics_init();
	alert_init();
	progress_init();
	uv_signal_init(F.loop, &F.sig_int);
	uv_signal_init(F.loop, &F.sig_term);
	uv_signal_start(&F.sig_int, on_signal, SIGINT);
	uv_signal_start(&F.sig_term, on_signal, SIGTERM);
	if (F.policy_path) {   /* else SIGHUP keeps its default: end fetch */
		uv_signal_init(F.loop, &F.sig_hup);
		uv_signal_start(&F.sig_hup, on_hup, SIGHUP);
	}
	output_init(1, F.o.json, F.o.out_buffer);
	if (F.o.from_warc)
		warcin_init(argv + optind, argc - optind);
	else
		input_init(argv + optind, argc - optind);
	drive_init();
	uv_run(F.loop, UV_RUN_DEFAULT);

	/* Shutdown order: curl first, then every uv handle, then the loop.
	 * The frontier's thread first of all: the last queue ages are read
	 * at once. */
	dbq_stop();
	stats_close();
	metrics_close();
	alert_close();
	progress_close();
	output_close();
	input_close();
	warcin_close();
	beat_close();
	lease_close();
	dbq_close();
	loop_close();
	pool_free();
	if (req_cookies_save() != 0)
		cookie_failed = 1;
	req_free();
	dns_close();
	uv_walk(F.loop, close_handle, NULL);
	uv_run(F.loop, UV_RUN_DEFAULT);
	uv_loop_close(F.loop);
	curl_global_cleanup();
	host_free_all();
	policy_free(F.policy);
	cidr_free(F.o.private_ranges);
	curl_slist_free_all(F.o.resolve);
	curl_slist_free_all(F.o.warc_redact);
	curl_slist_free_all(F.o.headers);
	curl_slist_free_all(F.o.sitemaps);
	free(F.o.userpwd);
	free(F.o.proxy_userpwd);
	for (int i = 0; i < F.o.n_include; i++)
		vre_free(F.o.include[i]);
	for (int i = 0; i < F.o.n_exclude; i++)
		vre_free(F.o.exclude[i]);
	free(F.o.include);
	free(F.o.exclude);
	free(F.o.status);
	rec_build_free(&F.build);
	if (F.bad_input)
		return EX_DATAERR;
	if (input_failed_open || warcin_failed_open)
		return EX_NOINPUT;
	if (cookie_failed)
		return EX_IOERR;
	return exit_signal ? 128 + exit_signal : 0;
}
