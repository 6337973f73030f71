/* Selector compile + match: the first line is the selector, the rest an
 * HTML page it is matched against, element by element. */
#include "fuzz.h"

#include <gumbo.h>
#include <stdlib.h>
#include <string.h>

#include "sel.h"

/* Matches every element in document order, as parse's walk does.
 * Recursion is as deep as gumbo's tree, which the input's size bounds. */
static void
walk(const sel *s, const GumboNode *n, size_t depth, sel_memo *m)
{
	if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_TEMPLATE)
		return;
	sel_match(s, n, depth, m);
	const GumboVector *kids = &n->v.element.children;
	for (unsigned i = 0; i < kids->length; i++)
		walk(s, kids->data[i], depth + 1, m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	const char *nl = memchr(d, '\n', size);
	size_t slen = nl ? (size_t)(nl - d) : size;
	char *src = strndup(d, slen);
	int pos;
	const char *why;
	sel *s = src ? sel_compile(src, &pos, &why) : NULL;
	if (s && nl) {
		GumboOptions o = kGumboDefaultOptions;
		o.max_errors = 100;
		GumboOutput *g = gumbo_parse_with_options(&o, nl + 1, size - slen - 1);
		sel_memo *m = sel_memo_new();
		sel_memo_reset(m, s);
		walk(s, g->root, 0, m);
		sel_memo_free(m);
		gumbo_destroy_output(&o, g);
	}
	sel_free(s);
	free(src);
	return 0;
}
