/* stream — the parts of a page that React streams (Suspense), put where
 * the page's scripts would put them.
 *
 * A server rendering React in streaming mode sends a placeholder first
 * and each part when it is ready, at the end of the body, in a
 * <div hidden id="S:n">; a script then moves the part into place:
 *   - a segment replaces its <template id="P:n">;
 *   - a boundary's part replaces its fallback ("Loading..."): the
 *     <template id="B:n"> and what follows it up to the boundary's
 *     closing comment <!--/$-->.
 * A reader without scripts sees the fallback and loses the part (an
 * article's later sections, a product's description).  stream_complete
 * does what the script does, before anything reads the tree, so text,
 * metadata, main content and Markdown read the page as a browser shows
 * it.  A part is paired with the template of the same number, as React
 * numbers them ($RC("B:0","S:0") in Next.js's pages), so a page cut
 * before its scripts is read the same.
 */
#ifndef PARSE_STREAM_H
#define PARSE_STREAM_H

#include <gumbo.h>
#include <stddef.h>

#include "arena.h"

/* The most parts of one page put in place; later ones stay hidden.  A
 * page of Next.js streams tens. */
#define STREAM_MAX 1024

/* Moves each streamed part of out (html[0..n) is the page it was parsed
 * from, read only to see whether it may have any) into place, the new
 * child lists allocated from mem (gumbo's arena: reset with the tree).
 * A part whose template lies inside the part itself stays hidden; the
 * work is bounded by the page's size, however its parts and templates
 * are laid out.  Returns how many parts were put in place. */
size_t stream_complete(GumboOutput *out, const char *html, size_t n, arena *mem);

#endif
