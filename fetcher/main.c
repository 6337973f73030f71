/* fetch — fetch URLs politely and concurrently, one record per URL.
 *
 *   fetch [OPTION...] [FILE...]
 *
 * Reads URL lines or msgpack records with a `url` key from the FILEs or
 * stdin and writes one record per input to stdout.  See docs/fetch.md.
 */
#include "fetch.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "frontier.h"
#include "msg.h"
#include "num.h"
#include "sql.h"

#define SLUICE_URL "https://sluice.invalid/bot"

fetch F;
static int exit_signal;
static int report;   /* 1 --report, 2 --requeue-dead */
static const char *pause_host;   /* --pause or --resume HOST */
static int pause_on;

static const char usage_text[] =
"usage: fetch [OPTION...] [FILE...]\n"
"Fetch each URL (text lines, or msgpack records with a `url` key) and\n"
"write one record per input to stdout (JSON lines on a terminal).\n"
"\n"
"Concurrency and pacing:\n"
"  -c, --concurrency N     requests in flight over all hosts (64)\n"
"  -p, --per-host N        requests in flight per host (4)\n"
"  -d, --delay S           min seconds between request starts per host (0)\n"
"      --rate R            starts per second per host, token bucket (off)\n"
"      --burst B           token bucket depth for --rate (1)\n"
"      --policy FILE       per-host overrides (docs/fetch.md)\n"
"      --pace-by UNIT      host, or site: hosts of a registrable domain\n"
"                          share one budget (host)\n"
"Limits:\n"
"  -t, --timeout S         seconds per attempt (30)\n"
"      --connect-timeout S (10)\n"
"      --low-speed-limit B abort below B bytes/s ... (100)\n"
"      --low-speed-time S  ... for S seconds (10)\n"
"      --max-redirs N      redirects followed per URL (10)\n"
"      --redirects SCOPE   where a redirect may lead: any, same-site or\n"
"                          same-host, as the input URL (any)\n"
"      --private-ranges L  addresses a redirect from a public address may not\n"
"                          reach (loopback, private, link-local; docs/fetch.md)\n"
"      --allow-private     let redirects reach them\n"
"      --resolve H:P:A     connect to address A for host H, port P (as curl)\n"
"      --max-body BYTES    decoded body limit, K/M/G suffixes (16M)\n"
"      --user-agent S      (sluice/" SLUICE_VERSION " (+" SLUICE_URL "))\n"
"Retries and politeness:\n"
"      --retries N         retries after the first attempt (3)\n"
"      --retry-on LIST     HTTP statuses to retry (429,502,503,504)\n"
"      --backoff S         base of exponential backoff with jitter (1)\n"
"      --max-retry-after S longer Retry-After ends the URL (300)\n"
"      --max-elapsed S     give a URL up S seconds after taking it (600)\n"
"      --target-concurrency N\n"
"                          pace each host to about N requests at once:\n"
"                          start interval = its latency / N (2)\n"
"      --max-delay S       longest interval learnt from a host (60)\n"
"      --no-adapt          keep -d: no pacing by latency or 429/503\n"
"      --host-failures N   transient failures in a row that pause a host (10)\n"
"      --host-pause S      first pause of a failing host (60)\n"
"      --robots-agent T    token robots.txt groups are matched by (sluice)\n"
"      --no-robots         ignore robots.txt (only for sites you may crawl)\n"
"Streams:\n"
"      --pending N         URLs held in memory ahead of starts (1024)\n"
"      --buffer BYTES      output bytes buffered before pausing (4M)\n"
"      --max-record BYTES  largest input record (64M)\n"
"      --max-hosts N       host states kept before idle ones are dropped (10000)\n"
"      --stats FILE        write counters as JSON to FILE every 5 s and at exit\n"
"      --progress          draw a status line on stderr (on a terminal without -q)\n"
"      --no-progress       never draw it\n"
"      --json              write JSON lines\n"
"      --shard K/N         take only the URLs whose host is in shard K of N\n"
"                          (docs/scale.md)\n"
"Durable jobs (docs/queue.md):\n"
"      --queue DB          take URLs from the SQLite frontier DB (FILEs seed it)\n"
"      --lease S           retake a live fetch's lease after S seconds (900);\n"
"                          a dead fetch's leases are retaken at once\n"
"      --max-attempts N    leases of a URL before it is a dead letter (5)\n"
"      --sync normal|full  full: each frontier commit on the disk (normal)\n"
"      --report            print the job's state and exit\n"
"      --requeue-dead      put dead URLs back to pending, then --report\n"
"      --pause HOST        stop every fetch on the job starting HOST, and exit\n"
"      --resume HOST       let them start it again, and exit\n"
"      --min-yield F       pause a host whose accepted share falls below F (off)\n"
"      --yield-window N    ... over its last N stored records (50)\n"
"  -q, --quiet             no notices on stderr\n"
"      --help, --version\n";

enum {
	O_RATE = 256, O_BURST, O_CONNECT_TIMEOUT, O_LOW_LIMIT, O_LOW_TIME,
	O_MAX_REDIRS, O_MAX_BODY, O_UA, O_NO_ROBOTS, O_POLICY, O_RETRIES,
	O_RETRY_ON, O_BACKOFF, O_MAX_RETRY_AFTER, O_MAX_ELAPSED, O_NO_ADAPT, O_TARGET_CONC, O_MAX_DELAY,
	O_HOST_FAILURES, O_HOST_PAUSE, O_PENDING, O_BUFFER, O_MAX_RECORD,
	O_JSON, O_HELP, O_VERSION, O_QUEUE, O_LEASE, O_MAX_ATTEMPTS, O_SYNC_MODE, O_REPORT, O_REQUEUE, O_PAUSE, O_RESUME, O_MIN_YIELD, O_YIELD_WINDOW,
	O_MAX_HOSTS, O_STATS, O_PROGRESS, O_NO_PROGRESS, O_ROBOTS_AGENT, O_SHARD,
	O_REDIRECTS, O_PACE_BY, O_ALLOW_PRIVATE, O_PRIVATE_RANGES, O_RESOLVE
};

/* --private-ranges by default: loopback, "this network" (0.0.0.0
 * connects to the machine itself), RFC 1918, shared address space (some
 * clouds' metadata), link-local (169.254.169.254 is most clouds'
 * metadata service), unique-local and link-local IPv6. */
#define PRIVATE_RANGES "127.0.0.0/8,0.0.0.0/8,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16," \
	"100.64.0.0/10,169.254.0.0/16,::1/128,::/128,fc00::/7,fe80::/10"

static const struct option longopts[] = {
	{ "concurrency", required_argument, 0, 'c' },
	{ "per-host", required_argument, 0, 'p' },
	{ "delay", required_argument, 0, 'd' },
	{ "rate", required_argument, 0, O_RATE },
	{ "burst", required_argument, 0, O_BURST },
	{ "policy", required_argument, 0, O_POLICY },
	{ "timeout", required_argument, 0, 't' },
	{ "connect-timeout", required_argument, 0, O_CONNECT_TIMEOUT },
	{ "low-speed-limit", required_argument, 0, O_LOW_LIMIT },
	{ "low-speed-time", required_argument, 0, O_LOW_TIME },
	{ "max-redirs", required_argument, 0, O_MAX_REDIRS },
	{ "redirects", required_argument, 0, O_REDIRECTS },
	{ "private-ranges", required_argument, 0, O_PRIVATE_RANGES },
	{ "allow-private", no_argument, 0, O_ALLOW_PRIVATE },
	{ "pace-by", required_argument, 0, O_PACE_BY },
	{ "resolve", required_argument, 0, O_RESOLVE },
	{ "max-body", required_argument, 0, O_MAX_BODY },
	{ "user-agent", required_argument, 0, O_UA },
	{ "retries", required_argument, 0, O_RETRIES },
	{ "retry-on", required_argument, 0, O_RETRY_ON },
	{ "backoff", required_argument, 0, O_BACKOFF },
	{ "max-retry-after", required_argument, 0, O_MAX_RETRY_AFTER },
	{ "max-elapsed", required_argument, 0, O_MAX_ELAPSED },
	{ "no-adapt", no_argument, 0, O_NO_ADAPT },
	{ "target-concurrency", required_argument, 0, O_TARGET_CONC },
	{ "max-delay", required_argument, 0, O_MAX_DELAY },
	{ "host-failures", required_argument, 0, O_HOST_FAILURES },
	{ "host-pause", required_argument, 0, O_HOST_PAUSE },
	{ "robots-agent", required_argument, 0, O_ROBOTS_AGENT },
	{ "no-robots", no_argument, 0, O_NO_ROBOTS },
	{ "pending", required_argument, 0, O_PENDING },
	{ "buffer", required_argument, 0, O_BUFFER },
	{ "max-record", required_argument, 0, O_MAX_RECORD },
	{ "json", no_argument, 0, O_JSON },
	{ "shard", required_argument, 0, O_SHARD },
	{ "max-hosts", required_argument, 0, O_MAX_HOSTS },
	{ "stats", required_argument, 0, O_STATS },
	{ "progress", no_argument, 0, O_PROGRESS },
	{ "no-progress", no_argument, 0, O_NO_PROGRESS },
	{ "queue", required_argument, 0, O_QUEUE },
	{ "lease", required_argument, 0, O_LEASE },
	{ "max-attempts", required_argument, 0, O_MAX_ATTEMPTS },
	{ "sync", required_argument, 0, O_SYNC_MODE },
	{ "report", no_argument, 0, O_REPORT },
	{ "requeue-dead", no_argument, 0, O_REQUEUE },
	{ "pause", required_argument, 0, O_PAUSE },
	{ "resume", required_argument, 0, O_RESUME },
	{ "min-yield", required_argument, 0, O_MIN_YIELD },
	{ "yield-window", required_argument, 0, O_YIELD_WINDOW },
	{ "quiet", no_argument, 0, 'q' },
	{ "help", no_argument, 0, O_HELP },
	{ "version", no_argument, 0, O_VERSION },
	{ 0, 0, 0, 0 }
};

static void
bad(const char *opt, const char *val)
{
	msg_usage("invalid value '%s' for %s", val, opt);
}

static void
parse_retry_on(const char *s)
{
	char *copy = strdup(s), *save = NULL;
	F.o.n_retry_on = 0;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		long st;
		if (num_long(t, 599, &st) != 0 || st < 100 || F.o.n_retry_on == FETCH_MAX_RETRY_ON)
			bad("--retry-on", s);
		F.o.retry_on[F.o.n_retry_on++] = (int)st;
	}
	free(copy);
}

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
	const char *policy = NULL, *ranges = PRIVATE_RANGES;
	int c;
	opterr = 0;   /* msg_bad_option speaks for getopt */
	while ((c = getopt_long(argc, argv, "c:p:d:t:q", longopts, NULL)) != -1) {
		const char *a = optarg;
		switch (c) {
		case 'c': if (num_long(a, 100000, &o->concurrency) || o->concurrency < 1) bad("-c", a); break;
		case 'p': if (num_long(a, 10000, &o->per_host) || o->per_host < 1) bad("-p", a); break;
		case 'd': if (num_seconds(a, &o->delay)) bad("-d", a); break;
		case O_RATE: if (num_seconds(a, &o->rate)) bad("--rate", a); break;
		case O_BURST: if (num_seconds(a, &o->burst) || o->burst < 1) bad("--burst", a); break;
		case O_POLICY: policy = a; break;
		case 't': if (num_seconds(a, &o->timeout) || o->timeout <= 0) bad("-t", a); break;
		case O_CONNECT_TIMEOUT: if (num_seconds(a, &o->connect_timeout) || o->connect_timeout <= 0) bad("--connect-timeout", a); break;
		case O_LOW_LIMIT: if (num_long(a, 1L << 30, &o->low_speed_limit)) bad("--low-speed-limit", a); break;
		case O_LOW_TIME: if (num_long(a, 86400, &o->low_speed_time)) bad("--low-speed-time", a); break;
		case O_MAX_REDIRS: if (num_long(a, 1000, &o->max_redirs)) bad("--max-redirs", a); break;
		case O_MAX_BODY: if (num_size(a, &o->max_body)) bad("--max-body", a); break;
		case O_UA: o->user_agent = a; break;
		case O_REDIRECTS:
			if (strcmp(a, "any") == 0) o->redirects = REDIR_ANY;
			else if (strcmp(a, "same-site") == 0) o->redirects = REDIR_SAME_SITE;
			else if (strcmp(a, "same-host") == 0) o->redirects = REDIR_SAME_HOST;
			else bad("--redirects", a);
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
		case O_PACE_BY:
			if (strcmp(a, "host") == 0) o->pace_by_site = 0;
			else if (strcmp(a, "site") == 0) o->pace_by_site = 1;
			else bad("--pace-by", a);
			break;
		case O_RETRIES: if (num_long(a, 1000, &o->retries)) bad("--retries", a); break;
		case O_RETRY_ON: parse_retry_on(a); break;
		case O_BACKOFF: if (num_seconds(a, &o->backoff)) bad("--backoff", a); break;
		case O_MAX_RETRY_AFTER: if (num_seconds(a, &o->max_retry_after)) bad("--max-retry-after", a); break;
		case O_MAX_ELAPSED: if (num_seconds(a, &o->max_elapsed)) bad("--max-elapsed", a); break;
		case O_NO_ADAPT: o->adapt = 0; break;
		case O_TARGET_CONC:
			if (num_seconds(a, &o->target_concurrency) || o->target_concurrency <= 0)
				bad("--target-concurrency", a);
			break;
		case O_MAX_DELAY: if (num_seconds(a, &o->max_delay)) bad("--max-delay", a); break;
		case O_HOST_FAILURES: if (num_long(a, 1000000, &o->host_failures) || o->host_failures < 1) bad("--host-failures", a); break;
		case O_HOST_PAUSE: if (num_seconds(a, &o->host_pause)) bad("--host-pause", a); break;
		case O_ROBOTS_AGENT: if (!robots_token_valid(a)) bad("--robots-agent", a); o->robots_agent = a; break;
		case O_NO_ROBOTS: o->robots = 0; break;
		case O_PENDING: if (num_long(a, 10000000, &o->pending) || o->pending < 1) bad("--pending", a); break;
		case O_BUFFER: if (num_size(a, &o->out_buffer) || o->out_buffer < 1024) bad("--buffer", a); break;
		case O_MAX_RECORD: if (num_size(a, &o->max_record) || o->max_record < 64) bad("--max-record", a); break;
		case O_JSON: o->json = 1; break;
		case O_SHARD:
			if (shard_parse(a, &o->shard_k, &o->shard_n))
				msg_usage("invalid value '%s' for --shard: want K/N with 1 <= K <= N", a);
			break;
		case O_MAX_HOSTS: if (num_long(a, 100000000, &o->max_hosts) || o->max_hosts < 1) bad("--max-hosts", a); break;
		case O_STATS: o->stats = a; break;
		case O_PROGRESS: o->progress = 1; break;
		case O_NO_PROGRESS: o->progress = 0; break;
		case O_QUEUE: o->queue = a; break;
		case O_LEASE: if (num_seconds(a, &o->lease) || o->lease <= 0) bad("--lease", a); break;
		case O_MAX_ATTEMPTS:
			if (num_long(a, 1000000, &o->max_attempts) || o->max_attempts < 1)
				bad("--max-attempts", a);
			break;
		case O_SYNC_MODE: if (sql_sync_arg(a) != 0) bad("--sync", a); break;
		case O_REPORT: report = 1; break;
		case O_REQUEUE: report = 2; break;
		case O_PAUSE: pause_host = a; pause_on = 1; break;
		case O_RESUME: pause_host = a; pause_on = 0; break;
		case O_MIN_YIELD:
			if (num_seconds(a, &o->min_yield) || o->min_yield > 1)
				bad("--min-yield", a);
			break;
		case O_YIELD_WINDOW:
			if (num_long(a, FR_RECENT, &o->yield_window) || o->yield_window < 1)
				bad("--yield-window", a);
			break;
		case 'q': msg_quiet = 1; break;
		case O_HELP: fputs(usage_text, stdout); exit(0);
		case O_VERSION: {
			char msgpack[32];
			snprintf(msgpack, sizeof msgpack, "msgpack-c/%s", msgpack_version());
			char uv[32];
			snprintf(uv, sizeof uv, "libuv/%s", uv_version_string());
			const char *libs[] = { curl_version(), uv, msgpack, NULL };
			msg_version(libs);
		}
		default: msg_bad_option(argv);
		}
	}
	char why[256];
	if (!(o->private_ranges = cidr_parse(ranges, why, sizeof why)))
		msg_usage("invalid value '%s' for --private-ranges: %s", ranges, why);
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
