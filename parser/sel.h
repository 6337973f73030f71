/* sel — a small CSS selector engine over gumbo trees.
 *
 * Supported: type selectors and `*`, `#id`, `.class`, `[attr]`,
 * `[attr=v]`, `[attr^=v]`, `[attr$=v]`, `[attr*=v]`, `[attr~=v]` (v bare
 * or quoted), compounds of those (`a.x[href]`), the descendant (space)
 * and child (`>`) combinators, and `,` lists.  Type and attribute names
 * match case-insensitively (HTML), values case-sensitively.
 *
 * A compiled selector is immutable, so one compile serves every record
 * and every worker (workers inherit it across fork).
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

/* Whether element node (GUMBO_NODE_ELEMENT or GUMBO_NODE_TEMPLATE)
 * matches any selector of the list. */
int sel_match(const sel *s, const GumboNode *node);

#endif
