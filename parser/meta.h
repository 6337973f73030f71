/* meta — the page's own facts: its title, author, dates, site name,
 * language, description, image and keywords, and its JSON-LD.
 *
 * Read from the sources a page gives, each key from the most trusted
 * source that has it (docs/parse.md, "Metadata", is the order): JSON-LD
 * (jsonld.h), microdata (itemprop), OpenGraph and article:, Twitter
 * cards, other <meta> names (Dublin Core, citation_, parsely-, ...),
 * then the page itself: <time datetime>, the byline and the date near
 * the title heading.  One walk over gumbo's tree, after ex_walk (whose
 * <title>, <html lang> and description it starts from); always on, so
 * it costs a few percent of parse at most.
 */
#ifndef PARSE_META_H
#define PARSE_META_H

#include <gumbo.h>
#include <stddef.h>

#include "extract.h"
#include "jsonld.h"
#include "links.h"
#include "rec.h"

typedef struct meta meta;

meta *meta_new(void);
void meta_free(meta *m);

/* Reads the metadata of the document out, whose ex_walk filled r.
 * url[0..un) is its document URL (the site's name in its host name
 * helps find a title's site name); fetched is when it was fetched (Unix
 * seconds, 0 for now): a date more than a day after it is not believed.
 * The values point into the tree: meta_put before it is freed. */
void meta_read(meta *m, const GumboOutput *out, const ex_result *r, const char *url,
	       size_t un, double fetched);

/* Puts the keys found into b: title, lang, description, author,
 * published, modified, site_name, image (made absolute by links, whose
 * base is the page's), keywords, jsonld and jsonld_skipped; a key
 * without a value is left out. */
void meta_put(meta *m, rec_build *b, lnk *links);

/* The page's JSON-LD as meta_read read it (until the next meta_read):
 * page kinds take its types from it rather than parse it again. */
const jsonld *meta_jsonld(const meta *m);

#endif
