/* jsonld — a page's JSON-LD blocks, read with jansson, kept as they are
 * and asked for the schema.org facts that parse writes as metadata.
 *
 * Each <script type="application/ld+json"> is one block: an object, or
 * an array of objects, kept for the record's `jsonld` array.  Outside
 * input is bounded before jansson sees it: a block nested deeper than
 * JSONLD_MAX_DEPTH, or one that would take the page's blocks past
 * JSONLD_MAX_BYTES, is skipped, as is one that is not JSON (after the
 * HTML comment or CDATA markers pages wrap it in, and with raw control
 * characters read as spaces, as browsers' JSON-LD readers are lenient
 * there); each skipped block is counted (`jsonld_skipped`).
 */
#ifndef PARSE_JSONLD_H
#define PARSE_JSONLD_H

#include <jansson.h>
#include <msgpack.h>
#include <stddef.h>

#include "buf.h"

/* The bytes of JSON-LD a page may keep, all blocks together: real
 * pages carry a few KiB (a shop's listing with every product, some
 * tens), and jansson's tree costs a few times the text. */
#define JSONLD_MAX_BYTES ((size_t)1 << 20)

/* Arrays and objects nested in a block, its outer array included.  A
 * kept object sits two levels down in the record (its map, `jsonld`'s
 * array), and records nest at most 24 deep (REC_MAX_DEPTH): 16 leaves
 * room, and real JSON-LD nests under 10. */
#define JSONLD_MAX_DEPTH 16

typedef struct jsonld jsonld;

jsonld *jsonld_new(void);
void jsonld_free(jsonld *j);

/* Forgets the page's blocks: before each page. */
void jsonld_reset(jsonld *j);

/* Reads the block s[0..n), the text of one ld+json script: keeps its
 * object or the objects of its array, or counts it skipped.  Blank
 * blocks are neither. */
void jsonld_add(jsonld *j, const char *s, size_t n);

/* Objects kept, and blocks skipped, since the last reset. */
size_t jsonld_count(const jsonld *j);
unsigned jsonld_skipped(const jsonld *j);

/* Packs the kept objects as a msgpack array of maps, in page order: JSON
 * objects as maps, arrays as arrays, numbers as int or float64, null as
 * nil. */
void jsonld_pack(const jsonld *j, msgpack_packer *pk);

/* Calls fn with each schema.org type the kept objects name: every
 * string of every "@type" key, nested objects' too, in page order,
 * except under hasVariant, isRelatedTo and isSimilarTo (a product's
 * variants and its neighbours are not other items the page shows);
 * type[0..n) points into the objects. */
void jsonld_types(const jsonld *j, void (*fn)(void *arg, const char *type, size_t n),
		  void *arg);

/* What schema.org says of the page, from its main entity: the first
 * article-like object (Article and its kinds, BlogPosting,
 * DiscussionForumPosting, a QAPage's Question, Product, Recipe, ...), or
 * failing one the first WebPage; and site_name from the publisher, a
 * WebSite or an Organization.  Strings point into the kept objects
 * (valid until the next reset) or are NULL; references ({"@id": ...})
 * are followed to the page's object of that @id. */
typedef struct jsonld_facts {
	const char *title;        /* headline, else name */
	const char *description;
	const char *published;    /* datePublished, dateCreated, uploadDate */
	const char *modified;     /* dateModified */
	const char *image;        /* image (a URL, an ImageObject's, the first) */
	const char *site_name;
	const char *lang;         /* inLanguage */
	const json_t *keywords;   /* a string or an array of them */
	pbuf author;              /* the names of people, ", " between */
	pbuf author_org;          /* the names of organizations as author */
	int is_main;              /* the main entity is article-like, not a WebPage */
} jsonld_facts;

/* An empty f, and its buffers freed: f can be filled again after
 * init, freed once after the last fill. */
void jsonld_facts_init(jsonld_facts *f);
void jsonld_facts_free(jsonld_facts *f);

/* Fills f (reset first) from the objects kept. */
void jsonld_read(const jsonld *j, jsonld_facts *f);

#endif
