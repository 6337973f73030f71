/* kind — what kind of page a document is (parse --main, `page_kind`).
 *
 * The page's schema.org types are the `@type`s of its JSON-LD blocks,
 * as jsonld read them, and its microdata `itemtype`s; one walk over
 * gumbo's tree reads the latter, its og:type and how much code it
 * shows; the rules are in docs/parse.md, "Page kind".
 */
#ifndef PARSE_KIND_H
#define PARSE_KIND_H

#include <gumbo.h>

#include "jsonld.h"

/* The fixed table of kinds; kind_word names each. */
enum {
	KIND_OTHER, KIND_ARTICLE, KIND_FORUM, KIND_PRODUCT, KIND_LISTING,
	KIND_COLLECTION, KIND_DOCS, KIND_SERVICE, KIND_N
};

/* The kind of the document out, whose JSON-LD blocks ld holds, at
 * url[0..un) (NULL: none): a KIND_* value from what the page says of
 * itself, else from what its URL's path names (/t/, /products/,
 * /docs/, ...), else KIND_OTHER.  *typed says whether its schema.org
 * types decided it, rather than its og:type, its markup or its URL
 * (a CMS's default og:type article, an <article> around a teaser). */
int kind_of(const GumboOutput *out, const jsonld *ld, const char *url, size_t un,
	    int *typed);

/* The record's word for kind k ("article", ..., "other"); "other" for a
 * value outside the table. */
const char *kind_word(int k);

/* Whether a page of kind k is made of many parts (a thread's posts, a
 * listing's cards, a product's description and specifications, a
 * service page's sections) rather than one text. */
int kind_parts(int k);

#endif
