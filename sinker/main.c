/* sink — stores the record stream: upserts into SQLite (*.db) or
 * PostgreSQL, appends JSON lines (*.jsonl, or - for stdout), writes
 * Markdown files (DIR/), or a web archive (*.warc, *.warc.gz, *.wacz).  It is the end of the pipeline,
 * so it owns durability: records are committed in batches, and EOF,
 * SIGINT and SIGTERM all commit the last batch before exiting.
 *
 *   ... | validate | sink pages.db
 */
#include <errno.h>
#include <getopt.h>   /* optarg, optind */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "dir.h"
#include "jsonl.h"
#include "msg.h"
#include "opt.h"
#include "ack.h"
#include "pgsql.h"
#include "rec.h"
#include "sql.h"
#include "stats.h"
#include "stop.h"
#include "tm.h"
#include "url.h"
#include "wacz.h"
#include "warc.h"
#include "xalloc.h"

static const char usage[] =
	"usage: sink [OPTION...] TARGET\n"
	"       sink --queue DB [--follow ...] [OPTION...] TARGET\n"
	"       sink --schema | --help | --version\n"
	"TARGET is FILE.db (SQLite), postgresql://... or 'host=... dbname=...'\n"
	"(PostgreSQL), FILE.jsonl (JSON lines, appended), - (stdout), DIR/ (a\n"
	"Markdown file a page), or FILE.warc, FILE.warc.gz or FILE.wacz (a web\n"
	"archive of fetch --raw's exchanges).\n"
	"See docs/sink.md.\n"
	"\n";

enum {
	O_BATCH, O_BATCH_MS, O_SYNC, O_BODY, O_LINKS, O_REPLACE_REJECTED, O_SCHEMA, O_MAX_RECORD,
	O_QUEUE, O_FOLLOW, O_MAX_DEPTH, O_MAX_PAGES, O_INCLUDE, O_EXCLUDE,
	O_SCOPE, O_STATS, O_METRICS, O_MAX_HOSTS, O_WARC_MAX_SIZE, O_WARC_DEDUP, O_WARC_OPERATOR,
	O_QUIET, O_HELP, O_VERSION, O_N
};

/* How many records without url are named one by one before sink only
 * counts them: enough to diagnose, never a flood. */
#define SKIP_WARNINGS 5

typedef struct sink {
	const char *target;
	char *shown;              /* target as messages show it (url_shown) */
	int is_db;
	int is_dir;               /* DIR/: Markdown files (dir.h) */
	int is_warc, is_wacz;     /* FILE.warc[.gz] (warc.h), FILE.wacz (wacz.h) */
	int warc_opts;            /* a --warc-* option was given */
	swarc_conf wc;
	const char *operator;     /* --warc-operator */
	char *warc_info;          /* wc.info */
	swarc *warc;
	swacz *wacz;
	unsigned long long not_raw;   /* byte offset of a record without exchanges, plus 1 */
	long batch, batch_ms;
	int db_flags;
	size_t max_record;
	sdb *db;
	sdir *dir;
	sjl jl;
	unsigned long long stored, skipped;
	unsigned long long unchanged;   /* not_modified records (rec_not_modified) */
	unsigned long long kept;        /* failed refetches that kept a good row */
	unsigned long long kept_rejected;   /* rejected ones that did */
	long pending;             /* records since the last commit */
	ack_opts q;                /* --queue, when q.path is set */
	const char *stats, *metrics;  /* --stats FILE, --metrics FILE */
	long max_hosts;
	long long deadline;       /* when the pending batch must commit */
} sink;

/* Whether s ends in suffix and has something before it. */
static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && strcmp(s + n - m, suffix) == 0;
}

/* Prints s on stdout and exits 0: --schema. */
static _Noreturn void
print_out(const char *s)
{
	fputs(s, stdout);
	if (fflush(stdout) != 0)
		msg_stdout_failed(errno);
	exit(0);
}

/* Appends s to b as a warc-fields value: a line break would end the
 * field, so it becomes a space. */
static void
info_value(msgpack_sbuffer *b, const char *s)
{
	for (; *s; s++)
		msgpack_sbuffer_write(b, *s == '\r' || *s == '\n' ? " " : s, 1);
}

/* The warcinfo's own fields: the operator, and sink's arguments as
 * wget's warcinfo gives its own, each URL's password shown as ***. */
static void
warc_info(sink *k, int argc, char **argv)
{
	msgpack_sbuffer b;
	msgpack_sbuffer_init(&b);
	if (k->operator) {
		msgpack_sbuffer_write(&b, "operator: ", 10);
		info_value(&b, k->operator);
		msgpack_sbuffer_write(&b, "\r\n", 2);
	}
	msgpack_sbuffer_write(&b, "sink-arguments:", 15);
	for (int i = 1; i < argc; i++) {
		char *shown = url_shown(argv[i]);
		msgpack_sbuffer_write(&b, " ", 1);
		info_value(&b, shown ? shown : argv[i]);
		free(shown);
	}
	msgpack_sbuffer_write(&b, "\r\n", 3);   /* and the NUL: a C string */
	k->warc_info = b.data;
	k->wc.info = k->warc_info;
	k->wc.path = k->target;
}

/* Parses argv into k and decides the target kind; exits 64 on any
 * usage error, 73 for a --stats or --metrics file it could not write,
 * 0 after --help, --schema or --version. */
static void
parse_args(int argc, char **argv, sink *k)
{
	static const opt_choice scopes[] = {
		{ "host", SCOPE_HOST }, { "domain", SCOPE_DOMAIN }, { "any", SCOPE_ANY }, { NULL, 0 }
	};
	long max_pages;   /* k->q.max_pages is a long long */
	const opt_def tab[O_N] = {
		[O_BATCH] = OPT_LONG(0, "batch", "N", &k->batch, 1, 100000000, "1000",
			"commit every N records ...", .man = "commit every \\fIN\\fR records"),
		[O_BATCH_MS] = OPT_LONG(0, "batch-ms", "T", &k->batch_ms, 0, 86400000, "1000",
			"... or T ms after the first uncommitted one",
			.man = "or \\fIT\\fR milliseconds after the first uncommitted record"),
		[O_SYNC] = OPT_TAKE(0, "sync", "normal|full", sql_sync_arg, "normal",
			"full: each commit on the disk before sink goes\non, so it survives power loss too",
			.want = "normal or full",
			.man = "full: sync every commit to the disk, so committed batches survive power loss (SQLite synchronous=FULL, PostgreSQL synchronous_commit=on); normal survives a killed sink, but power loss may lose the last batches"),
		[O_BODY] = OPT_SPECIAL(0, "body", NULL, "store body (*.db and postgresql:// only)",
			.man = "store the body in the \\fBbody\\fR BLOB column (*.db and postgresql:// only)"),
		[O_LINKS] = OPT_SPECIAL(0, "links", NULL, "store links in their own table",
			.man = "store links in table \\fBlinks\\fR(src, dst)"),
		[O_REPLACE_REJECTED] = OPT_SPECIAL(0, "replace-rejected", NULL,
			"a page validate rejected replaces a good one\nstored before (by default it is kept)",
			.man = "a record validate rejected (\\fBaccepted\\fR false) replaces the row of its url even when that row is a good page; by default the good page is kept and only its \\fBlast_checked\\fR and \\fBlast_error\\fR change (*.db and postgresql:// only)"),
		[O_SCHEMA] = OPT_SPECIAL(0, "schema", NULL, "print the schema SQL and exit"),
		[O_MAX_RECORD] = OPT_MAX_RECORD(&k->max_record, 1, "largest input record, K/M/G suffixes",
			.man = "largest input record accepted, K/M/G suffixes"),
		[O_QUEUE] = OPT_STRING(0, "queue", "DB", &k->q.path, NULL,
			"mark each URL of the frontier DB done (or dead)\nonce its row is committed (docs/queue.md)",
			.man = "acknowledge the URLs that \\fBfetch \\-\\-queue\\fR \\fIDB\\fR leased: each is marked done once the transaction holding its row has committed, or dead with the record's error; \\fIDB\\fR is a SQLite file or a \\fBpostgresql://\\fR URI, and when it is \\fITARGET\\fR itself rows and acknowledgements commit in one transaction (docs/queue.md)"),
		[O_FOLLOW] = OPT_FLAG(0, "follow", &k->q.follow, 1, "admit the links of accepted pages to the queue",
			.man = "with \\fB\\-\\-queue\\fR: admit the links of accepted pages to the frontier at the page's depth + 1, never from a page whose meta robots says nofollow; the links of a sitemap (a record with \\fBsitemap.kind\\fR) whether accepted or not, except from a sitemap index at depth 10 or more"),
		[O_MAX_DEPTH] = OPT_LONG(0, "max-depth", "N", &k->q.max_depth, 0, 1000000, "5",
			"links followed from a seed",
			.man = "links are followed up to \\fIN\\fR hops from a seed"),
		[O_MAX_PAGES] = OPT_LONG(0, "max-pages", "N", &max_pages, 1, 1L << 40, "no limit",
			"URLs ever admitted to the queue", .init = "0",
			.man = "stop admitting once the frontier has held \\fIN\\fR URLs"),
		[O_INCLUDE] = OPT_SPECIAL(0, "include", "REGEX", "follow only links matching one; repeatable",
			.man = "follow only links whose URL matches one of these PCRE2 patterns; repeatable"),
		[O_EXCLUDE] = OPT_SPECIAL(0, "exclude", "REGEX", "never follow links matching one; repeatable",
			.man = "never follow links whose URL matches one; repeatable, and checked first"),
		[O_SCOPE] = OPT_CHOICE(0, "scope", "host|domain|any", &k->q.scope, scopes, "host",
			"where followed links may lead, from the seed",
			.man = "where followed links may lead: host, the seed's host; domain, the seed's registrable domain by the Public Suffix List; any, anywhere"),
		[O_STATS] = OPT_STRING(0, "stats", "FILE", &k->stats, NULL,
			"write counters as JSON to FILE every 5 s and at exit:\nper host stored, accepted, rejected by reason, accepted/s",
			.man = "counters as JSON, overall and per host: records stored, accepted, rejected by reason, accepted records per second over the last minute and overall, and commit latency; rewritten every 5 s and at exit through a temporary file and rename (docs/sink.md)"),
		[O_METRICS] = OPT_STRING(0, "metrics", "FILE", &k->metrics, NULL,
			"write counters in Prometheus's text format to FILE\nevery 5 s and at exit",
			.man = "the same counters in Prometheus's text exposition format, with a histogram of commit durations, rewritten every 5 s and at exit through a temporary file and rename, as node_exporter's textfile collector wants (docs/sink.md)"),
		[O_MAX_HOSTS] = OPT_LONG(0, "max-hosts", "N", &k->max_hosts, 1, 100000000, "10000",
			"hosts counted one by one in --stats and --metrics;\nthe least recently seen fold into other",
			.man = "hosts counted one by one in \\fB\\-\\-stats\\fR and \\fB\\-\\-metrics\\fR; past it, the half seen least recently fold their counters into \\fBother\\fR"),
		[O_WARC_MAX_SIZE] = OPT_SIZE(0, "warc-max-size", "BYTES", &k->wc.max_size, 1, "1G",
			"a WARC file of the series ends before a record\nwould take it past BYTES",
			.man = "a file of the WARC series ends before a record would take it past \\fIBYTES\\fR, and the series goes on in \\fINAME\\fR\\-00001.warc.gz and so on; a record is never split, so a file holds at least one (docs/archive.md)"),
		[O_WARC_DEDUP] = OPT_LONG(0, "warc-dedup", "N", &k->wc.dedup_max, 0, 1000000000, "100000",
			"payloads remembered for revisit records (0: none)",
			.man = "payload digests remembered (about 200 bytes each) so that a payload the series already holds is written as a revisit record (profile identical-payload-digest) instead of a second copy; 0 writes every payload"),
		[O_WARC_OPERATOR] = OPT_STRING(0, "warc-operator", "TEXT", &k->operator, NULL,
			"who made the archive, in its warcinfo record",
			.man = "the person or organisation that made the archive, written as the \\fBoperator\\fR of each file's warcinfo record"),
		[O_QUIET] = OPT_QUIET("no closing note on stderr"),
		[O_HELP] = OPT_HELP(.man = "print the options with their defaults and exit"),
		[O_VERSION] = OPT_VERSION(),
	};
	int i;
	while ((i = opt_next(argc, argv, usage, tab, O_N)) != -1) {
		switch (i) {
		case O_BODY: k->db_flags |= SDB_BODY; break;
		case O_LINKS: k->db_flags |= SDB_LINKS; break;
		case O_REPLACE_REJECTED: k->db_flags |= SDB_REPLACE_REJECTED; break;
		case O_SCHEMA: print_out(sdb_schema);
		case O_INCLUDE:
		case O_EXCLUDE: {
			char why[200];
			vre *re = vre_compile(optarg, why, sizeof why);
			if (!re)
				msg_usage("bad regex '%s' %s", optarg, why);
			vre ***list = i == O_INCLUDE ? &k->q.include : &k->q.exclude;
			int *nl = i == O_INCLUDE ? &k->q.n_include : &k->q.n_exclude;
			*list = xrealloc(*list, (size_t)(*nl + 1) * sizeof **list);
			(*list)[(*nl)++] = re;
			break;
		}
		case O_WARC_MAX_SIZE:
		case O_WARC_DEDUP:
		case O_WARC_OPERATOR:
			k->warc_opts = 1;
			break;
		case O_VERSION: {
			const char *libs[] = { sdb_version(), "msgpack-c " MSGPACK_VERSION, NULL };
			msg_version(libs);
		}
		}
	}
	k->q.max_pages = max_pages;
	if (optind >= argc)
		msg_usage("missing TARGET");
	if (optind + 1 < argc)
		msg_usage("unexpected argument '%s'", argv[optind + 1]);
	k->target = argv[optind];
	/* A PostgreSQL target may hold a password: never shown. */
	if (!(k->shown = url_shown(k->target)))
		k->shown = xstrdup(k->target);
	if ((k->q.follow || k->q.n_include || k->q.n_exclude || k->q.max_pages) && !k->q.path)
		msg_usage("--follow and its limits need --queue");
	if (ends_with(k->target, ".db") || pgsql_is_uri(k->target))
		k->is_db = 1;
	else if (k->target[0] && k->target[strlen(k->target) - 1] == '/')
		k->is_dir = 1;
	else if (ends_with(k->target, ".warc") || ends_with(k->target, ".warc.gz"))
		k->is_warc = 1;
	else if (ends_with(k->target, ".wacz"))
		k->is_wacz = 1;
	else if (!ends_with(k->target, ".jsonl") && strcmp(k->target, "-") != 0)
		msg_usage("unknown target '%s': want FILE.db, a postgresql:// URI, FILE.jsonl, -, DIR/,"
			  " FILE.warc, FILE.warc.gz or FILE.wacz", k->shown);
	if ((k->is_dir || k->is_warc || k->is_wacz) && (k->db_flags & (SDB_BODY | SDB_LINKS)))
		msg_usage("--body and --links need a database target");
	if (k->warc_opts && !k->is_warc && !k->is_wacz)
		msg_usage("--warc-max-size, --warc-dedup and --warc-operator need a .warc, .warc.gz or .wacz target");
	if (!k->is_db && (k->db_flags & SDB_REPLACE_REJECTED))
		msg_usage("--replace-rejected needs a database target");
	if (k->is_warc || k->is_wacz)
		warc_info(k, argc, argv);
	/* Written every 5 s and at exit: found out now, not at the end. */
	if (k->stats)
		msg_need_output("stats", k->stats);
	if (k->metrics)
		msg_need_output("metrics", k->metrics);
}

/* Makes everything put so far durable (db) or written (jsonl).  Any
 * failure exits: 74 for the target, quietly for a closed stdout. */
static void
commit(sink *k)
{
	double t0 = tm_mono();
	if (k->q.path && ack_shared())
		ack_flush();   /* inside the open transaction: one commit */
	if (k->is_db) {
		if (sdb_commit(k->db) < 0)
			msg_die(EX_IOERR, "cannot commit to '%s': %s", k->shown,
				sdb_errmsg(k->db));
	} else if (k->is_dir) {
		if (sdir_commit(k->dir) < 0)
			msg_die(EX_IOERR, "cannot commit to '%s': %s", k->shown,
				sdir_errmsg(k->dir));
	} else if (k->is_warc) {
		if (swarc_commit(k->warc) < 0)
			msg_die(EX_IOERR, "cannot write '%s': %s", k->shown, swarc_errmsg(k->warc));
	} else if (k->is_wacz) {
		if (swacz_commit(k->wacz) < 0)
			msg_die(EX_IOERR, "cannot write '%s': %s", k->shown, swacz_errmsg(k->wacz));
	} else if (sjl_flush(&k->jl) < 0) {
		if (k->jl.out.fd == 1)
			msg_stdout_failed(errno);
		msg_die(EX_IOERR, "cannot write '%s': %s", k->shown, strerror(errno));
	} else if (sql_sync() == SQL_SYNC_FULL && k->jl.out.fd != 1 && fsync(k->jl.out.fd) != 0) {
		msg_die(EX_IOERR, "cannot sync '%s': %s", k->shown, strerror(errno));
	}
	if (k->q.path && !ack_shared())
		ack_flush();   /* only after the rows are durable */
	if (k->pending)
		stats_commit(tm_mono() - t0);
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

/* The closing note of a web archive: what was written, and what the
 * revisit records saved. */
static void
warc_note(const sink *k, const swarc_counts *n)
{
	char more[256] = "";
	size_t m = 0;
	if (n->revisits)
		m += (size_t)snprintf(more + m, sizeof more - m, ", %llu revisits of a payload written before saved %llu bytes",
				      n->revisits, n->saved);
	if (n->not_modified)
		m += (size_t)snprintf(more + m, sizeof more - m, ", %llu not modified", n->not_modified);
	if (n->dead)
		snprintf(more + m, sizeof more - m, ", %llu dead letters not written", n->dead);
	msg_note("%llu records stored in '%s': %llu WARC records in %llu file%s%s", k->stored - n->dead,
		 k->shown, n->records, n->files, n->files == 1 ? "" : "s", more);
}

/* Stores one record; start is its byte offset, for the skip warning. */
static void
put(sink *k, const msgpack_object *rec, unsigned long long start)
{
	int rc;
	if (k->is_db) {
		rc = sdb_put(k->db, rec, tm_wall());
		if (rc < 0)
			msg_die(EX_IOERR, "cannot write '%s': %s", k->shown,
				sdb_errmsg(k->db));
	} else if (k->is_dir) {
		rc = sdir_put(k->dir, rec, tm_wall());
		if (rc < 0)
			msg_die(EX_IOERR, "cannot write '%s': %s", k->shown,
				sdir_errmsg(k->dir));
	} else if (k->is_warc || k->is_wacz) {
		rc = k->is_warc ? swarc_put(k->warc, rec) : swacz_put(k->wacz, rec);
		if (rc < 0)
			msg_die(EX_IOERR, "cannot write '%s': %s", k->shown,
				k->is_warc ? swarc_errmsg(k->warc) : swacz_errmsg(k->wacz));
		if (rc == SWARC_NOT_RAW) {
			k->not_raw = start + 1;   /* main stops here, as on malformed input */
			return;
		}
		/* For the frontier a dead letter keeps the validators a good
		 * page left, and a 304 refreshes them, as a database row's. */
		if (rc == SWARC_DEAD)
			rc = SDB_KEPT;
		else if (rc == SDB_STORED && rec_not_modified(rec))
			rc = SDB_UNCHANGED;
	} else {
		rc = sjl_put(&k->jl, rec);
		if (rc < 0) {
			if (k->jl.out.fd == 1)
				msg_stdout_failed(errno);
			msg_die(EX_IOERR, "cannot write '%s': %s", k->shown, strerror(errno));
		}
	}
	if (rc == SDB_SKIPPED) {
		/* A row needs its key; one bad record is not worth losing the
		 * stream over, so skip it and say so. */
		if (++k->skipped <= SKIP_WARNINGS)
			msg_warn("record at byte %llu has no url: skipped%s", start,
				 k->skipped == SKIP_WARNINGS ? " (further ones only counted)" : "");
		stats_skipped();
		return;
	}
	k->stored++;
	stats_record(rec);
	k->unchanged += rec_not_modified(rec);
	k->kept += rc == SDB_KEPT;
	k->kept_rejected += rc == SDB_KEPT_REJECTED;
	if (k->q.path)
		ack_note(rec, rc == SDB_STORED);
	if (k->pending++ == 0)
		k->deadline = tm_mono_ms() + k->batch_ms;
}

int
main(int argc, char **argv)
{
	msg_init("sink");
	sink k = { 0 };
	parse_args(argc, argv, &k);
	stats_open(k.stats, k.metrics, k.max_hosts);
	stop_signals();

	char err[300];
	if (k.is_db) {
		if (!(k.db = sdb_open(k.target, k.db_flags, err, sizeof err)))
			msg_die(EX_IOERR, "cannot open '%s': %s", k.shown, err);
	} else if (k.is_dir) {
		if (!(k.dir = sdir_open(k.target, err, sizeof err)))
			msg_die(EX_IOERR, "cannot open '%s': %s", k.shown, err);
	} else if (k.is_warc) {
		if (!(k.warc = swarc_open(&k.wc, err, sizeof err)))
			msg_die(EX_IOERR, "cannot open '%s': %s", k.shown, err);
	} else if (k.is_wacz) {
		if (!(k.wacz = swacz_open(k.target, &k.wc, err, sizeof err)))
			msg_die(EX_IOERR, "cannot open '%s': %s", k.shown, err);
	} else if (sjl_open(&k.jl, k.target) < 0) {
		msg_die(EX_IOERR, "cannot open '%s': %s", k.shown, strerror(errno));
	}
	int same = k.q.path && k.is_db && same_file(k.q.path, k.target);
	if (k.q.path)
		ack_open(&k.q, same ? sdb_handle(k.db) : NULL, same ? sdb_pg(k.db) : NULL);

	rec_in in;
	if (rec_in_init(&in, 0, k.max_record) < 0)
		xalloc_die();
	int malformed = 0;
	for (;;) {
		msgpack_object rec;
		unsigned long long start = in.offset;
		int rc = rec_in_parse(&in, &rec);
		if (rc == REC_OK) {
			put(&k, &rec, start);
			if (k.not_raw)
				break;
			if (k.pending >= k.batch ||
			    (k.pending && tm_mono_ms() >= k.deadline))
				commit(&k);
			stats_tick();
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
		/* Woken for the --stats and --metrics writes too: a quiet
		 * input is what they should show. */
		long swait = stats_wait_ms();
		int for_stats = swait >= 0 && (wait < 0 || swait < wait);
		if (for_stats)
			wait = swait;
		int f = stop_fill(&in, wait);
		if (f == STOP_TIMEOUT && for_stats)
			stats_tick();
		else if (f == STOP_TIMEOUT)
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
	stats_close();
	if (k.q.path)
		ack_close();
	if (k.is_db)
		sdb_close(k.db);
	else if (k.is_dir)
		sdir_close(k.dir);
	else if (k.is_warc || k.is_wacz) {
		swarc_counts n = k.is_warc ? swarc_count(k.warc) : swacz_count(k.wacz);
		if ((k.is_warc ? swarc_close(k.warc, err, sizeof err) : swacz_close(k.wacz, err, sizeof err)) < 0)
			msg_die(EX_IOERR, "cannot write '%s': %s", k.shown, err);
		warc_note(&k, &n);
	} else if (sjl_close(&k.jl) < 0)
		msg_die(EX_IOERR, "cannot write '%s': %s", k.shown, strerror(errno));
	if (k.skipped)
		msg_warn("%llu records without url skipped", k.skipped);
	/* A recrawl's outcome, when it had one: the pages that did not
	 * change, and those whose refetch failed or was rejected but kept
	 * their row. */
	char recrawl[192] = "";
	if (k.is_warc || k.is_wacz)
		;   /* warc_note said it */
	else if (k.is_dir && (k.unchanged || k.kept))
		snprintf(recrawl, sizeof recrawl, ": %llu unchanged, %llu failed or rejected not written",
			 k.unchanged, k.kept);
	else if (k.unchanged || k.kept || k.kept_rejected) {
		char rejected[48] = "";
		if (k.kept_rejected)
			snprintf(rejected, sizeof rejected, " and %llu rejected", k.kept_rejected);
		snprintf(recrawl, sizeof recrawl, ": %llu unchanged, %llu failed%s refetches kept their page",
			 k.unchanged, k.kept, rejected);
	}
	if (!k.is_warc && !k.is_wacz)
		msg_note("%llu records stored in '%s'%s", k.stored, k.shown, recrawl);
	free(k.shown);
	free(k.warc_info);
	if (malformed)
		msg_die(EX_DATAERR, "%s", in.err);
	if (k.not_raw)
		msg_die(EX_DATAERR, "record at byte %llu has no exchanges: a WARC is written from fetch --raw",
			k.not_raw - 1);
	rec_in_free(&in);
	if (stop_signal)
		stop_reraise();
	return 0;
}
