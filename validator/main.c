/* validate — marks each record accepted or rejected by rules about its
 * status, content type, fields and text, so a scrape's soft failures
 * (block pages, JavaScript shells, empty templates) are caught before
 * they are stored as data.
 *
 *   ... | validate [--status RANGE] [--require FIELD]... [--rules FILE] | sink x.db
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "msg.h"
#include "num.h"
#include "rec.h"
#include "stop.h"
#include "rules.h"
#include "summary.h"

static const char usage[] =
	"usage: validate [--status RANGE[,RANGE]] [--ctype TYPE[,TYPE]]\n"
	"                [--require FIELD]... [--marker REGEX]... [--reject REGEX]...\n"
	"                [--min-text N] [--rules FILE] [--drop] [--summary FILE]\n"
	"                [--json] [--max-record BYTES] [-q] [--help] [--version]\n";

enum {
	OPT_STATUS = 256, OPT_CTYPE, OPT_REQUIRE, OPT_MARKER, OPT_REJECT,
	OPT_MIN_TEXT, OPT_RULES, OPT_DROP, OPT_SUMMARY, OPT_JSON, OPT_MAX_RECORD,
	OPT_HELP, OPT_VERSION,
};

static const struct option longopts[] = {
	{ "status", required_argument, NULL, OPT_STATUS },
	{ "ctype", required_argument, NULL, OPT_CTYPE },
	{ "require", required_argument, NULL, OPT_REQUIRE },
	{ "marker", required_argument, NULL, OPT_MARKER },
	{ "reject", required_argument, NULL, OPT_REJECT },
	{ "min-text", required_argument, NULL, OPT_MIN_TEXT },
	{ "rules", required_argument, NULL, OPT_RULES },
	{ "drop", no_argument, NULL, OPT_DROP },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "max-record", required_argument, NULL, OPT_MAX_RECORD },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

typedef struct vopts {
	int drop, json;
	const char *summary;
	size_t max_record;
} vopts;

/* Parses argv into rs and opts; exits 64 on any usage error.  Flags and
 * --rules files add to the global section in command-line order, so a
 * later --status replaces an earlier one wherever it came from. */
static void
parse_args(int argc, char **argv, vrules *rs, vopts *opts)
{
	static const char *const names[] = {
		[OPT_STATUS - OPT_STATUS] = "status", [OPT_CTYPE - OPT_STATUS] = "ctype",
		[OPT_REQUIRE - OPT_STATUS] = "require", [OPT_MARKER - OPT_STATUS] = "marker",
		[OPT_REJECT - OPT_STATUS] = "reject", [OPT_MIN_TEXT - OPT_STATUS] = "min-text",
	};
	char err[400];
	int c;
	opterr = 0;   /* msg_bad_option speaks for getopt */
	while ((c = getopt_long(argc, argv, "q", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_STATUS: case OPT_CTYPE: case OPT_REQUIRE:
		case OPT_MARKER: case OPT_REJECT: case OPT_MIN_TEXT:
			if (vrules_add(rs, NULL, names[c - OPT_STATUS], optarg, err, sizeof err) < 0)
				msg_usage("--%s: %s", names[c - OPT_STATUS], err);
			break;
		case OPT_RULES:
			switch (vrules_load(rs, optarg, err, sizeof err)) {
			case -1: msg_usage("bad rules file: %s", err);
			case -2: msg_die(EX_IOERR, "cannot read rules: %s", err);
			}
			break;
		case OPT_DROP: opts->drop = 1; break;
		case OPT_SUMMARY: opts->summary = optarg; break;
		case OPT_JSON: opts->json = 1; break;
		case OPT_MAX_RECORD:
			if (num_size(optarg, &opts->max_record) < 0 || opts->max_record == 0)
				msg_usage("bad --max-record '%s'", optarg);
			break;
		case 'q': msg_quiet = 1; break;
		case OPT_HELP:
			fputs(usage, stdout);
			if (fflush(stdout) != 0)
				msg_stdout_failed(errno);
			exit(0);
		case OPT_VERSION: {
			const char *libs[] = { vre_version(), "msgpack-c " MSGPACK_VERSION, NULL };
			msg_version(libs);
		}
		default:
			msg_bad_option(argv);
		}
	}
	if (optind < argc)
		msg_usage("unexpected argument '%s'", argv[optind]);
}

/* Writes the summary: stderr unless -q, and the JSON file if asked.
 * Runs on every exit path that read input, including malformed input,
 * so a failed run still says what it saw. */
static void
report(const vsum *sum, const vopts *opts)
{
	vsum_print(sum);
	if (!opts->summary)
		return;
	FILE *f = fopen(opts->summary, "w");
	if (!f || vsum_write_json(sum, f) < 0 || fclose(f) != 0)
		msg_die(EX_IOERR, "cannot write '%s': %s", opts->summary, strerror(errno));
}

int
main(int argc, char **argv)
{
	msg_init("validate");
	vrules rs;
	vrules_init(&rs);
	vopts opts = { 0 };
	parse_args(argc, argv, &rs, &opts);

	rec_in in;
	if (rec_in_init(&in, 0, opts.max_record) < 0)
		msg_die(EX_OSERR, "out of memory");
	rec_out out;
	rec_out_init(&out, 1, opts.json ? 1 : -1);
	rec_build b;
	rec_build_init(&b);
	vsum sum;
	vsum_init(&sum);

	/* An accepted record drops any reason a previous validate gave it;
	 * a rejected one replaces it by putting a new one. */
	static const char *const drop_reason[] = { "reason", NULL };
	msgpack_object rec;
	int rc;
	stop_signals();
	while ((rc = stop_next(&in, &rec, &out)) == REC_OK) {
		char reason[256];
		enum vcode code = vcheck_record(&rs, &rec, reason, sizeof reason);
		const char *host;
		size_t hostlen;
		if (!rec_str(&rec, "host", &host, &hostlen))
			host = NULL, hostlen = 0;
		vsum_add(&sum, host, hostlen, code);
		if (code != VCODE_NONE && opts.drop)
			continue;
		rec_build_reset(&b);
		rec_put_bool(&b, "accepted", code == VCODE_NONE);
		if (code != VCODE_NONE)
			rec_put_str(&b, "reason", reason);
		if (rec_out_build(&out, &b, &rec, code == VCODE_NONE ? drop_reason : NULL) < 0)
			msg_stdout_failed(errno);
	}
	if (rec_out_flush(&out) < 0)
		msg_stdout_failed(errno);
	report(&sum, &opts);
	if (rc == REC_ERR)
		msg_die(strncmp(in.err, "read error", 10) == 0 ? EX_IOERR : EX_DATAERR,
			"%s", in.err);
	if (stop_signal)
		stop_reraise();   /* after flushing output and the summary */

	vsum_free(&sum);
	rec_build_free(&b);
	rec_out_free(&out);
	rec_in_free(&in);
	vrules_free(&rs);
	return 0;
}
