#include "page.h"

#include <string.h>
#include <strings.h>

#include "arena.h"
#include "charset.h"
#include "content.h"
#include "dedup.h"
#include "kind.h"
#include "links.h"
#include "markdown.h"
#include "meta.h"
#include "msg.h"
#include "noscript.h"
#include "sitemap.h"
#include "stream.h"
#include "tm.h"
#include "tree.h"

/* A body without a ctype is HTML when one of the tags browsers' sniffing
 * looks for is in its first PAGE_SNIFF bytes ("Which records are parsed"
 * in docs/parse.md). */
#define PAGE_SNIFF 512

struct page {
	const page_opts *opts;
	lnk *links;
	ex_result ex;
	pbuf utf8;       /* decoded body when it is not UTF-8 already */
	pbuf mended;     /* the page with a noscript mended (noscript_mend) */
	pbuf scratch;    /* collapsed attribute values and field text */
	rec_build b;
	arena mem;       /* gumbo's tree: reset after each page */
	sitemap *sm;     /* sitemaps.org XML records */
	content *ct;     /* --main */
	pbuf main;       /* main_text */
	md *md;          /* --markdown */
	pbuf norm;       /* main_text normalized for its hashes */
	meta *meta;      /* title, author, dates, jsonld, ... */
};

static const char *const page_drop_body[] = { "body", NULL };

page *
page_new(const page_opts *opts)
{
	page *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->opts = opts;
	p->links = lnk_new();
	p->sm = sitemap_new();
	p->ct = content_new();
	p->md = md_new();
	p->meta = meta_new();
	if (!p->links || !p->sm) {
		page_free(p);
		return NULL;
	}
	ex_init(&p->ex);
	pbuf_init(&p->utf8);
	pbuf_init(&p->mended);
	pbuf_init(&p->scratch);
	pbuf_init(&p->main);
	pbuf_init(&p->norm);
	rec_build_init(&p->b);
	arena_init(&p->mem);
	return p;
}

void
page_free(page *p)
{
	if (!p)
		return;
	lnk_free(p->links);
	sitemap_free(p->sm);
	content_free(p->ct);
	md_free(p->md);
	meta_free(p->meta);
	pbuf_free(&p->main);
	pbuf_free(&p->norm);
	ex_free(&p->ex);
	pbuf_free(&p->utf8);
	pbuf_free(&p->mended);
	pbuf_free(&p->scratch);
	rec_build_free(&p->b);
	arena_free(&p->mem);
	free(p);
}

/* Whether body looks like HTML (PAGE_SNIFF). */
static int
page_sniff(const char *s, size_t n)
{
	static const char *const marks[] = {
		"<html", "<!doctype html", "<head", "<body", "<title",
	};
	if (n > PAGE_SNIFF)
		n = PAGE_SNIFF;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '<')
			continue;
		for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++) {
			size_t m = strlen(marks[k]);
			if (i + m <= n && strncasecmp(s + i, marks[k], m) == 0)
				return 1;
		}
	}
	return 0;
}

int
page_is_html(const msgpack_object *in)
{
	const char *body, *ct;
	size_t bn, ctn;
	/* A recrawl's 304 has no body to parse, whatever it carries. */
	if (rec_get(in, "error") || rec_not_modified(in) || !rec_str(in, "body", &body, &bn))
		return 0;
	if (rec_str(in, "ctype", &ct, &ctn) && ctn > 0)
		return pbuf_prefix(ct, ctn, "text/html") ||
		       pbuf_prefix(ct, ctn, "application/xhtml+xml");
	return page_sniff(body, bn);
}

/* The Content-Type to take a charset from: ctype when it names one,
 * else headers["content-type"], else ctype. */
static void
page_ctype(const msgpack_object *in, const char **ct, size_t *ctn)
{
	const char *v;
	size_t vn;
	*ct = NULL, *ctn = 0;
	if (rec_str(in, "ctype", ct, ctn) && cs_ctype_param(*ct, *ctn, &v, &vn))
		return;
	const msgpack_object *h = rec_get(in, "headers");
	const char *hs;
	size_t hn;
	if (h && rec_str(h, "content-type", &hs, &hn))
		*ct = hs, *ctn = hn;
}

/* Puts key with v collapsed (and lowercased when lower), if v is set. */
static void
page_put_attr(page *p, const char *key, const char *v, int lower)
{
	if (!v)
		return;
	pbuf_reset(&p->scratch);
	pbuf_text(&p->scratch, v, strlen(v));
	if (lower)
		for (size_t i = 0; i < p->scratch.len; i++)
			if (p->scratch.p[i] >= 'A' && p->scratch.p[i] <= 'Z')
				p->scratch.p[i] = (char)(p->scratch.p[i] + 32);
	rec_put_strn(&p->b, key, p->scratch.p, p->scratch.len);
}

/* Packs s[0..n) as a msgpack str. */
static void
page_pack_str(msgpack_packer *pk, const char *s, size_t n)
{
	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, s, n);
}

/* Packs the value of one selector match: its attribute or its text. */
static void
page_pack_match(page *p, msgpack_packer *pk, const ex_field *f, const GumboNode *n)
{
	if (f->attr) {
		const char *v = tree_attr(n, f->attr);
		if (v)
			page_pack_str(pk, v, strlen(v));
		else
			msgpack_pack_nil(pk);
		return;
	}
	pbuf_reset(&p->scratch);
	ex_text(&p->scratch, n);
	page_pack_str(pk, p->scratch.p, p->scratch.len);
}

/* Puts `fields`: each -f name with its first match (absent when none),
 * each -F name with the array of all matches, in command-line order. */
static void
page_put_fields(page *p)
{
	const page_opts *o = p->opts;
	const ex_result *r = &p->ex;
	uint32_t n = 0;
	for (int i = 0; i < o->nfields; i++)
		n += o->fields[i].all || r->done[i];
	msgpack_packer *pk = rec_key(&p->b, "fields");
	msgpack_pack_map(pk, n);
	for (int i = 0; i < o->nfields; i++) {
		const ex_field *f = &o->fields[i];
		if (!f->all && !r->done[i])
			continue;
		page_pack_str(pk, f->name, strlen(f->name));
		uint32_t count = 0;
		for (size_t k = 0; k < r->nm; k++)
			count += r->m[k].field == i;
		if (f->all)
			msgpack_pack_array(pk, count);
		for (size_t k = 0; k < r->nm; k++)
			if (r->m[k].field == i)
				page_pack_match(p, pk, f, r->m[k].node);
	}
}

/* The message for a page whose tree passed --max-parse-memory max. */
static void
page_warn_over(const char *url, size_t un, size_t max)
{
	int mib = max % ((size_t)1 << 20) == 0;
	msg_warn("%.*s: too_large: parse tree over %zu %s (--max-parse-memory)", (int)un,
		 url ? url : "", mib ? max >> 20 : max, mib ? "MiB" : "bytes");
}

/* gumbo's tree of html[0..hn) in p->mem, or NULL: *over set when the
 * tree passed opts->max_mem (the arena jumped back here mid-parse). */
static GumboOutput *
page_gumbo(page *p, const char *html, size_t hn, int *over)
{
	GumboOptions gopt = kGumboDefaultOptions;
	gopt.max_errors = PAGE_MAX_ERRORS;
	gopt.allocator = arena_alloc;
	gopt.deallocator = arena_dealloc;
	gopt.userdata = &p->mem;
	jmp_buf jb;
	if (p->opts->max_mem) {
		p->mem.cap = p->opts->max_mem;
		p->mem.over = &jb;
		if (setjmp(jb)) {
			p->mem.over = NULL;
			*over = 1;
			return NULL;
		}
	}
	GumboOutput *g = gumbo_parse_with_options(&gopt, html, hn);
	p->mem.over = NULL;
	return g;
}

/* The document URL of in: final_url, else url; NULL when neither. */
static void
page_url(const msgpack_object *in, const char **url, size_t *un)
{
	if (!rec_str(in, "final_url", url, un) || *un == 0)
		if (!rec_str(in, "url", url, un))
			*url = NULL, *un = 0;
}

/* The Markdown of a page gives at most this many bytes over twice its
 * decoded size (escapes double some characters, links get longer once
 * made absolute): the cap that keeps a hostile page's Markdown in
 * proportion to the page, which --max-record bounds. */
#define PAGE_MD_SLACK ((size_t)64 << 10)

/* Puts `markdown`: of the main content under --main (content_main has
 * run), else of the body.  Before arena_reset: it reads the tree. */
static void
page_markdown(page *p, const GumboOutput *g, size_t hn)
{
	const ex_result *r = &p->ex;
	md_page pg = {
		.out = g, .ct = p->opts->main ? p->ct : NULL, .links = p->links,
		.title = r->has_title ? r->title.p : NULL, .title_len = r->has_title ? r->title.len : 0,
		.max = 2 * hn + PAGE_MD_SLACK,
	};
	const char *s;
	size_t n;
	md_render(p->md, &pg, &s, &n);
	rec_put_strn(&p->b, "markdown", s, n);
}

/* A record that is not HTML: a sitemap's or a robots.txt's links and
 * `sitemap` map, its input plus parse_error when it is a sitemap parse
 * could not read, or else the input byte for byte. */
static int
page_other(page *p, const char *raw, size_t rawn, const msgpack_object *in, rec_out *o)
{
	double t0 = tm_mono();
	const char *url;
	size_t un;
	page_url(in, &url, &un);
	rec_build_reset(&p->b);
	int rc = sitemap_robots(p->links, &p->b, in, url, un);
	if (rc == SITEMAP_NOT && !sitemap_candidate(in))
		return rec_out_put(o, raw, rawn);
	if (rc == SITEMAP_NOT)
		rc = sitemap_put(p->sm, p->links, &p->b, in, url, un);
	if (rc == SITEMAP_NOT)
		return rec_out_put(o, raw, rawn);
	if (rc == SITEMAP_ERR)
		return rec_out_build(o, &p->b, in, NULL);
	rec_put_str(&p->b, "parser", sitemap_parser());
	rec_put_double(&p->b, "parse_ms", (tm_mono() - t0) * 1000);
	return rec_out_build(o, &p->b, in, p->opts->keep_body ? NULL : page_drop_body);
}

/* content_hash and simhash of main_text (dedup.h), for sink's dup_of. */
static void
page_put_hashes(page *p)
{
	char hex[65], sim[17];
	dedup_normalize(&p->norm, p->main.p ? p->main.p : "", p->main.len);
	if (dedup_sha256_hex(p->norm.p, p->norm.len, hex) == 0)
		rec_put_str(&p->b, "content_hash", hex);
	dedup_hex64(dedup_simhash(p->norm.p, p->norm.len), sim);
	rec_put_str(&p->b, "simhash", sim);
}

int
page_process(page *p, const char *raw, size_t rawn, const msgpack_object *in,
	     rec_out *o)
{
	if (!page_is_html(in))
		return page_other(p, raw, rawn, in, o);

	double t0 = tm_mono();
	const char *body, *ct, *html, *url;
	size_t bn, ctn, hn, un;
	rec_str(in, "body", &body, &bn);
	page_ctype(in, &ct, &ctn);
	cs_decode(body, bn, ct, ctn, &p->utf8, &html, &hn);
	html = noscript_mend(html, hn, &p->mended);

	int over = 0;
	GumboOutput *g = page_gumbo(p, html, hn, &over);
	rec_build *b = &p->b;
	rec_build_reset(b);
	page_url(in, &url, &un);
	if (!g) {
		arena_reset(&p->mem);
		if (over)
			page_warn_over(url, un, p->opts->max_mem);
		rec_put_str(b, "parse_error", over ? "too_large" : "gumbo could not parse the page");
		return rec_out_build(o, b, in, NULL);
	}
	const page_opts *opt = p->opts;
	ex_result *r = &p->ex;
	stream_complete(g, html, hn, &p->mem);
	ex_walk(r, g, opt->fields, opt->nfields, !opt->no_text);

	lnk_begin(p->links, url, un);
	if (r->base)
		lnk_base(p->links, r->base);

	double fetched = 0;
	rec_double(in, "fetched_at", &fetched);
	meta_read(p->meta, g, r, url, un, fetched);
	meta_put(p->meta, b, p->links);
	const char *s;
	size_t sn;
	for (size_t i = 0; i < r->nhrefs; i++)
		if (lnk_resolve(p->links, r->hrefs[i], &s, &sn))
			lnk_add(p->links, s, sn);
	msgpack_packer *pk = rec_key(b, "links");
	size_t nl = lnk_count(p->links);
	msgpack_pack_array(pk, (uint32_t)nl);
	for (size_t i = 0; i < nl; i++) {
		lnk_get(p->links, i, &s, &sn);
		page_pack_str(pk, s, sn);
	}
	if (r->canonical && lnk_resolve(p->links, r->canonical, &s, &sn))
		rec_put_strn(b, "canonical", s, sn);
	page_put_attr(p, "meta_robots", r->robots, 1);
	if (!opt->no_text)
		rec_put_strn(b, "text", r->text.p ? r->text.p : "", r->text.len);
	if (opt->main) {
		int typed;
		int k = kind_of(g, meta_jsonld(p->meta), url, un, &typed);
		content_main(p->ct, g,
			     (kind_parts(k) ? CONTENT_PARTS : 0) |
			     (k == KIND_OTHER ? CONTENT_UNSAID : 0) |
			     (typed ? 0 : CONTENT_UNTYPED) |
			     (k == KIND_FORUM ? CONTENT_THREAD : 0) |
			     (k == KIND_LISTING || k == KIND_COLLECTION ? CONTENT_ITEMS : 0) |
			     (k == KIND_DOCS ? CONTENT_DOCS : 0) |
			     (k == KIND_PRODUCT ? CONTENT_PRODUCT : 0),
			     &p->main);
		rec_put_strn(b, "main_text", p->main.p ? p->main.p : "", p->main.len);
		rec_put_str(b, "page_kind", kind_word(k));
		page_put_hashes(p);
	}
	if (opt->markdown)
		page_markdown(p, g, hn);
	if (opt->nfields)
		page_put_fields(p);
	/* Instead of gumbo_destroy_output: see arena.h. */
	arena_reset(&p->mem);
	rec_put_str(b, "parser", PAGE_PARSER);
	rec_put_double(b, "parse_ms", (tm_mono() - t0) * 1000);
	return rec_out_build(o, b, in, opt->keep_body ? NULL : page_drop_body);
}
