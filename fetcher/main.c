/* fetch — fetch URLs politely and concurrently, one record per URL.
 *
 *   fetch [OPTION...] [FILE...]
 *
 * Reads URL lines or msgpack records with a `url` key from the FILEs or
 * stdin and writes one record per input to stdout.  See docs/fetch.md.
 */
#include "fetch.h"

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
	H_RETRIES, O_RETRIES, O_RETRY_ON, O_BACKOFF, O_MAX_RETRY_AFTER,
	O_MAX_ELAPSED, O_TARGET_CONC, O_MAX_DELAY, O_NO_ADAPT, O_HOST_FAILURES,
	O_HOST_PAUSE, O_ROBOTS_AGENT, O_NO_ROBOTS,
	H_STREAMS, O_PENDING, O_BUFFER, O_MAX_RECORD, O_MAX_HOSTS, O_STATS,
	O_PROGRESS, O_NO_PROGRESS, O_JSON, O_SHARD,
	H_JOBS, O_QUEUE, O_LEASE, O_MAX_ATTEMPTS, O_SYNC_MODE, O_REPORT, O_REQUEUE,
	O_PAUSE, O_RESUME, O_MIN_YIELD, O_YIELD_WINDOW,
	H_OTHER, O_QUIET, O_HELP, O_VERSION, O_N
};

static const opt_def opts[O_N] = {
	[H_PACING] = { NULL, 0, NULL, "Concurrency and pacing:", NULL },
	[O_CONCURRENCY] = { "concurrency", 'c', "N", "requests in flight over all hosts", "64" },
	[O_PER_HOST] = { "per-host", 'p', "N", "requests in flight per host", "4" },
	[O_DELAY] = { "delay", 'd', "S", "min seconds between request starts per host", "0" },
	[O_RATE] = { "rate", 0, "R", "starts per second per host, token bucket", "off" },
	[O_BURST] = { "burst", 0, "B", "token bucket depth for --rate", "1" },
	[O_POLICY] = { "policy", 0, "FILE", "per-host overrides (docs/fetch.md)", NULL },
	[O_PACE_BY] = { "pace-by", 0, "UNIT", "host, or site: hosts of a registrable domain\nshare one budget", "host" },
	[H_LIMITS] = { NULL, 0, NULL, "Limits:", NULL },
	[O_TIMEOUT] = { "timeout", 't', "S", "seconds per attempt", "30" },
	[O_CONNECT_TIMEOUT] = { "connect-timeout", 0, "S", "seconds to connect", "10" },
	[O_LOW_LIMIT] = { "low-speed-limit", 0, "B", "abort below B bytes/s ...", "100" },
	[O_LOW_TIME] = { "low-speed-time", 0, "S", "... for S seconds", "10" },
	[O_MAX_REDIRS] = { "max-redirs", 0, "N", "redirects followed per URL", "10" },
	[O_REDIRECTS] = { "redirects", 0, "SCOPE", "where a redirect may lead: any, same-site or\nsame-host, as the input URL", "any" },
	[O_PRIVATE_RANGES] = { "private-ranges", 0, "L", "addresses a redirect from a public address may not\nreach (loopback, private, link-local; docs/fetch.md)", NULL },
	[O_ALLOW_PRIVATE] = { "allow-private", 0, NULL, "let redirects reach them", NULL },
	[O_RESOLVE] = { "resolve", 0, "H:P:A", "connect to address A for host H, port P (as curl)", NULL },
	[O_MAX_BODY] = { "max-body", 0, "BYTES", "decoded body limit, K/M/G suffixes", "16M" },
	[O_UA] = { "user-agent", 0, "S", "User-Agent header", "sluice/" SLUICE_VERSION " (+" SLUICE_URL ")" },
	[H_RETRIES] = { NULL, 0, NULL, "Retries and politeness:", NULL },
	[O_RETRIES] = { "retries", 0, "N", "retries after the first attempt", "3" },
	[O_RETRY_ON] = { "retry-on", 0, "LIST", "HTTP statuses to retry", "429,502,503,504" },
	[O_BACKOFF] = { "backoff", 0, "S", "base of exponential backoff with jitter", "1" },
	[O_MAX_RETRY_AFTER] = { "max-retry-after", 0, "S", "longer Retry-After ends the URL", "300" },
	[O_MAX_ELAPSED] = { "max-elapsed", 0, "S", "give a URL up S seconds after taking it", "600" },
	[O_TARGET_CONC] = { "target-concurrency", 0, "N", "pace each host to about N requests at once:\nstart interval = its latency / N", "2" },
	[O_MAX_DELAY] = { "max-delay", 0, "S", "longest interval learnt from a host", "60" },
	[O_NO_ADAPT] = { "no-adapt", 0, NULL, "keep -d: no pacing by latency or 429/503", NULL },
	[O_HOST_FAILURES] = { "host-failures", 0, "N", "transient failures in a row that pause a host", "10" },
	[O_HOST_PAUSE] = { "host-pause", 0, "S", "first pause of a failing host", "60" },
	[O_ROBOTS_AGENT] = { "robots-agent", 0, "T", "token robots.txt groups are matched by", "sluice" },
	[O_NO_ROBOTS] = { "no-robots", 0, NULL, "ignore robots.txt (only for sites you may crawl)", NULL },
	[H_STREAMS] = { NULL, 0, NULL, "Streams:", NULL },
	[O_PENDING] = { "pending", 0, "N", "URLs held in memory ahead of starts", "1024" },
	[O_BUFFER] = { "buffer", 0, "BYTES", "output bytes buffered before pausing", "4M" },
	[O_MAX_RECORD] = { "max-record", 0, "BYTES", "largest input record", "64M" },
	[O_MAX_HOSTS] = { "max-hosts", 0, "N", "host states kept before idle ones are dropped", "10000" },
	[O_STATS] = { "stats", 0, "FILE", "write counters as JSON to FILE every 5 s and at exit", NULL },
	[O_PROGRESS] = { "progress", 0, NULL, "draw a status line on stderr (on a terminal without -q)", NULL },
	[O_NO_PROGRESS] = { "no-progress", 0, NULL, "never draw it", NULL },
	[O_JSON] = { "json", 0, NULL, "write JSON lines", NULL },
	[O_SHARD] = { "shard", 0, "K/N", "take only the URLs whose host is in shard K of N\n(docs/scale.md)", NULL },
	[H_JOBS] = { NULL, 0, NULL, "Durable jobs (docs/queue.md):", NULL },
	[O_QUEUE] = { "queue", 0, "DB", "take URLs from the SQLite frontier DB (FILEs seed it)", NULL },
	[O_LEASE] = { "lease", 0, "S", "retake a live fetch's lease after S seconds;\na dead fetch's leases are retaken at once", "900" },
	[O_MAX_ATTEMPTS] = { "max-attempts", 0, "N", "leases of a URL before it is a dead letter", "5" },
	[O_SYNC_MODE] = { "sync", 0, "normal|full", "full: each frontier commit on the disk", "normal" },
	[O_REPORT] = { "report", 0, NULL, "print the job's state and exit", NULL },
	[O_REQUEUE] = { "requeue-dead", 0, NULL, "put dead URLs back to pending, then --report", NULL },
	[O_PAUSE] = { "pause", 0, "HOST", "stop every fetch on the job starting HOST, and exit", NULL },
	[O_RESUME] = { "resume", 0, "HOST", "let them start it again, and exit", NULL },
	[O_MIN_YIELD] = { "min-yield", 0, "F", "pause a host whose accepted share falls below F", "off" },
	[O_YIELD_WINDOW] = { "yield-window", 0, "N", "... over its last N stored records", "50" },
	[H_OTHER] = { NULL, 0, NULL, "Other:", NULL },
	[O_QUIET] = { "quiet", 'q', NULL, "no notices on stderr", NULL },
	[O_HELP] = { "help", 0, NULL, "print this and exit", NULL },
	[O_VERSION] = { "version", 0, NULL, "print the versions and exit", NULL },
};

/* The wants of opt_bad shared by several options. */
#define WANT_SECONDS "seconds, 0 or more"
#define WANT_POSITIVE "a number more than 0"

static void
parse_retry_on(const char *s)
{
	char *copy = strdup(s), *save = NULL;
	F.o.n_retry_on = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long st;
		if (num_long(t, 599, &st) != 0 || st < 100 || F.o.n_retry_on == FETCH_MAX_RETRY_ON)
			opt_bad("retry-on", s, "up to 32 HTTP statuses from 100 to 599, comma-separated");
		F.o.retry_on[F.o.n_retry_on++] = (int)st;
	}
	free(copy);
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
		.progress = -1, .yield_window = 50,
	};
	parse_retry_on("429,502,503,504");
	const char *policy = NULL, *ranges = CIDR_PRIVATE;
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
		case O_RESOLVE: {
			struct curl_slist *l = curl_slist_append(o->resolve, a);
			if (!l)
				abort();
			o->resolve = l;
			break;
		}
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
		case O_PROGRESS: o->progress = 1; break;
		case O_NO_PROGRESS: o->progress = 0; break;
		case O_JSON: o->json = 1; break;
		case O_SHARD:
			if (shard_parse(a, &o->shard_k, &o->shard_n))
				opt_bad(name, a, "K/N with 1 <= K <= N");
			break;
		case O_QUEUE: o->queue = a; break;
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
		char err[512];
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
	if ((report || pause_host) && !o->queue)
		msg_usage("--report, --requeue-dead, --pause and --resume need --queue");
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
	msg_init("fetch");
	parse_options(argc, argv);
	if (F.o.queue) {
		lease_open(F.o.queue);
		if (pause_host)
			return lease_pause(pause_host, pause_on);
		if (report)
			return lease_report(report == 2) == 0 ? 0 : EX_IOERR;
	}
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0 || loop_init() != 0)
		msg_die(EX_SOFTWARE, "cannot initialize libcurl");
	curl_multi_setopt(F.multi, CURLMOPT_MAX_HOST_CONNECTIONS,
			  policy_max_per_host(F.policy, F.o.per_host));
	rec_build_init(&F.build);
	uv_timer_init(F.loop, &F.sched_timer);
	lease_init_loop();
	stats_init();
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
	 * here, at once. */
	lease_end_loop();
	lease_queue_ages();
	stats_close();
	progress_close();
	output_close();
	input_close();
	lease_close();
	loop_close();
	xfer_free_spares();
	uv_walk(F.loop, close_handle, NULL);
	uv_run(F.loop, UV_RUN_DEFAULT);
	uv_loop_close(F.loop);
	curl_global_cleanup();
	sched_free();
	policy_free(F.policy);
	cidr_free(F.o.private_ranges);
	curl_slist_free_all(F.o.resolve);
	rec_build_free(&F.build);
	if (F.bad_input)
		return EX_DATAERR;
	if (input_failed_open)
		return EX_NOINPUT;
	return exit_signal ? 128 + exit_signal : 0;
}
