/* fetch's option table: an empty command line leaves the values fetch
 * had before its defaults moved into the rows (the initializer of
 * fetch_opts it used to write, kept here as the reference).  The table
 * and parse_options are static in fetcher/main.c, so the test includes
 * it, its main renamed. */
#define CHECK_PROG "test_opt_fetch"
#include "check.h"

#define main(argc, argv) fetch_main(argc, argv)
#include "../../fetcher/main.c"
#undef main

int
main(void)
{
	char *argv[] = { "fetch", NULL };
	parse_options(1, argv);
	const fetch_opts *o = &F.o;
	check_double("concurrency", 64, o->concurrency);
	check_double("per_host", 4, o->per_host);
	check_double("delay", 0, o->delay);
	check_double("rate", 0, o->rate);
	check_double("burst", 1, o->burst);
	check_int("pace_by", 0, o->pace_by);
	check_true("no policy", !F.policy_path && !F.policy);
	check_double("timeout", 30, o->timeout);
	check_double("connect_timeout", 10, o->connect_timeout);
	check_double("low_speed_limit", 100, o->low_speed_limit);
	check_double("low_speed_time", 10, o->low_speed_time);
	check_double("max_redirs", 10, o->max_redirs);
	check_int("redirects", REDIR_ANY, o->redirects);
	check_str("private ranges", CIDR_PRIVATE, private_ranges);
	check_true("private ranges read", o->private_ranges != NULL);
	check_int("allow_private", 0, o->allow_private);
	check_double("max_body", 16 << 20, o->max_body);
	check_str("user_agent", "sluice/" SLUICE_VERSION " (+https://sluice.invalid/bot)", o->user_agent);
	check_true("no lists", !o->resolve && !o->headers && !o->sitemaps);
	check_true("no credentials", !o->userpwd && !o->proxy_userpwd && !o->netrc && !o->netrc_file);
	check_true("no files", !o->cookies && !o->proxy && !o->noproxy && !o->cacert && !o->capath);
	check_double("max_cookies", 3000, o->max_cookies);
	check_int("insecure", 0, o->insecure);
	check_double("http_version", 0, o->http_version);
	check_double("retries", 3, o->retries);
	check_int("retry_on count", 4, o->n_retry_on);
	check_true("retry_on", o->retry_on[0] == 429 && o->retry_on[1] == 502 &&
		   o->retry_on[2] == 503 && o->retry_on[3] == 504);
	check_double("backoff", 1, o->backoff);
	check_double("max_retry_after", 300, o->max_retry_after);
	check_double("max_elapsed", 600, o->max_elapsed);
	check_double("target_concurrency", 2, o->target_concurrency);
	check_double("max_delay", 60, o->max_delay);
	check_int("adapt", 1, o->adapt);
	check_double("host_failures", 10, o->host_failures);
	check_double("host_pause", 60, o->host_pause);
	check_str("robots_agent", "sluice", o->robots_agent);
	check_int("robots", 1, o->robots);
	check_double("pending", 1024, o->pending);
	check_double("out_buffer", 4 << 20, o->out_buffer);
	check_double("max_record", REC_MAX_RECORD_DEFAULT, o->max_record);
	check_double("max_hosts", 10000, o->max_hosts);
	check_true("no outputs", !o->stats && !o->metrics && !o->sink_stats && !o->on_alert);
	check_int("progress", -1, o->progress);
	check_int("json", 0, o->json);
	check_double("shard", 0, o->shard_k + o->shard_n);
	check_true("no queue", !o->queue);
	check_int("from_warc", 0, o->from_warc);
	check_true("no warc filters", !o->include && !o->exclude && !o->status && !o->n_status);
	check_double("lease", 900, o->lease);
	check_double("max_attempts", 5, o->max_attempts);
	check_int("sync", SQL_SYNC_NORMAL, sql_sync());
	check_true("no report, pause", !report && !pause_host);
	check_double("min_yield", 0, o->min_yield);
	check_double("yield_window", 50, o->yield_window);
	check_double("recrawl", -1, o->recrawl);
	check_double("alert_every", 600, o->alert_every);
	check_double("alert_429", 0.5, o->alert_429);
	check_double("alert_lag", 1, o->alert_lag);
	check_double("alert_grace", 5, o->alert_grace);
	check_int("quiet", 0, msg_quiet);
	return check_done();
}
