/* validate — marks each record accepted or rejected by rules about its
 * status, content type, fields and text, so a scrape's soft failures
 * (block pages, JavaScript shells, empty templates) are caught before
 * they are stored as data.
 *
 *   ... | validate [--status RANGE] [--require FIELD]... [--rules FILE] | sink x.db
 */
#include <errno.h>
#include <getopt.h>   /* optarg, optind */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "msg.h"
#include "opt.h"
#include "rec.h"
#include "refusal.h"
#include "stop.h"
#include "rules.h"
#include "summary.h"
#include "xalloc.h"

static const char usage[] =
	"usage: validate [OPTION...] < records > records\n"
	"Mark each record accepted or rejected by the rules (docs/validate.md).\n"
	"\n";

enum {
	O_STATUS, O_CTYPE, O_REQUIRE, O_MARKER, O_REJECT, O_MIN_TEXT, O_REFUSALS,
	O_RULES, O_DROP, O_SUMMARY, O_JSON, O_MAX_RECORD, O_QUIET, O_HELP,
	O_VERSION, O_N
};

typedef struct vopts {
	int drop, json;
	const char *summary;
	size_t max_record;
} vopts;

/* Parses argv into rs and opts; exits 64 on any usage error, 66 for a
 * --rules file it cannot read, 73 for a --summary it could not write.
 * Flags and --rules files add to the global section in command-line
 * order, so a later --status replaces an earlier one wherever it came
 * from. */
static void
parse_args(int argc, char **argv, vrules *rs, vopts *opts)
{
	/* The first seven are rules: their long name is the rule's name,
	 * and the rules keep their defaults themselves. */
	const opt_def tab[O_N] = {
		[O_STATUS] = OPT_SPECIAL(0, "status", "RANGE[,RANGE]", "acceptable statuses: N, N-M or Nxx; any",
			.dflt = "200-299",
			.man = "acceptable statuses: \\fIN\\fR, \\fIN\\-M\\fR or \\fINxx\\fR; \\fBany\\fR"),
		[O_CTYPE] = OPT_SPECIAL(0, "ctype", "TYPE[,TYPE]", "content type prefixes; any",
			.dflt = "text/html",
			.man = "case-insensitive prefixes of the content type; \\fBany\\fR"),
		[O_REQUIRE] = OPT_SPECIAL(0, "require", "FIELD", "present and non-empty, e.g. fields.price;\nrepeatable",
			.man = "present and non-empty; dotted paths such as fields.price; repeatable"),
		[O_MARKER] = OPT_SPECIAL(0, "marker", "REGEX", "must match the title or text; repeatable"),
		[O_REJECT] = OPT_SPECIAL(0, "reject", "REGEX", "must not match the title or text; repeatable"),
		[O_MIN_TEXT] = OPT_SPECIAL(0, "min-text", "N", "shorter text is a JavaScript shell",
			.dflt = "0: off",
			.man = "text shorter than \\fIN\\fR characters is a JavaScript shell"),
		[O_REFUSALS] = OPT_SPECIAL(0, "refusals", "on|off", "name pages that refuse us (blocked, consent)",
			.dflt = "on",
			.man = "name the pages that refuse us by the signature table: challenges, captchas and"
			       " login walls as \\fBblocked\\fR, cookie walls as \\fBconsent\\fR"),
		[O_RULES] = OPT_SPECIAL(0, "rules", "FILE", "rules file, with [host NAME] sections",
			.man = "rules, one per line as \\fIname value\\fR, with \\fB[host\\fR \\fINAME\\fR\\fB]\\fR and \\fB[global]\\fR sections and \\fB#\\fR comments"),
		[O_DROP] = OPT_FLAG(0, "drop", &opts->drop, 1, "do not write rejected records"),
		[O_SUMMARY] = OPT_STRING(0, "summary", "FILE", &opts->summary, NULL, "also write the summary as JSON",
			.man = "also write the per-host summary as JSON"),
		[O_JSON] = OPT_JSON(&opts->json, "write JSON lines (the default on a terminal)",
			.man = "write JSON lines (the default when standard output is a terminal)"),
		[O_MAX_RECORD] = OPT_MAX_RECORD(&opts->max_record, 1, "largest input record, K/M/G suffixes",
			.man = "largest input record accepted, K/M/G suffixes"),
		[O_QUIET] = OPT_QUIET("no summary on stderr"),
		[O_HELP] = OPT_HELP(.man = "print the options with their defaults and exit"),
		[O_VERSION] = OPT_VERSION(),
	};
	char err[400];
	int i;
	while ((i = opt_next(argc, argv, usage, tab, O_N)) != -1) {
		switch (i) {
		case O_STATUS: case O_CTYPE: case O_REQUIRE:
		case O_MARKER: case O_REJECT: case O_MIN_TEXT: case O_REFUSALS:
			if (vrules_add(rs, NULL, tab[i].name, optarg, err, sizeof err) < 0)
				msg_usage("--%s: %s", tab[i].name, err);
			break;
		case O_RULES:
			switch (vrules_load(rs, optarg, err, sizeof err)) {
			case -1: msg_usage("bad rules file: %s", err);
			case -2: msg_die(EX_NOINPUT, "--rules: %s", err);   /* lib/msg.h's rule */
			}
			break;
		case O_VERSION: {
			const char *libs[] = { vre_version(), "msgpack-c " MSGPACK_VERSION, NULL };
			msg_version(libs);
		}
		}
	}
	if (optind < argc)
		msg_usage("unexpected argument '%s'", argv[optind]);
	if (opts->summary)
		msg_need_output("summary", opts->summary);
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
		xalloc_die();
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
		const char *host;
		size_t hostlen;
		if (!rec_str(&rec, "host", &host, &hostlen))
			host = NULL, hostlen = 0;
		rec_build_reset(&b);
		/* A recrawl's 304 and a sitemap have no page to judge: they
		 * pass as they came, without a verdict, so sink keeps the page
		 * stored before, follows the sitemap's links, and the yield
		 * guard counts neither (docs/validate.md). */
		int skip = rec_not_modified(&rec) ? VSKIP_UNCHANGED :
			   rec_sitemap(&rec) ? VSKIP_SITEMAP : -1;
		if (skip >= 0) {
			vsum_skip(&sum, host, hostlen, (enum vskip)skip);
			if (rec_out_build(&out, &b, &rec, NULL) < 0)
				msg_stdout_failed(errno);
			continue;
		}
		char reason[256];
		enum vcode code = vcheck_record(&rs, &rec, reason, sizeof reason);
		vsum_add(&sum, host, hostlen, code);
		if (code != VCODE_NONE && opts.drop)
			continue;
		rec_put_bool(&b, "accepted", code == VCODE_NONE);
		if (code != VCODE_NONE)
			rec_put_str(&b, "reason", reason);
		if (rec_out_build(&out, &b, &rec, code == VCODE_NONE ? drop_reason : NULL) < 0)
			msg_stdout_failed(errno);
	}
	if (rec_out_flush(&out) < 0)
		msg_stdout_failed(errno);
	report(&sum, &opts);
	if (rc == REC_ERR || rc == REC_IOERR)
		msg_die(rc == REC_IOERR ? EX_IOERR : EX_DATAERR, "%s", in.err);
	if (stop_signal)
		stop_reraise();   /* after flushing output and the summary */

	vsum_free(&sum);
	rec_build_free(&b);
	rec_out_free(&out);
	rec_in_free(&in);
	vrules_free(&rs);
	refusal_free();
	return 0;
}
