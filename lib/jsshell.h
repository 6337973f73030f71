/* jsshell — the one rule for "this page is a JavaScript shell": its
 * visible text is shorter than a threshold, since a page that renders in
 * JavaScript leaves almost no text in its static HTML.  validate's
 * js_shell reason (on parse's `text`) and render --only-shells (on a
 * fetched `body`, before any parse) both apply it here.
 */
#ifndef SLUICE_JSSHELL_H
#define SLUICE_JSSHELL_H

#include <stddef.h>

/* Characters of text s (n bytes): the bytes that do not continue a
 * UTF-8 sequence, so a stray invalid byte counts as one.  The measure
 * the rule compares. */
size_t jsshell_chars(const char *s, size_t n);

/* Whether text (n bytes, parse's `text`) makes a shell: min > 0 and
 * fewer than min characters.  *chars gets the count (may be NULL). */
int jsshell_text(const char *text, size_t n, long min, size_t *chars);

/* The same rule on an HTML body: its text approximated without a parser
 * (parse's rules: nothing inside head, title, script, style, noscript
 * or template; tags are whitespace, whitespace runs one space, an
 * entity one character).  Bounded: one pass over the n bytes. */
int jsshell_html(const char *html, size_t n, long min);

#endif
