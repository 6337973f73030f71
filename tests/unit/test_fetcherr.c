/* Unit tests of lib/fetcherr: the table of fetch's error words against
 * docs/records.md's "The `error` vocabulary" table, row for row (word,
 * meaning, retried, body), with no word missing from either; and the
 * lookups fetch uses.  The docs are found from $TESTS (tests/run.sh
 * exports the tests directory), else from the current directory. */
#include "fetcherr.h"

#include <stdlib.h>

#define CHECK_PROG "test_fetcherr"
#include "check.h"

#define HEADER "| error | meaning | retried | body |"
#define MAX_ROWS 64

/* The docs' "retried" cell for r. */
static const char *
retry_cell(enum fetcherr_retry r)
{
	switch (r) {
	case FETCHERR_RETRIED: return "yes";
	case FETCHERR_FINAL: return "no";
	case FETCHERR_UNSENT: return "no, never requested";
	case FETCHERR_VERDICT: return "—";
	}
	return "?";
}

typedef struct doc_row {
	char *cell[4];           /* word (backticks removed), meaning, retried, body */
} doc_row;

/* Strips surrounding spaces from s in place. */
static char *
trim(char *s)
{
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

/* Splits one table line "| a | b | c | d |" into r; returns 0, or -1
 * when it has not four cells. */
static int
split(char *line, doc_row *r)
{
	if (line[0] != '|')
		return -1;
	char *p = line + 1;
	for (int i = 0; i < 4; i++) {
		char *bar = strchr(p, '|');
		if (!bar)
			return -1;
		*bar = '\0';
		r->cell[i] = strdup(trim(p));
		p = bar + 1;
	}
	if (*trim(p))
		return -1;
	char *w = r->cell[0];
	size_t n = strlen(w);
	if (n >= 2 && w[0] == '`' && w[n - 1] == '`') {
		memmove(w, w + 1, n - 2);
		w[n - 2] = '\0';
	}
	return 0;
}

/* Reads the vocabulary table's rows into rows; returns their number, or
 * -1 when the file or the table's header is not found. */
static int
read_docs(doc_row *rows)
{
	const char *dir = getenv("TESTS");
	char path[4096];
	snprintf(path, sizeof path, "%s", dir ? dir : ".");
	strncat(path, dir ? "/../docs/records.md" : "/docs/records.md",
		sizeof path - strlen(path) - 1);
	FILE *f = fopen(path, "r");
	if (!check_true("docs/records.md opens", f != NULL)) {
		printf("#   path %s\n", path);
		return -1;
	}
	char line[2048];
	int in = 0, n = 0;
	while (fgets(line, sizeof line, f)) {
		if (!in) {
			if (strncmp(line, "### The `error` vocabulary", 26) == 0)
				in = 1;
			continue;
		}
		if (in == 1) {
			if (line[0] == '|') {
				if (!check_str("table header", HEADER, trim(line)))
					break;
				in = 2;
			}
			continue;
		}
		if (in == 2) {          /* the |---| line */
			in = 3;
			continue;
		}
		if (line[0] != '|' || n == MAX_ROWS)
			break;
		if (!check_true("row has four cells", split(line, &rows[n]) == 0)) {
			printf("#   line %s", line);
			continue;
		}
		n++;
	}
	fclose(f);
	return in == 3 ? n : -1;
}

int
main(void)
{
	doc_row rows[MAX_ROWS];
	int n = read_docs(rows);
	check_true("the vocabulary table is found", n > 0);
	char name[256];

	/* Every row of the docs is the table's row of that word, in order. */
	int last = 0;
	for (int i = 0; i < n; i++) {
		const doc_row *d = &rows[i];
		int e = 1;
		while (e < FETCHERR_COUNT && strcmp(fetcherr_table[e].word, d->cell[0]) != 0)
			e++;
		snprintf(name, sizeof name, "docs word '%s' is in lib/fetcherr.c", d->cell[0]);
		if (!check_true(name, e < FETCHERR_COUNT))
			continue;
		const fetcherr_row *t = &fetcherr_table[e];
		snprintf(name, sizeof name, "%s: meaning", t->word);
		check_str(name, t->meaning, d->cell[1]);
		snprintf(name, sizeof name, "%s: retried", t->word);
		check_str(name, retry_cell(t->retry), d->cell[2]);
		snprintf(name, sizeof name, "%s: body", t->word);
		check_str(name, t->body ? "kept" : "no", d->cell[3]);
		snprintf(name, sizeof name, "%s: after the row above, as in enum fetcherr", t->word);
		check_true(name, e > last);
		last = e;
	}

	/* Every word of the table is in the docs, once. */
	for (int e = FETCHERR_NONE + 1; e < FETCHERR_COUNT; e++) {
		int seen = 0;
		for (int i = 0; i < n; i++)
			seen += strcmp(rows[i].cell[0], fetcherr_table[e].word) == 0;
		snprintf(name, sizeof name, "'%s' is in docs/records.md once",
			 fetcherr_table[e].word ? fetcherr_table[e].word : "(no word)");
		check_int(name, 1, seen);
	}
	check_int("as many rows as words", FETCHERR_COUNT - 1, n);

	/* The lookups fetch uses. */
	check_str("no word for FETCHERR_NONE", NULL, fetcherr_word(FETCHERR_NONE));
	check_str("word of FETCHERR_PRIVATE_ADDRESS", "private_address",
		  fetcherr_word(FETCHERR_PRIVATE_ADDRESS));
	check_true("FETCHERR_NONE is not retried", !fetcherr_retried(FETCHERR_NONE));
	check_true("timeout is retried", fetcherr_retried(FETCHERR_TIMEOUT));
	check_true("dns is not retried", !fetcherr_retried(FETCHERR_DNS));
	check_true("a success keeps its body", fetcherr_body(FETCHERR_NONE));
	check_true("retry_after keeps its body", fetcherr_body(FETCHERR_RETRY_AFTER));
	check_true("reset keeps no body", !fetcherr_body(FETCHERR_RESET));

	for (int i = 0; i < n; i++)
		for (int c = 0; c < 4; c++)
			free(rows[i].cell[c]);
	return check_done();
}
