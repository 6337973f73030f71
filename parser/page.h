/* page — turn one input record into one output record.
 *
 * HTML records (by ctype, or sniffed when ctype is missing) are decoded,
 * parsed with gumbo and extracted; sitemaps.org XML (sitemap.h) gives
 * `links` and `sitemap`; every other record, and every record that
 * already carries `error`, passes through byte for byte.  The same
 * code runs in-process (-j0, --html) and in each -j worker.
 */
#ifndef PARSE_PAGE_H
#define PARSE_PAGE_H

#include <msgpack.h>
#include <stddef.h>

#include "extract.h"
#include "rec.h"

/* gumbo has no version macro or function, and the Makefile (shared, not
 * ours to change) does not pass pkg-config's modversion; keep this in
 * step with the libgumbo-dev the build uses (Debian bookworm: 0.10.1). */
#define PAGE_GUMBO_VERSION "0.10.1"
#define PAGE_PARSER "parse/" SLUICE_VERSION " gumbo/" PAGE_GUMBO_VERSION

/* Bounds gumbo's error list: it is never read, and unbounded it costs
 * memory and time on very broken pages. */
#define PAGE_MAX_ERRORS 100

typedef struct page_opts {
	int keep_body;        /* --keep-body */
	int no_text;          /* --no-text */
	int main;             /* --main: main_text */
	int markdown;         /* --markdown: markdown */
	size_t max_mem;       /* --max-parse-memory: bytes of parse tree; 0: no cap */
	const ex_field *fields;
	int nfields;
} page_opts;

typedef struct page page;

/* A processor for records with opts (which must outlive it); NULL when
 * out of memory. */
page *page_new(const page_opts *opts);
void page_free(page *p);

/* Writes the output record for input in (whose packed bytes are
 * raw[0..rawn)) to o.  A page whose parse tree would pass opts->max_mem
 * bytes is written as its input plus parse_error "too_large", with a
 * message naming its URL.  Returns 0, or -1 with errno when o's write
 * failed. */
int page_process(page *p, const char *raw, size_t rawn, const msgpack_object *in,
		 rec_out *o);

/* Whether record in would be parsed as HTML (else it passes through). */
int page_is_html(const msgpack_object *in);

#endif
