/* Unit tests of lib/jsshell: the JavaScript-shell rule validate applies
 * to parse's text and render --only-shells to a fetched body. */
#include "jsshell.h"

#include <stdio.h>
#include <string.h>

#define CHECK_PROG "test_jsshell"
#include "check.h"

/* jsshell_html with a threshold of one more or one fewer character than
 * want: is the HTML's text exactly want characters long? */
static void
check_len(const char *name, const char *html, long want)
{
	size_t n = strlen(html);
	char a[128], b[128];
	snprintf(a, sizeof a, "%s: shorter than %ld", name, want + 1);
	snprintf(b, sizeof b, "%s: not shorter than %ld", name, want);
	check_int(a, 1, jsshell_html(html, n, want + 1));
	check_int(b, 0, jsshell_html(html, n, want));
}

int
main(void)
{
	check_int("chars: UTF-8 code points", 5, (long long)jsshell_chars("h\xc3\xa9llo", 6));
	check_int("chars: an invalid lead byte counts as one", 2,
		  (long long)jsshell_chars("\xff" "x", 2));
	size_t c = 0;
	check_int("text: 3 chars < 4 is a shell", 1, jsshell_text("abc", 3, 4, &c));
	check_int("text: the count", 3, (long long)c);
	check_int("text: 3 chars, threshold 3: not a shell", 0, jsshell_text("abc", 3, 3, NULL));
	check_int("text: threshold 0 is off", 0, jsshell_text("", 0, 0, NULL));
	check_int("text: no text at all is a shell", 1, jsshell_text(NULL, 0, 1, NULL));

	check_len("plain words", "<p>hello world</p>", 11);
	check_len("head, title, script, style, noscript, template hidden",
		  "<html><head><title>T</title><style>p{}</style></head><body>"
		  "<script>var x = '<p>no</p>';</script><noscript>enable js</noscript>"
		  "<template><p>later</p></template><div id=app>ab</div></body></html>", 2);
	check_len("tags separate words, whitespace runs are one space",
		  "<p>a</p>\n\n   <p>b</p>", 3);
	check_len("an entity is one character", "<p>&amp;&#233;x</p>", 3);
	check_len("comments are not text", "<!-- a long comment -->ab", 2);
	check_len("an empty body", "", 0);
	check_len("the bound reached on a space between words", "<p>ab cd</p>", 5);
	check_int("html: the bound reached on a space between words is no shell", 0,
		  jsshell_html("<p>ab cd</p>", 12, 3));
	check_int("html: threshold 0 is off", 0, jsshell_html("", 0, 0));
	return check_done();
}
