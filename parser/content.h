/* content — the main content of an article-like page (parse --main).
 *
 * One walk over gumbo's tree records every element's text length, link
 * text, punctuation and boilerplate hints; a readability-style score
 * over paragraphs picks the block that holds the article, which a strong
 * hint around it (schema.org articleBody, <article>) widens; its text is
 * then written without the boilerplate inside it (navigation, comments,
 * share bars, cookie banners, related lists, link-dense blocks).  A page with no such block (a listing, a form)
 * gives the body's text.  The rules are in docs/parse.md.
 */
#ifndef PARSE_CONTENT_H
#define PARSE_CONTENT_H

#include <gumbo.h>

#include "buf.h"

typedef struct content content;

/* A reusable extractor; memory grows with the largest page seen (one
 * small entry per element, a fraction of gumbo's own tree). */
content *content_new(void);
void content_free(content *c);

/* Writes the main content's text of the document out to b (reset
 * first), whitespace collapsed as for `text`. */
void content_main(content *c, const GumboOutput *out, pbuf *b);

#endif
