/* sinker/cols: which times a timestamptz column takes (cols_time) and
 * the upsert's parameters (cols_upsert). */
#define CHECK_PROG "test_cols"
#include "check.h"

#include <string.h>

#include "../../sinker/cols.h"

static void
time_is(int want, const char *s)
{
	if (!check_true(s, cols_time(s, strlen(s)) == want))
		fprintf(stderr, "  want %s\n", want ? "taken" : "refused");
}

int
main(void)
{
	/* What parse writes, and ISO 8601's other zones. */
	time_is(1, "2024-05-01");
	time_is(1, "2024-03-05T10:00:00+01:00");
	time_is(1, "2024-03-05T10:00:00-0530");
	time_is(1, "2024-03-05T10:00:00+14");
	time_is(1, "2024-03-05T10:00:00Z");
	time_is(1, "2024-03-05T10:00Z");
	time_is(1, "2024-03-05T10:00:00.123456Z");
	time_is(1, "2024-02-29");
	time_is(1, "2000-02-29");
	time_is(1, "0001-01-01");
	time_is(1, "9999-12-31T23:59:59Z");
	/* Not a day, not a time, or a time without its zone. */
	time_is(0, "");
	time_is(0, "2024-05");
	time_is(0, "2024");
	time_is(0, "2023-02-29");
	time_is(0, "1900-02-29");
	time_is(0, "2024-04-31");
	time_is(0, "2024-13-01");
	time_is(0, "2024-00-10");
	time_is(0, "0000-01-01");
	time_is(0, "2024-05-01T10:00:00");
	time_is(0, "2024-05-01T10:00");
	time_is(0, "2024-05-01 10:00:00Z");
	time_is(0, "2024-05-01T24:00:00Z");
	time_is(0, "2024-05-01T10:60:00Z");
	time_is(0, "2024-05-01T10:00:60Z");
	time_is(0, "2024-05-01T10:00:00.Z");
	time_is(0, "2024-05-01T10:00:00.1234567891Z");
	time_is(0, "2024-05-01T10:00:00+05:");
	time_is(0, "2024-05-01T10:00:00+15:00");
	time_is(0, "2024-05-01T10:00:00+01:60");
	time_is(0, "2024-05-01T10:00:00Zx");
	time_is(0, "2024-05-01x");
	time_is(0, "+2024-05-01");
	check_int("a prefix is not a time", 0, cols_time("2024-05-01T", 10 + 1));

	/* The upsert names every column once and binds the last parameter
	 * only with body. */
	char sql[COLS_UPSERT_MAX], want[16];
	cols_upsert(sql, sizeof sql, 0);
	check_true("the statement fits", strlen(sql) < sizeof sql - 1);
	snprintf(want, sizeof want, "?%d)", COLS_P_BODY - 1);
	check_true("without body: the parameters up to pdf's", strstr(sql, want) != NULL);
	check_true("without body: no body", !strstr(sql, "body"));
	cols_upsert(sql, sizeof sql, 1);
	snprintf(want, sizeof want, "?%d)", COLS_P_BODY);
	check_true("with body: body last", strstr(sql, want) != NULL);
	check_true("with body: its update", strstr(sql, "body = excluded.body") != NULL);
	check_true("keywords is a column", strstr(sql, ", keywords, ") != NULL);
	return check_done();
}
