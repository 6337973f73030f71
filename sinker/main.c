/* sink — stores the record stream: upserts into SQLite (*.db), or appends
 * JSON lines (*.jsonl, or - for stdout).  It is the end of the pipeline,
 * so it owns durability: records are committed in batches, and EOF,
 * SIGINT and SIGTERM all commit the last batch before exiting.
 *
 *   ... | validate | sink pages.db
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "jsonl.h"
#include "msg.h"
#include "num.h"
#include "ack.h"
#include "pgsql.h"
#include "rec.h"
#include "sql.h"
#include "stop.h"
#include "tm.h"

static const char usage[] =
	"usage: sink [--batch N] [--batch-ms T] [--body] [--links]\n"
	"            [--max-record BYTES] [--sync normal|full] [-q] TARGET\n"
	"       sink --queue DB [--follow] [--max-depth N] [--max-pages N]\n"
	"            [--include RE]... [--exclude RE]... [--scope host|domain|any] TARGET\n"
	"       sink --schema | --help | --version\n"
	"TARGET is FILE.db (SQLite), FILE.jsonl (JSON lines, appended) or - (stdout)\n"
	"--queue marks each URL of the frontier DB done (or dead) once its row is\n"
	"committed; --follow adds the links of accepted pages (docs/queue.md)\n"
	"--sync full: each commit on the disk before sink goes on, so it survives\n"
	"power loss too (default normal: survives a killed process; docs/sink.md)\n";

enum {
	OPT_BATCH = 256, OPT_BATCH_MS, OPT_SYNC, OPT_BODY, OPT_LINKS, OPT_SCHEMA,
	OPT_MAX_RECORD, OPT_HELP, OPT_VERSION, OPT_QUEUE, OPT_FOLLOW,
	OPT_MAX_DEPTH, OPT_MAX_PAGES, OPT_INCLUDE, OPT_EXCLUDE, OPT_SCOPE,
};

static const struct option longopts[] = {
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "batch-ms", required_argument, NULL, OPT_BATCH_MS },
	{ "sync", required_argument, NULL, OPT_SYNC },
	{ "body", no_argument, NULL, OPT_BODY },
	{ "links", no_argument, NULL, OPT_LINKS },
	{ "schema", no_argument, NULL, OPT_SCHEMA },
	{ "max-record", required_argument, NULL, OPT_MAX_RECORD },
	{ "queue", required_argument, NULL, OPT_QUEUE },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
	{ "max-pages", required_argument, NULL, OPT_MAX_PAGES },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "scope", required_argument, NULL, OPT_SCOPE },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* How many records without url are named one by one before sink only
 * counts them: enough to diagnose, never a flood. */
#define SKIP_WARNINGS 5

typedef struct sink {
	const char *target;
	int is_db;
	long batch, batch_ms;
	int db_flags;
	size_t max_record;
	sdb *db;
	sjl jl;
	unsigned long long stored, skipped;
	long pending;             /* records since the last commit */
	ack_opts q;                /* --queue, when q.path is set */
	long long deadline;       /* when the pending batch must commit */
} sink;

/* Whether s ends in suffix and has something before it. */
static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcmp(s + n - m, suffix) == 0;
}

/* Prints s on stdout and exits 0: --help and --schema. */
static _Noreturn void
print_out(const char *s)
{
	fputs(s, stdout);
	if (fflush(stdout) != 0)
		msg_stdout_failed(errno);
	exit(0);
}

/* Parses argv into k and decides the target kind; exits 64 on any
 * usage error, 0 after --help, --schema or --version. */
static void
parse_args(int argc, char **argv, sink *k)
{
	int c;
	opterr = 0;   /* msg_bad_option speaks for getopt */
	while ((c = getopt_long(argc, argv, "q", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_BATCH:
			if (num_long(optarg, 100000000, &k->batch) < 0 || k->batch < 1)
				msg_usage("bad --batch '%s': want a count of 1 or more", optarg);
			break;
		case OPT_BATCH_MS:
			if (num_long(optarg, 86400000, &k->batch_ms) < 0)
				msg_usage("bad --batch-ms '%s': want milliseconds", optarg);
			break;
		case OPT_SYNC:
			if (sql_sync_arg(optarg) != 0)
				msg_usage("bad --sync '%s': want normal or full", optarg);
			break;
		case OPT_BODY: k->db_flags |= SDB_BODY; break;
		case OPT_LINKS: k->db_flags |= SDB_LINKS; break;
		case OPT_SCHEMA: print_out(sdb_schema);
		case OPT_MAX_RECORD:
			if (num_size(optarg, &k->max_record) < 0 || k->max_record == 0)
				msg_usage("bad --max-record '%s'", optarg);
			break;
		case OPT_QUEUE: k->q.path = optarg; break;
		case OPT_FOLLOW: k->q.follow = 1; break;
		case OPT_MAX_DEPTH:
			if (num_long(optarg, 1000000, &k->q.max_depth) < 0)
				msg_usage("bad --max-depth '%s'", optarg);
			break;
		case OPT_MAX_PAGES: {
			long n;
			if (num_long(optarg, 1L << 40, &n) < 0 || n < 1)
				msg_usage("bad --max-pages '%s'", optarg);
			k->q.max_pages = n;
			break;
		}
		case OPT_INCLUDE:
		case OPT_EXCLUDE: {
			char why[200];
			vre *re = vre_compile(optarg, why, sizeof why);
			if (!re)
				msg_usage("bad regex '%s' %s", optarg, why);
			vre ***list = c == OPT_INCLUDE ? &k->q.include : &k->q.exclude;
			int *n = c == OPT_INCLUDE ? &k->q.n_include : &k->q.n_exclude;
			*list = realloc(*list, (size_t)(*n + 1) * sizeof **list);
			(*list)[(*n)++] = re;
			break;
		}
		case OPT_SCOPE:
			if (strcmp(optarg, "host") == 0) k->q.scope = SCOPE_HOST;
			else if (strcmp(optarg, "domain") == 0) k->q.scope = SCOPE_DOMAIN;
			else if (strcmp(optarg, "any") == 0) k->q.scope = SCOPE_ANY;
			else msg_usage("bad --scope '%s': want host, domain or any", optarg);
			break;
		case 'q': msg_quiet = 1; break;
		case OPT_HELP: print_out(usage);
		case OPT_VERSION: {
			const char *libs[] = { sdb_version(), "msgpack-c " MSGPACK_VERSION, NULL };
			msg_version(libs);
		}
		default:
			msg_bad_option(argv);
		}
	}
	if (optind >= argc)
		msg_usage("missing TARGET");
	if (optind + 1 < argc)
		msg_usage("unexpected argument '%s'", argv[optind + 1]);
	k->target = argv[optind];
	if ((k->q.follow || k->q.n_include || k->q.n_exclude || k->q.max_pages) && !k->q.path)
		msg_usage("--follow and its limits need --queue");
	if (ends_with(k->target, ".db") || pgsql_is_uri(k->target))
		k->is_db = 1;
	else if (!ends_with(k->target, ".jsonl") && strcmp(k->target, "-") != 0)
		msg_usage("unknown target '%s': want FILE.db, a postgresql:// URI, FILE.jsonl or -",
			  k->target);
}

/* Makes everything put so far durable (db) or written (jsonl).  Any
 * failure exits: 74 for the target, quietly for a closed stdout. */
static void
commit(sink *k)
{
	if (k->q.path && ack_shared())
		ack_flush();   /* inside the open transaction: one commit */
	if (k->is_db) {
		if (sdb_commit(k->db) < 0)
			msg_die(EX_IOERR, "cannot commit to '%s': %s", k->target,
				sdb_errmsg(k->db));
	} else if (sjl_flush(&k->jl) < 0) {
		if (k->jl.out.fd == 1)
			msg_stdout_failed(errno);
		msg_die(EX_IOERR, "cannot write '%s': %s", k->target, strerror(errno));
	} else if (sql_sync() == SQL_SYNC_FULL && k->jl.out.fd != 1 && fsync(k->jl.out.fd) != 0) {
		msg_die(EX_IOERR, "cannot sync '%s': %s", k->target, strerror(errno));
	}
	if (k->q.path && !ack_shared())
		ack_flush();   /* only after the rows are durable */
	k->pending = 0;
}

/* Whether paths a and b name one existing file (two URIs: the same
 * text). */
static int
same_file(const char *a, const char *b)
{
	if (pgsql_is_uri(a) || pgsql_is_uri(b))
		return strcmp(a, b) == 0;
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	int same = ra && rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/* Stores one record; start is its byte offset, for the skip warning. */
static void
put(sink *k, const msgpack_object *rec, unsigned long long start)
{
	int rc;
	if (k->is_db) {
		rc = sdb_put(k->db, rec, tm_wall());
		if (rc < 0)
			msg_die(EX_IOERR, "cannot write '%s': %s", k->target,
				sdb_errmsg(k->db));
	} else {
		rc = sjl_put(&k->jl, rec);
		if (rc < 0) {
			if (k->jl.out.fd == 1)
				msg_stdout_failed(errno);
			msg_die(EX_IOERR, "cannot write '%s': %s", k->target, strerror(errno));
		}
	}
	if (rc == 1) {
		/* A row needs its key; one bad record is not worth losing the
		 * stream over, so skip it and say so. */
		if (++k->skipped <= SKIP_WARNINGS)
			msg_warn("record at byte %llu has no url: skipped%s", start,
				 k->skipped == SKIP_WARNINGS ? " (further ones only counted)" : "");
		return;
	}
	k->stored++;
	if (k->q.path)
		ack_note(rec);
	if (k->pending++ == 0)
		k->deadline = tm_mono_ms() + k->batch_ms;
}

int
main(int argc, char **argv)
{
	msg_init("sink");
	sink k = { .batch = 1000, .batch_ms = 1000, .q.max_depth = 5 };
	parse_args(argc, argv, &k);
	stop_signals();

	char err[300];
	if (k.is_db) {
		if (!(k.db = sdb_open(k.target, k.db_flags, err, sizeof err)))
			msg_die(EX_IOERR, "cannot open '%s': %s", k.target, err);
	} else if (sjl_open(&k.jl, k.target) < 0) {
		msg_die(EX_IOERR, "cannot open '%s': %s", k.target, strerror(errno));
	}
	int same = k.q.path && k.is_db && same_file(k.q.path, k.target);
	if (k.q.path)
		ack_open(&k.q, same ? sdb_handle(k.db) : NULL, same ? sdb_pg(k.db) : NULL);

	rec_in in;
	if (rec_in_init(&in, 0, k.max_record) < 0)
		msg_die(EX_OSERR, "out of memory");
	int malformed = 0;
	for (;;) {
		msgpack_object rec;
		unsigned long long start = in.offset;
		int rc = rec_in_parse(&in, &rec);
		if (rc == REC_OK) {
			put(&k, &rec, start);
			if (k.pending >= k.batch ||
			    (k.pending && tm_mono_ms() >= k.deadline))
				commit(&k);
			continue;
		}
		if (rc == REC_EOF)
			break;
		if (rc == REC_ERR) {
			malformed = 1;
			break;
		}
		/* A signal stops the reading, not the storing: every record
		 * already read is stored and committed first. */
		if (stop_now())
			break;
		long wait = -1;
		if (k.pending) {
			long long left = k.deadline - tm_mono_ms();
			wait = left > 0 ? (long)left : 0;
			/* In a crawl, fetch waits for these acks and links:
			 * commit as soon as the input goes quiet. */
			if (k.q.path)
				wait = 0;
		}
		int f = stop_fill(&in, wait);
		if (f == STOP_TIMEOUT)
			commit(&k);
		else if (f == STOP_ERROR) {
			commit(&k);
			msg_die(EX_IOERR, "cannot read standard input at byte %llu: %s",
				(unsigned long long)in.offset, strerror(errno));
		}
		/* STOP_EOF: the next parse returns REC_EOF or a truncation
		 * error; STOP_SIGNAL: what was read is stored, then we stop. */
	}

	/* Every good record before a malformed one, or before the signal,
	 * is committed before sink says anything. */
	commit(&k);
	if (k.q.path)
		ack_close();
	if (k.is_db)
		sdb_close(k.db);
	else if (sjl_close(&k.jl) < 0)
		msg_die(EX_IOERR, "cannot write '%s': %s", k.target, strerror(errno));
	if (k.skipped)
		msg_warn("%llu records without url skipped", k.skipped);
	msg_note("%llu records stored in '%s'", k.stored, k.target);
	if (malformed)
		msg_die(EX_DATAERR, "%s", in.err);
	rec_in_free(&in);
	if (stop_signal)
		stop_reraise();
	return 0;
}
