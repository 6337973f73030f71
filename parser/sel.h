/* sel — a small CSS selector engine over gumbo trees.
 *
 * Supported: type selectors and `*`, `#id`, `.class`, `[attr]`,
 * `[attr=v]`, `[attr^=v]`, `[attr$=v]`, `[attr*=v]`, `[attr~=v]` (v bare
 * or quoted), compounds of those (`a.x[href]`), the descendant (space)
 * and child (`>`) combinators, and `,` lists.  Type and attribute names
 * match case-insensitively (HTML), values case-sensitively.
 *
 * A compiled selector is immutable, so one compile serves every record
 * and every worker (workers inherit it across fork).  What matching
 * learns about one document lives in a sel_memo, one per selector and
 * walk: with it a document costs O(elements × compounds), however the
 * descendant combinators nest (plain backtracking is exponential in the
 * number of compounds and polynomial of that degree in the depth).
 */
#ifndef PARSE_SEL_H
#define PARSE_SEL_H

#include <gumbo.h>

typedef struct sel sel;

/* Compiles src.  Returns the selector, or NULL with *pos set to the
 * 0-based byte position of the problem and *why to a static message
 * ("expected a selector", ...). */
sel *sel_compile(const char *src, int *pos, const char **why);
void sel_free(sel *s);

typedef struct sel_memo sel_memo;

/* An empty memo; dies (xalloc_die) when out of memory, like the rest
 * of sel. */
sel_memo *sel_memo_new(void);
void sel_memo_free(sel_memo *m);

/* Readies m for a new walk (a new document) with selector s: forgets
 * everything, in O(1) unless the last document was very deep. */
void sel_memo_reset(sel_memo *m, const sel *s);

/* Whether element node (GUMBO_NODE_ELEMENT or GUMBO_NODE_TEMPLATE)
 * matches any selector of the list.  depth is node's depth in the walk:
 * its parent's depth plus one, the root element's at least 0.  m must
 * have been reset for s before the document's first call.  Calls in
 * document order (any subset of the elements, as a walk makes them) get
 * the bound above; another order is still answered right, only slower.
 * The memo holds (deepest depth + 1) × (compounds + 16) bytes. */
int sel_match(const sel *s, const GumboNode *node, size_t depth, sel_memo *m);

#endif
