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
#include <time.h>
#include <unistd.h>

#include "frontier.h"
#include "msg.h"
#include "num.h"
#include "opt.h"
#include "sql.h"
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
	O_PROXY, O_PROXY_USER, O_NOPROXY, O_CACERT, O_CAPATH, O_INSECURE, O_HTTP11, O_HTTP2,
	H_RETRIES, O_RETRIES, O_RETRY_ON, O_BACKOFF, O_MAX_RETRY_AFTER,
	O_MAX_ELAPSED, O_TARGET_CONC, O_MAX_DELAY, O_NO_ADAPT, O_HOST_FAILURES,
	O_HOST_PAUSE, O_ROBOTS_AGENT, O_NO_ROBOTS,
	H_STREAMS, O_PENDING, O_BUFFER, O_MAX_RECORD, O_MAX_HOSTS, O_STATS, O_METRICS, O_SINK_STATS,
	O_PROGRESS, O_NO_PROGRESS, O_JSON, O_SHARD,
	H_JOBS, O_QUEUE, O_SITEMAPS, O_LEASE, O_MAX_ATTEMPTS, O_SYNC_MODE, O_REPORT, O_REQUEUE,
	O_PAUSE, O_RESUME, O_MIN_YIELD, O_YIELD_WINDOW, O_RECRAWL,
	H_ALERTS, O_ON_ALERT, O_ALERT_EVERY, O_ALERT_429, O_ALERT_LAG,
	H_OTHER, O_QUIET, O_HELP, O_VERSION, O_N
};

static const opt_def opts[O_N] = {
	[H_PACING] = { NULL, 0, NULL, "Concurrency and pacing:", NULL },
	[O_CONCURRENCY] = { "concurrency", 'c', "N", "requests in flight over all hosts", "64" },
	[O_PER_HOST] = { "per-host", 'p', "N", "requests in flight per host", "4" },
	[O_DELAY] = { "delay", 'd', "S", "min seconds between request starts per host", "0" },
	[O_RATE] = { "rate", 0, "R", "starts per second per host, token bucket", "off",
		"per-host token bucket: \\fIR\\fR starts per second" },
	[O_BURST] = { "burst", 0, "B", "token bucket depth for --rate", "1",
		"the token bucket of \\fB\\-\\-rate\\fR: \\fIB\\fR starts at once" },
	[O_POLICY] = { "policy", 0, "FILE", "per-host overrides (docs/fetch.md)", NULL,
		"per-host overrides: lines of \\fIhost key=value...\\fR, or \\fIsite=DOMAIN key=value...\\fR to pace a registrable domain's hosts as one (docs/fetch.md)" },
	[O_PACE_BY] = { "pace-by", 0, "UNIT", "host, or site: hosts of a registrable domain\nshare one budget", "host",
		"the unit of pacing: host, a host name whatever its scheme and port, or site, the registrable domain by the Public Suffix List" },
	[H_LIMITS] = { NULL, 0, NULL, "Limits:", NULL },
	[O_TIMEOUT] = { "timeout", 't', "S", "seconds per attempt", "30" },
	[O_CONNECT_TIMEOUT] = { "connect-timeout", 0, "S", "seconds to connect", "10" },
	[O_LOW_LIMIT] = { "low-speed-limit", 0, "B", "abort below B bytes/s ...", "100",
		"an attempt slower than \\fIB\\fR bytes/s for \\fB\\-\\-low\\-speed\\-time\\fR seconds ends as timeout" },
	[O_LOW_TIME] = { "low-speed-time", 0, "S", "... for S seconds", "10",
		"seconds an attempt may stay under \\fB\\-\\-low\\-speed\\-limit\\fR" },
	[O_MAX_REDIRS] = { "max-redirs", 0, "N", "redirects followed per URL", "10",
		"redirects followed per URL, each hop a request through the scheduler (robots.txt, pacing, caps)" },
	[O_REDIRECTS] = { "redirects", 0, "SCOPE", "where a redirect may lead: any, same-site or\nsame-host, as the input URL", "any",
		"where a redirect may lead from the input URL: any, same-site or same-host; others end as offsite_redirect" },
	[O_PRIVATE_RANGES] = { "private-ranges", 0, "L", "addresses a redirect from a public address may not\nreach (loopback, private, link-local; docs/fetch.md)", NULL,
		"address ranges (CIDR, comma-separated) a redirect from a public address may not connect to, or it ends as private_address; by default loopback, RFC 1918, shared, link-local and ULA" },
	[O_ALLOW_PRIVATE] = { "allow-private", 0, NULL, "let redirects reach them", NULL,
		"lift the \\fB\\-\\-private\\-ranges\\fR rule" },
	[O_RESOLVE] = { "resolve", 0, "H:P:A", "connect to address A for host H, port P (as curl)", NULL,
		"connect to address \\fIA\\fR for host \\fIH\\fR, port \\fIP\\fR, as curl's option; repeatable" },
	[O_MAX_BODY] = { "max-body", 0, "BYTES", "decoded body limit, K/M/G suffixes", "16M",
		"the decoded body limit, K/M/G suffixes" },
	[O_UA] = { "user-agent", 0, "S", "User-Agent header", "sluice/" SLUICE_VERSION " (+" SLUICE_URL ")",
		"the User-Agent header; name yourself and a contact when you crawl sites you do not run" },
	[H_REQUESTS] = { NULL, 0, NULL, "Requests (docs/fetch.md):", NULL },
	[O_HEADER] = { "header", 'H', "LINE", "send header LINE to every host, as curl's -H;\n@FILE: one a line from FILE", NULL,
		"send header \\fILINE\\fR to every host, in curl's syntax (\\(lqName: value\\(rq; \\(lqName:\\(rq removes a default header, \\(lqName;\\(rq sends it empty); \\fB@\\fR\\fIFILE\\fR reads one a line from \\fIFILE\\fR; repeatable.  A \\fB\\-\\-policy\\fR header= line sends one to its hosts only" },
	[O_SECRET_HEADER] = { "secret-header", 0, "NAME", "a secret like Authorization: never sent to\nanother origin, never shown", NULL,
		"header \\fINAME\\fR is a secret like Authorization, Cookie, Proxy-Authorization and the names holding key, token, secret, auth, session, password or signature (X\\-Api\\-Key): sent only while a redirect stays at the input URL's origin, never shown; repeatable" },
	[O_USER] = { "user", 'u', "U:P", "Basic credentials for the input URLs' origins;\n@FILE: from FILE's first line", NULL,
		"HTTP Basic credentials for the input URLs' origins, never sent past a redirect to another; \\fB@\\fR\\fIFILE\\fR reads them from \\fIFILE\\fR's first line.  fetch never prompts" },
	[O_NETRC] = { "netrc", 0, NULL, "credentials from ~/.netrc for the hosts it names", NULL,
		"credentials from ~/.netrc for the hosts it names (libcurl's netrc)" },
	[O_NETRC_FILE] = { "netrc-file", 0, "FILE", "... from FILE", NULL,
		"credentials from \\fIFILE\\fR, a netrc file" },
	[O_COOKIES] = { "cookies", 0, "FILE", "read and write this Netscape cookie jar", NULL,
		"libcurl's cookie engine, one jar for all transfers: read from \\fIFILE\\fR (if it exists) at start, written to it at exit, also after a signal.  With \\fB\\-\\-queue\\fR the job keeps the cookies too, so a rerun or another fetch has the session" },
	[O_PROXY] = { "proxy", 0, "URL", "through this proxy (http, https, socks5h);\nelse *_proxy variables, as curl", NULL,
		"send requests through the proxy at \\fIURL\\fR (http, https, socks5h).  Without it libcurl reads http_proxy, https_proxy, all_proxy and no_proxy from the environment, as curl does" },
	[O_PROXY_USER] = { "proxy-user", 0, "U:P", "the proxy's credentials; @FILE as --user", NULL,
		"the proxy's credentials; \\fB@\\fR\\fIFILE\\fR reads them from \\fIFILE\\fR's first line" },
	[O_NOPROXY] = { "noproxy", 0, "LIST", "hosts reached without the proxy, as curl", NULL,
		"hosts (comma-separated, \\(lq*\\(rq for all) reached without the proxy, as curl's option" },
	[O_CACERT] = { "cacert", 0, "FILE", "trust the CA certificates in FILE (PEM)", NULL,
		"trust the CA certificates in \\fIFILE\\fR (PEM) instead of the system's" },
	[O_CAPATH] = { "capath", 0, "DIR", "trust the CA certificates in DIR", NULL,
		"trust the CA certificates in \\fIDIR\\fR (hashed, openssl rehash) instead of the system's" },
	[O_INSECURE] = { "insecure", 'k', NULL, "do not verify TLS certificates", NULL,
		"verify no TLS certificate; a notice on stderr says so" },
	[O_HTTP11] = { "http1.1", 0, NULL, "speak HTTP/1.1 only", NULL },
	[O_HTTP2] = { "http2", 0, NULL, "HTTP/2, also over plain http (upgrade)", NULL,
		"HTTP/2 also over plain http (h2c upgrade); by default HTTP/2 where TLS offers it" },
	[H_RETRIES] = { NULL, 0, NULL, "Retries and politeness:", NULL },
	[O_RETRIES] = { "retries", 0, "N", "retries after the first attempt", "3" },
	[O_RETRY_ON] = { "retry-on", 0, "LIST", "HTTP statuses to retry", "429,502,503,504" },
	[O_BACKOFF] = { "backoff", 0, "S", "base of exponential backoff with jitter", "1" },
	[O_MAX_RETRY_AFTER] = { "max-retry-after", 0, "S", "longer Retry-After ends the URL", "300",
		"longest Retry-After honoured; a longer one ends the URL" },
	[O_MAX_ELAPSED] = { "max-elapsed", 0, "S", "give a URL up S seconds after taking it", "600",
		"per-URL deadline: give a URL up \\fIS\\fR seconds after taking it" },
	[O_TARGET_CONC] = { "target-concurrency", 0, "N", "pace each host to about N requests at once:\nstart interval = its latency / N", "2",
		"adaptive pacing: each host's start interval follows its latency / \\fIN\\fR, up at once, down by averaging, never below \\fB\\-d\\fR or Crawl-delay nor above \\fB\\-\\-max\\-delay\\fR; a 429/503 with Retry-After holds the host that long, one without doubles the interval once (to at least 0.25 s)" },
	[O_MAX_DELAY] = { "max-delay", 0, "S", "longest interval learnt from a host", "60",
		"longest start interval adaptive pacing learns from a host" },
	[O_NO_ADAPT] = { "no-adapt", 0, NULL, "keep -d: no pacing by latency or 429/503", NULL,
		"no adaptive pacing: \\fB\\-d\\fR alone sets the interval; 429/503 do not slow a host" },
	[O_HOST_FAILURES] = { "host-failures", 0, "N", "transient failures in a row that pause a host", "10",
		"the circuit breaker: transient failures in a row that pause a host" },
	[O_HOST_PAUSE] = { "host-pause", 0, "S", "first pause of a failing host", "60" },
	[O_ROBOTS_AGENT] = { "robots-agent", 0, "T", "token robots.txt groups are matched by", "sluice",
		"product token robots.txt groups are matched by, case-insensitively" },
	[O_NO_ROBOTS] = { "no-robots", 0, NULL, "ignore robots.txt (only for sites you may crawl)", NULL,
		"ignore robots.txt; only for sites you own or may crawl" },
	[H_STREAMS] = { NULL, 0, NULL, "Streams:", NULL },
	[O_PENDING] = { "pending", 0, "N", "URLs held in memory ahead of starts", "1024",
		"URLs held in memory ahead of starts.  Input is read only while fewer than \\fB\\-\\-pending\\fR URLs are held, so a window full of one host's URLs delays the hosts further down the input: interleave the hosts, raise \\fB\\-\\-pending\\fR, or use \\fB\\-\\-queue\\fR" },
	[O_BUFFER] = { "buffer", 0, "BYTES", "output bytes buffered before pausing", "4M" },
	[O_MAX_RECORD] = { "max-record", 0, "BYTES", "largest input record", "64M" },
	[O_MAX_HOSTS] = { "max-hosts", 0, "N", "host states kept before idle ones are dropped", "10000" },
	[O_STATS] = { "stats", 0, "FILE", "write counters as JSON to FILE every 5 s and at exit", NULL,
		"counters as JSON, overall and per host, rewritten every 5 s and at exit; with the event loop's lag (loop_lag_ms: p50, p99, max of how late a 100 ms timer runs)" },
	[O_METRICS] = { "metrics", 0, "FILE", "write counters in Prometheus's text format to FILE\nevery 5 s and at exit (docs/operating.md)", NULL,
		"counters in Prometheus's text exposition format, per host up to \\fB\\-\\-max\\-hosts\\fR (evicted hosts in host=\"other\"), rewritten every 5 s and at exit through a temporary file and rename, as node_exporter's textfile collector wants (docs/fetch.md, docs/operating.md)" },
	[O_SINK_STATS] = { "sink-stats", 0, "FILE", "show sink's accepted/s from its --stats FILE\non the status line", NULL,
		"the \\fB\\-\\-stats\\fR file of the sink downstream: the status line shows its accepted records per second over the last minute (with \\fB\\-\\-queue\\fR and without this, the job's, from the frontier's count)" },
	[O_PROGRESS] = { "progress", 0, NULL, "draw a status line on stderr (on a terminal without -q)", NULL,
		"draw the status line on stderr: the default on a terminal without \\fB\\-q\\fR" },
	[O_NO_PROGRESS] = { "no-progress", 0, NULL, "never draw it", NULL,
		"never draw the status line" },
	[O_JSON] = { "json", 0, NULL, "write JSON lines", NULL },
	[O_SHARD] = { "shard", 0, "K/N", "take only the URLs whose host is in shard K of N\n(docs/scale.md)", NULL,
		"take only the URLs whose host is in shard \\fIK\\fR of \\fIN\\fR (1 <= K <= N); see SHARDING" },
	[H_JOBS] = { NULL, 0, NULL, "Durable jobs (docs/queue.md):", NULL },
	[O_QUEUE] = { "queue", 0, "DB", "take URLs from the SQLite frontier DB (FILEs seed it)", NULL,
		"durable jobs over a frontier, an SQLite file or a PostgreSQL database named by a postgresql:// URI that fetches on several machines share, each host owned by one fetch at a time (docs/queue.md); FILEs seed it; a URL to retry goes back to the frontier with the time it may go" },
	[O_SITEMAPS] = { "sitemaps", 0, "HOST", "seed the job with HOST's robots.txt, whose sitemaps\nparse and sink --follow then crawl; repeatable", NULL,
		"seed the job with the robots.txt of \\fIHOST\\fR (a host name, https assumed, or an origin such as http://host:8080); parse turns its \\fBSitemap:\\fR lines (or /sitemap.xml when it names none) into links that \\fBsink \\-\\-follow\\fR admits, and the sitemaps' own links follow; repeatable; with no \\fIFILE\\fR, standard input is not read" },
	[O_LEASE] = { "lease", 0, "S", "retake a live fetch's lease after S seconds;\na dead fetch's leases are retaken at once", "900",
		"leases of a fetch that no longer runs are retaken at once, those of a live one after \\fIS\\fR seconds" },
	[O_MAX_ATTEMPTS] = { "max-attempts", 0, "N", "leases of a URL before it is a dead letter", "5",
		"a URL leased \\fIN\\fR times without an acknowledgement ends as error attempts_exhausted" },
	[O_SYNC_MODE] = { "sync", 0, "normal|full", "full: each frontier commit on the disk", "normal",
		"full syncs every frontier commit to the disk (power loss keeps it); normal survives only a killed fetch" },
	[O_REPORT] = { "report", 0, NULL, "print the job's state and exit", NULL },
	[O_REQUEUE] = { "requeue-dead", 0, NULL, "put dead URLs back to pending, then --report", NULL },
	[O_PAUSE] = { "pause", 0, "HOST", "stop every fetch on the job starting HOST, and exit", NULL },
	[O_RESUME] = { "resume", 0, "HOST", "let them start it again, and exit", NULL },
	[O_MIN_YIELD] = { "min-yield", 0, "F", "halve a host's rate, then again, then pause it\nwhile its accepted share is below F", "off",
		"the yield guard: a host whose accepted share over its last \\fB\\-\\-yield\\-window\\fR stored records is below \\fIF\\fR has its rate halved; still below over the next window, halved again (x0.25); still below, it is paused for every fetch on the job.  A window back at \\fIF\\fR or above undoes one halving.  Each step is said on stderr, counted in \\fB\\-\\-stats\\fR and shown by \\fB\\-\\-report\\fR" },
	[O_YIELD_WINDOW] = { "yield-window", 0, "N", "... over its last N stored records", "50" },
	[O_RECRAWL] = { "recrawl", 0, "AGE", "fetch again, conditionally, the done URLs stored\nmore than AGE ago (seconds, or 12h, 1d)", "off",
		"at the start and at every heartbeat, the done URLs whose page sink stored more than \\fIAGE\\fR ago (seconds, or a number with s, m, h or d: 12h, 1d), and before this fetch started, go back to pending, their stored ETag and Last\\-Modified sent as If\\-None\\-Match and If\\-Modified\\-Since; see RECRAWLS" },
	[H_ALERTS] = { NULL, 0, NULL, "Alerts (docs/fetch.md, \"Alerts\"):", NULL },
	[O_ON_ALERT] = { "on-alert", 0, "CMD", "run CMD (sh -c) when a rule trips: the yield guard,\na breaker, --alert-429, --alert-lag", NULL,
		"run \\fICMD\\fR through \\fBsh \\-c\\fR when a rule trips, with SLUICE_RULE (yield, breaker, 429 or lag), SLUICE_HOST (empty for lag), SLUICE_VALUE and SLUICE_MESSAGE in its environment, at most once per host per rule per \\fB\\-\\-alert\\-every\\fR, at most 4 at once (more are dropped and said); see ALERTS" },
	[O_ALERT_EVERY] = { "alert-every", 0, "AGE", "run it at most once per host and rule in AGE", "10m",
		"at most one run per host and rule in \\fIAGE\\fR (seconds, or a number with s, m, h or d)" },
	[O_ALERT_429] = { "alert-429", 0, "F", "rule 429: a host's 429 share over its last 20\nanswers reaches F (0: off)", "0.5",
		"rule 429: a host answered 429 to a share of at least \\fIF\\fR of its last 20 answers; 0 turns it off" },
	[O_ALERT_LAG] = { "alert-lag", 0, "S", "rule lag: the event loop runs a timer S late (0: off)", "1",
		"rule lag: a timer of the event loop, due every 100 ms, ran more than \\fIS\\fR seconds late; 0 turns it off" },
	[H_OTHER] = { NULL, 0, NULL, "Other:", NULL },
	[O_QUIET] = { "quiet", 'q', NULL, "no notices on stderr", NULL },
	[O_HELP] = { "help", 0, NULL, "print this and exit", NULL,
		"print the options with their defaults and exit" },
	[O_VERSION] = { "version", 0, NULL, "print the versions and exit", NULL },
};

/* The wants of opt_bad shared by several options. */
#define WANT_SECONDS "seconds, 0 or more"
#define WANT_POSITIVE "a number more than 0"

static void
parse_retry_on(const char *s)
{
	char *copy = xstrdup(s), *save = NULL;
	F.o.n_retry_on = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long st;
		if (num_long(t, 599, &st) != 0 || st < 100 || F.o.n_retry_on == FETCH_MAX_RETRY_ON)
			opt_bad("retry-on", s, "up to 32 HTTP statuses from 100 to 599, comma-separated");
		F.o.retry_on[F.o.n_retry_on++] = (int)st;
	}
	free(copy);
}

/* --user or --proxy-user's value: USER:PASS, or @FILE whose first line
 * it is (kept out of ps).  The value is never echoed. */
static char *
credentials(const char *name, const char *a)
{
	char *v = NULL;
	if (a[0] == '@') {
		FILE *f = fopen(a + 1, "r");
		size_t cap = 0;
		if (!f)
			msg_usage("--%s: cannot open '%s': %s", name, a + 1, strerror(errno));
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

/* Appends a copy of s to *l (--resolve, --sitemaps). */
static void
slist_add(struct curl_slist **l, const char *s)
{
	struct curl_slist *n = curl_slist_append(*l, s);
	if (!n)
		xalloc_die();
	*l = n;
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
 * usage error, 0 after --help or --version. */
static void
parse_options(int argc, char **argv)
{
	static char ua[128];
	snprintf(ua, sizeof ua, "sluice/%s (+%s)", SLUICE_VERSION, SLUICE_URL);
	fetch_opts *o = &F.o;
	*o = (fetch_opts){
		.concurrency = 64, .per_host = 4, .burst = 1, .timeout = 30,
		.connect_timeout = 10, .low_speed_limit = 100, .low_speed_time = 10,
		.max_redirs = 10, .max_body = (size_t)16 << 20, .user_agent = ua,
		.robots_agent = "sluice",
		.robots = 1, .retries = 3, .max_elapsed = 600, .max_retry_after = 300,
		.backoff = 1, .adapt = 1, .target_concurrency = 2, .max_delay = 60, .host_failures = 10, .host_pause = 60,
		.pending = 1024, .out_buffer = (size_t)4 << 20,
		.max_record = REC_MAX_RECORD_DEFAULT, .lease = 900, .max_attempts = 5, .max_hosts = 10000,
		.progress = -1, .yield_window = 50, .recrawl = -1,
		.alert_every = 600, .alert_429 = 0.5, .alert_lag = 1,
	};
	parse_retry_on("429,502,503,504");
	const char *policy = NULL, *ranges = CIDR_PRIVATE;
	char err[512];
	int i;
	while ((i = opt_next(argc, argv, opts, O_N)) != -1) {
		const char *a = optarg, *name = opts[i].name;
		switch (i) {
		case O_CONCURRENCY: opt_long(name, a, 1, 100000, &o->concurrency); break;
		case O_PER_HOST: opt_long(name, a, 1, 10000, &o->per_host); break;
		case O_DELAY: opt_seconds(name, a, 0, 0, WANT_SECONDS, &o->delay); break;
		case O_RATE: opt_seconds(name, a, 0, 0, "starts per second, 0 for off", &o->rate); break;
		case O_BURST: opt_seconds(name, a, 1, 0, "a number of 1 or more", &o->burst); break;
		case O_POLICY: policy = a; break;
		case O_PACE_BY:
			if (strcmp(a, "host") == 0) o->pace_by_site = 0;
			else if (strcmp(a, "site") == 0) o->pace_by_site = 1;
			else opt_bad(name, a, "host or site");
			break;
		case O_TIMEOUT: opt_seconds(name, a, 0, 1, "seconds, more than 0", &o->timeout); break;
		case O_CONNECT_TIMEOUT: opt_seconds(name, a, 0, 1, "seconds, more than 0", &o->connect_timeout); break;
		case O_LOW_LIMIT: opt_long(name, a, 0, 1L << 30, &o->low_speed_limit); break;
		case O_LOW_TIME: opt_long(name, a, 0, 86400, &o->low_speed_time); break;
		case O_MAX_REDIRS: opt_long(name, a, 0, 1000, &o->max_redirs); break;
		case O_REDIRECTS:
			if (strcmp(a, "any") == 0) o->redirects = REDIR_ANY;
			else if (strcmp(a, "same-site") == 0) o->redirects = REDIR_SAME_SITE;
			else if (strcmp(a, "same-host") == 0) o->redirects = REDIR_SAME_HOST;
			else opt_bad(name, a, "any, same-site or same-host");
			break;
		case O_PRIVATE_RANGES: ranges = a; break;
		case O_ALLOW_PRIVATE: o->allow_private = 1; break;
		case O_RESOLVE: slist_add(&o->resolve, a); break;
		case O_HEADER:
			if (hdr_add(&o->headers, a, err, sizeof err) != 0)
				msg_usage("--header: %s", err);
			break;
		case O_SECRET_HEADER:
			if (hdr_secret_add(a) != 0)
				opt_bad(name, a, "a header name");
			break;
		case O_USER: free(o->userpwd); o->userpwd = credentials(name, a); break;
		case O_NETRC: o->netrc = 1; break;
		case O_NETRC_FILE: o->netrc = 1; o->netrc_file = a; break;
		case O_COOKIES: o->cookies = a; break;
		case O_PROXY: o->proxy = a; break;
		case O_PROXY_USER: free(o->proxy_userpwd); o->proxy_userpwd = credentials(name, a); break;
		case O_NOPROXY: o->noproxy = a; break;
		case O_CACERT: o->cacert = a; break;
		case O_CAPATH: o->capath = a; break;
		case O_INSECURE: o->insecure = 1; break;
		case O_HTTP11: o->http_version = CURL_HTTP_VERSION_1_1; break;
		case O_HTTP2: o->http_version = CURL_HTTP_VERSION_2_0; break;
		case O_MAX_BODY: opt_size(name, a, 0, "a size, K/M/G suffixes", &o->max_body); break;
		case O_UA: o->user_agent = a; break;
		case O_RETRIES: opt_long(name, a, 0, 1000, &o->retries); break;
		case O_RETRY_ON: parse_retry_on(a); break;
		case O_BACKOFF: opt_seconds(name, a, 0, 0, WANT_SECONDS, &o->backoff); break;
		case O_MAX_RETRY_AFTER: opt_seconds(name, a, 0, 0, WANT_SECONDS, &o->max_retry_after); break;
		case O_MAX_ELAPSED: opt_seconds(name, a, 0, 0, WANT_SECONDS, &o->max_elapsed); break;
		case O_TARGET_CONC: opt_seconds(name, a, 0, 1, WANT_POSITIVE, &o->target_concurrency); break;
		case O_MAX_DELAY: opt_seconds(name, a, 0, 0, WANT_SECONDS, &o->max_delay); break;
		case O_NO_ADAPT: o->adapt = 0; break;
		case O_HOST_FAILURES: opt_long(name, a, 1, 1000000, &o->host_failures); break;
		case O_HOST_PAUSE: opt_seconds(name, a, 0, 0, WANT_SECONDS, &o->host_pause); break;
		case O_ROBOTS_AGENT:
			if (!robots_token_valid(a))
				opt_bad(name, a, "a product token of letters, '_' and '-'");
			o->robots_agent = a;
			break;
		case O_NO_ROBOTS: o->robots = 0; break;
		case O_PENDING: opt_long(name, a, 1, 10000000, &o->pending); break;
		case O_BUFFER: opt_size(name, a, 1024, "a size of 1K or more, K/M/G suffixes", &o->out_buffer); break;
		case O_MAX_RECORD: opt_size(name, a, 64, "a size of 64 or more, K/M/G suffixes", &o->max_record); break;
		case O_MAX_HOSTS: opt_long(name, a, 1, 100000000, &o->max_hosts); break;
		case O_STATS: o->stats = a; break;
		case O_METRICS: o->metrics = a; break;
		case O_SINK_STATS: o->sink_stats = a; break;
		case O_PROGRESS: o->progress = 1; break;
		case O_NO_PROGRESS: o->progress = 0; break;
		case O_JSON: o->json = 1; break;
		case O_SHARD:
			if (shard_parse(a, &o->shard_k, &o->shard_n))
				opt_bad(name, a, "K/N with 1 <= K <= N");
			break;
		case O_QUEUE: o->queue = a; break;
		case O_SITEMAPS: slist_add(&o->sitemaps, a); break;
		case O_LEASE: opt_seconds(name, a, 0, 1, "seconds, more than 0", &o->lease); break;
		case O_MAX_ATTEMPTS: opt_long(name, a, 1, 1000000, &o->max_attempts); break;
		case O_SYNC_MODE: if (sql_sync_arg(a) != 0) opt_bad(name, a, "normal or full"); break;
		case O_REPORT: report = 1; break;
		case O_REQUEUE: report = 2; break;
		case O_PAUSE: pause_host = a; pause_on = 1; break;
		case O_RESUME: pause_host = a; pause_on = 0; break;
		case O_MIN_YIELD:
			if (num_seconds(a, &o->min_yield) < 0 || o->min_yield > 1)
				opt_bad(name, a, "a fraction from 0 to 1");
			break;
		case O_YIELD_WINDOW: opt_long(name, a, 1, FR_RECENT, &o->yield_window); break;
		case O_RECRAWL:
			if (num_duration(a, &o->recrawl) < 0)
				opt_bad(name, a, "an age: seconds, or a number with s, m, h or d");
			break;
		case O_ON_ALERT: o->on_alert = a; break;
		case O_ALERT_EVERY:
			if (num_duration(a, &o->alert_every) < 0)
				opt_bad(name, a, "an age: seconds, or a number with s, m, h or d");
			break;
		case O_ALERT_429:
			if (num_seconds(a, &o->alert_429) < 0 || o->alert_429 > 1)
				opt_bad(name, a, "a fraction from 0 to 1");
			break;
		case O_ALERT_LAG: opt_seconds(name, a, 0, 0, WANT_SECONDS, &o->alert_lag); break;
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
	if (policy) {
		int rc = policy_load(policy, &F.policy, err, sizeof err);
		if (rc == EX_USAGE)
			msg_usage("%s", err);
		if (rc)
			msg_die(rc, "%s", err);
		F.policy_path = policy;
	}
	/* A shared frontier hands its workers their URLs itself. */
	if (o->shard_n && o->queue)
		msg_usage("--shard and --queue cannot be used together");
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
	beat_close();
	lease_close();
	dbq_close();
	loop_close();
	pool_free();
	if (req_cookies_save() != 0)
		cookie_failed = 1;
	req_free();
	uv_walk(F.loop, close_handle, NULL);
	uv_run(F.loop, UV_RUN_DEFAULT);
	uv_loop_close(F.loop);
	curl_global_cleanup();
	host_free_all();
	policy_free(F.policy);
	cidr_free(F.o.private_ranges);
	curl_slist_free_all(F.o.resolve);
	curl_slist_free_all(F.o.headers);
	curl_slist_free_all(F.o.sitemaps);
	free(F.o.userpwd);
	free(F.o.proxy_userpwd);
	rec_build_free(&F.build);
	if (F.bad_input)
		return EX_DATAERR;
	if (input_failed_open)
		return EX_NOINPUT;
	if (cookie_failed)
		return EX_IOERR;
	return exit_signal ? 128 + exit_signal : 0;
}
