/* sink's option table: a command line of a TARGET alone leaves the
 * values sink had before its defaults moved into the rows (the
 * initializer of struct sink it used to write, kept here as the
 * reference).  The table is local to parse_args in sinker/main.c, so
 * the test includes it, its main renamed. */
#define CHECK_PROG "test_opt_sink"
#include "check.h"

#define main(argc, argv) sink_main(argc, argv)
#include "../../sinker/main.c"
#undef main

int
main(void)
{
	char *argv[] = { "sink", "pages.jsonl", NULL };
	sink k = { 0 };
	parse_args(2, argv, &k);
	check_int("batch", 1000, k.batch);
	check_int("batch_ms", 1000, k.batch_ms);
	check_int("sync", SQL_SYNC_NORMAL, sql_sync());
	check_int("db_flags", 0, k.db_flags);
	/* It was 0, which rec_in_init reads as REC_MAX_RECORD_DEFAULT. */
	check_int("max_record", REC_MAX_RECORD_DEFAULT, (long long)k.max_record);
	check_true("no queue", !k.q.path);
	check_int("follow", 0, k.q.follow);
	check_int("max_depth", 5, k.q.max_depth);
	check_int("max_pages", 0, k.q.max_pages);
	check_int("no include, exclude", 0, k.q.n_include + k.q.n_exclude);
	check_int("scope", SCOPE_HOST, k.q.scope);
	check_true("no stats, metrics", !k.stats && !k.metrics);
	check_int("max_hosts", 10000, k.max_hosts);
	check_int("warc_max_size", 1LL << 30, (long long)k.wc.max_size);
	check_int("warc_dedup", 100000, k.wc.dedup_max);
	check_true("no warc_operator", !k.operator);
	check_int("quiet", 0, msg_quiet);
	check_str("target", "pages.jsonl", k.target);
	free(k.shown);
	return check_done();
}
