/* smaps: the Pss: line of smaps_rollup, not its Pss_* kin; none is -1. */
#define CHECK_PROG "test_smaps"
#include "check.h"

#include <string.h>
#include <unistd.h>

#include "smaps.h"

static const char rollup[] =
	"55588d506000-7ffc810f0000 ---p 00000000 00:00 0                          [rollup]\n"
	"Rss:                1620 kB\n"
	"Pss:                 195 kB\n"
	"Pss_Dirty:           116 kB\n"
	"Pss_Anon:            116 kB\n"
	"Shared_Clean:       1464 kB\n";

static long long
pss(const char *s)
{
	size_t b = 7;
	return smaps_pss(s, strlen(s), &b) == 0 ? (long long)b : -1;
}

int
main(void)
{
	check_int("the Pss: line, in bytes", 195 * 1024, pss(rollup));
	check_int("Pss_Anon: first is not it", 3 << 10, pss("Pss_Anon: 9 kB\nPss: 3 kB\n"));
	check_int("the last line without its newline", 1 << 20, pss("Rss: 2048 kB\nPss: 1024 kB"));
	check_int("no Pss: line", -1, pss("Rss: 1620 kB\nPss_Anon: 116 kB\n"));
	check_int("no number", -1, pss("Pss: kB\n"));
	check_int("another unit", -1, pss("Pss: 12 MB\n"));
	check_int("empty", -1, pss(""));
	/* The text ends where n says, not at a NUL: a cut line is no line. */
	check_int("cut before the unit", -1, smaps_pss("Pss: 12 kB\n", 8, &(size_t){ 0 }));
	size_t mine = 0;
	check_true("this process has one", smaps_pid_pss((long)getpid(), &mine) == 0 && mine > 0);
	check_int("no such process", -1, smaps_pid_pss(0, &mine));
	return check_done();
}
