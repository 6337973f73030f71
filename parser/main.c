/* parse — the CPU stage of sluice: HTML records in, extracted fields out.
 *
 *     fetch < urls.txt | parse -j4 -f price=.price | sink pages.db
 *
 * main only reads options and picks a mode; the work is in page.c (one
 * record), pool.c (the workers), src.c (where records come from).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "num.h"
#include "page.h"
#include "pool.h"
#include "rec.h"
#include "sel.h"
#include "src.h"
#include "stop.h"

#define PARSE_MAX_JOBS 256

/* --max-parse-time default, seconds: far above any honest page (the
 * 20 MB one of the tests parses in about 2 s), short enough that a
 * hostile one cannot hold a worker for long. */
#define PARSE_MAX_TIME_DEFAULT 30.0

/* --max-parse-memory default: gumbo's tree takes about 40 bytes per
 * byte of a page of tiny elements (390 MB for 10 MiB of <b></b>), so
 * 1 GiB passes any page fetch's default --max-body (16M) lets through,
 * while one hostile page cannot take the machine. */
#define PARSE_MAX_MEM_DEFAULT ((size_t)1 << 30)

static void
parse_help(void)
{
	printf("usage: parse [-q] [--json] [-j N] [-f NAME=SELECTOR[@ATTR]]...\n"
	       "             [-F NAME=SELECTOR[@ATTR]]... [--keep-body] [--no-text]\n"
	       "             [--max-record BYTES] [--max-parse-time S]\n"
	       "             [--max-parse-memory BYTES]\n"
	       "       parse --html [--base URL] [options] FILE...\n"
	       "\n"
	       "Reads fetch records (msgpack) on stdin and writes each with title,\n"
	       "links, canonical, lang, description, meta_robots, text, fields,\n"
	       "parser and parse_ms added; non-HTML records pass through.\n"
	       "\n"
	       "  -j, --jobs N          worker processes (default: online CPUs; 0: none)\n"
	       "  -f, --field NAME=SEL  fields.NAME = first match's text or @ATTR\n"
	       "  -F, --field-all NAME=SEL  fields.NAME = array of every match\n"
	       "      --keep-body       keep the body key in output records\n"
	       "      --no-text         do not write the text key\n"
	       "      --html            operands are HTML files, not a record stream\n"
	       "      --base URL        with --html: url and base for links\n"
	       "      --max-record BYTES  refuse larger input records (default 64M)\n"
	       "      --max-parse-time S  seconds a worker may spend on one record\n"
	       "                        before it is replaced (default 30; 0: no limit)\n"
	       "      --max-parse-memory BYTES  parse tree one record may take\n"
	       "                        (default 1G; 0: no limit)\n"
	       "      --json            write JSON lines (default when stdout is a tty)\n"
	       "  -q, --quiet           no notices\n"
	       "      --help, --version\n");
	if (fflush(stdout) != 0)
		msg_stdout_failed(errno);
	exit(0);
}

static _Noreturn void
parse_version(void)
{
	static char mp[64];
	snprintf(mp, sizeof mp, "msgpack-c %s", msgpack_version());
	const char *const libs[] = { "gumbo " PAGE_GUMBO_VERSION, mp, NULL };
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

int
main(int argc, char **argv)
{
	msg_init("parse");
	enum { O_JSON = 256, O_MAXREC, O_MAXTIME, O_MAXMEM, O_KEEP, O_NOTEXT, O_HTML, O_BASE, O_HELP,
	       O_VERSION };
	static const struct option longs[] = {
		{ "jobs", required_argument, NULL, 'j' },
		{ "field", required_argument, NULL, 'f' },
		{ "field-all", required_argument, NULL, 'F' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, O_JSON },
		{ "max-record", required_argument, NULL, O_MAXREC },
		{ "max-parse-time", required_argument, NULL, O_MAXTIME },
		{ "max-parse-memory", required_argument, NULL, O_MAXMEM },
		{ "keep-body", no_argument, NULL, O_KEEP },
		{ "no-text", no_argument, NULL, O_NOTEXT },
		{ "html", no_argument, NULL, O_HTML },
		{ "base", required_argument, NULL, O_BASE },
		{ "help", no_argument, NULL, O_HELP },
		{ "version", no_argument, NULL, O_VERSION },
		{ 0, 0, 0, 0 },
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long jobs = cpus < 1 ? 1 : cpus > PARSE_MAX_JOBS ? PARSE_MAX_JOBS : cpus;
	int json = 0, html = 0, max_time_set = 0;
	size_t max_record = REC_MAX_RECORD_DEFAULT;
	double max_time = PARSE_MAX_TIME_DEFAULT;
	const char *base = NULL;
	page_opts opts = { .max_mem = PARSE_MAX_MEM_DEFAULT };
	ex_field *fields = calloc((size_t)argc, sizeof *fields);
	int nfields = 0, c;
	if (!fields)
		msg_die(EX_OSERR, "out of memory");
	opterr = 0;   /* msg_bad_option speaks for getopt */
	while ((c = getopt_long(argc, argv, "j:f:F:q", longs, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (num_long(optarg, PARSE_MAX_JOBS, &jobs) < 0)
				msg_usage("bad -j value '%s': expected 0 to %d", optarg, PARSE_MAX_JOBS);
			break;
		case 'f':
		case 'F':
			parse_field(&fields[nfields], optarg, c == 'F');
			for (int i = 0; i < nfields; i++)
				if (strcmp(fields[i].name, fields[nfields].name) == 0)
					msg_usage("field '%s' given twice", fields[i].name);
			nfields++;
			break;
		case 'q': msg_quiet = 1; break;
		case O_JSON: json = 1; break;
		case O_MAXREC:
			if (num_size(optarg, &max_record) < 0 || max_record == 0)
				msg_usage("bad --max-record value '%s'", optarg);
			break;
		case O_MAXTIME:
			if (num_seconds(optarg, &max_time) < 0)
				msg_usage("bad --max-parse-time value '%s': expected seconds, 0 for no limit",
					  optarg);
			max_time_set = 1;
			break;
		case O_MAXMEM:
			if (num_size(optarg, &opts.max_mem) < 0)
				msg_usage("bad --max-parse-memory value '%s': expected bytes (K, M, G), 0 for no limit",
					  optarg);
			break;
		case O_KEEP: opts.keep_body = 1; break;
		case O_NOTEXT: opts.no_text = 1; break;
		case O_HTML: html = 1; break;
		case O_BASE: base = optarg; break;
		case O_HELP: parse_help(); break;
		case O_VERSION: parse_version();
		default: msg_bad_option(argv);
		}
	}
	if (!html && optind < argc)
		msg_usage("unexpected operand '%s' (use --html for HTML files)", argv[optind]);
	if (html && optind == argc)
		msg_usage("--html needs at least one FILE");
	if (base && !html)
		msg_usage("--base needs --html");
	/* Only a worker can be stopped in the middle of a page. */
	if (jobs == 0 && max_time_set && max_time > 0)
		msg_usage("--max-parse-time needs workers (-j 1 or more)");
	opts.fields = fields;
	opts.nfields = nfields;

	/* The shared signal rules (lib/stop.h): SIGTERM or a second SIGINT
	 * stops reading; what is in flight is finished and written; then
	 * parse dies of the signal so the shell sees the interruption. */
	stop_signals();

	src s;
	int r = html ? src_init_files(&s, argv + optind, argc - optind, base, max_record)
		     : src_init_stream(&s, STDIN_FILENO, max_record);
	if (r < 0)
		msg_die(EX_OSERR, "out of memory");
	rec_out o;
	rec_out_init(&o, STDOUT_FILENO, json ? 1 : -1);
	int rc = jobs == 0 ? pool_run_inline(&opts, &s, &o)
			   : pool_run((int)jobs, &opts, max_time, &s, &o);
	if (stop_signal)
		stop_reraise();
	if (rc == 0 && s.file_errors)
		rc = EX_NOINPUT;
	src_free(&s);
	rec_out_free(&o);
	for (int i = 0; i < nfields; i++)
		sel_free(fields[i].sel);
	free(fields);
	return rc;
}
