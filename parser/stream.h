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
 * it.  A part S:n goes to its segment P:n (they share React's segment
 * numbers); else to the boundary a `$RC("B:x","S:n")` call of the page's
 * scripts names; else, on a page without such calls (cut before its
 * scripts), to B:n, the number both often have.
 */
#ifndef PARSE_STREAM_H
#define PARSE_STREAM_H

#include <gumbo.h>
#include <stddef.h>

#include "arena.h"

/* The most parts of one page put in place; later ones are shown where
 * they are.  A page of Next.js streams tens. */
#define STREAM_MAX 1024

/* Moves each streamed part of out (html[0..n) is the page it was parsed
 * from, read only to skip a page without a <template>) into place.  A
 * part and its template swap places (the empty template stays hidden
 * where the part was), so no list of children is rewritten; a
 * boundary's fallback becomes empty comments.  A part whose template
 * lies inside it, or inside a fallback gone, or that has none, stays
 * hidden.  Checking that no part goes inside itself climbs the tree,
 * bounded to a few times the page's nodes in all: parts left when that
 * runs out are shown where they are.  mem (gumbo's arena, reset with
 * the tree) holds the lists of parts and templates.  Returns how many
 * parts were put in place. */
size_t stream_complete(GumboOutput *out, const char *html, size_t n, arena *mem);

#endif
