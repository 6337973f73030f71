/* noscript — a page's <noscript>s read as a browser with scripts reads
 * them, where gumbo would read them otherwise.
 *
 * A browser runs scripts, so it reads a <noscript>'s content as text up
 * to the first "</noscript".  gumbo reads it as markup, as a browser
 * without scripts does.  Read as markup, the content can open what only
 * its own end closes: an element whose content is text (iframe, style,
 * textarea, ...) or a comment.  When that end is not before the
 * "</noscript", gumbo reads the rest of the page as that element's text:
 * "<noscript><iframe src=x /></noscript>" (an iframe is never
 * self-closing) turns a whole page into one iframe's text.  A browser
 * shows none of a noscript's content, so noscript_mend blanks it from
 * that opening to the "</noscript", and the page parses as a browser
 * shows it.  (A noscript whose end tag gumbo ignores because an element
 * opened in it is still open, "<noscript><div></noscript>", is read by
 * ex_is_hidden instead: gumbo still reads the page after it as markup.)
 */
#ifndef PARSE_NOSCRIPT_H
#define PARSE_NOSCRIPT_H

#include <stddef.h>

#include "buf.h"

/* The first end tag "</" name (name[0..len), lowercase) in [p, end),
 * ignoring case, or NULL: where the tokenizer ends an element of
 * text. */
const char *noscript_find_end(const char *p, const char *end, const char *name, size_t len);

/* html[0..n), or when a <noscript> of it needs mending, a copy in copy
 * (reset first) of the same length with the content that gumbo would
 * read past the noscript's end blanked to spaces.  The scan skips
 * comments and elements of text (a "<noscript>" in a script is no
 * noscript) and is linear in n. */
const char *noscript_mend(const char *html, size_t n, pbuf *copy);

#endif
