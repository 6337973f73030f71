#include "kind.h"

#include <string.h>
#include <strings.h>

#include "tree.h"

/* A page with this many <pre> blocks or more shows code: a manual. */
#define KIND_PRE 3

/* The schema.org types that say a kind, matched whole, case-sensitive
 * as schema.org spells them; a type not here (WebPage, Organization,
 * BreadcrumbList, ImageObject) says nothing. */
static const struct {
	const char *type;
	int kind;
} kind_types[] = {
	{ "Product", KIND_PRODUCT }, { "ProductGroup", KIND_PRODUCT },
	{ "IndividualProduct", KIND_PRODUCT }, { "ProductModel", KIND_PRODUCT },
	{ "Car", KIND_PRODUCT }, { "Book", KIND_PRODUCT },
	{ "SomeProducts", KIND_PRODUCT },
	/* Not Question: an FAQPage's questions are a service page's or an
	 * article's. */
	{ "DiscussionForumPosting", KIND_FORUM }, { "QAPage", KIND_FORUM },
	{ "TechArticle", KIND_DOCS }, { "APIReference", KIND_DOCS },
	{ "Article", KIND_ARTICLE }, { "NewsArticle", KIND_ARTICLE },
	{ "BlogPosting", KIND_ARTICLE }, { "Report", KIND_ARTICLE },
	{ "ScholarlyArticle", KIND_ARTICLE }, { "AnalysisNewsArticle", KIND_ARTICLE },
	{ "OpinionNewsArticle", KIND_ARTICLE }, { "ReportageNewsArticle", KIND_ARTICLE },
	{ "Review", KIND_ARTICLE }, { "Recipe", KIND_ARTICLE }, { "HowTo", KIND_ARTICLE },
	{ "LiveBlogPosting", KIND_ARTICLE },
	{ "CollectionPage", KIND_COLLECTION }, { "OfferCatalog", KIND_COLLECTION },
	{ "SearchResultsPage", KIND_LISTING }, { "ItemList", KIND_LISTING },
	{ "Service", KIND_SERVICE }, { "ProfessionalService", KIND_SERVICE },
	{ "FinancialService", KIND_SERVICE }, { "AboutPage", KIND_SERVICE },
	{ "ContactPage", KIND_SERVICE },
};

static const char *const kind_words[KIND_N] = {
	[KIND_OTHER] = "other", [KIND_ARTICLE] = "article", [KIND_FORUM] = "forum",
	[KIND_PRODUCT] = "product", [KIND_LISTING] = "listing",
	[KIND_COLLECTION] = "collection", [KIND_DOCS] = "docs", [KIND_SERVICE] = "service",
};

const char *
kind_word(int k)
{
	return k >= 0 && k < KIND_N ? kind_words[k] : kind_words[KIND_OTHER];
}

int
kind_parts(int k)
{
	return k == KIND_FORUM || k == KIND_PRODUCT || k == KIND_LISTING ||
	       k == KIND_COLLECTION || k == KIND_SERVICE;
}

/* Counts the kind named by schema.org type s[0..n) (a bare name or a
 * URL ending in one) in seen. */
static void
kind_type(unsigned seen[KIND_N], const char *s, size_t n)
{
	const char *slash = NULL;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == ':')
			slash = s + i;
	if (slash) {
		n -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	for (size_t i = 0; i < sizeof kind_types / sizeof kind_types[0]; i++)
		if (strlen(kind_types[i].type) == n && memcmp(kind_types[i].type, s, n) == 0) {
			seen[kind_types[i].kind]++;
			return;
		}
}

/* kind_type for jsonld_types. */
static void
kind_ld_type(void *seen, const char *s, size_t n)
{
	kind_type(seen, s, n);
}

/* Counts the types in an itemtype attribute: URLs separated by
 * spaces. */
static void
kind_itemtype(unsigned seen[KIND_N], const char *v)
{
	while (*v) {
		size_t n = strcspn(v, " \t\n\r\f");
		if (n)
			kind_type(seen, v, n);
		v += n;
		v += strspn(v, " \t\n\r\f");
	}
}

/* The words of a URL's path that name a kind, matched as a whole
 * segment (before any dot: showthread.php), case-insensitive: the
 * conventions of forum engines, shops, manuals and company sites. */
static const struct {
	const char *seg;
	int kind;
} kind_segs[] = {
	{ "t", KIND_FORUM }, { "topic", KIND_FORUM }, { "thread", KIND_FORUM },
	{ "threads", KIND_FORUM }, { "forum", KIND_FORUM }, { "forums", KIND_FORUM },
	{ "viewtopic", KIND_FORUM }, { "showthread", KIND_FORUM }, { "questions", KIND_FORUM },
	{ "discussion", KIND_FORUM }, { "discussions", KIND_FORUM }, { "comments", KIND_FORUM },
	{ "product", KIND_PRODUCT }, { "products", KIND_PRODUCT }, { "dp", KIND_PRODUCT },
	{ "itm", KIND_PRODUCT }, { "item", KIND_PRODUCT },
	{ "collections", KIND_COLLECTION }, { "collection", KIND_COLLECTION },
	{ "category", KIND_COLLECTION }, { "categories", KIND_COLLECTION },
	{ "product-category", KIND_COLLECTION }, { "c", KIND_COLLECTION },
	{ "docs", KIND_DOCS }, { "documentation", KIND_DOCS }, { "manual", KIND_DOCS },
	{ "reference", KIND_DOCS },
	{ "services", KIND_SERVICE }, { "service", KIND_SERVICE }, { "solutions", KIND_SERVICE },
	{ "pricing", KIND_SERVICE },
	{ "search", KIND_LISTING }, { "jobs", KIND_LISTING }, { "list", KIND_LISTING },
};

/* The kind url[0..n)'s path names, or KIND_OTHER: its last segment
 * that names one, the deepest being the page's own
 * (/collections/boots/products/trail-2 is a product). */
static int
kind_url(const char *url, size_t n)
{
	const char *p = url ? memchr(url, ':', n) : NULL;
	if (!p || (size_t)(url + n - p) < 3 || p[1] != '/' || p[2] != '/')
		return KIND_OTHER;
	const char *end = url + n;
	p += 3;
	while (p < end && *p != '/' && *p != '?' && *p != '#')
		p++;
	int kind = KIND_OTHER;
	while (p < end && *p == '/') {
		const char *seg = ++p;
		while (p < end && *p != '/' && *p != '?' && *p != '#' && *p != '.')
			p++;
		size_t len = (size_t)(p - seg);
		for (size_t i = 0; len && i < sizeof kind_segs / sizeof kind_segs[0]; i++)
			if (strlen(kind_segs[i].seg) == len && strncasecmp(kind_segs[i].seg, seg, len) == 0)
				kind = kind_segs[i].kind;
		while (p < end && *p != '/' && *p != '?' && *p != '#')
			p++;
	}
	return kind;
}

int
kind_of(const GumboOutput *out, const jsonld *ld, const char *url, size_t un, int *typed)
{
	unsigned seen[KIND_N] = { 0 };
	jsonld_types(ld, kind_ld_type, seen);
	unsigned pre = 0, article = 0, og = KIND_OTHER;
	const GumboNode *top = out->document;
	for (const GumboNode *n = top; n; n = tree_next(n, top)) {
		if (!tree_is_element(n))
			continue;
		GumboTag t = tree_tag(n);
		const char *v;
		if (t == GUMBO_TAG_PRE)
			pre++;
		else if (t == GUMBO_TAG_ARTICLE)
			article++;
		else if (t == GUMBO_TAG_META && (v = tree_attr(n, "property")) &&
			 strcasecmp(v, "og:type") == 0 && (v = tree_attr(n, "content"))) {
			if (strcasecmp(v, "article") == 0)
				og = KIND_ARTICLE;
			else if (strcasecmp(v, "product") == 0 || strcasecmp(v, "og:product") == 0)
				og = KIND_PRODUCT;
			else if (strcasecmp(v, "product.group") == 0)
				og = KIND_COLLECTION;
		}
		/* One pass over the attributes, their names lowercase as
		 * gumbo writes them: this runs for every element. */
		const GumboVector *at = &n->v.element.attributes;
		for (unsigned i = 0; i < at->length; i++) {
			const GumboAttribute *a = at->data[i];
			if (a->name[0] == 'i' && strcmp(a->name, "itemtype") == 0)
				kind_itemtype(seen, a->value);
		}
	}
	/* The page's own type before the types of what it lists: a
	 * category page lists many products; a thread's posts and a
	 * product's reviews are its parts.  (Not many articles for a
	 * listing: an article lists related ones the same way.) */
	*typed = 1;
	if (seen[KIND_FORUM])
		return KIND_FORUM;
	if (seen[KIND_COLLECTION] || seen[KIND_PRODUCT] > 1 || og == KIND_COLLECTION) {
		*typed = seen[KIND_COLLECTION] || seen[KIND_PRODUCT] > 1;
		return KIND_COLLECTION;
	}
	if (seen[KIND_PRODUCT] || og == KIND_PRODUCT) {
		*typed = seen[KIND_PRODUCT] != 0;
		return KIND_PRODUCT;
	}
	if (seen[KIND_DOCS])
		return KIND_DOCS;
	if (seen[KIND_LISTING])
		return KIND_LISTING;
	if (seen[KIND_ARTICLE] || og == KIND_ARTICLE) {
		*typed = seen[KIND_ARTICLE] != 0;
		return pre >= KIND_PRE ? KIND_DOCS : KIND_ARTICLE;
	}
	if (seen[KIND_SERVICE])
		return KIND_SERVICE;
	*typed = 0;
	if (pre >= KIND_PRE)
		return KIND_DOCS;
	if (article == 1)
		return KIND_ARTICLE;
	return kind_url(url, un);
}
