/* Selector compile + match: the first line is the selector, the rest an
 * HTML page it is matched against, element by element. */
#include "fuzz.h"

#include <gumbo.h>
#include <stdlib.h>
#include <string.h>

#include "sel.h"

static void
walk(const sel *s, const GumboNode *n)
{
	if (n->type != GUMBO_NODE_ELEMENT && n->type != GUMBO_NODE_TEMPLATE)
		return;
	sel_match(s, n);
	const GumboVector *kids = &n->v.element.children;
	for (unsigned i = 0; i < kids->length; i++)
		walk(s, kids->data[i]);
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
		walk(s, g->root);
		gumbo_destroy_output(&o, g);
	}
	sel_free(s);
	free(src);
	return 0;
}
