/* Unit tests of validate's signature table (validator/sig.c): every
 * pattern compiles, every row names a source, and docs/validate.md's
 * table lists the rows in order, cell for cell.  The docs are found
 * from $TESTS (tests/run.sh exports the tests directory), else from the
 * current directory. */
#include "../../validator/sig.h"

#include <stdlib.h>

#include "vre.h"

#define CHECK_PROG "test_sig"
#include "check.h"

#define HEADER "| reason | field | when | pattern | source |\n"

/* The docs' line for row s. */
static void
doc_line(const struct sig *s, char *out, size_t cap)
{
	static const char *const fields[] = {
		[SIG_TITLE] = "title", [SIG_TEXT] = "text", [SIG_DESCRIPTION] = "description",
		[SIG_FINAL_URL] = "final_url", [SIG_BODY] = "body",
	};
	static const char *const conds[] = { "short", "refused", "unasked", "bare" };
	char field[96], when[64] = "", pat[1024];
	if (s->field == SIG_HEADER)
		snprintf(field, sizeof field, "header `%s`", s->header);
	else
		snprintf(field, sizeof field, "`%s`", fields[s->field]);
	for (unsigned b = 0; b < sizeof conds / sizeof conds[0]; b++)
		if (s->when & (1u << b))
			snprintf(when + strlen(when), sizeof when - strlen(when), "%s%s", *when ? ", " : "",
				 conds[b]);
	/* A | ends a cell in a Markdown table, even in a code span. */
	size_t k = 0;
	for (const char *p = s->pattern; *p && k + 3 < sizeof pat; p++) {
		if (*p == '|')
			pat[k++] = '\\';
		pat[k++] = *p;
	}
	pat[k] = '\0';
	snprintf(out, cap, "| `%s` %s | %s | %s | `%s` | %s |\n", s->kind == SIG_BLOCKED ? "blocked" : "consent",
		 s->what, field, *when ? when : "any", pat, s->source);
}

/* docs/validate.md, open at the line after the table's |---| line. */
static FILE *
open_table(void)
{
	const char *dir = getenv("TESTS");
	char path[4096], line[4096];
	snprintf(path, sizeof path, "%s%s", dir ? dir : ".", dir ? "/../docs/validate.md" : "/docs/validate.md");
	FILE *f = fopen(path, "r");
	if (!check_true("docs/validate.md opens", f != NULL)) {
		printf("#   path %s\n", path);
		return NULL;
	}
	while (fgets(line, sizeof line, f))
		if (strcmp(line, HEADER) == 0 && fgets(line, sizeof line, f))
			return f;
	check_true("docs/validate.md has the signature table", 0);
	fclose(f);
	return NULL;
}

int
main(void)
{
	char name[256], err[200];
	for (size_t i = 0; i < sig_count; i++) {
		const struct sig *s = &sig_table[i];
		snprintf(name, sizeof name, "row %zu (%s): the pattern compiles", i + 1, s->what);
		vre *re = vre_compile(s->pattern, err, sizeof err);
		if (!check_true(name, re != NULL))
			printf("#   %s: %s\n", s->pattern, err);
		vre_free(re);
		snprintf(name, sizeof name, "row %zu (%s): a source", i + 1, s->what);
		check_true(name, strncmp(s->source, "https://", 8) == 0);
	}

	vre *login = vre_compile(sig_login_url, err, sizeof err);
	if (check_true("the login URL pattern compiles", login != NULL)) {
		static const struct { const char *url; int login; } urls[] = {
			{ "https://news.example/login?next=%2Fa", 1 },
			{ "https://news.example/users/sign_in", 1 },
			{ "https://accounts.example.com/", 1 },
			{ "https://shop.example/wp-login.php?redirect_to=x", 1 },
			{ "https://news.example/blog/login-tips", 0 },
			{ "https://authors.example/", 0 },
			{ "https://news.example/story/8", 0 },
		};
		for (size_t i = 0; i < sizeof urls / sizeof urls[0]; i++) {
			snprintf(name, sizeof name, "%s %s a login page", urls[i].url, urls[i].login ? "is" : "is not");
			check_int(name, urls[i].login, vre_match(login, urls[i].url, strlen(urls[i].url)));
		}
		vre_free(login);
	}

	FILE *f = open_table();
	if (!f)
		return check_done();
	char want[2048], line[2048];
	size_t i = 0;
	while (fgets(line, sizeof line, f) && line[0] == '|') {
		if (i == sig_count) {
			check_str("docs row beyond the table", "", line);
			break;
		}
		doc_line(&sig_table[i], want, sizeof want);
		snprintf(name, sizeof name, "docs row %zu is validator/sig.c's", i + 1);
		check_str(name, want, line);
		i++;
	}
	fclose(f);
	check_int("docs rows", (long long)sig_count, (long long)i);
	return check_done();
}
