/* Unit tests of lib/msg's exit statuses: msg_exits against
 * docs/records.md's "Exit status" table (code, meaning, programs, row
 * for row) and against each program's man page, whose EXIT STATUS must
 * name every code the table gives that program.  Files are found from
 * $TESTS (tests/run.sh exports the tests directory), else from the
 * current directory. */
#include "msg.h"

#include <stdlib.h>

#define CHECK_PROG "test_msg"
#include "check.h"

static char name[512];

/* The file at path (relative to the repository) in a malloc'd string,
 * or NULL. */
static char *
slurp(const char *rel)
{
	const char *dir = getenv("TESTS");
	char path[4096];
	snprintf(path, sizeof path, "%s%s%s", dir ? dir : ".", dir ? "/../" : "/", rel);
	FILE *f = fopen(path, "r");
	snprintf(name, sizeof name, "%s opens", rel);
	if (!check_true(name, f != NULL))
		return NULL;
	char *s = malloc(1 << 20);
	size_t n = s ? fread(s, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (s)
		s[n] = '\0';
	return s;
}

/* Whether s has code as a number of its own (no digit either side). */
static int
names(const char *s, const char *code)
{
	size_t n = strlen(code);
	for (const char *p = s; (p = strstr(p, code)); p++)
		if ((p == s || p[-1] < '0' || p[-1] > '9') && (p[n] < '0' || p[n] > '9'))
			return 1;
	return 0;
}

/* The docs' status cell for code c. */
static void
status_cell(char *buf, size_t len, int c)
{
	if (c == 128)
		snprintf(buf, len, "128+N");
	else
		snprintf(buf, len, "%d", c);
}

int
main(void)
{
	char *doc = slurp("docs/records.md");
	char *t = doc ? strstr(doc, "## Exit status (all programs)") : NULL;
	check_true("docs/records.md has the exit status table", t != NULL);
	t = t ? strstr(t, "|---|---|---|\n") : NULL;
	int n = 0;
	if (check_true("the table has three columns", t != NULL)) {
		char *line = t + strlen("|---|---|---|\n");
		for (; line[0] == '|'; n++) {
			char *end = strchr(line, '\n');
			if (end)
				*end = '\0';
			const msg_exit *x = n < 64 && msg_exits[n].code >= 0 ? &msg_exits[n] : NULL;
			char want[1024], code[16];
			if (x) {
				status_cell(code, sizeof code, x->code);
				snprintf(want, sizeof want, "| %s | %s | %s |", code, x->meaning,
					 x->programs);
			}
			snprintf(name, sizeof name, "docs row %d is msg_exits' row", n + 1);
			check_str(name, x ? want : NULL, line);
			if (!end)
				break;
			line = end + 1;
		}
	}
	int rows = 0;
	while (msg_exits[rows].code >= 0)
		rows++;
	check_int("as many docs rows as msg_exits has", rows, n);

	/* Each man page names every code of its program. */
	static const char *const progs[] = { "fetch", "parse", "validate", "sink", "render" };
	for (size_t p = 0; p < sizeof progs / sizeof *progs; p++) {
		char rel[64];
		snprintf(rel, sizeof rel, "man/%s.1", progs[p]);
		char *man = slurp(rel);
		char *sec = man ? strstr(man, ".SH EXIT STATUS") : NULL;
		snprintf(name, sizeof name, "%s has EXIT STATUS", rel);
		if (!check_true(name, sec != NULL)) {
			free(man);
			continue;
		}
		char *next = strstr(sec + 1, "\n.SH");
		if (next)
			*next = '\0';
		for (const msg_exit *x = msg_exits; x->code >= 0; x++) {
			if (strcmp(x->programs, "all") != 0 && !strstr(x->programs, progs[p]))
				continue;
			char code[16];
			status_cell(code, sizeof code, x->code);
			snprintf(name, sizeof name, "%s EXIT STATUS names %s", rel, code);
			check_true(name, names(sec, code));
		}
		free(man);
	}
	free(doc);
	return check_done();
}
