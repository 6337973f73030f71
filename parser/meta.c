#include "meta.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <libxml/HTMLparser.h>

#include "cs_dec.h"
#include "date.h"
#include "jsonld.h"
#include "pct.h"
#include "site.h"
#include "tree.h"
#include "xalloc.h"

/* The keys read here; K_OTITLE is the metadata title (og:title, a
 * headline), one input of `title`. */
enum { K_OTITLE, K_AUTHOR, K_PUBLISHED, K_MODIFIED, K_SITE, K_LANG, K_DESC, K_IMAGE,
       K_KEYWORDS, K_N };

/* The order of trust: a lower rank wins, the first value met wins a
 * tie.  Steps of 10 leave room to order the sources of one kind. */
enum {
	R_PAGE = -10,       /* <html lang>, <meta name=description>: as before */
	R_JSONLD = 0,
	R_STARTER = 5,      /* a thread's starter named by its label */
	R_MICRODATA = 10,
	R_OG = 20,
	R_TWITTER = 30,
	R_META = 40,
	R_CITATION = 43,    /* citation_author, one <meta> an author */
	R_TEXT = 50,        /* <time>, bylines, dates near the title */
	R_WEAK = 60,        /* an organization as author */
	R_NONE = 1000,
};

/* h1 and h2 looked at for the title heading, as content.c does. */
#define META_HEADS 20
/* Letters (meta_letters) a title heading needs, as content.c's. */
#define META_TITLE_LETTERS 10
/* Letters a heading needs when it is the first segment of <title>. */
#define META_SEG_LETTERS 3
/* Elements named like a byline or a date looked at, in page order. */
#define META_NAMED 8
/* Visible text read after the title heading, and before it, for its
 * byline and date: bylines sit right under or over the title. */
#define META_AFTER 600
#define META_BEFORE 300
/* A byline's text, and a name, longer than this is something else (an
 * author's biography, a sentence). */
#define META_BYLINE_MAX 160
/* Ancestors of an author's name looked at for its byline's date. */
#define META_BYLINE_UP 3
#define META_NAME_MAX 100
/* A forum's user name longer than this is something else. */
#define META_USER_MAX 40
/* Ancestors of a user name element looked at for the page's header,
 * navigation or footer around it. */
#define META_CHROME_UP 32
/* Authors joined from citation_author, at most: a paper of hundreds of
 * authors is not named by all of them. */
#define META_AUTHORS_MAX 400
/* Keywords written at most: a page stuffed with thousands is not
 * described by them. */
#define META_MAX_KEYWORDS 64
/* Text dates before this year are not believed (years in prose);
 * metadata's from 1900 on (a digitized work's own date). */
#define META_TEXT_YEAR 1990
#define META_DATA_YEAR 1900
/* Days of published dates from metadata other than JSON-LD kept, to
 * see whether one agrees with JSON-LD's. */
#define META_DAYS 8
/* Bytes of elements' text microdata values read on one page at most. */
#define META_MICRO_TEXT 65536

struct meta {
	jsonld *ld;
	jsonld_facts facts;
	pbuf val[K_N];
	int rank[K_N];
	pbuf tmp, tmp2, esc, title, win, lt, lh, sa, sb;
	/* the first name of two words or more that a byline's label, an
	 * author's link or an element named author gave (site_author) */
	pbuf person;
	pbuf slug;           /* the URL's last path segment, lowercase words (set_slug) */
	const ex_result *r;
	const GumboNode *root;
	const GumboNode *head[META_HEADS];
	int nhead;
	const GumboNode *authors[META_NAMED], *dates[META_NAMED];
	int nauthors, ndates;
	const GumboNode *rel_author, *author_link, *time_el, *win_time;
	const GumboNode *by_label;   /* the first text saying "Written by" */
	const GumboNode *ranked;     /* the first user name over a usertitle (user_titled) */
	const char *tw_label[2], *tw_data[2];
	const char *app_name;
	int article;         /* og:type article or a JSON-LD article: a headline page */
	int titled;          /* choose_title found the title heading, not a first h1 */
	size_t micro_read;   /* text read for microdata values (micro_value) */
	char host[256];      /* the site's own name in its host: "example" */
	char maxday[DATE_MAX];
	int order;           /* DATE_MDY or DATE_DMY */
	/* the published days microdata, OpenGraph and <meta> gave; the
	 * first date under the title heading ("" when none) */
	char day[META_DAYS][sizeof "YYYY-MM-DD"];
	int nday;
	char shown[DATE_MAX];
	char updated[DATE_MAX];   /* the first "Updated" date under the title */
	/* the published dates read that give a time in a zone other than
	 * UTC's, for local_time() */
	char zoned[META_DAYS][DATE_MAX];
	int nzoned;
};

meta *
meta_new(void)
{
	meta *m = xcalloc(1, sizeof *m);
	m->ld = jsonld_new();
	jsonld_facts_init(&m->facts);
	for (int k = 0; k < K_N; k++)
		pbuf_init(&m->val[k]);
	pbuf_init(&m->tmp);
	pbuf_init(&m->tmp2);
	pbuf_init(&m->esc);
	pbuf_init(&m->title);
	pbuf_init(&m->win);
	pbuf_init(&m->lt);
	pbuf_init(&m->lh);
	pbuf_init(&m->sa);
	pbuf_init(&m->sb);
	pbuf_init(&m->slug);
	pbuf_init(&m->person);
	return m;
}

const jsonld *
meta_jsonld(const meta *m)
{
	return m->ld;
}

void
meta_free(meta *m)
{
	if (!m)
		return;
	jsonld_free(m->ld);
	jsonld_facts_free(&m->facts);
	for (int k = 0; k < K_N; k++)
		pbuf_free(&m->val[k]);
	pbuf_free(&m->tmp);
	pbuf_free(&m->tmp2);
	pbuf_free(&m->esc);
	pbuf_free(&m->title);
	pbuf_free(&m->win);
	pbuf_free(&m->lt);
	pbuf_free(&m->lh);
	pbuf_free(&m->sa);
	pbuf_free(&m->sb);
	pbuf_free(&m->slug);
	pbuf_free(&m->person);
	free(m);
}

/* ---- values ---------------------------------------------------------- */

/* Whether s is a link, not a name: it starts with a URL's scheme or
 * "www.", or is one word with a slash ("facebook.com/janedoe"), as
 * article:author is often given a profile's address. */
static int
is_url(const char *s)
{
	return strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0 ||
	       strncasecmp(s, "www.", 4) == 0 || (strchr(s, '/') && !strchr(s, ' '));
}

/* Whether s[0..n) starts with a no-break space (U+00A0 in UTF-8). */
static int
nbsp(const char *s, size_t n)
{
	return n >= 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0;
}

/* Whether byte c, or the no-break space at s, is a space or a mark
 * around a name: ", USA TODAY", "By\u00a0Jane". */
static size_t
name_edge(const char *s, size_t n)
{
	if (nbsp(s, n))
		return 2;
	return n && strchr(" ,;:|-", s[0]) ? 1 : 0;
}

/* Cleans author t in place: leaves out a leading "By" or "Author"
 * (CMSs write the byline's label into the value) and the spaces (the
 * no-break ones too) and marks around the name.  Returns whether a
 * name with a letter is left. */
static int
author_clean(pbuf *t)
{
	static const char *const labels[] = { "written by", "posted by", "by", "author" };
	size_t a = 0, z = t->len, k;
	/* ", USA TODAY": a template's name left empty before its suffix. */
	while (a < z && pbuf_isspace((unsigned char)t->p[a]))
		a++;
	if (a < z && t->p[a] == ',')
		return 0;
	while ((k = name_edge(t->p + a, z - a)) != 0)
		a += k;
	for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
		size_t ln = strlen(labels[i]);
		if (z - a >= ln && strncasecmp(t->p + a, labels[i], ln) == 0 &&
		    (z - a == ln || name_edge(t->p + a + ln, z - a - ln))) {
			a += ln;
			break;
		}
	}
	while ((k = name_edge(t->p + a, z - a)) != 0)
		a += k;
	for (;;) {
		if (z > a && strchr(" ,;:|-", t->p[z - 1]))
			z--;
		else if (z - a >= 2 && nbsp(t->p + z - 2, 2))
			z -= 2;   /* "Webmaster\u00a0" */
		else
			break;
	}
	int letter = 0;
	for (size_t i = a; i < z && !letter; i++)
		letter = ((t->p[i] | 32) >= 'a' && (t->p[i] | 32) <= 'z') || (unsigned char)t->p[i] >= 0xc3;
	memmove(t->p, t->p + a, z - a);
	t->len = z - a;
	t->p[t->len] = '\0';
	return letter;
}

/* Whether author t is what a CMS or a template writes where no writer
 * is named: its default account ("admin"), or a script's empty value
 * ("undefined"). */
static int
placeholder(const pbuf *t)
{
	static const char *const w[] = { "admin", "administrator", "webmaster", "undefined", "null" };
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		if (strcasecmp(t->p, w[i]) == 0)
			return 1;
	return 0;
}

/* Appends code point c to b as UTF-8 (cs_put); 0 when c is none (NUL,
 * a surrogate, past U+10FFFF). */
static int
put_utf8(pbuf *b, unsigned long c)
{
	if (c == 0 || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	cs_put(b, (uint32_t)c);
	return 1;
}

/* Decodes the character references of s[0..n) (&amp;, &#39;,
 * &#x2019;, HTML's named ones by libxml2's table) into out: JSON-LD is
 * script text, which HTML does not decode, yet CMSs write its strings
 * HTML-escaped ("Maria &amp; Katerina").  A reference that does not
 * read, or names a control character, stays as it is. */
static void
unescape(const char *s, size_t n, pbuf *out)
{
	pbuf_reset(out);
	for (size_t i = 0; i < n;) {
		const char *amp = memchr(s + i, '&', n - i);
		size_t k = amp ? (size_t)(amp - s) : n;
		pbuf_put(out, s + i, k - i);
		if (!amp)
			break;
		const char *semi = memchr(amp, ';', n - k < 12 ? n - k : 12);
		int ok = 0;
		if (semi && amp[1] == '#') {
			int hex = amp[2] == 'x' || amp[2] == 'X';
			const char *d = amp + 2 + hex;
			size_t nd = (size_t)(semi - d);
			unsigned long c = 0;
			if (d < semi && strspn(d, hex ? "0123456789abcdefABCDEF" : "0123456789") >= nd)
				c = strtoul(d, NULL, hex ? 16 : 10);
			ok = (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') && put_utf8(out, c);
		} else if (semi && semi > amp + 1) {
			char name[12];
			memcpy(name, amp + 1, (size_t)(semi - amp - 1));
			name[semi - amp - 1] = '\0';
			const htmlEntityDesc *e = htmlEntityLookup((const xmlChar *)name);
			ok = e && put_utf8(out, e->value);
		}
		if (ok)
			i = (size_t)(semi + 1 - s);
		else
			pbuf_put(out, "&", 1), i = k + 1;
	}
}

/* Offers s[0..n) as key's value from a source of rank: it replaces the
 * value held when it ranks better and is one (a date that reads, a
 * name that is no URL or handle).  Whitespace is collapsed.  A
 * published date is noted even when it loses, for shown_date: the day
 * of each from microdata, OpenGraph or <meta>, and the first under the
 * title heading. */
static void
offer(meta *m, int key, int rank, const char *s, size_t n)
{
	/* Published dates of other metadata and under the title, and the
	 * update's date under the title, are read though they lose, for
	 * shown_date(). */
	int shown = rank == R_TEXT + 1 || rank == R_TEXT + 2;
	int note = (key == K_PUBLISHED &&
		    ((rank > R_JSONLD && rank < R_TEXT) || (shown && !*m->shown))) ||
		   (key == K_MODIFIED && rank == R_TEXT + 2 && !*m->updated);
	/* The person a labelled byline names, though a better source's
	 * author wins: site_author() may want it. */
	if (key == K_AUTHOR && s && rank >= R_TEXT && rank <= R_TEXT + 4 && !m->person.len) {
		pbuf_text(&m->person, s, n);
		if (!author_clean(&m->person) || !memchr(m->person.p, ' ', m->person.len))
			pbuf_reset(&m->person);
	}
	if (!s || (rank >= m->rank[key] && !note))
		return;
	pbuf *t = &m->tmp;
	pbuf_reset(t);
	if ((rank == R_JSONLD || rank == R_WEAK) && memchr(s, '&', n)) {
		/* Decoded first, so &nbsp; and &#10; collapse as spaces do. */
		unescape(s, n, &m->esc);
		s = m->esc.p, n = m->esc.len;
	}
	pbuf_text(t, s, n);
	if (!t->len)
		return;
	char iso[DATE_MAX];
	switch (key) {
	case K_PUBLISHED:
	case K_MODIFIED:
		if (!date_iso(t->p, t->len, m->order, rank >= R_TEXT ? META_TEXT_YEAR : META_DATA_YEAR,
			      iso) || strncmp(iso, m->maxday, 10) > 0)
			return;
		pbuf_reset(t);
		pbuf_put(t, iso, strlen(iso));
		if (key == K_PUBLISHED && t->len == DATE_MAX - 1 && strcmp(iso + 19, "+00:00") != 0 &&
		    m->nzoned < META_DAYS)
			memcpy(m->zoned[m->nzoned++], iso, DATE_MAX);
		if (note && shown)
			memcpy(key == K_PUBLISHED ? m->shown : m->updated, iso, DATE_MAX);
		else if (note && m->nday < META_DAYS) {
			char *d = m->day[m->nday++];
			memcpy(d, iso, sizeof m->day[0] - 1);
			d[sizeof m->day[0] - 1] = '\0';
		}
		if (rank >= m->rank[key])
			return;
		break;
	case K_AUTHOR:
		if (!author_clean(t) || is_url(t->p) || t->p[0] == '@' || t->len > META_NAME_MAX ||
		    placeholder(t))
			return;
		break;
	default:
		break;
	}
	pbuf_reset(&m->val[key]);
	pbuf_put(&m->val[key], t->p, t->len);
	m->rank[key] = rank;
}

static void
offer_str(meta *m, int key, int rank, const char *s)
{
	if (s)
		offer(m, key, rank, s, strlen(s));
}

/* ---- <meta> ---------------------------------------------------------- */

/* <meta> names and properties (lowercase) and what they give.  Vendors'
 * names (parsely-, sailthru., citation_ of Google Scholar) are formats
 * many sites write, not a site's own. */
static const struct { const char *name; int key, rank; } meta_names[] = {
	{ "og:title", K_OTITLE, R_OG }, { "twitter:title", K_OTITLE, R_TWITTER },
	{ "dc.title", K_OTITLE, R_META }, { "citation_title", K_OTITLE, R_META },
	{ "author", K_AUTHOR, R_META }, { "article:author", K_AUTHOR, R_OG },
	{ "og:article:author", K_AUTHOR, R_OG }, { "book:author", K_AUTHOR, R_OG },
	{ "dc.creator", K_AUTHOR, R_META + 1 }, { "dcterms.creator", K_AUTHOR, R_META + 1 },
	{ "parsely-author", K_AUTHOR, R_META + 1 },
	{ "sailthru.author", K_AUTHOR, R_META + 1 }, { "byl", K_AUTHOR, R_META + 2 },
	{ "article:published_time", K_PUBLISHED, R_OG },
	{ "og:article:published_time", K_PUBLISHED, R_OG },
	{ "og:published_time", K_PUBLISHED, R_OG }, { "og:publish_date", K_PUBLISHED, R_OG },
	{ "datepublished", K_PUBLISHED, R_META }, { "pubdate", K_PUBLISHED, R_META },
	{ "publishdate", K_PUBLISHED, R_META }, { "publish_date", K_PUBLISHED, R_META },
	{ "publish-date", K_PUBLISHED, R_META }, { "published", K_PUBLISHED, R_META },
	{ "published-date", K_PUBLISHED, R_META }, { "published_time", K_PUBLISHED, R_META },
	{ "article.published", K_PUBLISHED, R_META }, { "date", K_PUBLISHED, R_META + 1 },
	{ "dc.date", K_PUBLISHED, R_META + 1 }, { "dc.date.issued", K_PUBLISHED, R_META + 1 },
	{ "dc.date.created", K_PUBLISHED, R_META + 1 }, { "dcterms.date", K_PUBLISHED, R_META + 1 },
	{ "dcterms.issued", K_PUBLISHED, R_META + 1 }, { "dcterms.created", K_PUBLISHED, R_META + 1 },
	{ "citation_publication_date", K_PUBLISHED, R_META + 1 },
	{ "citation_date", K_PUBLISHED, R_META + 1 }, { "parsely-pub-date", K_PUBLISHED, R_META + 1 },
	{ "sailthru.date", K_PUBLISHED, R_META + 1 },
	{ "article:modified_time", K_MODIFIED, R_OG }, { "og:updated_time", K_MODIFIED, R_OG },
	{ "og:article:modified_time", K_MODIFIED, R_OG }, { "datemodified", K_MODIFIED, R_META },
	{ "dcterms.modified", K_MODIFIED, R_META }, { "dc.date.modified", K_MODIFIED, R_META },
	{ "last-modified", K_MODIFIED, R_META },
	{ "og:site_name", K_SITE, R_OG }, { "application-name", K_SITE, R_META },
	{ "og:locale", K_LANG, R_OG }, { "dc.language", K_LANG, R_META },
	{ "language", K_LANG, R_META }, { "content-language", K_LANG, R_META },
	{ "og:description", K_DESC, R_OG }, { "twitter:description", K_DESC, R_TWITTER },
	{ "dc.description", K_DESC, R_META },
	{ "og:image", K_IMAGE, R_OG }, { "og:image:url", K_IMAGE, R_OG },
	{ "og:image:secure_url", K_IMAGE, R_OG }, { "twitter:image", K_IMAGE, R_TWITTER },
	{ "twitter:image:src", K_IMAGE, R_TWITTER },
	{ "keywords", K_KEYWORDS, R_META }, { "news_keywords", K_KEYWORDS, R_META + 1 },
};

/* Appends s to key's value, a comma between: article:tag is one <meta>
 * a tag. */
static void
append_list(meta *m, int key, int rank, const char *s)
{
	if (rank > m->rank[key])
		return;
	if (rank < m->rank[key])
		pbuf_reset(&m->val[key]);
	if (m->val[key].len)
		pbuf_put(&m->val[key], ",", 1);
	pbuf_text(&m->val[key], s, strlen(s));
	m->rank[key] = rank;
}

/* Google Scholar's citation_author: one <meta> an author, in the paper's
 * order, "Last, First" or "First Last"; all of them are the authors,
 * each written "First Last". */
static void
citation_author(meta *m, const char *c)
{
	const char *comma = strchr(c, ',');
	pbuf *name = &m->tmp2;
	pbuf_reset(name);
	if (comma && !strchr(comma + 1, ',')) {
		pbuf_text(name, comma + 1, strlen(comma + 1));
		pbuf_text(name, " ", 1);
		pbuf_text(name, c, (size_t)(comma - c));
	} else {
		pbuf_text(name, c, strlen(c));
	}
	if (!name->len)
		return;
	if (m->rank[K_AUTHOR] == R_CITATION && m->val[K_AUTHOR].len) {
		if (m->val[K_AUTHOR].len + 2 + name->len > META_AUTHORS_MAX)
			return;
		pbuf_put(&m->val[K_AUTHOR], ", ", 2);
		pbuf_put(&m->val[K_AUTHOR], name->p, name->len);
	} else {
		offer(m, K_AUTHOR, R_CITATION, name->p, name->len);
	}
}

/* Whether <meta> name low (lowercase) is a publication date's name
 * after a vendor's prefix ("w-published-date", "x:publish_date"): a
 * name of the table's kind that the table cannot list for every
 * vendor. */
static int
prefixed_date(const char *low)
{
	static const char *const w[] = {
		"published-date", "published_date", "publish-date", "publish_date",
		"publication-date", "publication_date", "published-time", "published_time",
	};
	size_t n = strlen(low);
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		size_t k = strlen(w[i]);
		if (n > k + 1 && strcmp(low + n - k, w[i]) == 0 && strchr("-_:.", low[n - k - 1]))
			return 1;
	}
	return 0;
}

static void
meta_tag(meta *m, const GumboNode *n)
{
	const char *c = tree_attr(n, "content");
	if (!c)
		return;
	const char *k = tree_attr(n, "property");
	if (!k)
		k = tree_attr(n, "name");
	if (!k)
		k = tree_attr(n, "itemprop");
	if (!k)
		k = tree_attr(n, "http-equiv");
	if (!k)
		return;
	char low[64];
	size_t i = 0;
	while (pbuf_isspace((unsigned char)*k))
		k++;
	for (; k[i] && i < sizeof low - 1; i++)
		low[i] = (char)(k[i] >= 'A' && k[i] <= 'Z' ? k[i] + 32 : k[i]);
	if (k[i])
		return;
	low[i] = '\0';
	/* An itemprop <meta> is microdata: <meta itemprop="datePublished">. */
	int micro = !tree_attr(n, "property") && !tree_attr(n, "name");
	if (!micro && strcmp(low, "citation_author") == 0) {
		citation_author(m, c);
		return;
	}
	for (size_t j = 0; j < sizeof meta_names / sizeof meta_names[0]; j++)
		if (strcmp(low, meta_names[j].name) == 0) {
			offer_str(m, meta_names[j].key, micro ? R_MICRODATA : meta_names[j].rank, c);
			return;
		}
	if (strcmp(low, "article:tag") == 0)
		append_list(m, K_KEYWORDS, R_OG, c);
	else if (!micro && prefixed_date(low))
		offer_str(m, K_PUBLISHED, R_META + 2, c);
	else if (strncmp(low, "twitter:label", 13) == 0 && (low[13] == '1' || low[13] == '2') && !low[14])
		m->tw_label[low[13] - '1'] = c;
	else if (strncmp(low, "twitter:data", 12) == 0 && (low[12] == '1' || low[12] == '2') && !low[13])
		m->tw_data[low[12] - '1'] = c;
	else if (strcmp(low, "og:type") == 0 && strncasecmp(c, "article", 7) == 0)
		m->article = 1;
	else if (strcmp(low, "apple-mobile-web-app-title") == 0 && !m->app_name)
		m->app_name = c;
	/* Remix's meta descriptor for JSON-LD, {"script:ld+json": ...},
	 * written as a <meta> where the script was meant: its content is
	 * the block, HTML's escapes undone by the parser. */
	else if (!micro && strcmp(low, "script:ld+json") == 0)
		jsonld_add(m->ld, c, strlen(c));
}

/* ---- microdata ------------------------------------------------------- */

/* Whether the token list v (an itemprop, a rel) holds word w. */
static int
has_token(const char *v, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = v; (p = strcasestr(p, w)) != NULL; p += n)
		if ((p == v || pbuf_isspace((unsigned char)p[-1])) &&
		    (p[n] == '\0' || pbuf_isspace((unsigned char)p[n])))
			return 1;
	return 0;
}

/* The value of microdata property element n: its content or datetime
 * attribute, else its text (into m->tmp2). */
static const char *
micro_value(meta *m, const GumboNode *n)
{
	const char *v = tree_attr(n, "content");
	if (!v && tree_tag(n) == GUMBO_TAG_TIME)
		v = tree_attr(n, "datetime");
	if (v)
		return v;
	pbuf_reset(&m->tmp2);
	/* Items nested a thousand deep would read the page's text at each:
	 * a page's values read META_MICRO_TEXT bytes of text in all. */
	if (m->micro_read > META_MICRO_TEXT)
		return "";
	ex_text(&m->tmp2, n);
	m->micro_read += m->tmp2.len;
	return m->tmp2.p ? m->tmp2.p : "";
}

/* The name in author element n: an itemscope's itemprop=name (within
 * its first nodes), else its own value. */
static const char *
micro_author(meta *m, const GumboNode *n)
{
	if (tree_attr(n, "itemscope")) {
		int seen = 0;
		for (const GumboNode *k = tree_next(n, n); k && seen < 64; k = tree_next(k, n), seen++) {
			const char *ip;
			if (tree_is_element(k) && (ip = tree_attr(k, "itemprop")) && has_token(ip, "name"))
				return micro_value(m, k);
		}
	}
	return micro_value(m, n);
}

static void
microdata(meta *m, const GumboNode *n, const char *ip)
{
	if (has_token(ip, "author") || has_token(ip, "creator")) {
		if (m->rank[K_AUTHOR] > R_MICRODATA)
			offer_str(m, K_AUTHOR, R_MICRODATA, micro_author(m, n));
	} else if (has_token(ip, "datePublished") || has_token(ip, "dateCreated")) {
		/* Read while it can win, or be one of the days shown_date
		 * compares. */
		if (m->rank[K_PUBLISHED] > R_MICRODATA || m->nday < META_DAYS)
			offer_str(m, K_PUBLISHED, R_MICRODATA, micro_value(m, n));
	} else if (has_token(ip, "dateModified")) {
		if (m->rank[K_MODIFIED] > R_MICRODATA)
			offer_str(m, K_MODIFIED, R_MICRODATA, micro_value(m, n));
	} else if (has_token(ip, "headline")) {
		if (m->rank[K_OTITLE] > R_MICRODATA)
			offer_str(m, K_OTITLE, R_MICRODATA, micro_value(m, n));
	}
}

/* ---- the walk -------------------------------------------------------- */

/* Whether s, which starts with "author", goes on as "authorize" or
 * "authorise" (authorization, authorized): a login's or a dealer's
 * word, no writer's. */
static int
authoriz(const char *s)
{
	return (s[6] | 32) == 'i' && ((s[7] | 32) == 'z' || (s[7] | 32) == 's');
}

/* What a class or id names: a byline ("author", "byline", "posted-by",
 * "username"), a date ("date", "publish", "posted", "updated",
 * "timestamp"), both or neither.  One pass, as every element's class
 * comes here. */
enum { NAMED_AUTHOR = 1, NAMED_DATE = 2 };

static int
named(const char *v)
{
	static const struct { const char *w; int kind; } words[] = {
		{ "author", NAMED_AUTHOR }, { "byline", NAMED_AUTHOR },
		{ "posted-by", NAMED_AUTHOR | NAMED_DATE }, { "username", NAMED_AUTHOR },
		{ "user-name", NAMED_AUTHOR }, { "user_name", NAMED_AUTHOR },
		{ "date", NAMED_DATE }, { "publish", NAMED_DATE }, { "posted", NAMED_DATE },
		{ "updated", NAMED_DATE }, { "timestamp", NAMED_DATE },
	};
	int kind = 0;
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 32);
		if (c != 'a' && c != 'b' && c != 'p' && c != 'u' && c != 'd' && c != 't')
			continue;
		for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
			if ((unsigned char)words[i].w[0] == c &&
			    strncasecmp(v, words[i].w, strlen(words[i].w)) == 0 &&
			    (i > 0 || !authoriz(v)))   /* words[0]: "author" */
				kind |= words[i].kind;
	}
	return kind;
}

/* Whether class or id v says "username", "user-name" or "user_name"
 * (Flarum's "PostUser-name"). */
static int
user_word(const char *v)
{
	for (const char *u = v; (u = strcasestr(u, "user")) != NULL; u += 4) {
		const char *r = u + 4;
		if (*r == '-' || *r == '_')
			r++;
		if (strncasecmp(r, "name", 4) == 0)
			return 1;
	}
	return 0;
}

/* Whether element n's class or id says it holds a user's name (not
 * a login form's label for the field). */
static int
user_el(const GumboNode *n)
{
	const char *c = tree_attr(n, "class"), *id = tree_attr(n, "id");
	return tree_tag(n) != GUMBO_TAG_LABEL && ((c && user_word(c)) || (id && user_word(id)));
}

/* Whether user name element n (user_el) is the account link of the
 * page's header, navigation or footer ("Sign in", "Guest" in a news
 * site's bar), no author's: an ancestor of it, META_CHROME_UP up at
 * most, is a <nav>, or a <header> or <footer> not inside an <article>
 * (a post's own header names its writer: Flarum's). */
static int
chrome_user(const GumboNode *n)
{
	int up = 0, chrome = 0;
	for (const GumboNode *p = n->parent; p && tree_is_element(p) && up < META_CHROME_UP;
	     p = p->parent, up++) {
		GumboTag t = tree_tag(p);
		if (t == GUMBO_TAG_NAV)
			return 1;
		if (t == GUMBO_TAG_ARTICLE)
			return 0;
		chrome |= t == GUMBO_TAG_HEADER || t == GUMBO_TAG_FOOTER;
	}
	return chrome;
}

/* Whether element n is a form's field or holds one within its first
 * nodes: a comment form's "Name" over its input (class
 * "comment-form-author") names no writer. */
static int
form_field(const GumboNode *n)
{
	int seen = 0;
	for (const GumboNode *k = n; k && seen < 64; k = tree_next(k, n), seen++) {
		GumboTag t = tree_is_element(k) ? tree_tag(k) : GUMBO_TAG_UNKNOWN;
		if (t == GUMBO_TAG_LABEL || t == GUMBO_TAG_INPUT || t == GUMBO_TAG_TEXTAREA ||
		    t == GUMBO_TAG_SELECT)
			return 1;
	}
	return 0;
}

/* The element before element n (its previous element sibling) when
 * n's class says it is a user's title, "usertitle": forums show a
 * member's rank ("Member", "Moderator") under the member's name, as
 * FluxBB's and vBulletin's posts do ("chunix64" over "Member"); NULL
 * otherwise.  The first in page order is the first post's. */
static const GumboNode *
user_titled(const GumboNode *n, const char *cls)
{
	/* strstr first: every element's class comes here */
	if (!cls || !strstr(cls, "itle") || !has_token(cls, "usertitle") || !n->parent ||
	    !tree_is_element(n->parent))
		return NULL;
	const GumboVector *kids = &n->parent->v.element.children;
	for (size_t i = n->index_within_parent; i-- > 0;)
		if (tree_is_element(kids->data[i]))
			return kids->data[i];
	return NULL;
}

/* Whether the ld+json type attribute t names JSON-LD. */
static int
is_ld_type(const char *t)
{
	while (pbuf_isspace((unsigned char)*t))
		t++;
	return strncasecmp(t, "application/ld+json", 19) == 0;
}

static void
element(meta *m, const GumboNode *n)
{
	const char *v, *a;
	switch (tree_tag(n)) {
	case GUMBO_TAG_META:
		meta_tag(m, n);
		return;
	case GUMBO_TAG_SCRIPT: {
		const GumboNode *t = tree_kid(n, 0);
		if ((v = tree_attr(n, "type")) && is_ld_type(v) && t && t->type == GUMBO_NODE_TEXT)
			jsonld_add(m->ld, t->v.text.text, strlen(t->v.text.text));
		return;
	}
	case GUMBO_TAG_H1:
	case GUMBO_TAG_H2:
		if (m->nhead < META_HEADS)
			m->head[m->nhead++] = n;
		break;
	case GUMBO_TAG_TIME:
		if (!m->time_el && tree_attr(n, "datetime"))
			m->time_el = n;
		break;
	case GUMBO_TAG_A:
		if (!m->author_link && (v = tree_attr(n, "href")) && (a = strstr(v, "/author")) &&
		    !authoriz(a + 1))
			m->author_link = n;
		if (!m->rel_author && (v = tree_attr(n, "rel")) && has_token(v, "author"))
			m->rel_author = n;
		break;
	default:
		break;
	}
	if ((v = tree_attr(n, "itemprop")) != NULL)
		microdata(m, n, v);
	const char *cls = tree_attr(n, "class"), *id = tree_attr(n, "id");
	if (!m->ranked)
		m->ranked = user_titled(n, cls);
	if ((cls || id) && (m->nauthors < META_NAMED || m->ndates < META_NAMED)) {
		int kind = (cls ? named(cls) : 0) | (id ? named(id) : 0);
		if (m->nauthors < META_NAMED && (kind & NAMED_AUTHOR) &&
		    !(user_el(n) && chrome_user(n)) && !form_field(n))
			m->authors[m->nauthors++] = n;
		if (m->ndates < META_NAMED && (kind & NAMED_DATE))
			m->dates[m->ndates++] = n;
	}
}

/* ---- the page's text near its title ---------------------------------- */

/* The letters of s[0..n) into b (reset first): ASCII letters lowercased
 * and digits, other scripts' bytes as they are; spaces, punctuation,
 * and the Latin-1 and general punctuation blocks (quotes, dashes, the
 * no-break space) left out.  Two titles that differ only there match. */
static void
letters(pbuf *b, const char *s, size_t n)
{
	pbuf_reset(b);
	pbuf_reserve(b, n);
	const unsigned char *u = (const unsigned char *)s;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = u[i];
		if (c < 0x80) {
			if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))
				b->p[k++] = (char)c;
			else if (c >= 'A' && c <= 'Z')
				b->p[k++] = (char)(c + 32);
		} else if (c == 0xc2 && i + 1 < n && u[i + 1] >= 0xa0) {
			i++;
		} else if (c == 0xe2 && i + 2 < n && u[i + 1] == 0x80) {
			i += 2;
		} else {
			b->p[k++] = (char)c;
		}
	}
	b->len = k;
	b->p[k] = '\0';
}

static int
contains(const pbuf *hay, const pbuf *needle)
{
	return needle->len && needle->len <= hay->len &&
	       memmem(hay->p, hay->len, needle->p, needle->len) != NULL;
}

/* Whether letters hay start with needle's. */
static int
starts(const pbuf *hay, const pbuf *needle)
{
	return needle->len && needle->len <= hay->len &&
	       memcmp(hay->p, needle->p, needle->len) == 0;
}

/* Whether letters a and b are the same. */
static int
same(const pbuf *a, const pbuf *b)
{
	return a->len == b->len && (!a->len || memcmp(a->p, b->p, a->len) == 0);
}

/* Ends the line of m->win at a block's edge: bylines and dates are
 * lines of their own. */
static void
win_break(pbuf *w)
{
	if (w->len && w->p[w->len - 1] != '\n') {
		pbuf_put(w, "\n", 1);
		w->space = 0;
	}
}

/* Whether element n hides its text, or is a heading of another part. */
static int
win_skip(const GumboNode *n)
{
	return ex_is_hidden(n) || tree_tag(n) == GUMBO_TAG_SVG || tree_tag(n) == GUMBO_TAG_SELECT ||
	       tree_tag(n) == GUMBO_TAG_BUTTON;
}

/* The nearest element holding text node n that is not inline: text of
 * two blocks is on two lines. */
static const GumboNode *
block_of(const GumboNode *n)
{
	for (n = n->parent; n && tree_is_element(n) && ex_is_inline(tree_tag(n)); n = n->parent)
		;
	return n;
}

/* Appends to window w text s, no more of it than keeps w within cap
 * bytes (a space owed aside): one node of megabytes under the title
 * would make the window the page.  The word cut is kept whole (a name
 * cut short reads as another, "StarredSkies" as "Starred") when it is
 * not longer than a user name; else s is cut where a character
 * starts. */
static void
win_text(pbuf *w, const char *s, size_t cap)
{
	size_t room = w->len < cap ? cap - w->len : 0, k = strnlen(s, room + META_USER_MAX + 1);
	if (k > room) {
		size_t e = room;
		while (e < k && !pbuf_isspace((unsigned char)s[e]))
			e++;
		if (e == k && s[k])
			for (e = room; e && ((unsigned char)s[e] & 0xc0) == 0x80; e--)
				;
		k = e;
	}
	pbuf_text(w, s, k);
}

/* Reads visible text into w (reset first), from node from on within
 * top's subtree, up to cap bytes, a line at each block's edge; the
 * first <time datetime> on the way into *time when time is not NULL.
 * split: two inline elements' texts that meet at a lowercase letter
 * and a capital are two words, as a byline's name and date often are,
 * spans the stylesheet sets apart ("Jane Doe" "Mar 5, 2024"). */
static void
win_read(pbuf *w, const GumboNode *from, const GumboNode *top, size_t cap, int split,
	 const GumboNode **time)
{
	pbuf_reset(w);
	if (time)
		*time = NULL;
	const GumboNode *block = NULL;
	for (const GumboNode *n = from; n && w->len < cap; ) {
		if (tree_is_element(n)) {
			if (win_skip(n)) {
				n = tree_after(n, top);
				continue;
			}
			if (time && !*time && tree_tag(n) == GUMBO_TAG_TIME && tree_attr(n, "datetime"))
				*time = n;
		} else if (n->type == GUMBO_NODE_TEXT) {
			const GumboNode *b = block_of(n);
			const char *t = n->v.text.text;
			if (b != block)
				win_break(w);
			else if (split && w->len && w->p[w->len - 1] >= 'a' && w->p[w->len - 1] <= 'z' &&
				 t[0] >= 'A' && t[0] <= 'Z')
				pbuf_break(w);   /* "Doe" "Mar 5, 2024": two words */
			block = b;
			win_text(w, t, cap);
		}
		n = tree_next(n, top);
	}
}

/* The page's visible text from heading h on, META_AFTER bytes, lines at
 * block edges, inline texts split as win_read says, into m->win; the
 * first <time datetime> on the way is m->win_time. */
static void
win_after(meta *m, const GumboNode *h)
{
	win_read(&m->win, h, m->root, META_AFTER, 1, &m->win_time);
}

/* The node before n in document order (its previous sibling's last
 * descendant, else its parent), or NULL at the document. */
static const GumboNode *
prev_node(const GumboNode *n)
{
	const GumboNode *p = n->parent;
	if (!p)
		return NULL;
	if (n->index_within_parent == 0)
		return p->type == GUMBO_NODE_DOCUMENT ? NULL : p;
	const GumboNode *s = tree_kid(p, n->index_within_parent - 1);
	for (const GumboVector *v; (v = tree_children(s)) != NULL && v->length; )
		s = v->data[v->length - 1];
	return s;
}

/* The visible text before heading h, back to META_BEFORE bytes, into
 * m->win (reset first), in page order, lines at block edges. */
static void
win_before(meta *m, const GumboNode *h)
{
	enum { PIECES = 64 };
	const GumboNode *piece[PIECES];
	/* Of each piece, its text from byte from on: the farthest keeps
	 * only its end, so one node of megabytes over the title does not
	 * make the window the page; from the start of the word cut, as
	 * win_text keeps it, else from where a character starts. */
	size_t from[PIECES];
	int np = 0;
	size_t got = 0;
	for (const GumboNode *n = prev_node(h); n && np < PIECES && got < META_BEFORE;
	     n = prev_node(n)) {
		if (n->type != GUMBO_NODE_TEXT || !n->parent || !tree_is_element(n->parent) ||
		    win_skip(n->parent))
			continue;
		const char *t = n->v.text.text;
		size_t len = strlen(t);
		size_t k = len > META_BEFORE - got ? len - (META_BEFORE - got) : 0, a = k;
		while (a && k - a <= META_USER_MAX && !pbuf_isspace((unsigned char)t[a - 1]))
			a--;
		if (a && !pbuf_isspace((unsigned char)t[a - 1]))
			while (k < len && ((unsigned char)t[k] & 0xc0) == 0x80)
				k++;
		else
			k = a;
		piece[np] = n;
		from[np++] = k;
		got = k ? META_BEFORE : got + len;
	}
	pbuf *w = &m->win;
	pbuf_reset(w);
	const GumboNode *block = NULL;
	for (int i = np - 1; i >= 0; i--) {
		const GumboNode *b = block_of(piece[i]);
		if (b != block)
			win_break(w);
		block = b;
		const char *t = piece[i]->v.text.text + from[i];
		pbuf_text(w, t, strlen(t));
	}
}

/* Whether one of the nw words w comes right before the date at s[at],
 * on its line (32 bytes back at most). */
static int
label_before(const char *s, size_t at, const char *const *w, size_t nw)
{
	size_t from = at > 32 ? at - 32 : 0;
	/* Only the words on the date's own line. */
	for (size_t i = at; i > from; i--)
		if (s[i - 1] == '\n') {
			from = i;
			break;
		}
	for (size_t i = 0; i < nw; i++) {
		size_t n = strlen(w[i]);
		for (size_t j = from; j + n <= at; j++)
			if (strncasecmp(s + j, w[i], n) == 0)
				return 1;
	}
	return 0;
}

/* Words that say a date is the last update, not the first
 * publication, when they come right before it. */
static int
updated_label(const char *s, size_t at)
{
	static const char *const w[] = {
		"updated", "modified", "update", "revised", "aktualisiert", "actualizado",
		"mis à jour", "atualizado", "bijgewerkt", "aggiornato",
	};
	return label_before(s, at, w, sizeof w / sizeof w[0]);
}

/* Words that say a date is when a forum's member joined (the profile
 * beside each post), or a thread's latest post over its first, or
 * when a member's or an organization's being began ("Founded"): no
 * date of the page. */
static int
member_label(const char *s, size_t at)
{
	static const char *const w[] = {
		"joined", "registered", "join date", "member since",
		"last post", "last reply", "latest reply", "latest post", "last activity",
		"founded",
	};
	return label_before(s, at, w, sizeof w / sizeof w[0]);
}

/* Offers the dates of text s[0..n): the first as published, or as
 * modified when labelled so (and then the next as published); last:
 * the last date instead of the first (text before the title). */
static void
text_dates(meta *m, const char *s, size_t n, int rank, int last)
{
	char iso[DATE_MAX], pub[DATE_MAX] = "", mod[DATE_MAX] = "";
	size_t at, len, i = 0;
	/* Nothing found here could win: spare the reading (but for
	 * shown_date(), the date under the title). */
	if (rank >= m->rank[K_PUBLISHED] && rank >= m->rank[K_MODIFIED] &&
	    !(rank == R_TEXT + 2 && m->rank[K_PUBLISHED] == R_JSONLD))
		return;
	while (i < n && date_find(s + i, n - i, m->order, META_TEXT_YEAR, iso, &at, &len)) {
		if (member_label(s, i + at)) {
			/* the next date */
		} else if (updated_label(s, i + at)) {
			if (!*mod || last)
				memcpy(mod, iso, DATE_MAX);
		} else if (!*pub || last) {
			memcpy(pub, iso, DATE_MAX);
		}
		if (*pub && !last)
			break;
		i += at + len;
	}
	if (*pub)
		offer_str(m, K_PUBLISHED, rank, pub);
	if (*mod)
		offer_str(m, K_MODIFIED, rank, mod);
}

/* Whether p starts a capitalized word: an ASCII capital, or a letter
 * of another script; lead byte 0xe2 starts U+2000-U+2FFF, punctuation
 * and symbols (a dot operator in "Jane Doe ⋅ Editor"). */
static int
is_upper_start(const unsigned char *p)
{
	return (*p >= 'A' && *p <= 'Z') || (*p >= 0xc3 && *p != 0xe2);
}

/* Whether p[0..n) is one of the nw words of w, their case ignored when
 * fold. */
static int
one_of(const char *const *w, size_t nw, const char *p, size_t n, int fold)
{
	for (size_t i = 0; i < nw; i++)
		if (strlen(w[i]) == n && (fold ? strncasecmp(p, w[i], n) : strncmp(p, w[i], n)) == 0)
			return 1;
	return 0;
}

/* Lowercase words a name may hold: van der Berg, da Silva, bin Ali. */
static int
particle(const char *p, size_t n)
{
	static const char *const w[] = { "van", "von", "der", "den", "de", "da", "di", "du", "la",
					 "le", "del", "dos", "bin", "al", "ter", "ten" };
	return one_of(w, sizeof w / sizeof w[0], p, n, 0);
}

/* Titles before a name, which end with a dot but no sentence. */
static int
honorific(const char *p, size_t n)
{
	static const char *const w[] = { "Dr", "Mr", "Mrs", "Ms", "Prof", "Rev" };
	return one_of(w, sizeof w / sizeof w[0], p, n, 0);
}

/* Capitalized words that end a byline's name: what follows it on the
 * line ("Jane Doe Updated March 5"). */
static int
stop_word(const char *p, size_t n)
{
	static const char *const w[] = {
		"updated", "published", "posted", "last", "reviewed", "edited", "fact", "medically",
		"on", "in", "at", "read", "share", "follow", "photo", "photos", "comments", "comment",
		"min", "views", "reply", "replies", "the",
	};
	return one_of(w, sizeof w / sizeof w[0], p, n, 1);
}

/* Capitalized words that start an author's role after the name
 * ("Keith Barry Senior Autos Reporter", "Sean Peek, Senior Analyst"):
 * the words of a job and those before one. */
static int
role_word(const char *p, size_t n)
{
	static const char *const w[] = {
		"senior", "staff", "head", "chief", "lead", "executive", "associate", "contributing",
		"deputy", "former", "managing", "principal", "founder", "co-founder", "cofounder",
		"reporter", "editor", "writer", "correspondent", "contributor", "columnist",
		"director", "manager", "officer", "analyst", "attorney", "journalist", "producer",
		"strategist", "specialist", "consultant", "expert",
	};
	return one_of(w, sizeof w / sizeof w[0], p, n, 1);
}

/* Reads a name from s[0..n): capitalized words (and a name's
 * particles), several joined by "and", "&" or ","; stops at the line's
 * end, a date, a digit, a lowercase or stop word, a role's word after
 * two words, a word ending a sentence or with a hyphen, or other
 * punctuation.  Puts it into out (reset first);
 * returns whether it holds a name. */
static int
read_name(const char *s, size_t n, int order, pbuf *out)
{
	pbuf_reset(out);
	/* A name ends at its line and is no longer than META_NAME_MAX:
	 * what lies further is never read, so the date that would end it
	 * is not looked for there (on a page of thousands of "by", each
	 * would read the rest of the page). */
	if (n > 2 * META_NAME_MAX)
		n = 2 * META_NAME_MAX;
	const char *nl = memchr(s, '\n', n);
	if (nl)
		n = (size_t)(nl - s);
	char iso[DATE_MAX];
	size_t at, dl;
	if (date_find(s, n, order, META_TEXT_YEAR, iso, &at, &dl))
		n = at;
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, end = 0, comma = 0;   /* comma: end before the last ", " */
	int words = 0;
	for (;;) {
		while (i < n && (u[i] == ' ' || u[i] == '\t'))
			i++;
		size_t w0 = i;
		/* "Expert&Gene": an ampersand is a word of its own. */
		if (i < n && u[i] == '&')
			i++;
		else
			while (i < n && !pbuf_isspace(u[i]) && u[i] != ',' && u[i] != '|' && u[i] != '(' &&
			       u[i] != ')' && u[i] != ':' && u[i] != ';' && u[i] != '/' && u[i] != '&')
				i++;
		size_t wn = i - w0;
		if (!wn)
			break;
		const char *w = s + w0;
		if (words && ((wn == 3 && strncmp(w, "and", 3) == 0) || (wn == 1 && *w == '&')))
			continue;   /* a name must follow, or end stays */
		/* "Home- and Digital-Security Expert" is no name */
		int role = words >= 2 && role_word(w, wn);
		int ok = (is_upper_start(u + w0) || (words && particle(w, wn))) && !stop_word(w, wn) &&
			 w[wn - 1] != '-' && !role;
		for (size_t k = 0; k < wn && ok; k++)
			ok = !(u[w0 + k] >= '0' && u[w0 + k] <= '9');
		/* "Jane Doe, Privacy and Security Expert": what followed the
		 * comma was her role, not another name. */
		if (role && comma)
			end = comma;
		if (!ok || words >= 12)
			break;
		words++;
		end = i;
		/* "Doe." ends a sentence; "J." is an initial, "Dr." a title. */
		if (wn > 2 && w[wn - 1] == '.' && !honorific(w, wn - 1))
			break;
		/* "Jane Doe, Mary Roe": a comma followed by another name. */
		if (i < n && u[i] == ',' && i + 2 < n && u[i + 1] == ' ' && is_upper_start(u + i + 2)) {
			comma = end;
			i++;
		}
	}
	if (!words)
		return 0;
	while (end && (s[end - 1] == '.' || s[end - 1] == '-'))
		end--;
	pbuf_text(out, s, end);
	return out->len >= 2 && out->len <= META_NAME_MAX;
}

/* Whether the words right before a label at s[i] say whose work
 * other than the writing follows: "Reviewed by", "Edited by", "Fact
 * checked by", "Photographs by", "Hero image by"; or that the "by" is
 * a listing's control, "Sort by", "Shop by", "Filter by". */
static int
other_role(const char *s, size_t i)
{
	static const char *const w[] = {
		"reviewed", "edited", "checked", "illustrated", "illustrations", "photographed",
		"photos", "photo", "photographs", "produced", "translated", "image", "images",
		"video", "artwork", "graphics", "sort", "sorted", "filter", "browse", "shop", "search",
	};
	size_t z = i;
	while (z && (s[z - 1] == ' ' || s[z - 1] == '\n'))
		z--;
	size_t a = z;
	while (a && ((s[a - 1] | 32) >= 'a' && (s[a - 1] | 32) <= 'z'))
		a--;
	return z > a && one_of(w, sizeof w / sizeof w[0], s + a, z - a, 1);
}

/* The name after "By" (or "Author:") in text s[0..n), into out.  A
 * label on a line of its own ("Written by" over the name) takes a name
 * of two words or more: a single capitalized word on the next line is
 * as often a link ("Leave a comment").  The name may follow a label's
 * colon, or a capital "By", without a space: the label and the name
 * are often two inline elements ("Written by:Elise Nass",
 * "ByDaryl Austin"). */
static int
by_name(const char *s, size_t n, int order, pbuf *out)
{
	/* line: the label may stand on a line of its own (1), or only
	 * there (2: "Author" over the name, as a heading, is a label; in
	 * a sentence, a word) */
	static const struct { const char *w; int line; } labels[] = {
		{ "by", 0 }, { "by:", 0 }, { "author:", 1 }, { "authors:", 1 },
		{ "contributor:", 1 }, { "contributors:", 1 },
		{ "written by", 1 }, { "posted by", 1 }, { "von", 0 }, { "por", 0 },
		{ "par", 0 }, { "autor:", 0 }, { "auteur :", 0 },
		{ "author", 2 }, { "authors", 2 }, { "article by", 2 },
	};
	for (size_t i = 0; i < n; i++) {
		if (i && !(pbuf_isspace((unsigned char)s[i - 1]) || s[i - 1] == '|' || s[i - 1] == '\n'))
			continue;
		unsigned char c = (unsigned char)s[i];
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c + 32);
		for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++) {
			const char *w = labels[k].w;
			size_t ln = strlen(w), j = i + ln;
			if ((unsigned char)w[0] != c || j >= n || strncasecmp(s + i, w, ln) != 0 ||
			    other_role(s, i))
				continue;
			int own = 0;
			if (s[j] == '\n' && labels[k].line &&
			    (labels[k].line == 1 || i == 0 || s[i - 1] == '\n'))
				own = 1, j++;
			else if (labels[k].line == 2)
				continue;
			else if (s[j] == ' ')
				j++;
			else if (s[j] == '\xc2' && j + 1 < n && s[j + 1] == '\xa0')
				j += 2;
			else if (w[ln - 1] != ':' && !(ln == 2 && strncmp(s + i, "By", 2) == 0 &&
							s[j] >= 'A' && s[j] <= 'Z'))
				continue;
			if (read_name(s + j, n - j, order, out) && (!own || memchr(out->p, ' ', out->len)))
				return 1;
		}
	}
	return 0;
}

/* Whether text t is a user name as forums show it: written as its user
 * chose ("b.scherer", "chunix64"), so no capital is asked for; a
 * letter, a few words at most, META_USER_MAX bytes. */
static int
user_name(const pbuf *t)
{
	int letter = 0, spaces = 0;
	if (t->len < 2 || t->len > META_USER_MAX)
		return 0;
	for (size_t i = 0; i < t->len; i++) {
		unsigned char c = (unsigned char)t->p[i];
		letter |= ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0xc3;
		spaces += c == ' ';
	}
	return letter && spaces < 3;
}

/* Whether text t is what an account's link shows in place of a user's
 * name. */
static int
login_word(const pbuf *t)
{
	static const char *const w[] = {
		"sign in", "log in", "login", "guest", "my account", "register", "sign up",
		"sign out", "log out", "logout",
	};
	return one_of(w, sizeof w / sizeof w[0], t->p ? t->p : "", t->len, 1);
}

/* The marks that set a byline's parts apart: a middle dot, an en or
 * em dash, a bullet. */
static const char *const marks[] = {
	"\xc2\xb7", "\xe2\x80\x93", "\xe2\x80\x94", "\xe2\x80\xa2",
};

/* Bytes of the mark (one of marks, or first) at s[a..z)'s end when
 * end, else at its start; 0 when another character stands there. */
static size_t
mark_at(const char *s, size_t a, size_t z, const char *first, int end)
{
	for (size_t i = 0; i <= sizeof marks / sizeof marks[0]; i++) {
		const char *w = i ? marks[i - 1] : first;
		size_t k = strlen(w);
		if (z - a >= k && memcmp(s + (end ? z - k : a), w, k) == 0)
			return k;
	}
	return 0;
}

/* Bytes of the mark ending s[a..z) (a no-break space or one of marks:
 * what stands between a name and a date), or 0 when another character
 * ends it, a letter above all. */
static size_t
mark_end(const char *s, size_t a, size_t z)
{
	return mark_at(s, a, z, "\xc2\xa0", 1);
}

/* z, less the characters of ascii and the marks (mark_end) that end
 * s[a..z): what stands between a name and what follows it. */
static size_t
trim_end(const char *s, size_t a, size_t z, const char *ascii)
{
	for (size_t k; z > a && (k = strchr(ascii, s[z - 1]) ? 1 : mark_end(s, a, z)) != 0;)
		z -= k;
	return z;
}

/* Words forums write after the starter's name on its line ("Thread
 * starter sean_g Start date Feb 25, 2024", "Topic author bob Posts:
 * 12"): the name ends before them. */
static int
starter_stop(const char *p, size_t n)
{
	static const char *const w[] = {
		"start", "started", "date", "joined", "posts", "posts:", "replies", "views",
	};
	return one_of(w, sizeof w / sizeof w[0], p, n, 1);
}

/* Reads the user name that starts line s[0..n) after a "Thread
 * starter" or "Topic author" label into out: up to a date, a word that
 * ends a sentence, or a word of starter_stop, less the marks before
 * that.  Returns whether it is a user name: a sentence in which the
 * label's words happen to stand is none. */
static int
starter_line(const char *s, size_t n, int order, pbuf *out)
{
	char iso[DATE_MAX];
	size_t at, dl, end = 0;
	if (date_find(s, n, order, META_TEXT_YEAR, iso, &at, &dl))
		n = at;
	for (size_t i = 0; i < n;) {
		while (i < n && s[i] == ' ')
			i++;
		size_t w0 = i;
		while (i < n && s[i] != ' ')
			i++;
		if (i == w0 || starter_stop(s + w0, i - w0))
			break;
		end = i;
		if (strchr(".!?", s[i - 1])) {
			end = i - 1;
			break;
		}
	}
	end = trim_end(s, 0, end, " ,;|-");
	pbuf_reset(out);
	pbuf_text(out, s, end);
	return user_name(out);
}

/* The user name after the first forum's label of the thread's
 * starter in text s[0..n) whose name reads, into out.  "Thread
 * starter" and "Topic Author" are a forum's words: the name is the
 * rest of their line, or of the next when they end their own, as
 * starter_line reads it.  "started by" is as often prose ("the fund
 * was started by local parents"): it counts only as XenForo writes it,
 * the name followed by a comma and a date ("Discussion in 'Help'
 * started by pelex, May 26, 2025").  User names are written as their
 * users chose ("b.scherer", "sean_g"), so no capital is asked for. */
static int
starter_name(const char *s, size_t n, int order, pbuf *out)
{
	static const char *const labels[] = { "thread starter", "topic author", "started by" };
	enum { BY = 2 };   /* labels[BY] asks for the comma and the date */
	for (size_t i = 0; i < n; i++) {
		if (i && !pbuf_isspace((unsigned char)s[i - 1]))
			continue;
		for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++) {
			size_t ln = strlen(labels[k]), j = i + ln;
			if (j >= n || strncasecmp(s + i, labels[k], ln) != 0)
				continue;
			if (s[j] == ':')
				j++;
			while (j < n && (s[j] == ' ' || s[j] == '\n'))
				j++;
			/* Read no further than a user name and a date after it
			 * run: on a page of thousands of labels each would read
			 * the rest of the page. */
			size_t span = META_USER_MAX + 1 + DATE_TEXT_MAX, z = j;
			size_t zmax = n - j > span ? j + span : n;
			while (z < zmax && s[z] != '\n' && (k != BY || s[z] != ','))
				z++;
			if (k != BY) {
				if (starter_line(s + j, z - j, order, out))
					return 1;
				continue;   /* "Topic author guidelines ...": the next */
			}
			char iso[DATE_MAX];
			size_t at, dl, e = z + 1;
			while (e < n && s[e] == ' ')
				e++;
			if (z == zmax || s[z] != ',' || e >= n ||
			    !date_find(s + e, n - e > DATE_TEXT_MAX ? DATE_TEXT_MAX : n - e, order,
				       META_TEXT_YEAR, iso, &at, &dl) || at != 0)
				continue;
			pbuf_reset(out);
			pbuf_text(out, s + j, z - j);
			if (user_name(out))
				return 1;
		}
	}
	return 0;
}

/* Whether s[a..z), trimmed of spaces and marks, is a name of two
 * words or more and little else (read into out). */
static int
name_line(const char *s, size_t a, size_t z, int order, pbuf *out)
{
	while (a < z && (strchr(" \t|/-", s[a]) || (unsigned char)s[a] >= 0x80) &&
	       !is_upper_start((const unsigned char *)s + a))
		a++;
	z = trim_end(s, a, z, " \t|/-");
	if (z <= a || z - a > META_BYLINE_MAX)
		return 0;
	/* "Jane Doe | Senior Writer | July 2, 2025": the name is the
	 * first of the bar's parts. */
	const char *bar = memchr(s + a, '|', z - a);
	if (bar)
		z = trim_end(s, a, (size_t)(bar - s), " \t|/-");
	return z > a && read_name(s + a, z - a, order, out) && memchr(out->p, ' ', out->len) &&
	       out->len * 10 >= (z - a) * 6;
}

/* The name after a mark that starts s[a..z), the rest of a date's line
 * after the date, when a lowercase word follows it: "Dec. 19, 2025 ·
 * Niko Matsakis on behalf of the Vision Doc group", "Dec 26, 2025 •
 * Mahua Das in Project Management".  The mark (a bar, a middle dot, a
 * bullet, a dash) sets the byline's parts apart, and the lowercase
 * words say where or for whom the writer wrote, which name_line, asking
 * the name to be most of its line, does not allow.  A name of two words
 * or more, into out. */
static int
mark_name(const char *s, size_t a, size_t z, int order, pbuf *out)
{
	while (a < z && s[a] == ' ')
		a++;
	size_t k = mark_at(s, a, z, "|", 0);
	if (!k)
		return 0;
	for (a += k; a < z && s[a] == ' '; a++)
		;
	if (!read_name(s + a, z - a, order, out) || !memchr(out->p, ' ', out->len))
		return 0;
	size_t e = a + out->len;
	while (e < z && s[e] == ' ')
		e++;
	return e < z && s[e] >= 'a' && s[e] <= 'z';
}

/* The name beside the first date of text s[0..n) (the text under the
 * title, its first line the heading's): a byline often gives the
 * author and the date with no label ("Andrew Gerrand 4 August 2010",
 * "Elliot Raba" over "23.07.2025").  Looks before the date on its
 * line, after it on its line, and with lines (an article: elsewhere
 * the line over a date is as often a listed item's source or a
 * category) on the line before (not the heading's) and the line
 * after; the line after on any page when the date's line ends with a
 * mark after the date ("2025-12-17 ·" over "Trond Teigen"): the mark
 * stands between the byline's parts, the name a block of its own in
 * that line; after the date and a mark, a name a lowercase word
 * follows (mark_name).  Into out. */
static int
date_name(const char *s, size_t n, int order, int lines, pbuf *out)
{
	char iso[DATE_MAX];
	size_t at, len, i = 0;
	for (;;) {
		if (i >= n || !date_find(s + i, n - i, order, META_TEXT_YEAR, iso, &at, &len))
			return 0;
		at += i;
		if (!member_label(s, at))
			break;
		i = at + len;
	}
	size_t ls = at, le = at + len;
	while (ls && s[ls - 1] != '\n')
		ls--;
	while (le < n && s[le] != '\n')
		le++;
	if (!ls)
		return 0;   /* the heading's own line */
	size_t ps = ls - 1;
	while (ps && s[ps - 1] != '\n')
		ps--;
	size_t ne = le + 1 < n ? le + 1 : n;
	while (ne < n && s[ne] != '\n')
		ne++;
	/* Only marks after the date: trim_end leaves none of the rest. */
	int goes_on = 0;
	for (size_t i = at + len; i < le && !goes_on; i++)
		goes_on = s[i] != ' ' && s[i] != '\t';
	goes_on = goes_on && trim_end(s, at + len, le, " \t|/-") == at + len;
	return name_line(s, ls, at, order, out) || name_line(s, at + len, le, order, out) ||
	       mark_name(s, at + len, le, order, out) ||
	       (lines && ps && name_line(s, ps, ls - 1, order, out)) ||
	       ((lines || goes_on) && le < n && name_line(s, le + 1, ne, order, out));
}

/* The author in a byline element's text t: after its "By", else the
 * whole text when it is a name. */
static int
byline(const pbuf *t, int order, pbuf *out)
{
	if (!t->len || t->len > META_BYLINE_MAX)
		return 0;
	if (by_name(t->p, t->len, order, out))
		return 1;
	if (!read_name(t->p, t->len, order, out))
		return 0;
	if (out->len * 10 >= t->len * 6)
		return 1;
	/* A name and its date ("Luke Kim December 17, 2025"): the name is
	 * most of what comes before the date, and of two words or more (a
	 * weekday before a date reads as one). */
	char iso[DATE_MAX];
	size_t at, dl;
	return date_find(t->p, t->len, order, META_TEXT_YEAR, iso, &at, &dl) &&
	       out->len * 10 >= at * 6 && memchr(out->p, ' ', out->len);
}

/* ---- the title ------------------------------------------------------- */

/* Separators between a title and a site's name or section. */
static size_t
title_sep(const char *s, size_t n, size_t i)
{
	static const char *const seps[] = {
		" | ", " - ", " \xe2\x80\x93 ", " \xe2\x80\x94 ", " \xc2\xb7 ", " \xe2\x80\xa2 ",
		" :: ", " \xc2\xbb ", " / ", " ~ ", "|",
	};
	for (size_t k = 0; k < sizeof seps / sizeof seps[0]; k++) {
		size_t m = strlen(seps[k]);
		if (i + m <= n && memcmp(s + i, seps[k], m) == 0)
			return m;
	}
	return 0;
}

/* Whether segment s[0..n) of a title is the site's name: its letters
 * are one of the site's names, hold one (with a few letters more: "The
 * Motley Fool" for fool.com) or are held in one. */
static int
site_segment(meta *m, const char *s, size_t n)
{
	pbuf *seg = &m->sa, *name = &m->sb;
	letters(seg, s, n);
	if (!seg->len)
		return 1;
	const char *names[] = { m->val[K_SITE].p, m->app_name, m->facts.site_name, m->host };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (!names[i] || !*names[i])
			continue;
		letters(name, names[i], strlen(names[i]));
		if (!name->len)
			continue;
		if (name->len == seg->len ? same(name, seg)
		    : name->len > seg->len ? seg->len >= 3 && contains(name, seg)
		    : name->len >= 4 && seg->len <= name->len + 12 && contains(seg, name))
			return 1;
	}
	return 0;
}

/* The title t[0..n) without the site's name at its end or start, into
 * out. */
static void
strip_site(meta *m, const char *t, size_t n, pbuf *out)
{
	/* Segment bounds: [start[i], end[i]). */
	enum { SEGS = 16 };
	size_t start[SEGS], end[SEGS];
	int ns = 0;
	start[0] = 0;
	for (size_t i = 0; i < n && ns < SEGS - 1; i++) {
		size_t k = title_sep(t, n, i);
		if (k) {
			end[ns++] = i;
			start[ns] = i + k;
			i += k - 1;
		}
	}
	end[ns++] = n;
	int a = 0, z = ns - 1;
	while (z > a && site_segment(m, t + start[z], end[z] - start[z]))
		z--;
	while (a < z && site_segment(m, t + start[a], end[a] - start[a]))
		a++;
	pbuf_reset(out);
	pbuf_text(out, t + start[a], end[z] - start[a]);
}

/* Whether letters l are those of the first segment of title t (cut
 * at title_sep), which holds more than that segment. */
static int
first_segment(meta *m, const pbuf *t, const pbuf *l)
{
	for (size_t i = 0; i < t->len; i++)
		if (title_sep(t->p, t->len, i)) {
			letters(&m->sa, t->p, i);
			return same(&m->sa, l);
		}
	return 0;
}

/* Cuts title t at its first " | " or " - ": what follows the page's
 * name there is a tagline or a section ("Cloudflare CDN | Content
 * Delivery Network"); en and em dashes join the parts of one title
 * more often. */
static void
keep_first_segment(meta *m, pbuf *t)
{
	for (size_t i = 1; i + 1 < t->len; i++) {
		if (t->p[i] != '|' && t->p[i] != '-')
			continue;
		/* Spaces around the bar, or no-break ones ("&nbsp;|&nbsp;",
		 * as templates write it). */
		size_t a = i, z = i + 1;
		while (a && (t->p[a - 1] == ' ' || (a >= 2 && nbsp(t->p + a - 2, 2))))
			a -= t->p[a - 1] == ' ' ? 1 : 2;
		while (z < t->len && (t->p[z] == ' ' || nbsp(t->p + z, t->len - z)))
			z += t->p[z] == ' ' ? 1 : 2;
		if (a == i || z == i + 1)
			continue;
		letters(&m->sa, t->p, a);
		if (m->sa.len >= META_SEG_LETTERS) {
			t->len = a;
			t->p[a] = '\0';
		}
		return;
	}
}

/* Whether byte c is part of a word of a URL's slug or a title: an
 * ASCII letter or digit, or a byte of another script's letter. */
static int
word_byte(unsigned char c)
{
	return c >= 0x80 || isalnum(c);
}

/* Sets m->slug to the words of the last segment of url's path
 * ("/2024/03/best-movers-in-ohio.html": "best movers in ohio"), each
 * lowercased, one space between; empty when the path has none. */
static void
set_slug(meta *m, const char *url, size_t un)
{
	pbuf *s = &m->slug;
	pbuf_reset(s);
	const char *p = url ? memmem(url, un, "://", 3) : NULL;
	if (!p)
		return;
	p += 3;
	size_t n = un - (size_t)(p - url);
	size_t end = 0;
	while (end < n && p[end] != '?' && p[end] != '#')
		end++;
	const char *path = memchr(p, '/', end);
	if (!path)
		return;
	size_t z = end;
	while (z > 0 && p[z - 1] == '/')
		z--;
	size_t a = z;
	while (a > (size_t)(path - p) && p[a - 1] != '/')
		a--;
	/* A file's extension names no word of its title. */
	const char *dot = memrchr(p + a, '.', z - a);
	if (dot && z - (size_t)(dot - p) <= 6)
		z = (size_t)(dot - p);
	for (size_t i = a; i < z; i++) {
		unsigned char c = (unsigned char)p[i];
		/* "%20" is a separator, as "-" and "_" are; "%C3%A9" a letter. */
		int hi, lo;
		if (c == '%' && i + 2 < z && (hi = pct_hexval(p[i + 1])) >= 0 &&
		    (lo = pct_hexval(p[i + 2])) >= 0) {
			c = (unsigned char)(hi << 4 | lo);
			i += 2;
		}
		if (!word_byte(c)) {
			s->space = 1;
			continue;
		}
		if (s->space && s->len)
			pbuf_put(s, " ", 1);
		s->space = 0;
		c = (unsigned char)tolower(c);
		pbuf_put(s, &c, 1);
	}
	s->space = 0;
}

/* Whether words a[0..an) and b[0..bn) are one word, ASCII case
 * ignored, or the one is the other and an "s" (a slug's "movers" for a
 * title's "Mover"). */
static int
same_word(const char *a, size_t an, const char *b, size_t bn)
{
	if (an > bn)
		return same_word(b, bn, a, an);
	return (bn == an || (bn == an + 1 && (b[an] == 's' || b[an] == 'S'))) &&
	       strncasecmp(a, b, an) == 0;
}

/* How many words m->slug has that text s[0..n) does not hold, "and"
 * not counted (a slug spells "&" so); -1 when the slug has fewer than
 * two words, too few to tell a title by. */
static int
slug_missing(meta *m, const char *s, size_t n)
{
	const char *w = m->slug.p;
	size_t wn = m->slug.len;
	int words = 0, missing = 0;
	for (size_t i = 0; i < wn; ) {
		size_t k = i;
		while (k < wn && w[k] != ' ')
			k++;
		if (!(k - i == 3 && memcmp(w + i, "and", 3) == 0)) {
			words++;
			int found = 0;
			for (size_t j = 0; j < n && !found; ) {
				while (j < n && !word_byte((unsigned char)s[j]))
					j++;
				size_t e = j;
				while (e < n && word_byte((unsigned char)s[e]))
					e++;
				found = e > j && same_word(w + i, k - i, s + j, e - j);
				j = e;
			}
			missing += !found;
		}
		i = k + 1;
	}
	return words < 2 ? -1 : missing;
}

/* Whether the first children of heading h hold its first n letters
 * and nothing more: a label of its own element ("<span>News</span>
 * Title"), where the same letters in one run of text are the title's
 * own words ("The Best ..."). */
static int
label_kids(meta *m, const GumboNode *h, size_t n)
{
	size_t got = 0;
	const GumboVector *kids = tree_children(h);
	for (unsigned i = 0; kids && i + 1 < kids->length && got < n; i++) {
		const GumboNode *k = kids->data[i];
		pbuf_reset(&m->sb);
		if (k->type == GUMBO_NODE_TEXT)
			pbuf_put(&m->sb, k->v.text.text, strlen(k->v.text.text));
		else if (tree_is_element(k))
			ex_text(&m->sb, k);
		letters(&m->sa, m->sb.p ? m->sb.p : "", m->sb.len);
		got += m->sa.len;
	}
	return got == n;
}

/* Chooses `title` into m->title: the heading that is the first
 * segment of the <title>; else the title heading (an h1 or h2 that
 * the <title> or the metadata title holds, or an h1 that starts with
 * the <title> without the site's name); else an article's only h1;
 * else the metadata title when the <title> is it plus a site's name;
 * else the <title> without the site's name; else the metadata title;
 * cut at its first tagline, never empty when the <title> is not.
 * Returns the heading, or the first h1, or NULL: where the byline is
 * looked for. */
static const GumboNode *
choose_title(meta *m)
{
	const ex_result *r = m->r;
	pbuf *t = &m->title, *lt = &m->lt, *lh = &m->lh, *ls = &m->win, *lo = &m->tmp;
	const char *ts = r->has_title && r->title.p ? r->title.p : "";
	size_t tn = r->has_title ? r->title.len : 0;
	const pbuf *o = &m->val[K_OTITLE];
	strip_site(m, ts, tn, t);
	letters(lt, ts, tn);
	letters(ls, t->p ? t->p : "", t->len);
	letters(lo, o->p ? o->p : "", o->len);
	const GumboNode *head = NULL, *h1 = NULL;
	int nh1 = 0;
	for (int i = 0; i < m->nhead; i++)
		if (tree_tag(m->head[i]) == GUMBO_TAG_H1 && !nh1++)
			h1 = m->head[i];
	/* A heading that is the first segment of the <title> names the page
	 * however short it is ("Flexbox - Learn web development | MDN"),
	 * before one that another segment or the whole title holds. */
	for (int i = 0; i < m->nhead && !head; i++) {
		pbuf_reset(&m->tmp2);
		ex_text(&m->tmp2, m->head[i]);
		letters(lh, m->tmp2.p ? m->tmp2.p : "", m->tmp2.len);
		if (lh->len >= META_SEG_LETTERS && m->tmp2.len <= META_BYLINE_MAX &&
		    first_segment(m, t, lh) && !site_segment(m, m->tmp2.p, m->tmp2.len))
			head = m->head[i];
	}
	for (int i = 0; i < m->nhead && !head; i++) {
		const GumboNode *h = m->head[i];
		pbuf_reset(&m->tmp2);
		ex_text(&m->tmp2, h);
		letters(lh, m->tmp2.p ? m->tmp2.p : "", m->tmp2.len);
		if (lh->len < META_TITLE_LETTERS || m->tmp2.len > META_BYLINE_MAX * 4)
			continue;
		/* A heading that holds the title and more is a label and the
		 * title ("Thread: ...", a date, "15 Replies to ..."), or a
		 * section's heading, unless it is an h1 that starts with it:
		 * the headline that the <title> shortens. */
		if ((contains(lt, lh) || contains(lo, lh) ||
		     (tree_tag(h) == GUMBO_TAG_H1 && ls->len >= META_TITLE_LETTERS &&
		      starts(lh, ls))) &&
		    !site_segment(m, m->tmp2.p, m->tmp2.len) &&
		    !(tree_tag(h) == GUMBO_TAG_H2 && lh->len < ls->len && starts(ls, lh)))
			head = h;
	}
	/* An article's only h1 is its headline, though its <title> and
	 * og:title were written for search results. */
	if (!head && nh1 == 1 && (m->article || m->facts.is_main)) {
		pbuf_reset(&m->tmp2);
		ex_text(&m->tmp2, h1);
		letters(lh, m->tmp2.p ? m->tmp2.p : "", m->tmp2.len);
		if (lh->len >= META_TITLE_LETTERS && m->tmp2.len <= META_BYLINE_MAX * 4 &&
		    !site_segment(m, m->tmp2.p, m->tmp2.len))
			head = h1;
	}
	if (head && lo->len >= META_TITLE_LETTERS && lh->len > lo->len &&
	    memcmp(lh->p + lh->len - lo->len, lo->p, lo->len) == 0 &&
	    label_kids(m, head, lh->len - lo->len)) {
		/* A heading that is the metadata title after other words is
		 * a label and the title ("News" before a thread's). */
		pbuf_reset(t);
		pbuf_put(t, o->p, o->len);
	} else if (head) {
		/* A heading may carry the site's name as a <title> does. */
		strip_site(m, m->tmp2.p, m->tmp2.len, t);
	} else if (lo->len && lo->len < lt->len && contains(lt, lo)) {
		pbuf_reset(t);
		pbuf_put(t, o->p, o->len);
	} else if (!t->len && o->len) {
		pbuf_put(t, o->p, o->len);
	}
	keep_first_segment(m, t);
	/* The URL's slug is the title the page was filed under: a first h1
	 * that holds every word of it names the page where the title chosen
	 * holds none ("/how-to-back-up-my-entire-system" against the
	 * <title>'s "backup"; a site's one <title> on all its pages, "Reddit
	 * - The heart of the internet").  A title that holds some of them
	 * is the page's own, reworded: the truth takes it as often. */
	int sw = slug_missing(m, "", 0);   /* the slug's words */
	if (h1 && head != h1 && sw > 0 && slug_missing(m, t->p ? t->p : "", t->len) == sw) {
		pbuf_reset(&m->tmp2);
		ex_text(&m->tmp2, h1);
		if (m->tmp2.len <= META_BYLINE_MAX * 4) {
			strip_site(m, m->tmp2.p, m->tmp2.len, lh);
			keep_first_segment(m, lh);
			if (lh->len && slug_missing(m, lh->p, lh->len) == 0) {
				pbuf_reset(t);
				pbuf_put(t, lh->p, lh->len);
				head = h1;
			}
		}
	}
	/* validate --require title and sink's column count on a title
	 * wherever the page has one. */
	if (!t->len)
		pbuf_text(t, ts, tn);
	m->titled = head != NULL;
	return head ? head : h1;
}

/* The page's title shown where no heading holds it: the block of the
 * first text whose letters are the title's (a page builder's styled
 * <p>, "Top 5 Tools" over "Jane Doe Feb 16, 2026"), where its byline
 * and date are looked for; NULL when none is. */
static const GumboNode *
shown_title(meta *m)
{
	pbuf *lt = &m->lt, *lx = &m->lh;
	letters(lt, m->title.p ? m->title.p : "", m->title.len);
	if (lt->len < META_TITLE_LETTERS)
		return NULL;
	for (const GumboNode *n = m->root; n; ) {
		/* win_skip leaves out head, scripts, styles and templates
		 * (ex_is_hidden); any noscript too, a closed one or not. */
		if (tree_is_element(n) && (win_skip(n) || tree_tag(n) == GUMBO_TAG_NOSCRIPT)) {
			n = tree_after(n, m->root);
			continue;
		}
		if (n->type == GUMBO_NODE_TEXT) {
			size_t tn = strlen(n->v.text.text);
			/* Its letters are the title's only if it is about as long. */
			if (tn >= lt->len && tn <= m->title.len * 2 + 16) {
				letters(lx, n->v.text.text, tn);
				if (same(lx, lt))
					return block_of(n);
			}
		}
		n = tree_next(n, m->root);
	}
	return NULL;
}

/* ---- reading a page -------------------------------------------------- */

/* Sets m->host to the name a site gives itself in its host name: the
 * registrable domain's first label ("nytimes" for www.nytimes.com). */
static void
set_host(meta *m, const char *url, size_t un)
{
	m->host[0] = '\0';
	if (!url)
		return;
	const char *p = memmem(url, un, "://", 3);
	if (!p)
		return;
	p += 3;
	/* past "user:password@", which names no site */
	size_t auth = 0;
	while (p + auth < url + un && p[auth] != '/' && p[auth] != '?' && p[auth] != '#')
		auth++;
	const char *at = memrchr(p, '@', auth);
	if (at)
		p = at + 1;
	size_t i = 0;
	char host[sizeof m->host];
	while (p + i < url + un && i < sizeof host - 1 && p[i] != '/' && p[i] != ':' && p[i] != '?' &&
	       p[i] != '#') {
		host[i] = (char)(p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]);
		i++;
	}
	host[i] = '\0';
	const char *site = site_of(host);
	size_t k = strcspn(site, ".");
	if (k < sizeof m->host) {
		memcpy(m->host, site, k);
		m->host[k] = '\0';
	}
}

/* DATE_MDY for US English (and pages that do not say), else DATE_DMY. */
static int
date_order(const char *lang)
{
	if (!lang)
		return DATE_MDY;
	while (pbuf_isspace((unsigned char)*lang))
		lang++;
	if (strncasecmp(lang, "en", 2) != 0)
		return *lang ? DATE_DMY : DATE_MDY;
	return lang[2] == '\0' || strncasecmp(lang + 2, "-us", 3) == 0 ? DATE_MDY : DATE_DMY;
}

/* Offers the JSON-LD facts. */
static void
from_jsonld(meta *m)
{
	jsonld_facts *f = &m->facts;
	jsonld_read(m->ld, f);
	offer_str(m, K_OTITLE, R_JSONLD, f->title);
	offer_str(m, K_DESC, R_JSONLD, f->description);
	offer_str(m, K_PUBLISHED, R_JSONLD, f->published);
	offer_str(m, K_MODIFIED, R_JSONLD, f->modified);
	offer_str(m, K_IMAGE, R_JSONLD, f->image);
	offer_str(m, K_SITE, R_JSONLD, f->site_name);
	offer_str(m, K_LANG, R_JSONLD, f->lang);
	if (f->author.len)
		offer(m, K_AUTHOR, R_JSONLD, f->author.p, f->author.len);
	if (f->author_org.len)
		offer(m, K_AUTHOR, R_WEAK, f->author_org.p, f->author_org.len);
	if (json_is_string(f->keywords)) {
		offer_str(m, K_KEYWORDS, R_JSONLD, json_string_value(f->keywords));
	} else if (json_is_array(f->keywords)) {
		size_t i;
		const json_t *e;
		json_array_foreach(f->keywords, i, e)
			if (json_is_string(e))
				append_list(m, K_KEYWORDS, R_JSONLD, json_string_value(e));
	}
}

/* The part of author box n that holds the name: its first element
 * whose class says name ("author__name", hCard's "fn"), as a box
 * often runs the name into a role ("Jane DoeFounder") or a biography;
 * else n. */
static const GumboNode *
name_part(const GumboNode *n)
{
	int seen = 0;
	for (const GumboNode *k = tree_next(n, n); k && seen < 64; k = tree_next(k, n), seen++) {
		const char *c;
		if (tree_is_element(k) && (c = tree_attr(k, "class")) &&
		    (strcasestr(c, "name") || has_token(c, "fn")))
			return k;
	}
	return n;
}

/* The byline around the author's name n: its largest ancestor, up to
 * META_BYLINE_UP levels, whose text (into m->win) is a line at most
 * META_BYLINE_MAX bytes, as a name and the date beside it are ("Moses
 * Kim · April 8, 2024" in two paragraphs of one box).  Returns 0 when
 * not even n's parent is such a line. */
static int
byline_block(meta *m, const GumboNode *n)
{
	const GumboNode *best = NULL;
	for (int up = 0; up < META_BYLINE_UP && n->parent && n->parent->type == GUMBO_NODE_ELEMENT;
	     up++) {
		n = n->parent;
		pbuf_reset(&m->win);
		ex_text(&m->win, n);
		if (m->win.len > META_BYLINE_MAX)
			break;
		best = n;
	}
	/* m->win holds the last ancestor read: best's, unless one too long
	 * came after it. */
	if (best && best != n) {
		pbuf_reset(&m->win);
		ex_text(&m->win, best);
	}
	return best != NULL;
}

/* The first label in text s that only a writer's name follows,
 * wherever it stands: "Written by", "Posted by", "Author:", or
 * "Author" or "Article by" as all of its line, starting a word
 * ("underwritten by" names an insurer); NULL when none.  *len: the
 * label's length. */
static const char *
by_label(const char *s, size_t *len)
{
	/* own: only as all of its line ("Author" over the name) */
	static const struct { const char *w; int own; } w[] = {
		{ "written by", 0 }, { "posted by", 0 }, { "author:", 0 },
		{ "author", 1 }, { "authors", 1 }, { "article by", 1 },
	};
	/* One pass, each word's start compared: 1 MB of "underwritten
	 * by" in one text is read once. */
	for (const char *p = s; *p; p++) {
		if (p > s && isalnum((unsigned char)p[-1]))
			continue;
		/* The labels' first letters: most words start with another. */
		int c = tolower((unsigned char)*p);
		if (c != 'w' && c != 'p' && c != 'a')
			continue;
		for (size_t k = 0; k < sizeof w / sizeof w[0]; k++) {
			size_t ln = strlen(w[k].w);
			if ((p[1] | 32) != w[k].w[1] || strncasecmp(p, w[k].w, ln) != 0)
				continue;
			if (!w[k].own) {
				*len = ln;
				return p;
			}
			const char *b = p, *e = p + ln;
			while (b > s && (b[-1] == ' ' || b[-1] == '\t'))
				b--;
			while (*e == ' ' || *e == '\t')
				e++;
			if ((b == s || b[-1] == '\n') && (*e == '\0' || *e == '\n' || *e == '\r')) {
				*len = ln;
				return p;
			}
		}
	}
	return NULL;
}

/* The length of the text from label at (n bytes of it long, end
 * bytes of text in all) that names its writer: the rest of its line,
 * or the next line too when nothing else is on the label's (a label on
 * a line of its own).  A later "by" is no name of this label's. */
static size_t
by_line(const char *at, size_t n, size_t end)
{
	const char *eol = memchr(at + n, '\n', end - n);
	if (!eol)
		return end;
	for (const char *p = at + n; p < eol; p++)
		if (isalnum((unsigned char)*p))
			return (size_t)(eol - at);
	const char *eol2 = memchr(eol + 1, '\n', end - (size_t)(eol + 1 - at));
	return eol2 ? (size_t)(eol2 - at) : end;
}

/* Whether text node n is the page's shown text, where a byline's label
 * can be: not the <title>, a form's field or option, a template or a
 * hidden element's. */
static int
by_text(const GumboNode *n)
{
	const GumboNode *p = n->parent;
	if (!p || p->type != GUMBO_NODE_ELEMENT)
		return 0;
	GumboTag t = p->v.element.tag;
	return t != GUMBO_TAG_TITLE && t != GUMBO_TAG_TEXTAREA && t != GUMBO_TAG_OPTION &&
	       t != GUMBO_TAG_TEMPLATE && !ex_is_hidden(p);
}

/* Whether the page's text under the title (m->win) shows the author
 * the metadata gave: its first name (up to a comma, "and" or "&"),
 * letters compared. */
static int
author_shown(meta *m)
{
	const pbuf *a = &m->val[K_AUTHOR];
	size_t n = 0;
	while (n < a->len && a->p[n] != ',' && a->p[n] != '&' &&
	       !(n + 5 <= a->len && strncasecmp(a->p + n, " and ", 5) == 0))
		n++;
	letters(&m->sa, a->p, n);
	letters(&m->sb, m->win.p ? m->win.p : "", m->win.len);
	return m->sa.len && contains(&m->sb, &m->sa);
}

/* Offers the name after the byline's label under the title (name),
 * over the metadata's author when the text there does not show that
 * one, and name is a person's (two words or more: "by Google" names a
 * company as often as a writer) and no part of it: the metadata's is
 * then the CMS's account ("KatieS"), the site's default, or another
 * article's, and the byline is whom the page names as its writer. */
static void
byline_author(meta *m, const pbuf *name)
{
	int r = m->rank[K_AUTHOR];
	if (r < R_TEXT && r != R_STARTER && memchr(name->p, ' ', name->len) && !author_shown(m)) {
		letters(&m->sa, m->val[K_AUTHOR].p, m->val[K_AUTHOR].len);
		letters(&m->sb, name->p, name->len);
		if (!contains(&m->sa, &m->sb)) {
			m->rank[K_AUTHOR] = R_NONE;
			offer(m, K_AUTHOR, R_TEXT + 1, name->p, name->len);
			if (m->rank[K_AUTHOR] == R_NONE)
				m->rank[K_AUTHOR] = r;   /* no name after all */
			return;
		}
	}
	offer(m, K_AUTHOR, R_TEXT + 1, name->p, name->len);
}

/* The name on the first line of box n (a line to each of its blocks,
 * as win_read reads them into m->tmp) into out, when the box has a
 * line after it: returns where that line starts (its end at *end), or
 * NULL. */
static const char *
box_line(meta *m, const GumboNode *n, pbuf *out, const char **end)
{
	pbuf *w = &m->tmp;
	win_read(w, n, n, META_BYLINE_MAX, 0, NULL);
	const char *nl = w->len ? memchr(w->p, '\n', w->len) : NULL;
	*end = w->p + w->len;
	if (!nl || nl + 1 >= *end || !name_line(w->p, 0, (size_t)(nl - w->p), m->order, out))
		return NULL;
	return nl + 1;
}

/* Shortens name, read from element n's text as one run, to the name
 * on the first of n's lines (box_line) when name starts with it: a box
 * of "Harry Rabinowitz" over "Tech Reporter", read as one run, gives
 * the role's first word to the name. */
static void
box_name(meta *m, const GumboNode *n, pbuf *name)
{
	pbuf *first = &m->sa;
	const char *end;
	if (box_line(m, n, first, &end) && first->len < name->len &&
	    memcmp(name->p, first->p, first->len) == 0 && name->p[first->len] == ' ') {
		pbuf_reset(name);
		pbuf_put(name, first->p, first->len);
	}
}

/* The name on the first line of author box n (box_line) when n's text
 * as one run is no byline (a name over a biography or a role is longer
 * than one) and the next line starts with the name's first word (or
 * its possessive), a biography's subject ("Bence is a software
 * developer"), or with a job's word ("Writer, Hardware").  An element
 * merely named author (a page's body "hide-author", a shop's item
 * "author-jane") has a menu's or a shop's words first, and no
 * biography of them next.  Into out; returns whether it holds a name. */
static int
box_first(meta *m, const GumboNode *n, pbuf *out)
{
	const char *end, *next = box_line(m, n, out, &end);
	if (!next)
		return 0;
	size_t first = 0, word = 0;
	while (first < out->len && out->p[first] != ' ')
		first++;
	while (next + word < end && !pbuf_isspace((unsigned char)next[word]) && next[word] != ',')
		word++;
	return (word >= first && memcmp(next, out->p, first) == 0 &&
		(word == first || next[first] == '\'' ||
		 (word >= first + 3 && memcmp(next + first, "\xe2\x80\x99", 3) == 0))) ||
	       role_word(next, word);
}

/* Offers what the page's own text says: the byline and date near the
 * title heading h, elements named like bylines and dates, <time>. */
static void
from_text(meta *m, const GumboNode *h)
{
	pbuf *name = &m->tmp2;
	if (m->rel_author) {
		pbuf_reset(&m->win);
		ex_text(&m->win, m->rel_author);
		if (byline(&m->win, m->order, name))
			offer(m, K_AUTHOR, R_TEXT, name->p, name->len);
	}
	if (h) {
		win_after(m, h);
		if (starter_name(m->win.p, m->win.len, m->order, name))
			offer(m, K_AUTHOR, R_STARTER, name->p, name->len);
		if (by_name(m->win.p, m->win.len, m->order, name))
			byline_author(m, name);
		if (date_name(m->win.p, m->win.len, m->order, m->article || m->facts.is_main, name))
			offer(m, K_AUTHOR, R_TEXT + 5, name->p, name->len);
		if (m->win_time)
			offer_str(m, K_PUBLISHED, R_TEXT + 1, tree_attr(m->win_time, "datetime"));
		text_dates(m, m->win.p, m->win.len, R_TEXT + 2, 0);
		win_before(m, h);
		if (by_name(m->win.p, m->win.len, m->order, name))
			offer(m, K_AUTHOR, R_TEXT + 2, name->p, name->len);
		text_dates(m, m->win.p, m->win.len, R_TEXT + 3, 1);
	}
	if (m->author_link) {
		pbuf_reset(&m->win);
		ex_text(&m->win, m->author_link);
		if (byline(&m->win, m->order, name)) {
			box_name(m, m->author_link, name);
			offer(m, K_AUTHOR, R_TEXT + 3, name->p, name->len);
		}
	}
	for (int i = 0; i < m->nauthors && m->rank[K_AUTHOR] > R_TEXT + 4; i++) {
		const GumboNode *part = name_part(m->authors[i]);
		pbuf_reset(&m->win);
		ex_text(&m->win, part);
		/* A user name element, or a link named like a byline (old
		 * Reddit's "author", microformats' "u-author"), shows a
		 * handle as its user wrote it ("scvalex"). */
		int handle = user_el(m->authors[i]) || tree_tag(m->authors[i]) == GUMBO_TAG_A;
		if (handle && login_word(&m->win))
			continue;
		if (byline(&m->win, m->order, name)) {
			box_name(m, part, name);
			offer(m, K_AUTHOR, R_TEXT + 4, name->p, name->len);
		}
		else if (handle && user_name(&m->win))
			offer(m, K_AUTHOR, R_TEXT + 4, m->win.p, m->win.len);
		else if (!handle && box_first(m, part, name))
			offer(m, K_AUTHOR, R_TEXT + 4, name->p, name->len);
	}
	/* The name over a user's title is a handle as its user wrote it,
	 * as a user name element's is. */
	if (m->ranked && m->rank[K_AUTHOR] > R_TEXT + 4) {
		pbuf_reset(&m->win);
		ex_text(&m->win, m->ranked);
		if (user_name(&m->win) && !login_word(&m->win))
			offer(m, K_AUTHOR, R_TEXT + 4, m->win.p, m->win.len);
	}
	if (m->time_el)
		offer_str(m, K_PUBLISHED, R_TEXT + 4, tree_attr(m->time_el, "datetime"));
	for (int i = 0; i < m->ndates && m->rank[K_PUBLISHED] > R_TEXT + 5; i++) {
		pbuf_reset(&m->win);
		ex_text(&m->win, m->dates[i]);
		text_dates(m, m->win.p, m->win.len < META_BYLINE_MAX ? m->win.len : META_BYLINE_MAX, R_TEXT + 5, 0);
	}
	/* Last, a label that says what follows is the writer, wherever it
	 * is: "Written by" closes many an article, over its author's box. */
	if (m->by_label && m->rank[K_AUTHOR] > R_TEXT + 7) {
		win_after(m, m->by_label);
		size_t n;
		const char *at = m->win.p ? by_label(m->win.p, &n) : NULL;
		if (at && by_name(at, by_line(at, n, m->win.len - (size_t)(at - m->win.p)),
				  m->order, name))
			offer(m, K_AUTHOR, R_TEXT + 7, name->p, name->len);
	}
	const GumboNode *who = m->rel_author ? m->rel_author :
			       m->author_link ? m->author_link :
			       m->nauthors ? m->authors[0] : NULL;
	if (who && m->rank[K_PUBLISHED] > R_TEXT + 6 && byline_block(m, who))
		text_dates(m, m->win.p, m->win.len, R_TEXT + 6, 0);
	/* Last, the date under the first h1 when the title heading is
	 * another: the <title> may name a section's heading further down
	 * ("How mapping works" of an h2) while the h1 over it is dated. */
	const GumboNode *h1 = NULL;
	for (int i = 0; i < m->nhead && !h1 && m->rank[K_PUBLISHED] == R_NONE; i++)
		if (tree_tag(m->head[i]) == GUMBO_TAG_H1)
			h1 = m->head[i];
	if (h1 && h1 != h) {
		win_after(m, h1);
		text_dates(m, m->win.p, m->win.len, R_TEXT + 7, 0);
	}
}

/* Cuts the site's name from the end of the author, after a comma, a
 * dash or a bar between spaces: "Manoj Jain and Jagpreet Chhatwal, The
 * Commercial Appeal", "David Jackson - FullStack Editorial Team" on
 * those publications' sites.  A byline names the writer, then the
 * publication the writer writes for; the site is that publication,
 * not a writer.  Letters compared, the part after the mark starting
 * with the site's name. */
static void
site_suffix(meta *m)
{
	pbuf *a = &m->val[K_AUTHOR];
	if (!a->len || !m->val[K_SITE].len)
		return;
	letters(&m->sb, m->val[K_SITE].p, m->val[K_SITE].len);
	if (!m->sb.len)
		return;
	for (size_t i = 1; i + 3 < a->len; i++) {
		size_t t = 0;
		if (a->p[i] == ',' && a->p[i + 1] == ' ')
			t = i + 2;
		else if (a->p[i] == ' ' && (a->p[i + 1] == '-' || a->p[i + 1] == '|') &&
			 a->p[i + 2] == ' ')
			t = i + 3;
		if (!t)
			continue;
		letters(&m->sa, a->p + t, a->len - t);
		if (starts(&m->sa, &m->sb)) {
			a->len = i;
			a->p[i] = '\0';
			return;
		}
	}
}

/* Puts the person the page's byline names (m->person) over a metadata
 * author that is the site's own name (site_name's letters, or the
 * host's: "Rapid7", "Five Books") and no part of that person's name: a
 * CMS writes the site as every page's author where the byline names
 * the writer ("By Spencer McIntyre").  A byline that holds the site's
 * name ("Heather Handmade December") is the site's, misread. */
static void
site_author(meta *m)
{
	pbuf *a = &m->val[K_AUTHOR];
	if (!m->person.len || !a->len || m->rank[K_AUTHOR] >= R_TEXT)
		return;
	letters(&m->sa, a->p, a->len);
	letters(&m->lt, m->person.p, m->person.len);
	if (contains(&m->lt, &m->sa))
		return;
	letters(&m->sb, m->val[K_SITE].p ? m->val[K_SITE].p : "", m->val[K_SITE].len);
	letters(&m->lh, m->host, strlen(m->host));
	if ((m->sb.len && same(&m->sa, &m->sb)) || (m->lh.len && same(&m->sa, &m->lh))) {
		pbuf_reset(a);
		pbuf_put(a, m->person.p, m->person.len);
		m->rank[K_AUTHOR] = R_TEXT;
	}
}

/* JSON-LD's datePublished is often the CMS's record (a WebPage's, a
 * first draft's) rather than the date a story is given under: when the
 * first date under the title heading is another day, and no other
 * metadata (microdata, OpenGraph, <meta>) gives JSON-LD's day, the
 * page's own date is published. */
static void
shown_date(meta *m)
{
	const char *ld = m->val[K_PUBLISHED].p;
	/* The date the page is given under: its update's when it shows
	 * no other there ("Updated Dec 4, 2025" alone under the title). */
	const char *day = *m->shown ? m->shown : m->updated;
	if (m->rank[K_PUBLISHED] != R_JSONLD || !m->titled || !*day || strncmp(day, ld, 10) == 0)
		return;
	/* JSON-LD's day with its month and day swapped is JSON-LD's date
	 * written in the other order ("09.10.2024" for September 10th),
	 * which the page's language did not tell. */
	if (strncmp(day, ld, 5) == 0 && strncmp(day + 5, ld + 8, 2) == 0 &&
	    strncmp(day + 8, ld + 5, 2) == 0)
		return;
	for (int i = 0; i < m->nday; i++)
		if (strncmp(m->day[i], ld, 10) == 0)
			return;
	pbuf_reset(&m->val[K_PUBLISHED]);
	pbuf_put(&m->val[K_PUBLISHED], day, strlen(day));
	m->rank[K_PUBLISHED] = R_TEXT + 1;
}

/* A published time in UTC that another source gives as the same
 * instant in another zone is written in that zone: the site's own
 * clock, whose calendar day is the one the page is dated by (a story
 * of 7 pm in California is of that day, though UTC says the next);
 * CMSs and OpenGraph tags often write UTC. */
static void
local_time(meta *m)
{
	pbuf *v = &m->val[K_PUBLISHED];
	if (v->len != DATE_MAX - 1 || strcmp(v->p + 19, "+00:00") != 0)
		return;
	for (int i = 0; i < m->nzoned; i++)
		if (date_same_instant(v->p, m->zoned[i])) {
			pbuf_reset(v);
			pbuf_put(v, m->zoned[i], DATE_MAX - 1);
			return;
		}
}

void
meta_read(meta *m, const GumboOutput *out, const ex_result *r, const char *url, size_t un,
	  double fetched)
{
	m->r = r;
	m->root = out->document;
	for (int k = 0; k < K_N; k++) {
		pbuf_reset(&m->val[k]);
		m->rank[k] = R_NONE;
	}
	jsonld_reset(m->ld);
	m->nhead = m->nauthors = m->ndates = 0;
	m->rel_author = m->author_link = m->time_el = m->by_label = m->ranked = NULL;
	m->tw_label[0] = m->tw_label[1] = m->tw_data[0] = m->tw_data[1] = NULL;
	m->app_name = NULL;
	m->article = 0;
	m->nday = m->nzoned = 0;
	m->shown[0] = m->updated[0] = '\0';
	m->micro_read = 0;
	pbuf_reset(&m->person);
	m->order = date_order(r->lang);
	set_host(m, url, un);
	set_slug(m, url, un);
	time_t t = (time_t)(fetched > 0 ? fetched : (double)time(NULL)) + 86400;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(m->maxday, sizeof m->maxday, "%Y-%m-%d", &tm);

	offer_str(m, K_LANG, R_PAGE, r->lang);
	offer_str(m, K_DESC, R_PAGE, r->description);
	for (const GumboNode *n = out->document; n; ) {
		if (tree_is_element(n)) {
			element(m, n);
			/* Nothing of ours is inside scripts and styles. */
			if (tree_tag(n) == GUMBO_TAG_SCRIPT || tree_tag(n) == GUMBO_TAG_STYLE) {
				n = tree_after(n, out->document);
				continue;
			}
		} else if (n->type == GUMBO_NODE_TEXT && !m->by_label && by_text(n) &&
			   by_label(n->v.text.text, &(size_t){ 0 })) {
			m->by_label = n;
		}
		n = tree_next(n, out->document);
	}
	from_jsonld(m);
	/* Yoast's "Written by" card. */
	for (int i = 0; i < 2; i++)
		if (m->tw_label[i] && m->tw_data[i] &&
		    (strcasestr(m->tw_label[i], "written by") || strcasestr(m->tw_label[i], "author")))
			offer_str(m, K_AUTHOR, R_TWITTER, m->tw_data[i]);
	const GumboNode *h = choose_title(m);
	from_text(m, h);
	/* A page without a title heading may show its title in a styled
	 * block, its date under it as under a heading.  Only the date: a
	 * "by" in the story's first lines there is prose as often. */
	const GumboNode *shown = h || m->rank[K_PUBLISHED] != R_NONE ? NULL : shown_title(m);
	if (shown) {
		win_after(m, shown);
		text_dates(m, m->win.p, m->win.len, R_TEXT + 2, 0);
	}
	site_suffix(m);
	site_author(m);
	shown_date(m);
	local_time(m);
	/* A date in the URL's path (/2024/03/05/) is the site's own. */
	const char *path = url ? memmem(url, un, "://", 3) : NULL;
	char iso[DATE_MAX];
	size_t at, dl;
	if (path && date_find(path + 3, un - (size_t)(path + 3 - url), DATE_MDY, META_TEXT_YEAR, iso, &at, &dl))
		offer_str(m, K_PUBLISHED, R_WEAK, iso);
	/* A page that gives only its update's date is known by that date. */
	if (m->rank[K_PUBLISHED] == R_NONE && m->val[K_MODIFIED].len)
		offer(m, K_PUBLISHED, R_WEAK, m->val[K_MODIFIED].p, m->val[K_MODIFIED].len);
	/* og:locale is en_US where a language tag is en-US. */
	pbuf *l = &m->val[K_LANG];
	for (size_t i = 0; i < l->len; i++)
		if (l->p[i] == '_')
			l->p[i] = '-';
}

/* ---- writing --------------------------------------------------------- */

static void
put_val(meta *m, rec_build *b, const char *key, int k)
{
	if (m->val[k].len)
		rec_put_strn(b, key, m->val[k].p, m->val[k].len);
}

/* Puts `keywords`: the list split at commas, trimmed, each once (ASCII
 * case aside), at most META_MAX_KEYWORDS. */
static void
put_keywords(meta *m, rec_build *b)
{
	const pbuf *v = &m->val[K_KEYWORDS];
	if (!v->len)
		return;
	const char *at[META_MAX_KEYWORDS];
	size_t len[META_MAX_KEYWORDS];
	int nk = 0;
	for (size_t i = 0; i < v->len && nk < META_MAX_KEYWORDS; ) {
		size_t j = i;
		while (j < v->len && v->p[j] != ',')
			j++;
		size_t a = i, z = j;
		while (a < z && pbuf_isspace((unsigned char)v->p[a]))
			a++;
		while (z > a && pbuf_isspace((unsigned char)v->p[z - 1]))
			z--;
		int dup = z == a;
		for (int k = 0; k < nk && !dup; k++)
			dup = len[k] == z - a && strncasecmp(at[k], v->p + a, z - a) == 0;
		if (!dup) {
			at[nk] = v->p + a;
			len[nk++] = z - a;
		}
		i = j + 1;
	}
	if (!nk)
		return;
	msgpack_packer *pk = rec_key(b, "keywords");
	msgpack_pack_array(pk, (uint32_t)nk);
	for (int k = 0; k < nk; k++) {
		msgpack_pack_str(pk, len[k]);
		msgpack_pack_str_body(pk, at[k], len[k]);
	}
}

void
meta_put(meta *m, rec_build *b, lnk *links)
{
	if (m->title.len || m->r->has_title)
		rec_put_strn(b, "title", m->title.p ? m->title.p : "", m->title.len);
	put_val(m, b, "lang", K_LANG);
	put_val(m, b, "description", K_DESC);
	put_val(m, b, "author", K_AUTHOR);
	put_val(m, b, "published", K_PUBLISHED);
	put_val(m, b, "modified", K_MODIFIED);
	put_val(m, b, "site_name", K_SITE);
	const char *s;
	size_t sn;
	if (m->val[K_IMAGE].len && lnk_resolve(links, m->val[K_IMAGE].p, &s, &sn))
		rec_put_strn(b, "image", s, sn);
	put_keywords(m, b);
	if (jsonld_count(m->ld)) {
		msgpack_packer *pk = rec_key(b, "jsonld");
		jsonld_pack(m->ld, pk);
	}
	if (jsonld_skipped(m->ld))
		rec_put_int(b, "jsonld_skipped", jsonld_skipped(m->ld));
}
