/* validate's option table: an empty command line leaves the values
 * validate had before its defaults moved into the rows.  The table is
 * local to parse_args in validator/main.c, so the test includes it, its
 * main renamed. */
#define CHECK_PROG "test_opt_validate"
#include "check.h"

#define main(argc, argv) validate_main(argc, argv)
#include "../../validator/main.c"
#undef main

int
main(void)
{
	char *argv[] = { "validate", NULL };
	vrules rs;
	vrules_init(&rs);
	vopts o = { 0 };
	parse_args(1, argv, &rs, &o);
	check_int("drop, json", 0, o.drop + o.json);
	check_true("no summary", !o.summary);
	/* It was 0, which rec_in_init reads as REC_MAX_RECORD_DEFAULT. */
	check_int("max_record", REC_MAX_RECORD_DEFAULT, (long long)o.max_record);
	check_int("quiet", 0, msg_quiet);
	vrules_free(&rs);
	return check_done();
}
