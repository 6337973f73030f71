/* Unit tests of parser/sel, the CSS selector engine behind parse
 * --select: what it compiles, what it refuses (with the position and the
 * reason parse prints), and which elements of a small page parsed by
 * gumbo each selector matches, in document order. */
#include "sel.h"

#include <gumbo.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_PROG "test_sel"
#include "check.h"

/* Every element has an id, so a match list reads as ids. */
static const char page[] =
	"<!doctype html><html id=html><head id=head><title id=title>T</title></head>"
	"<body id=body>"
	"<div id=d1 class='card big'>"
	  "<p id=p1 class=card>one <a id=a1 href='/x' rel='nofollow next'>x</a></p>"
	  "<section id=s1><p id=p2 lang=en-GB><a id=a2 href='https://e.org/y.pdf'>y</a></p></section>"
	"</div>"
	"<div id=d2 data-kind=Ad>"
	  "<P ID=p3 class='cards'>three</P>"
	  "<custom-el id=c1 title='a b'><a id=a3 name=n>z</a></custom-el>"
	"</div>"
	"</body></html>";

static GumboOutput *doc;

/* Appends the id of each element under n that s matches to out. */
static void
walk(const sel *s, const GumboNode *n, size_t depth, sel_memo *m, char *out, size_t len)
{
	if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_TEMPLATE)
		return;
	if (sel_match(s, n, depth, m)) {
		const GumboAttribute *id = gumbo_get_attribute(&n->v.element.attributes, "id");
		size_t k = strlen(out);
		snprintf(out + k, len - k, "%s%s", k ? " " : "", id ? id->value : "?");
	}
	const GumboVector *kids = &n->v.element.children;
	for (unsigned i = 0; i < kids->length; i++)
		walk(s, kids->data[i], depth + 1, m, out, len);
}

/* Checks that src compiles and matches exactly the ids in want, in
 * document order (want "" for none). */
static void
matches(const char *src, const char *want)
{
	char name[256], got[512] = "";
	int pos = -1;
	const char *why = NULL;
	sel *s = sel_compile(src, &pos, &why);
	snprintf(name, sizeof name, "'%s' compiles", src);
	if (!check_true(name, s != NULL)) {
		printf("#   at %d: %s\n", pos, why ? why : "(no reason)");
		return;
	}
	sel_memo *m = sel_memo_new();
	sel_memo_reset(m, s);
	walk(s, doc->root, 0, m, got, sizeof got);
	snprintf(name, sizeof name, "'%s' matches", src);
	check_str(name, want, got);
	/* A second walk with the memo reset gives the same answer. */
	char again[512] = "";
	sel_memo_reset(m, s);
	walk(s, doc->root, 0, m, again, sizeof again);
	snprintf(name, sizeof name, "'%s' matches again after a reset", src);
	check_str(name, got, again);
	sel_memo_free(m);
	sel_free(s);
}

/* Checks that src is refused at byte position pos with reason why. */
static void
refused(const char *src, int want_pos, const char *want_why)
{
	char name[256], got[128], want[128];
	int pos = -1;
	const char *why = NULL;
	sel *s = sel_compile(src, &pos, &why);
	snprintf(name, sizeof name, "'%s' is refused", src);
	if (!check_true(name, s == NULL)) {
		sel_free(s);
		return;
	}
	snprintf(want, sizeof want, "%d: %s", want_pos, want_why);
	snprintf(got, sizeof got, "%d: %s", pos, why ? why : "(none)");
	snprintf(name, sizeof name, "'%s': position and reason", src);
	check_str(name, want, got);
}

/* Selectors sel refuses: the byte position and reason parse reports. */
static const struct {
	const char *src;
	int pos;
	const char *why;
} bad[] = {
	{ "", 0, "expected a selector" },
	{ "   ", 3, "expected a selector" },
	{ "a,", 2, "expected a selector" },
	{ ",a", 0, "expected a selector" },
	{ "a >", 3, "expected a selector" },
	{ "> a", 0, "expected a selector" },
	{ "a > > b", 4, "expected a selector" },
	{ "#", 1, "expected a name" },
	{ "a.", 2, "expected a name" },
	{ "[", 1, "expected a name" },
	{ "[href", 5, "expected ']'" },
	{ "[href=]", 6, "expected a value" },
	{ "[href='x]", 9, "unterminated string" },
	{ "[href=/x]", 6, "expected a value" },     /* a bare value is a name */
	{ "[href*=e.org]", 8, "expected ']'" },
	{ "a:not(.x)", 1, "unexpected character" },
	{ "p:first-child", 1, "unexpected character" },
	{ "a + b", 2, "unexpected character" },
	{ "a ~ b", 2, "unexpected character" },
};

int
main(void)
{
	doc = gumbo_parse(page);

	/* Type selectors, case-insensitive; unknown tags by name; '*'. */
	matches("a", "a1 a2 a3");
	matches("P", "p1 p2 p3");
	matches("custom-el", "c1");
	matches("title", "title");
	matches("*", "html head title body d1 p1 a1 s1 p2 a2 d2 p3 c1 a3");

	/* #id and .class: values are case-sensitive, a class is a word. */
	matches("#p2", "p2");
	matches("#P2", "");
	matches(".card", "d1 p1");
	matches(".card.big", "d1");
	matches("p.card", "p1");
	matches(".cards", "p3");
	matches(".car", "");

	/* Attributes: presence, =, ^=, $=, *=, ~=; names case-insensitive,
	 * values bare or quoted and case-sensitive. */
	matches("[href]", "a1 a2");
	matches("a[HREF]", "a1 a2");
	matches("[href='/x']", "a1");
	matches("[data-kind=\"Ad\"]", "d2");
	matches("[data-kind=ad]", "");
	matches("[href^=https]", "a2");
	matches("[href$='.pdf']", "a2");
	matches("[href*='e.org']", "a2");
	matches("[lang=en-GB]", "p2");
	matches("[rel~=next]", "a1");
	matches("[rel~=nex]", "");
	matches("[title~=b]", "c1");
	matches("a[name][id=a3]", "a3");

	/* Combinators: descendant at any depth, child one level only. */
	matches("div a", "a1 a2 a3");
	matches("div > a", "");
	matches("div > p", "p1 p3");
	matches("div p > a", "a1 a2");
	matches("#d1 section a", "a2");
	matches("body > div > custom-el > a", "a3");
	matches("div>p", "p1 p3");
	matches("  div   >   p  ", "p1 p3");
	matches("html div div", "");

	/* Lists: each element once, in document order, whichever matched. */
	matches("a, p", "p1 a1 p2 a2 p3 a3");
	matches("#a3,#p1 , #p1", "p1 a3");
	matches("section, [lang]", "s1 p2");

	/* Refused, with the byte position parse reports. */
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		refused(bad[i].src, bad[i].pos, bad[i].why);

	gumbo_destroy_output(&kGumboDefaultOptions, doc);
	return check_done();
}
