#include "jsonld.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

/* Objects the facts are looked for in: the kept objects, their @graph
 * members and main entities.  Pages have a handful; past this many the
 * rest are not looked at (they are still kept in `jsonld`). */
#define JSONLD_MAX_NODES 256

struct jsonld {
	json_t **obj;           /* kept objects, in page order */
	size_t nobj, capobj;
	size_t bytes;           /* of the blocks they came from */
	unsigned skipped;
	pbuf buf;               /* a block, unwrapped and cleaned */
	const json_t *node[JSONLD_MAX_NODES];
	size_t nnode;
};

jsonld *
jsonld_new(void)
{
	jsonld *j = xcalloc(1, sizeof *j);
	pbuf_init(&j->buf);
	return j;
}

void
jsonld_reset(jsonld *j)
{
	for (size_t i = 0; i < j->nobj; i++)
		json_decref(j->obj[i]);
	j->nobj = 0;
	j->bytes = 0;
	j->skipped = 0;
	j->nnode = 0;
}

void
jsonld_free(jsonld *j)
{
	if (!j)
		return;
	jsonld_reset(j);
	free(j->obj);
	pbuf_free(&j->buf);
	free(j);
}

size_t
jsonld_count(const jsonld *j)
{
	return j->nobj;
}

unsigned
jsonld_skipped(const jsonld *j)
{
	return j->skipped;
}

static int
is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* Trims whitespace and, from the start, each of the wrappers in pre;
 * from the end each of those in post (older pages hide scripts from old
 * browsers in comments, XHTML pages in CDATA sections). */
static void
unwrap(const char **s, size_t *n)
{
	static const char *const pre[] = { "<!--", "//<![CDATA[", "/*<![CDATA[*/", "<![CDATA[" };
	static const char *const post[] = { "-->", "//]]>", "/*]]>*/", "]]>" };
	const char *p = *s;
	size_t m = *n;
	for (int again = 1; again; ) {
		again = 0;
		while (m && is_ws((unsigned char)*p))
			p++, m--;
		while (m && is_ws((unsigned char)p[m - 1]))
			m--;
		for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
			size_t k = strlen(pre[i]);
			if (m >= k && memcmp(p, pre[i], k) == 0)
				p += k, m -= k, again = 1;
		}
		for (size_t i = 0; i < sizeof post / sizeof post[0]; i++) {
			size_t k = strlen(post[i]);
			if (m >= k && memcmp(p + m - k, post[i], k) == 0)
				m -= k, again = 1;
		}
	}
	*s = p, *n = m;
}

/* Whether arrays and objects nest deeper than JSONLD_MAX_DEPTH in
 * s[0..n), brackets in strings aside: checked before jansson, whose own
 * limit (2048) is far above what a record may hold. */
static int
too_deep(const char *s, size_t n)
{
	int depth = 0, str = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = 0;
		} else if (c == '"') {
			str = 1;
		} else if (c == '[' || c == '{') {
			if (++depth > JSONLD_MAX_DEPTH)
				return 1;
		} else if (c == ']' || c == '}') {
			depth--;
		}
	}
	return 0;
}

static void
keep(jsonld *j, json_t *o)
{
	if (j->nobj == j->capobj) {
		j->capobj = j->capobj ? 2 * j->capobj : 8;
		j->obj = xrealloc(j->obj, j->capobj * sizeof *j->obj);
	}
	j->obj[j->nobj++] = o;
}

void
jsonld_add(jsonld *j, const char *s, size_t n)
{
	unwrap(&s, &n);
	if (n == 0)
		return;
	if (n > JSONLD_MAX_BYTES - j->bytes || too_deep(s, n)) {
		j->skipped++;
		return;
	}
	/* Raw control characters are not JSON inside strings and are
	 * whitespace outside them: pages write raw newlines in long
	 * descriptions, and readers (Google's among them) take them. */
	pbuf_reset(&j->buf);
	pbuf_put(&j->buf, s, n);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)j->buf.p[i] < 0x20)
			j->buf.p[i] = ' ';
	json_error_t err;
	json_t *v = json_loadb(j->buf.p, n, JSON_ALLOW_NUL, &err);
	/* An integer past 64 bits (a GTIN written as a number) is still
	 * JSON: read such a block's numbers as doubles. */
	if (!v && json_error_code(&err) == json_error_numeric_overflow)
		v = json_loadb(j->buf.p, n, JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, &err);
	if (!v || (!json_is_object(v) && !json_is_array(v))) {
		json_decref(v);
		j->skipped++;
		return;
	}
	j->bytes += n;
	if (json_is_object(v)) {
		keep(j, v);
		return;
	}
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e)
		if (json_is_object(e))
			keep(j, json_incref(e));
	json_decref(v);
}

/* Packs v, of depth at most JSONLD_MAX_DEPTH (too_deep). */
static void
pack(msgpack_packer *pk, const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: {
		const char *k;
		size_t kn;
		json_t *x;
		msgpack_pack_map(pk, json_object_size(v));
		json_object_keylen_foreach((json_t *)v, k, kn, x) {
			msgpack_pack_str(pk, kn);
			msgpack_pack_str_body(pk, k, kn);
			pack(pk, x);
		}
		break;
	}
	case JSON_ARRAY: {
		size_t i;
		json_t *x;
		msgpack_pack_array(pk, json_array_size(v));
		json_array_foreach(v, i, x)
			pack(pk, x);
		break;
	}
	case JSON_STRING:
		msgpack_pack_str(pk, json_string_length(v));
		msgpack_pack_str_body(pk, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		msgpack_pack_int64(pk, json_integer_value(v));
		break;
	case JSON_REAL:
		msgpack_pack_double(pk, json_real_value(v));
		break;
	case JSON_TRUE:
		msgpack_pack_true(pk);
		break;
	case JSON_FALSE:
		msgpack_pack_false(pk);
		break;
	default:
		msgpack_pack_nil(pk);
		break;
	}
}

void
jsonld_pack(const jsonld *j, msgpack_packer *pk)
{
	msgpack_pack_array(pk, j->nobj);
	for (size_t i = 0; i < j->nobj; i++)
		pack(pk, j->obj[i]);
}

/* Whether key k[0..kn) holds a product's variants or other products
 * beside it: schema.org's hasVariant, isRelatedTo and isSimilarTo. */
static int
is_other_product(const char *k, size_t kn)
{
	static const char *const keys[] = { "hasVariant", "isRelatedTo", "isSimilarTo" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (strlen(keys[i]) == kn && memcmp(keys[i], k, kn) == 0)
			return 1;
	return 0;
}

/* Calls fn for the @type strings in v, of depth at most
 * JSONLD_MAX_DEPTH (too_deep). */
static void
types_in(const json_t *v, void (*fn)(void *, const char *, size_t), void *arg)
{
	const char *k;
	size_t kn, i;
	json_t *x;
	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			types_in(x, fn, arg);
		return;
	}
	if (!json_is_object(v))
		return;
	json_object_keylen_foreach((json_t *)v, k, kn, x) {
		if (kn == 5 && memcmp(k, "@type", 5) == 0) {
			if (json_is_string(x))
				fn(arg, json_string_value(x), json_string_length(x));
			else if (json_is_array(x)) {
				const json_t *t;
				json_array_foreach(x, i, t)
					if (json_is_string(t))
						fn(arg, json_string_value(t), json_string_length(t));
			}
		} else if (!is_other_product(k, kn)) {
			types_in(x, fn, arg);
		}
	}
}

void
jsonld_types(const jsonld *j, void (*fn)(void *arg, const char *type, size_t n), void *arg)
{
	for (size_t i = 0; i < j->nobj; i++)
		types_in(j->obj[i], fn, arg);
}

/* ---- schema.org facts ------------------------------------------------ */

void
jsonld_facts_init(jsonld_facts *f)
{
	memset(f, 0, sizeof *f);
	pbuf_init(&f->author);
	pbuf_init(&f->author_org);
}

void
jsonld_facts_free(jsonld_facts *f)
{
	pbuf_free(&f->author);
	pbuf_free(&f->author_org);
}

/* The string of key in object o, or NULL. */
static const char *
str_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_string(v) && json_string_length(v) ? json_string_value(v) : NULL;
}

/* Whether type name t ("NewsArticle", "schema:NewsArticle",
 * "https://schema.org/NewsArticle") is one of names. */
static int
type_in(const char *t, const char *const *names)
{
	const char *base = t;
	for (const char *p = t; *p; p++)
		if (*p == '/' || *p == ':')
			base = p + 1;
	for (; *names; names++)
		if (strcmp(base, *names) == 0)
			return 1;
	return 0;
}

/* Whether o's @type (a string or an array of them) is one of names. */
static int
has_type(const json_t *o, const char *const *names)
{
	const json_t *t = json_object_get(o, "@type");
	if (json_is_string(t))
		return type_in(json_string_value(t), names);
	size_t i;
	const json_t *e;
	json_array_foreach(t, i, e)
		if (json_is_string(e) && type_in(json_string_value(e), names))
			return 1;
	return 0;
}

/* The kinds of thing whose author and dates are the page's. */
static const char *const main_types[] = {
	"Article", "NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle",
	"MedicalScholarlyArticle", "Report", "AnalysisNewsArticle", "OpinionNewsArticle",
	"ReportageNewsArticle", "ReviewNewsArticle", "BackgroundNewsArticle",
	"AskPublicNewsArticle", "SatiricalArticle", "AdvertiserContentArticle",
	"LiveBlogPosting", "SocialMediaPosting", "DiscussionForumPosting", "Blog",
	"Question", "Product", "Recipe", "HowTo", "Review", "VideoObject", "Course",
	"Event", "CreativeWork", "Book", "Guide", NULL,
};
static const char *const page_types[] = {
	"WebPage", "ItemPage", "AboutPage", "CollectionPage", "QAPage", "FAQPage",
	"ProfilePage", "MedicalWebPage", "ContactPage", "SearchResultsPage", NULL,
};
static const char *const site_types[] = { "WebSite", NULL };
static const char *const org_types[] = {
	"Organization", "Corporation", "NewsMediaOrganization", "EducationalOrganization",
	"CollegeOrUniversity", "GovernmentOrganization", "NGO", "LocalBusiness",
	"OnlineBusiness", "OnlineStore", "Brand", NULL,
};

/* Adds o and what it holds to the nodes: its @graph's members and its
 * main entity, each also read for theirs, up to the node limit. */
static void
add_node(jsonld *j, const json_t *o, int depth)
{
	if (!json_is_object(o) || j->nnode >= JSONLD_MAX_NODES || depth > 4)
		return;
	j->node[j->nnode++] = o;
	const json_t *g = json_object_get(o, "@graph");
	if (json_is_object(g))
		add_node(j, g, depth + 1);
	size_t i;
	const json_t *e;
	json_array_foreach(g, i, e)
		add_node(j, e, depth + 1);
	add_node(j, json_object_get(o, "mainEntity"), depth + 1);
}

/* v, or the node that v refers to when v is a reference: an object
 * with an @id and no name. */
static const json_t *
deref(const jsonld *j, const json_t *v)
{
	const char *id = json_is_object(v) ? str_of(v, "@id") : NULL;
	if (!id || str_of(v, "name"))
		return v;
	for (size_t i = 0; i < j->nnode; i++)
		if (j->node[i] != v && json_object_size(j->node[i]) > 1) {
			const char *nid = str_of(j->node[i], "@id");
			if (nid && strcmp(nid, id) == 0)
				return j->node[i];
		}
	return v;
}

/* Appends name to b, ", " between, unless b holds it already or holds
 * AUTHOR_MAX bytes: a byline longer than that is a list of everyone, not
 * an author, and a bound keeps the look-up linear on a hostile page. */
enum { AUTHOR_MAX = 1024 };
static void
add_name(pbuf *b, const char *name)
{
	size_t n = strlen(name);
	while (n && is_ws((unsigned char)*name))
		name++, n--;
	while (n && is_ws((unsigned char)name[n - 1]))
		n--;
	/* A URL is a profile, not a name. */
	if (!n || b->len >= AUTHOR_MAX || strncmp(name, "http://", 7) == 0 || strncmp(name, "https://", 8) == 0)
		return;
	const char *end = b->len ? b->p + b->len : NULL;
	for (const char *p = b->p; end && (p = memmem(p, (size_t)(end - p), name, n)) != NULL; p += n)
		if ((p == b->p || p[-1] == ' ') && (p + n == end || p[n] == ','))
			return;
	if (b->len)
		pbuf_put(b, ", ", 2);
	pbuf_put(b, name, n);
}

/* Adds the names of author value v (a string, a Person or Organization,
 * a reference to one, an array of those) to f. */
static void
add_authors(const jsonld *j, const json_t *v, jsonld_facts *f, int depth)
{
	if (json_is_string(v)) {
		add_name(&f->author, json_string_value(v));
		return;
	}
	if (json_is_array(v) && depth == 0) {
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e)
			add_authors(j, e, f, 1);
		return;
	}
	v = deref(j, v);
	if (!json_is_object(v))
		return;
	const char *name = str_of(v, "name");
	if (!name)
		return;
	add_name(has_type(v, org_types) ? &f->author_org : &f->author, name);
}

/* The URL of image value v: a string, an ImageObject's url, the first
 * of an array. */
static const char *
image_of(const jsonld *j, const json_t *v)
{
	if (json_is_array(v))
		v = json_array_get(v, 0);
	if (json_is_string(v))
		return json_string_length(v) ? json_string_value(v) : NULL;
	v = deref(j, v);
	if (!json_is_object(v))
		return NULL;
	const char *u = str_of(v, "url");
	return u ? u : str_of(v, "contentUrl");
}

/* The name of v, an object or a reference to one. */
static const char *
name_of(const jsonld *j, const json_t *v)
{
	v = deref(j, v);
	return json_is_object(v) ? str_of(v, "name") : NULL;
}

void
jsonld_read(const jsonld *cj, jsonld_facts *f)
{
	jsonld *j = (jsonld *)cj;   /* the node index is scratch */
	pbuf_reset(&f->author);
	pbuf_reset(&f->author_org);
	f->title = f->description = f->published = f->modified = NULL;
	f->image = f->site_name = f->lang = NULL;
	f->keywords = NULL;
	j->nnode = 0;
	for (size_t i = 0; i < j->nobj; i++)
		add_node(j, j->obj[i], 0);

	const json_t *m = NULL;
	for (size_t i = 0; i < j->nnode && !m; i++)
		if (has_type(j->node[i], main_types))
			m = j->node[i];
	f->is_main = m != NULL;
	for (size_t i = 0; i < j->nnode && !m; i++)
		if (has_type(j->node[i], page_types))
			m = j->node[i];
	if (m) {
		f->title = str_of(m, "headline");
		if (!f->title)
			f->title = str_of(m, "name");
		f->description = str_of(m, "description");
		f->published = str_of(m, "datePublished");
		if (!f->published)
			f->published = str_of(m, "dateCreated");
		if (!f->published)
			f->published = str_of(m, "uploadDate");
		f->modified = str_of(m, "dateModified");
		f->image = image_of(j, json_object_get(m, "image"));
		if (!f->image)
			f->image = str_of(m, "thumbnailUrl");
		f->lang = str_of(m, "inLanguage");
		const json_t *k = json_object_get(m, "keywords");
		if (json_is_string(k) || json_is_array(k))
			f->keywords = k;
		const json_t *a = json_object_get(m, "author");
		add_authors(j, a ? a : json_object_get(m, "creator"), f, 0);
		f->site_name = name_of(j, json_object_get(m, "publisher"));
	}
	for (size_t i = 0; i < j->nnode && !f->site_name; i++)
		if (has_type(j->node[i], site_types))
			f->site_name = str_of(j->node[i], "name");
	for (size_t i = 0; i < j->nnode && !f->site_name; i++)
		if (has_type(j->node[i], org_types))
			f->site_name = str_of(j->node[i], "name");
}
