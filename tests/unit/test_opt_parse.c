/* parse's option table: an empty command line leaves the values parse
 * had before its defaults moved into the rows.  The table is local to
 * parse_args in parser/main.c, so the test includes it, its main
 * renamed. */
#define CHECK_PROG "test_opt_parse"
#include "check.h"

/* Function-like, so page_opts' member main keeps its name. */
#define main(argc, argv) parse_main(argc, argv)
#include "../../parser/main.c"
#undef main

int
main(void)
{
	char *argv[] = { "parse", NULL };
	pargs a = { 0 };
	page_opts o = { 0 };
	ex_field fields[1];
	parse_args(1, argv, &a, &o, fields);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	check_int("jobs: the online CPUs", cpus < 1 ? 1 : cpus > PARSE_MAX_JOBS ? PARSE_MAX_JOBS : cpus, a.jobs);
	check_int("json, html", 0, a.json + a.html);
	check_int("max_record", REC_MAX_RECORD_DEFAULT, (long long)a.max_record);
	check_double("max_time", 30, a.max_time);
	check_true("no base", !a.base);
	check_int("max_mem", (size_t)1 << 30, (long long)o.max_mem);
	check_int("page flags", 0, o.keep_body + o.no_text + o.main + o.markdown);
	check_int("no fields", 0, o.nfields);
	check_int("quiet", 0, msg_quiet);
	return check_done();
}
