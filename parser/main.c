/* parse — the CPU stage of sluice: HTML records (and sitemaps) in,
 * extracted fields out.
 *
 *     fetch < urls.txt | parse -j4 -f price=.price | sink pages.db
 *
 * main only reads options and picks a mode; the work is in page.c (one
 * record; sitemap.c for sitemaps), pool.c (the workers), src.c (where
 * records come from).
 */
#include <errno.h>
#include <getopt.h>   /* optarg, optind */
#include <libxml/xmlversion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "msg.h"
#include "opt.h"
#include "page.h"
#include "pool.h"
#include "rec.h"
#include "sel.h"
#include "src.h"
#include "stop.h"
#include "wurl.h"
#include "xalloc.h"

#define PARSE_MAX_JOBS 256

static const char usage[] =
	"usage: parse [OPTION...] < records > records\n"
	"       parse --html [--base URL] [OPTION...] FILE...\n"
	"Reads fetch records (msgpack) on stdin and writes each with title,\n"
	"links, canonical, lang, description, meta_robots, text, main_text\n"
	"(--main), markdown (--markdown), fields, parser and parse_ms added;\n"
	"sitemaps get links and sitemap; other records pass through.\n"
	"\n";

enum {
	O_JOBS, O_FIELD, O_FIELD_ALL, O_KEEP, O_NOTEXT, O_MAIN, O_MARKDOWN, O_HTML, O_BASE,
	O_MAXREC, O_MAXTIME, O_MAXMEM, O_JSON, O_QUIET, O_HELP, O_VERSION, O_N
};

/* What the options ask for, beyond the page options. */
typedef struct pargs {
	long jobs;
	int json, html;
	size_t max_record;
	double max_time;
	const char *base;
} pargs;

static _Noreturn void
parse_version(void)
{
	static char mp[64];
	snprintf(mp, sizeof mp, "msgpack-c %s", msgpack_version());
	const char *const libs[] = { "gumbo " PAGE_GUMBO_VERSION, mp,
				     "libxml2 " LIBXML_DOTTED_VERSION, "zlib " ZLIB_VERSION, NULL };
	msg_version(libs);
}

/* Parses one -f/-F value, NAME=SELECTOR[@ATTR], into f; a bad value is
 * a usage error naming the position within SELECTOR. */
static void
parse_field(ex_field *f, char *arg, int all)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		msg_usage("bad field '%s': expected NAME=SELECTOR[@ATTR]", arg);
	*eq = '\0';
	char *src = eq + 1;
	/* The attribute is after the last '@' outside brackets and quotes,
	 * so [href*='@'] stays part of the selector. */
	char *at = NULL, q = 0;
	int depth = 0;
	for (char *c = src; *c; c++) {
		if (q) {
			if (*c == q)
				q = 0;
		} else if (*c == '"' || *c == '\'') {
			q = *c;
		} else if (*c == '[') {
			depth++;
		} else if (*c == ']') {
			depth--;
		} else if (*c == '@' && depth == 0) {
			at = c;
		}
	}
	f->attr = NULL;
	if (at) {
		*at = '\0';
		char *a = at + 1;
		if (!*a)
			msg_usage("bad selector '%s@' at position %d: expected an attribute name",
				  src, (int)(at - src) + 1);
		for (char *c = a; *c; c++) {
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c + 32);
			else if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
				   *c == '-' || *c == '_' || *c == ':' || (unsigned char)*c >= 0x80))
				msg_usage("bad selector '%s@%s' at position %d: bad attribute name",
					  src, a, (int)(c - src));
		}
		f->attr = a;
	}
	int pos;
	const char *why;
	f->sel = sel_compile(src, &pos, &why);
	if (!f->sel)
		msg_usage("bad selector '%s' at position %d: %s", src, pos, why);
	f->name = arg;
	f->all = all;
}

/* Parses argv into a and opts, the -f and -F fields into fields (room
 * for argc); exits 64 on any usage error, 0 after --help or --version. */
static void
parse_args(int argc, char **argv, pargs *a, page_opts *opts, ex_field *fields)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char jobs[24];
	snprintf(jobs, sizeof jobs, "%ld", cpus < 1 ? 1 : cpus > PARSE_MAX_JOBS ? PARSE_MAX_JOBS : cpus);
	const opt_def tab[O_N] = {
		[O_JOBS] = OPT_LONG('j', "jobs", "N", &a->jobs, 0, PARSE_MAX_JOBS, "online CPUs",
			"worker processes, 0 to 256; 0: none", .init = jobs,
			.man = "parse in \\fIN\\fR worker processes; \\fB\\-j0\\fR parses in-process.  Output is in completion order; with \\fB\\-j1\\fR it is in input order"),
		[O_FIELD] = OPT_SPECIAL('f', "field", "NAME=SEL[@ATTR]", "fields.NAME = first match's text or ATTR;\nrepeatable",
			.man = "set \\fBfields.\\fR\\fINAME\\fR to the text (or attribute \\fIATTR\\fR) of the first element matching the CSS selector \\fISEL\\fR.  Supported: type, \\fB*\\fR, \\fB#id\\fR, \\fB.class\\fR, \\fB[a]\\fR, \\fB[a=v]\\fR, \\fB[a^=v]\\fR, \\fB[a$=v]\\fR, \\fB[a*=v]\\fR, \\fB[a~=v]\\fR, compounds, the descendant and \\fB>\\fR combinators, \\fB,\\fR lists; repeatable"),
		[O_FIELD_ALL] = OPT_SPECIAL('F', "field-all", "NAME=SEL[@ATTR]", "fields.NAME = array of every match;\nrepeatable",
			.man = "like \\fB\\-f\\fR, but \\fBfields.\\fR\\fINAME\\fR is an array of every match; repeatable"),
		[O_KEEP] = OPT_FLAG(0, "keep-body", &opts->keep_body, 1, "keep the body key in output records",
			.man = "keep \\fBbody\\fR in output records"),
		[O_NOTEXT] = OPT_FLAG(0, "no-text", &opts->no_text, 1, "do not write the text key",
			.man = "do not write \\fBtext\\fR"),
		[O_MAIN] = OPT_FLAG(0, "main", &opts->main, 1, "write main_text: the main content's text",
			.man = "write \\fBmain_text\\fR: the text of the page's main content (the article without navigation, comments, share bars, cookie banners, related links and footers), or the body's text when the page is not an article"),
		[O_MARKDOWN] = OPT_FLAG(0, "markdown", &opts->markdown, 1, "write markdown: the page (--main: its main\ncontent) as CommonMark",
			.man = "write \\fBmarkdown\\fR: CommonMark of the page's body, or of its main content with \\fB\\-\\-main\\fR: headings, paragraphs, emphasis, links and images made absolute, lists, block quotes, fenced code, GitHub tables, line breaks; the title first as a heading"),
		[O_HTML] = OPT_FLAG(0, "html", &a->html, 1, "operands are HTML files, not a record stream",
			.man = "operands are HTML files; each becomes a record with \\fBurl\\fR = file:// and its absolute path"),
		[O_BASE] = OPT_STRING(0, "base", "URL", &a->base, NULL,
			"with --html: the url (and base for links) of a lone\nFILE; with several, each FILE's name joined to URL",
			.man = "with \\fB\\-\\-html\\fR: use \\fIURL\\fR (http or https) as url, final_url and link base of a lone \\fIFILE\\fR; with several, each gets its name resolved against \\fIURL\\fR (\\fB\\-\\-base https://example.com/docs/ a.html b.html\\fR: https://example.com/docs/a.html and .../b.html), so each is a page of its own"),
		[O_MAXREC] = OPT_MAX_RECORD(&a->max_record, 1, "largest input record, K/M/G suffixes",
			.man = "refuse input records larger than \\fIBYTES\\fR, K/M/G suffixes"),
		/* 30: far above any honest page (the 20 MB one of the tests
		 * parses in about 2 s), short enough that a hostile one
		 * cannot hold a worker for long. */
		[O_MAXTIME] = OPT_SECONDS(0, "max-parse-time", "S", &a->max_time, 0, "30",
			"seconds a worker may spend on one record\nbefore it is replaced; 0: no limit",
			.want = "seconds, 0 for no limit",
			.man = "kill and replace a worker that has spent more than \\fIS\\fR seconds on one record (0: no limit); the record is written as its input plus \\fBparse_error\\fR \"timeout\".  Needs workers: with \\fB\\-j0\\fR there is no limit"),
		/* 1G: gumbo's tree takes about 40 bytes per byte of a page of
		 * tiny elements (390 MB for 10 MiB of <b></b>), so 1 GiB
		 * passes any page fetch's default --max-body (16M) lets
		 * through, while one hostile page cannot take the machine. */
		[O_MAXMEM] = OPT_SIZE(0, "max-parse-memory", "BYTES", &opts->max_mem, 0, "1G",
			"parse tree one record may take; 0: no limit",
			.want = "bytes (K, M, G), 0 for no limit",
			.man = "stop parsing a record whose parse tree would take more than \\fIBYTES\\fR (K, M, G suffixes; 0: no limit); the record is written as its input plus \\fBparse_error\\fR \\\"too_large\\\" and the next one is parsed.  The tree is what grows with a page's element count (about 40 bytes per byte of a page of tiny elements); works with \\fB\\-j0\\fR too"),
		[O_JSON] = OPT_JSON(&a->json, "write JSON lines (the default on a terminal)",
			.man = "write JSON lines (the default when standard output is a terminal)"),
		[O_QUIET] = OPT_QUIET("no notices", .man = "suppress notices"),
		[O_HELP] = OPT_HELP(.man = "print the options with their defaults and exit"),
		[O_VERSION] = OPT_VERSION(.man = "print the version with the gumbo and msgpack-c versions, and exit"),
	};
	int max_time_set = 0, i;
	while ((i = opt_next(argc, argv, usage, tab, O_N)) != -1) {
		switch (i) {
		case O_FIELD:
		case O_FIELD_ALL:
			parse_field(&fields[opts->nfields], optarg, i == O_FIELD_ALL);
			for (int k = 0; k < opts->nfields; k++)
				if (strcmp(fields[k].name, fields[opts->nfields].name) == 0)
					msg_usage("field '%s' given twice", fields[k].name);
			opts->nfields++;
			break;
		case O_MAXTIME: max_time_set = 1; break;
		case O_VERSION: parse_version();
		}
	}
	if (!a->html && optind < argc)
		msg_usage("unexpected operand '%s' (use --html for HTML files)", argv[optind]);
	if (a->html && optind == argc)
		msg_usage("--html needs at least one FILE");
	if (a->base && !a->html)
		msg_usage("--base needs --html");
	if (a->base) {
		wurl base;
		const char *why;
		if (wurl_parse(a->base, strlen(a->base), NULL, &base, &why) != WURL_OK)
			opt_bad("base", a->base, "an absolute http or https URL");
		wurl_free(&base);
	}
	/* Only a worker can be stopped in the middle of a page. */
	if (a->jobs == 0 && max_time_set && a->max_time > 0)
		msg_usage("--max-parse-time needs workers (-j 1 or more)");
}

int
main(int argc, char **argv)
{
	msg_init("parse");
	pargs a = { 0 };
	page_opts opts = { 0 };
	ex_field *fields = xcalloc((size_t)argc, sizeof *fields);
	opts.fields = fields;
	parse_args(argc, argv, &a, &opts, fields);

	/* The shared signal rules (lib/stop.h): SIGTERM or a second SIGINT
	 * stops reading; what is in flight is finished and written; then
	 * parse dies of the signal so the shell sees the interruption. */
	stop_signals();

	src s;
	int r = a.html ? src_init_files(&s, argv + optind, argc - optind, a.base, a.max_record)
		       : src_init_stream(&s, STDIN_FILENO, a.max_record);
	if (r < 0)
		xalloc_die();
	rec_out o;
	rec_out_init(&o, STDOUT_FILENO, a.json ? 1 : -1);
	int rc = a.jobs == 0 ? pool_run_inline(&opts, &s, &o)
			     : pool_run((int)a.jobs, &opts, a.max_time, &s, &o);
	if (stop_signal)
		stop_reraise();
	if (rc == 0 && s.file_errors)
		rc = EX_NOINPUT;
	src_free(&s);
	rec_out_free(&o);
	for (int i = 0; i < opts.nfields; i++)
		sel_free(fields[i].sel);
	free(fields);
	return rc;
}
