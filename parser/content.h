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
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef struct content content;

/* A reusable extractor; memory grows with the largest page seen (one
 * small entry per element, a fraction of gumbo's own tree). */
content *content_new(void);
void content_free(content *c);

/* What the page's kind tells content_main, as bits. */
enum {
	/* made of many parts rather than one text: a thread's posts, a
	 * listing's cards, a product's sections (kind_parts) */
	CONTENT_PARTS = 1,
	/* the page says nothing of its kind (KIND_OTHER) */
	CONTENT_UNSAID = 2,
	/* a thread: its comments are its posts, not furniture */
	CONTENT_THREAD = 4,
	/* a listing or a collection: its parts are items (content_part) */
	CONTENT_ITEMS = 8,
	/* a manual's page: its <main> holds it whole */
	CONTENT_DOCS = 16,
	/* a product's page: its reviews are not its content */
	CONTENT_PRODUCT = 32,
	/* its kind comes from its og:type, its markup or its URL, not
	 * from its schema.org types (kind_of's typed) */
	CONTENT_UNTYPED = 64,
};

/* Writes the main content's text of the document out to b (reset
 * first), whitespace collapsed as for `text`.  kind: CONTENT_* bits. */
void content_main(content *c, const GumboOutput *out, int kind, pbuf *b);

/* The choice content_main made, for a writer of another form of the
 * same content (markdown.c); valid until the next content_main.
 * content_nroots: how many subtrees main_text was written from (0 when
 * the document has no body); content_root: the i-th, in document
 * order. */
size_t content_nroots(const content *c);
const GumboNode *content_root(const content *c, size_t i);

/* A cursor for content_skipped and content_part over one
 * document-order walk of the roots: start it zeroed. */
typedef struct content_cur { uint32_t el, skip, part; } content_cur;

/* Whether element n, the next element entered in a document-order walk
 * of the roots (the walk may leave out subtrees of its own), was left
 * out of main_text with its subtree as boilerplate. */
int content_skipped(const content *c, content_cur *k, const GumboNode *n);

/* What content_part says of an element. */
enum {
	CONTENT_ITEM = 1,  /* the top of a part: a card, an entry, a section */
	CONTENT_POST = 2,  /* the top of a part of a thread: a post */
};

/* Whether element n, which content_skipped has just looked at with k
 * and not skipped, is the top of one of the parts of a page of parts
 * (its posts or cards: docs/parse.md "Markdown", Parts): CONTENT_POST
 * on a thread, CONTENT_ITEM on a listing or a collection, else 0 (a
 * product's or a service's sections are sections, as they are
 * written).  Amortized O(1) over the walk. */
int content_part(const content *c, content_cur *k, const GumboNode *n);

/* Whether element n is the button (a button, a link or role=button)
 * whose aria-controls names a collapsed panel main_text shows (an
 * accordion's question over its answer): its text is content, though a
 * button is a form control. */
int content_toggle(const content *c, const GumboNode *n);

/* Whether element n is hidden by its attributes (hidden, aria-hidden,
 * display:none or visibility:hidden in style), as main_text reads them:
 * never a role=tabpanel (a tab's panel, which a click shows) or a
 * collapsed panel a button's aria-controls names (content_toggle), and
 * never when c (NULL when there is no main_text) found the content only
 * in hidden elements and read them as shown. */
int content_hidden(const content *c, const GumboNode *n);

#endif
