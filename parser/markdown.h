/* md — the Markdown of a page (parse --markdown).
 *
 * One more walk over gumbo's tree, after content_main when there is
 * one, writes CommonMark (GitHub's tables where the page has a data
 * table): headings, paragraphs, emphasis, links and images made
 * absolute, lists, block quotes, fenced code, tables, hard breaks.  The
 * walk is iterative (its stack on the heap), containers nest at most
 * MD_MAX_BOX deep, and the output stops at a block boundary before a
 * cap the caller gives, so neither a deep nor a hostile page costs more
 * than its size says.  The rules are in docs/parse.md ("Markdown").
 */
#ifndef PARSE_MARKDOWN_H
#define PARSE_MARKDOWN_H

#include <gumbo.h>
#include <stddef.h>

#include "content.h"
#include "links.h"

/* Block quotes and list items nested deeper than this are written at
 * this depth: each level costs every line a prefix. */
#define MD_MAX_BOX 16

typedef struct md md;

/* What md_render needs of one page.  The tree and everything else must
 * stay valid for the call. */
typedef struct md_page {
	const GumboOutput *out;
	const content *ct;     /* after content_main: render its choice; NULL: the body */
	lnk *links;            /* base set (lnk_begin, lnk_base): resolves hrefs and srcs */
	const char *title;     /* NULL: none */
	size_t title_len;
	size_t max;            /* most bytes of Markdown to write */
} md_page;

/* A reusable writer; its buffers grow with the largest page seen.
 * Dies through xalloc when out of memory. */
md *md_new(void);
void md_free(md *m);

/* Writes the Markdown of pg; *s and *n are valid until the next call.
 * The title goes first as a level-1 heading unless the content starts
 * with a heading that is the title, or is one of them with a site's or
 * a section's name added to it ("Heading | Site"). */
void md_render(md *m, const md_page *pg, const char **s, size_t *n);

#endif
