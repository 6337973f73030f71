#include "charset.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* How many distinct encodings a worker keeps open.  Pages in one crawl
 * use a handful; iconv_open costs a locale lookup, so it is worth it. */
#define CS_CACHE 8

/* How far into the body the <meta> prescan looks, as HTML specifies. */
#define CS_PRESCAN 1024

struct cs_ctx {
	struct { const char *name; iconv_t cd; } cache[CS_CACHE];
	int n;
};

cs_ctx *
cs_new(void)
{
	return calloc(1, sizeof(cs_ctx));
}

void
cs_free(cs_ctx *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		iconv_close(c->cache[i].cd);
		free((char *)c->cache[i].name);
	}
	free(c);
}

/* WHATWG labels we recognise, mapped to the glibc iconv name that
 * decodes like a browser.  A label not listed is passed to iconv as is
 * (so e.g. iso-8859-5 or koi8-r work); a label iconv does not know is
 * ignored, and detection moves on to the next source. */
static const struct { const char *label, *iconv; } cs_alias[] = {
	{ "utf-8", "UTF-8" }, { "utf8", "UTF-8" }, { "unicode-1-1-utf-8", "UTF-8" },
	/* Browsers decode all of these as windows-1252, whose extra
	 * characters in 0x80-0x9f pages labelled latin1 really use. */
	{ "iso-8859-1", "WINDOWS-1252" }, { "iso8859-1", "WINDOWS-1252" },
	{ "iso_8859-1", "WINDOWS-1252" }, { "latin1", "WINDOWS-1252" },
	{ "l1", "WINDOWS-1252" }, { "us-ascii", "WINDOWS-1252" },
	{ "ascii", "WINDOWS-1252" }, { "cp1252", "WINDOWS-1252" },
	{ "windows-1252", "WINDOWS-1252" }, { "x-cp1252", "WINDOWS-1252" },
	{ "cp819", "WINDOWS-1252" }, { "ibm819", "WINDOWS-1252" },
	{ "shift_jis", "CP932" }, { "shift-jis", "CP932" }, { "sjis", "CP932" },
	{ "x-sjis", "CP932" }, { "ms_kanji", "CP932" }, { "windows-31j", "CP932" },
	{ "csshiftjis", "CP932" },
	{ "gb2312", "GBK" }, { "gbk", "GBK" }, { "x-gbk", "GBK" }, { "gb18030", "GB18030" },
	{ "euc-kr", "CP949" }, { "ks_c_5601-1987", "CP949" }, { "big5", "BIG5-HKSCS" },
	{ "euc-jp", "EUC-JP" }, { "iso-2022-jp", "ISO-2022-JP" },
	{ "iso-8859-9", "WINDOWS-1254" }, { "latin5", "WINDOWS-1254" },
	{ "tis-620", "WINDOWS-874" }, { "iso-8859-11", "WINDOWS-874" },
	{ "utf-16", "UTF-16LE" }, { "utf-16le", "UTF-16LE" }, { "utf-16be", "UTF-16BE" },
};

/* Maps a label to the iconv name (static storage), or NULL when it is
 * empty or too long to be real.  buf receives the lowercased label for
 * names passed through. */
static const char *
cs_canon(const char *s, size_t n, char *buf, size_t bufn)
{
	while (n && pbuf_isspace((unsigned char)*s))
		s++, n--;
	while (n && pbuf_isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0 || n >= bufn)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		buf[i] = (ch >= 'A' && ch <= 'Z') ? (char)(ch + 32) : ch;
	}
	buf[n] = '\0';
	for (size_t i = 0; i < sizeof cs_alias / sizeof cs_alias[0]; i++)
		if (strcmp(buf, cs_alias[i].label) == 0)
			return cs_alias[i].iconv;
	/* Anything else goes to iconv uppercased, its usual spelling. */
	for (size_t i = 0; i < n; i++)
		if (buf[i] >= 'a' && buf[i] <= 'z')
			buf[i] = (char)(buf[i] - 32);
	return buf;
}

/* An open iconv handle to UTF-8 from name, reset to its initial state,
 * or (iconv_t)-1 when iconv does not know the name. */
static iconv_t
cs_open(cs_ctx *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->cache[i].name, name) == 0) {
			iconv(c->cache[i].cd, NULL, NULL, NULL, NULL);
			return c->cache[i].cd;
		}
	iconv_t cd = iconv_open("UTF-8", name);
	if (cd == (iconv_t)-1)
		return cd;
	if (c->n == CS_CACHE) {
		/* Full: drop the oldest, which is rarely used again. */
		iconv_close(c->cache[0].cd);
		free((char *)c->cache[0].name);
		memmove(c->cache, c->cache + 1, sizeof c->cache[0] * (CS_CACHE - 1));
		c->n--;
	}
	char *dup = strdup(name);
	if (!dup)
		abort();
	c->cache[c->n].name = dup;
	c->cache[c->n].cd = cd;
	c->n++;
	return cd;
}

int
cs_ctype_param(const char *s, size_t n, const char **v, size_t *vn)
{
	/* Looks for "charset" followed by optional spaces and "=", anywhere
	 * after the media type; good enough for real headers and for the
	 * content attribute of a http-equiv meta. */
	for (size_t i = 0; i + 7 <= n; i++) {
		if (strncasecmp(s + i, "charset", 7) != 0)
			continue;
		size_t j = i + 7;
		while (j < n && pbuf_isspace((unsigned char)s[j]))
			j++;
		if (j >= n || s[j] != '=')
			continue;
		j++;
		while (j < n && pbuf_isspace((unsigned char)s[j]))
			j++;
		char q = 0;
		if (j < n && (s[j] == '"' || s[j] == '\''))
			q = s[j++];
		size_t k = j;
		while (k < n && (q ? s[k] != q : (s[k] != ';' && !pbuf_isspace((unsigned char)s[k]))))
			k++;
		if (k == j)
			return 0;
		*v = s + j;
		*vn = k - j;
		return 1;
	}
	return 0;
}

/* Case-insensitive search for needle in h[0..n). */
static const char *
cs_find(const char *h, size_t n, const char *needle)
{
	size_t m = strlen(needle);
	for (size_t i = 0; i + m <= n; i++)
		if (strncasecmp(h + i, needle, m) == 0)
			return h + i;
	return NULL;
}

/* Reads one attribute of a tag at *p (below end): sets name and value
 * spans and returns 1, or 0 at '>' or the end.  A simplified form of the
 * HTML prescan's "get an attribute" algorithm. */
static int
cs_attr(const char **p, const char *end, const char **name, size_t *nn,
	const char **val, size_t *vn)
{
	const char *s = *p;
	while (s < end && (pbuf_isspace((unsigned char)*s) || *s == '/'))
		s++;
	if (s >= end || *s == '>')
		return 0;
	*name = s;
	while (s < end && *s != '=' && *s != '>' && *s != '/' && !pbuf_isspace((unsigned char)*s))
		s++;
	*nn = (size_t)(s - *name);
	while (s < end && pbuf_isspace((unsigned char)*s))
		s++;
	*val = s;
	*vn = 0;
	if (s < end && *s == '=') {
		s++;
		while (s < end && pbuf_isspace((unsigned char)*s))
			s++;
		if (s < end && (*s == '"' || *s == '\'')) {
			char q = *s++;
			*val = s;
			while (s < end && *s != q)
				s++;
			*vn = (size_t)(s - *val);
			if (s < end)
				s++;
		} else {
			*val = s;
			while (s < end && *s != '>' && !pbuf_isspace((unsigned char)*s))
				s++;
			*vn = (size_t)(s - *val);
		}
	}
	*p = s;
	return 1;
}

/* The charset named by a <meta> in the first CS_PRESCAN bytes: sets
 * *v and *vn and returns 1, or 0. */
static int
cs_prescan(const char *s, size_t n, const char **v, size_t *vn)
{
	if (n > CS_PRESCAN)
		n = CS_PRESCAN;
	const char *end = s + n, *p = s;
	while ((p = cs_find(p, (size_t)(end - p), "<meta")) != NULL) {
		p += 5;
		if (p < end && !pbuf_isspace((unsigned char)*p) && *p != '/')
			continue;
		const char *name, *val, *content = NULL;
		size_t nn, valn, contentn = 0;
		int http_equiv = 0;
		while (cs_attr(&p, end, &name, &nn, &val, &valn)) {
			if (nn == 7 && strncasecmp(name, "charset", 7) == 0 && valn) {
				*v = val, *vn = valn;
				return 1;
			}
			if (nn == 10 && strncasecmp(name, "http-equiv", 10) == 0 &&
			    valn == 12 && strncasecmp(val, "content-type", 12) == 0)
				http_equiv = 1;
			if (nn == 7 && strncasecmp(name, "content", 7) == 0)
				content = val, contentn = valn;
		}
		if (http_equiv && content && cs_ctype_param(content, contentn, v, vn))
			return 1;
	}
	return 0;
}

/* Appends U+FFFD, the replacement character, to b. */
static void
cs_fffd(pbuf *b)
{
	pbuf_put(b, "\xef\xbf\xbd", 3);
}

/* The length of the valid UTF-8 prefix of s[0..n): a tight loop with an
 * ASCII fast path, since almost every page is ASCII or valid UTF-8. */
static size_t
cs_utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		/* Eight ASCII bytes at a time. */
		while (i + 8 <= n) {
			unsigned long long w;
			memcpy(&w, s + i, 8);
			if (w & 0x8080808080808080ULL)
				break;
			i += 8;
		}
		if (i >= n)
			break;
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t len;
		unsigned min;
		if (c >= 0xc2 && c <= 0xdf)
			len = 2, min = 0x80;
		else if (c >= 0xe0 && c <= 0xef)
			len = 3, min = 0x800;
		else if (c >= 0xf0 && c <= 0xf4)
			len = 4, min = 0x10000;
		else
			return i;
		if (i + len > n)
			return i;
		unsigned cp = c & (0x7f >> len);
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += len;
	}
	return n;
}

/* How many bytes at s (n > 0, not a valid sequence) form one maximal
 * subpart of an ill-formed sequence: the lead byte plus the continuation
 * bytes that could still have completed it.  WHATWG (and Unicode)
 * replace each such subpart with a single U+FFFD. */
static size_t
cs_bad_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 1;
	size_t k = 1;
	for (; k < len && k < n; k++) {
		if (s[k] < lo || s[k] > hi)
			break;
		lo = 0x80, hi = 0xbf;
	}
	return k;
}

/* UTF-8 with each ill-formed subpart replaced by U+FFFD.  Uses body
 * itself when it is all valid. */
static void
cs_utf8(const char *s, size_t n, pbuf *scratch, const char **out, size_t *outn)
{
	size_t ok = cs_utf8_valid((const unsigned char *)s, n);
	if (ok == n) {
		*out = s, *outn = n;
		return;
	}
	pbuf_reset(scratch);
	pbuf_reserve(scratch, n + n / 2 + 16);
	while (n) {
		pbuf_put(scratch, s, ok);
		s += ok, n -= ok;
		if (!n)
			break;
		cs_fffd(scratch);
		size_t bad = cs_bad_len((const unsigned char *)s, n);
		s += bad, n -= bad;
		ok = cs_utf8_valid((const unsigned char *)s, n);
	}
	*out = scratch->p, *outn = scratch->len;
}

/* Converts with cd, replacing each undecodable byte by U+FFFD. */
static void
cs_iconv(iconv_t cd, const char *s, size_t n, pbuf *scratch, const char **out,
	 size_t *outn)
{
	pbuf_reset(scratch);
	/* Most encodings grow at most 3x into UTF-8 (one byte to three). */
	pbuf_reserve(scratch, n * 3 + 16);
	char *in = (char *)s;
	size_t left = n;
	while (left) {
		char *o = scratch->p + scratch->len;
		size_t room = scratch->cap - scratch->len - 1;
		size_t r = iconv(cd, &in, &left, &o, &room);
		scratch->len = (size_t)(o - scratch->p);
		if (r != (size_t)-1)
			break;
		if (errno == E2BIG) {
			pbuf_reserve(scratch, left * 3 + 16);
		} else if (errno == EILSEQ || errno == EINVAL) {
			/* EINVAL is a truncated sequence at the very end. */
			cs_fffd(scratch);
			in++, left--;
			iconv(cd, NULL, NULL, NULL, NULL);
		} else {
			break;
		}
	}
	/* Flush any shift state (ISO-2022-JP). */
	char *o = scratch->p + scratch->len;
	size_t room = scratch->cap - scratch->len - 1;
	iconv(cd, NULL, NULL, &o, &room);
	scratch->len = (size_t)(o - scratch->p);
	scratch->p[scratch->len] = '\0';
	/* iconv may emit invalid UTF-8 from a lenient converter; it never
	 * does in glibc, so no second validation pass is spent here. */
	*out = scratch->p, *outn = scratch->len;
}

void
cs_decode(cs_ctx *c, const char *body, size_t n, const char *ctype, size_t ctn,
	  pbuf *scratch, const char **out, size_t *outn)
{
	const unsigned char *u = (const unsigned char *)body;
	if (n >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) {
		cs_utf8(body + 3, n - 3, scratch, out, outn);
		return;
	}
	if (n >= 2 && ((u[0] == 0xfe && u[1] == 0xff) || (u[0] == 0xff && u[1] == 0xfe))) {
		const char *name = u[0] == 0xfe ? "UTF-16BE" : "UTF-16LE";
		iconv_t cd = cs_open(c, name);
		if (cd != (iconv_t)-1) {
			cs_iconv(cd, body + 2, n - 2, scratch, out, outn);
			return;
		}
	}
	const char *v;
	size_t vn;
	char name[64];
	for (int source = 0; source < 2; source++) {
		int found = source == 0 ? (ctype && cs_ctype_param(ctype, ctn, &v, &vn))
					: cs_prescan(body, n, &v, &vn);
		if (!found)
			continue;
		const char *ic = cs_canon(v, vn, name, sizeof name);
		if (!ic)
			continue;
		/* A <meta> cannot really say UTF-16: the bytes it was read
		 * from were ASCII-compatible, so the spec says UTF-8. */
		if (source == 1 && strncmp(ic, "UTF-16", 6) == 0)
			ic = "UTF-8";
		if (strcmp(ic, "UTF-8") == 0) {
			cs_utf8(body, n, scratch, out, outn);
			return;
		}
		iconv_t cd = cs_open(c, ic);
		if (cd == (iconv_t)-1)
			continue;
		cs_iconv(cd, body, n, scratch, out, outn);
		return;
	}
	cs_utf8(body, n, scratch, out, outn);
}
