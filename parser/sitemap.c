#include "sitemap.h"

#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlversion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "buf.h"
#include "date.h"
#include "msg.h"
#include "robots.h"
#include "url.h"
#include "xalloc.h"

#define SITEMAP_NS "http://www.sitemaps.org/schemas/sitemap/0.9"

/* No DTD loading, no entity substitution (neither XML_PARSE_DTDLOAD nor
 * XML_PARSE_NOENT), no network, no huge-document relaxations (so
 * libxml2's own depth, text-node and entity-amplification limits hold),
 * and no messages on stderr: the first error is caught and reported. */
#define SITEMAP_XML_OPTS (XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_COMPACT | \
			  XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

enum { F_NONE, F_LOC, F_LASTMOD };

struct sitemap {
	/* gunzip as the reader asks: */
	z_stream z;
	int z_ready;
	size_t out;            /* bytes handed to the reader so far */
	int over;              /* they would pass SITEMAP_MAX_BYTES */
	const char *z_err;     /* zlib's reason, or NULL */
	/* the document: */
	char err[256];         /* the first XML error, or "" */
	pbuf loc, lastmod;     /* the entry being read */
	int field;             /* which of them text goes to */
	int loc_bad;           /* this loc passed SITEMAP_MAX_LOC, or holds an
	                        * entity reference left unexpanded */
	/* per link (lnk index): its <lastmod> in lm, or lm_len -1 */
	pbuf lm;
	size_t *lm_off;
	int *lm_len;
	size_t lm_cap;
	int lm_any;
	char latest[SITEMAP_MAX_LASTMOD + 1];
	double latest_t;
	long urls, dropped;
};

static char sitemap_tag[64];

/* An xmlExternalEntityLoader that loads nothing: no DTD, no external
 * entity, no XInclude can reach a file or the network, whatever the
 * options say. */
static xmlParserInputPtr
sitemap_no_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	(void)url, (void)id, (void)ctxt;
	return NULL;
}

sitemap *
sitemap_new(void)
{
	static int ready;
	if (!ready) {
		xmlInitParser();
		xmlSetExternalEntityLoader(sitemap_no_loader);
		snprintf(sitemap_tag, sizeof sitemap_tag, "parse/%s libxml2/%s",
			 SLUICE_VERSION, LIBXML_DOTTED_VERSION);
		ready = 1;
	}
	sitemap *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	pbuf_init(&s->loc);
	pbuf_init(&s->lastmod);
	pbuf_init(&s->lm);
	return s;
}

void
sitemap_free(sitemap *s)
{
	if (!s)
		return;
	if (s->z_ready)
		inflateEnd(&s->z);
	pbuf_free(&s->loc);
	pbuf_free(&s->lastmod);
	pbuf_free(&s->lm);
	free(s->lm_off);
	free(s->lm_len);
	free(s);
}

const char *
sitemap_parser(void)
{
	return sitemap_tag;
}

/* Whether the body is gzip: its magic bytes, whatever ctype says (fetch
 * has already undone a Content-Encoding, so a .xml.gz may arrive plain). */
static int
sitemap_gzipped(const char *body, size_t n)
{
	return n >= 2 && (unsigned char)body[0] == 0x1f && (unsigned char)body[1] == 0x8b;
}

int
sitemap_candidate(const msgpack_object *in)
{
	const char *body, *ct, *u;
	size_t bn, ctn, un;
	if (rec_get(in, "error") || !rec_str(in, "body", &body, &bn))
		return 0;
	if (rec_str(in, "ctype", &ct, &ctn) &&
	    (pbuf_prefix(ct, ctn, "application/xml") || pbuf_prefix(ct, ctn, "text/xml") ||
	     pbuf_prefix(ct, ctn, "application/gzip") ||
	     pbuf_prefix(ct, ctn, "application/x-gzip")))
		return 1;
	if (sitemap_gzipped(body, bn))
		return 1;
	if (!rec_str(in, "final_url", &u, &un) || un == 0)
		if (!rec_str(in, "url", &u, &un))
			return 0;
	const char *q = memchr(u, '?', un);
	if (q)
		un = (size_t)(q - u);
	return un >= 7 && strncasecmp(u + un - 7, ".xml.gz", 7) == 0;
}

/* xmlInputReadCallback over the gzip body: up to len bytes of XML, 0 at
 * the end, -1 past SITEMAP_MAX_BYTES (s->over) or on bad gzip (s->z_err). */
static int
sitemap_gz_read(void *ctx, char *buf, int len)
{
	sitemap *s = ctx;
	if (len <= 0)
		return 0;
	s->z.next_out = (Bytef *)buf;
	s->z.avail_out = (uInt)len;
	while (s->z.avail_out > 0) {
		int rc = inflate(&s->z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			/* Another member follows (RFC 1952 2.2: pigz, bgzip,
			 * cat a.gz b.gz write several): it is more of the same
			 * file.  Anything else after the end is ignored, as
			 * gzip -d does with trailing garbage. */
			if (s->z.avail_in < 2 || s->z.next_in[0] != 0x1f || s->z.next_in[1] != 0x8b)
				break;
			if (inflateReset(&s->z) != Z_OK) {
				s->z_err = "bad gzip data";
				return -1;
			}
			continue;
		}
		if (rc == Z_BUF_ERROR && s->z.avail_in == 0) {
			s->z_err = "the body ends early";
			return -1;
		}
		if (rc != Z_OK) {
			s->z_err = s->z.msg ? s->z.msg : "bad gzip data";
			return -1;
		}
	}
	size_t got = (size_t)len - s->z.avail_out;
	/* Count before handing on: not one byte past the limit is parsed. */
	if (got > SITEMAP_MAX_BYTES - s->out) {
		s->over = 1;
		return -1;
	}
	s->out += got;
	return (int)got;
}

static int
sitemap_gz_close(void *ctx)
{
	(void)ctx;
	return 0;
}

/* Keeps the first error libxml2 reports, as "line N: message". */
static void
sitemap_on_error(void *arg, xmlErrorPtr e)
{
	sitemap *s = arg;
	if (s->err[0] || !e || e->level < XML_ERR_ERROR)
		return;
	const char *m = e->message ? e->message : "malformed";
	size_t n = strlen(m);
	while (n && (m[n - 1] == '\n' || m[n - 1] == ' '))
		n--;
	snprintf(s->err, sizeof s->err, "line %d: %.*s", e->line, (int)n, m);
}

/* Starts a document: forgets the last one's entries. */
static void
sitemap_begin(sitemap *s)
{
	s->err[0] = '\0';
	s->field = F_NONE;
	s->loc_bad = 0;
	pbuf_reset(&s->loc);
	pbuf_reset(&s->lastmod);
	pbuf_reset(&s->lm);
	s->lm_any = 0;
	s->latest[0] = '\0';
	s->urls = s->dropped = 0;
	s->over = 0;
	s->out = 0;
	s->z_err = NULL;
}

/* Ends an entry: its loc becomes a link (with its lastmod) while the
 * file is under SITEMAP_MAX_URLS entries. */
static void
sitemap_entry(sitemap *s, lnk *l)
{
	size_t ln = s->loc.len, mn = s->lastmod.len;
	const char *loc = url_trim(s->loc.p ? s->loc.p : "", &ln);
	const char *lm = url_trim(s->lastmod.p ? s->lastmod.p : "", &mn);
	if (ln == 0 || s->loc_bad)
		return;
	if (s->urls >= SITEMAP_MAX_URLS) {
		s->dropped++;
		return;
	}
	s->urls++;
	const char *u;
	size_t un;
	/* lnk_resolve takes a C string: loc.p is one, trimmed in place. */
	char *end = (char *)loc + ln, keep = *end;
	*end = '\0';
	int ok = lnk_resolve(l, loc, &u, &un);
	*end = keep;
	if (!ok || !lnk_add(l, u, un))
		return;
	size_t i = lnk_count(l) - 1;
	if (i >= s->lm_cap) {
		size_t cap = s->lm_cap ? s->lm_cap * 2 : 256;
		s->lm_off = xrealloc(s->lm_off, cap * sizeof *s->lm_off);
		s->lm_len = xrealloc(s->lm_len, cap * sizeof *s->lm_len);
		s->lm_cap = cap;
	}
	s->lm_len[i] = -1;
	if (mn == 0)
		return;
	if (mn > SITEMAP_MAX_LASTMOD)
		mn = SITEMAP_MAX_LASTMOD;
	s->lm_off[i] = s->lm.len;
	s->lm_len[i] = (int)mn;
	pbuf_put(&s->lm, lm, mn);
	s->lm_any = 1;
	double t;
	if (date_w3c(lm, mn, &t) && (!s->latest[0] || t > s->latest_t)) {
		memcpy(s->latest, lm, mn);
		s->latest[mn] = '\0';
		s->latest_t = t;
	}
}

/* Whether ns (may be NULL) is a namespace a sitemap's root may have. */
static int
sitemap_ns_ok(const xmlChar *ns)
{
	return !ns || strcmp((const char *)ns, SITEMAP_NS) == 0;
}

/* Whether element name with namespace ns is name in the root's ns. */
static int
sitemap_is(const xmlChar *name, const xmlChar *ns, const xmlChar *root_ns, const char *want)
{
	if (!name || strcmp((const char *)name, want) != 0)
		return 0;
	if (!ns || !root_ns)
		return ns == root_ns;
	return strcmp((const char *)ns, (const char *)root_ns) == 0;
}

/* Walks the document in r.  Returns SITEMAP_NOT, SITEMAP_OK, or
 * SITEMAP_ERR with s->err set; *index when the root is sitemapindex. */
static int
sitemap_walk(sitemap *s, lnk *l, xmlTextReaderPtr r, int *index)
{
	const char *entry = NULL;
	xmlChar *root_ns = NULL;
	int in_entry = 0, rc;
	while ((rc = xmlTextReaderRead(r)) == 1) {
		int type = xmlTextReaderNodeType(r), depth = xmlTextReaderDepth(r);
		if (type == XML_READER_TYPE_ELEMENT) {
			const xmlChar *name = xmlTextReaderConstLocalName(r);
			const xmlChar *ns = xmlTextReaderConstNamespaceUri(r);
			int empty = xmlTextReaderIsEmptyElement(r);
			if (depth == 0) {
				if (!name || !sitemap_ns_ok(ns))
					break;
				if (strcmp((const char *)name, "urlset") == 0)
					entry = "url";
				else if (strcmp((const char *)name, "sitemapindex") == 0)
					entry = "sitemap", *index = 1;
				else
					break;
				root_ns = ns ? xmlStrdup(ns) : NULL;
			} else if (depth == 1 && sitemap_is(name, ns, root_ns, entry)) {
				in_entry = !empty;
				s->field = F_NONE;
				s->loc_bad = 0;
				pbuf_reset(&s->loc);
				pbuf_reset(&s->lastmod);
			} else if (depth == 2 && in_entry && !empty) {
				s->field = sitemap_is(name, ns, root_ns, "loc") ? F_LOC
					 : sitemap_is(name, ns, root_ns, "lastmod") ? F_LASTMOD : F_NONE;
			}
		} else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
			   type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
			if (depth != 3 || s->field == F_NONE)
				continue;
			const char *v = (const char *)xmlTextReaderConstValue(r);
			size_t n = v ? strlen(v) : 0;
			pbuf *b = s->field == F_LOC ? &s->loc : &s->lastmod;
			size_t cap = s->field == F_LOC ? SITEMAP_MAX_LOC : SITEMAP_MAX_LASTMOD;
			if (b->len + n > cap) {
				s->loc_bad |= s->field == F_LOC;
				n = cap - b->len;
			}
			pbuf_put(b, v, n);
		} else if (type == XML_READER_TYPE_ENTITY_REFERENCE) {
			/* Never expanded: the URL around it would be a wrong one. */
			s->loc_bad |= depth == 3 && s->field == F_LOC;
		} else if (type == XML_READER_TYPE_END_ELEMENT) {
			if (depth == 2)
				s->field = F_NONE;
			else if (depth == 1 && in_entry) {
				sitemap_entry(s, l);
				in_entry = 0;
			}
		}
	}
	int root = entry != NULL;
	xmlFree(root_ns);
	if (rc == 1)
		return SITEMAP_NOT;   /* a root that is not a sitemap's */
	if (rc < 0 || s->over || s->z_err) {
		if (!s->err[0])
			snprintf(s->err, sizeof s->err, "malformed XML");
		return SITEMAP_ERR;
	}
	/* Well-formed to the end: either a sitemap, or a document without
	 * any element, which libxml2 reports as an error above. */
	return root ? SITEMAP_OK : SITEMAP_NOT;
}

/* Puts the `sitemap` map and the `links` array of l. */
static void
sitemap_pack(sitemap *s, lnk *l, rec_build *b, int index)
{
	size_t nl = lnk_count(l);
	const char *str;
	size_t sn;
	msgpack_packer *pk = rec_key(b, "links");
	msgpack_pack_array(pk, (uint32_t)nl);
	for (size_t i = 0; i < nl; i++) {
		lnk_get(l, i, &str, &sn);
		msgpack_pack_str_with_body(pk, str, sn);
	}
	pk = rec_key(b, "sitemap");
	msgpack_pack_map(pk, 2 + !!s->latest[0] + !!s->dropped + !!s->lm_any);
	msgpack_pack_str_with_body(pk, "kind", 4);
	msgpack_pack_str_with_body(pk, index ? "index" : "urlset", index ? 5 : 6);
	if (s->latest[0]) {
		msgpack_pack_str_with_body(pk, "lastmod", 7);
		msgpack_pack_str_with_body(pk, s->latest, strlen(s->latest));
	}
	msgpack_pack_str_with_body(pk, "urls", 4);
	msgpack_pack_long(pk, s->urls);
	if (s->dropped) {
		msgpack_pack_str_with_body(pk, "dropped", 7);
		msgpack_pack_long(pk, s->dropped);
	}
	if (s->lm_any) {
		msgpack_pack_str_with_body(pk, "lastmods", 8);
		msgpack_pack_array(pk, (uint32_t)nl);
		for (size_t i = 0; i < nl; i++) {
			if (s->lm_len[i] < 0)
				msgpack_pack_nil(pk);
			else
				msgpack_pack_str_with_body(pk, s->lm.p + s->lm_off[i],
							   (size_t)s->lm_len[i]);
		}
	}
}

int
sitemap_robots(lnk *l, rec_build *b, const msgpack_object *in, const char *url, size_t un)
{
	const char *body;
	size_t bn;
	int64_t st;
	if (!url || rec_get(in, "error") || !rec_str(in, "body", &body, &bn) ||
	    !rec_int(in, "status", &st) || st < 200 || st > 299)
		return SITEMAP_NOT;
	/* url points into the record: not NUL-terminated. */
	static const char path[] = "/robots.txt";
	if (un < sizeof path - 1 || memcmp(url + un - (sizeof path - 1), path, sizeof path - 1) != 0)
		return SITEMAP_NOT;
	char *u0 = xstrndup(url, un);
	size_t on = url_origin_len(u0);
	free(u0);
	if (on != un - (sizeof path - 1))
		return SITEMAP_NOT;
	/* Sitemap: lines belong to no group: any agent token reads them. */
	double delay;
	struct robots *r = robots_parse(body, bn, "sluice", &delay);
	const char *const *urls;
	size_t n = robots_sitemaps(r, &urls);
	lnk_begin(l, url, un);
	for (size_t i = 0; i < n; i++) {
		const char *u;
		size_t len;
		if (lnk_resolve(l, urls[i], &u, &len))
			lnk_add(l, u, len);
	}
	robots_free(r);
	const char *u;
	size_t len;
	if (lnk_count(l) == 0 && lnk_resolve(l, "/sitemap.xml", &u, &len))
		lnk_add(l, u, len);
	msgpack_packer *pk = rec_key(b, "links");
	msgpack_pack_array(pk, (uint32_t)lnk_count(l));
	for (size_t i = 0; i < lnk_count(l); i++) {
		lnk_get(l, i, &u, &len);
		msgpack_pack_str_with_body(pk, u, len);
	}
	pk = rec_key(b, "sitemap");
	msgpack_pack_map(pk, 2);
	msgpack_pack_str_with_body(pk, "kind", 4);
	msgpack_pack_str_with_body(pk, "robots", 6);
	msgpack_pack_str_with_body(pk, "urls", 4);
	msgpack_pack_long(pk, (long)lnk_count(l));
	return SITEMAP_OK;
}

int
sitemap_put(sitemap *s, lnk *l, rec_build *b, const msgpack_object *in,
	    const char *url, size_t un)
{
	const char *body;
	size_t bn;
	rec_str(in, "body", &body, &bn);
	sitemap_begin(s);
	lnk_begin(l, url, un);
	int gz = sitemap_gzipped(body, bn);
	xmlTextReaderPtr r = NULL;
	if (!gz && bn > SITEMAP_MAX_BYTES) {
		s->over = 1;
	} else if (gz) {
		if (!s->z_ready) {
			if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK)
				xalloc_die();   /* zlib's only failure here is memory */
			s->z_ready = 1;
		} else if (inflateReset(&s->z) != Z_OK) {
			xalloc_die();
		}
		s->z.next_in = (Bytef *)body;
		s->z.avail_in = (uInt)bn;
		r = xmlReaderForIO(sitemap_gz_read, sitemap_gz_close, s, NULL, NULL,
				   SITEMAP_XML_OPTS);
	} else {
		r = xmlReaderForMemory(body, (int)bn, NULL, NULL, SITEMAP_XML_OPTS);
	}
	int rc = SITEMAP_ERR, index = 0;
	if (r) {
		xmlTextReaderSetStructuredErrorHandler(r, sitemap_on_error, s);
		rc = sitemap_walk(s, l, r, &index);
		xmlFreeTextReader(r);
	} else if (!s->over) {
		xalloc_die();   /* libxml2 could not allocate its reader */
	}
	if (rc == SITEMAP_NOT)
		return rc;
	if (rc == SITEMAP_OK) {
		sitemap_pack(s, l, b, index);
		if (s->dropped)
			msg_note("%.*s: sitemap: %ld URLs past the protocol's %d dropped",
				 (int)un, url ? url : "", s->dropped, SITEMAP_MAX_URLS);
		return rc;
	}
	char detail[320];
	if (s->over)
		snprintf(detail, sizeof detail, "sitemap over %zu MiB of XML%s",
			 SITEMAP_MAX_BYTES >> 20, gz ? " after gunzip" : "");
	else if (s->z_err)
		snprintf(detail, sizeof detail, "gzip: %s", s->z_err);
	else
		snprintf(detail, sizeof detail, "%s", s->err);
	const char *code = s->over ? "too_large" : s->z_err ? "bad_gzip" : "bad_xml";
	rec_put_str(b, "parse_error", code);
	rec_put_str(b, "parse_error_detail", detail);
	msg_warn("%.*s: %s: %s", (int)un, url ? url : "", code, detail);
	return rc;
}
