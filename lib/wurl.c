/* The WHATWG URL parser for http and https (https://url.spec.whatwg.org/,
 * "basic URL parser", "host parsing", "URL serializing"), written from
 * the standard.  The standard's state machine is kept in its order; the
 * states of schemes we do not parse are left out. */
#include "wurl.h"

#include <arpa/inet.h>
#include <idn2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pct.h"

/* A growing string; oom set once an allocation failed. */
typedef struct {
	char *p;
	size_t len, cap;
	int oom;
} sb;

static void
sb_put(sb *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 128;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
sb_str(sb *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

/* The percent-encode sets of the standard that special URLs use. */
enum { SET_QUERY, SET_PATH, SET_USERINFO };

/* Whether byte c is in set: every set holds C0 controls, space and
 * bytes above 0x7e (so every non-ASCII byte of UTF-8). */
static int
in_set(int set, unsigned char c)
{
	if (c <= 0x20 || c > 0x7e || strchr("\"#<>", c))
		return 1;
	switch (set) {
	case SET_QUERY: return c == '\'';   /* the special-query set */
	case SET_PATH: return strchr("?^`{}", c) != NULL;
	default: return strchr("?^`{}/:;=@[\\]|", c) != NULL;
	}
}

/* Appends s[0..n), the bytes of set percent-encoded. */
static void
sb_enc(sb *b, const char *s, size_t n, int set)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (in_set(set, c)) {
			char e[3];
			sb_put(b, e, pct_put(e, c));
		} else {
			sb_put(b, s + i, 1);
		}
	}
}

static int
is_slash(char c)
{
	return c == '/' || c == '\\';
}

/* ".", "%2e" and "..", ".%2e", "%2e.", "%2e%2e", in any case. */
static int
dots(const char *s, size_t n)
{
	if (n == 1 && s[0] == '.')
		return 1;
	if (n == 3 && strncasecmp(s, "%2e", 3) == 0)
		return 1;
	if (n == 2 && s[0] == '.' && s[1] == '.')
		return 2;
	if (n == 4 && (strncasecmp(s, ".%2e", 4) == 0 || strncasecmp(s, "%2e.", 4) == 0))
		return 2;
	if (n == 6 && strncasecmp(s, "%2e%2e", 6) == 0)
		return 2;
	return 0;
}

/* Lowercases the ASCII letters of s in place; returns s. */
static char *
lower_ascii(char *s)
{
	for (char *c = s; c && *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c + 32);
	return s;
}

/* The IPv4 number parser: s[0..n) in decimal, 0x hex or 0 octal.
 * Returns 0 and sets *v (saturated above 2^32), or -1. */
static int
ipv4_number(const char *s, size_t n, uint64_t *v)
{
	if (n == 0)
		return -1;
	unsigned radix = 10;
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		radix = 16, s += 2, n -= 2;
	else if (n >= 2 && s[0] == '0')
		radix = 8, s++, n--;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		int d = pct_hexval(s[i]);
		if (d < 0 || (unsigned)d >= radix)
			return -1;
		x = x * radix + d;
		if (x > 0xffffffffull)
			x = 0x100000000ull;   /* too big for any part; keep no more */
	}
	*v = x;
	return 0;
}

/* Whether the domain d ends in a number: its last label (a final empty
 * one ignored) is decimal digits, or 0x and hex digits. */
static int
ends_in_number(const char *d, size_t n)
{
	if (n && d[n - 1] == '.' && n > 1)
		n--;
	size_t a = n;
	while (a && d[a - 1] != '.')
		a--;
	const char *l = d + a;
	size_t ln = n - a;
	if (ln == 0)
		return 0;
	if (strspn(l, "0123456789") >= ln)
		return 1;
	if (ln >= 2 && l[0] == '0' && (l[1] == 'x' || l[1] == 'X')) {
		for (size_t i = 2; i < ln; i++)
			if (pct_hexval(l[i]) < 0)
				return 0;
		return 1;
	}
	return 0;
}

/* The IPv4 parser over domain d: appends the dotted address to b, or
 * returns -1. */
static int
ipv4(sb *b, const char *d, size_t n)
{
	uint64_t part[4];
	size_t k = 0, start = 0;
	if (n && d[n - 1] == '.' && n > 1)
		n--;   /* one final empty part is dropped */
	for (size_t i = 0; i <= n; i++) {
		if (i < n && d[i] != '.')
			continue;
		if (k == 4 || ipv4_number(d + start, i - start, &part[k]))
			return -1;
		k++;
		start = i + 1;
	}
	uint64_t v = part[k - 1];
	if (v >= (1ull << (8 * (5 - k))))
		return -1;
	for (size_t i = 0; i + 1 < k; i++) {
		if (part[i] > 255)
			return -1;
		v += part[i] << (8 * (3 - i));
	}
	char s[16];
	snprintf(s, sizeof s, "%u.%u.%u.%u", (unsigned)(v >> 24), (unsigned)(v >> 16 & 255),
		 (unsigned)(v >> 8 & 255), (unsigned)(v & 255));
	sb_str(b, s);
	return 0;
}

/* The IPv6 parser (inet_pton reads the same forms) and serializer: the
 * first longest run of two or more zero pieces compressed, hex in
 * lowercase.  Appends "[...]" to b, or returns -1. */
static int
ipv6(sb *b, const char *s, size_t n)
{
	char in[64];
	unsigned char a[16];
	if (n >= sizeof in)
		return -1;
	memcpy(in, s, n);
	in[n] = '\0';
	if (inet_pton(AF_INET6, in, a) != 1)
		return -1;
	unsigned piece[8];
	for (int i = 0; i < 8; i++)
		piece[i] = (unsigned)a[2 * i] << 8 | a[2 * i + 1];
	int best = -1, bestn = 1;
	for (int i = 0; i < 8;) {
		int j = i;
		while (j < 8 && piece[j] == 0)
			j++;
		if (j - i > bestn)
			best = i, bestn = j - i;
		i = j > i ? j : i + 1;
	}
	sb_str(b, "[");
	for (int i = 0; i < 8; i++) {
		if (i == best) {
			sb_str(b, i == 0 ? "::" : ":");
			i += bestn - 1;
			continue;
		}
		char h[8];
		snprintf(h, sizeof h, "%x%s", piece[i], i < 7 ? ":" : "");
		sb_str(b, h);
	}
	sb_str(b, "]");
	return 0;
}

/* Whether s[0..n) is valid UTF-8 (what "UTF-8 decode without BOM" gives
 * without U+FFFD, which no host may hold). */
static int
utf8_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		size_t k = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 :
			   c >= 0xf0 && c <= 0xf4 ? 3 : 0;
		if (k == 0 || i + k >= n)
			return 0;
		unsigned lo = 0x80, hi = 0xbf;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
		else if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
		for (size_t j = 1; j <= k; j++) {
			unsigned d = s[i + j];
			if (d < (j == 1 ? lo : 0x80) || d > (j == 1 ? hi : 0xbf))
				return 0;
		}
		i += k + 1;
	}
	return 1;
}

/* Whether a label of d (n bytes) is an A-label ("xn--", any case). */
static int
has_alabel(const char *d, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		if ((i == 0 || d[i - 1] == '.') && strncasecmp(d + i, "xn--", 4) == 0)
			return 1;
	return 0;
}

/* An ASCII host a (malloc'd, taken) with A-labels, lowercased if they
 * are valid, or NULL: they must decode, to code points that encode back
 * to the same labels.  libidn2 refuses symbols (emoji) that UTS #46
 * allows; an A-label that decodes to them, and to no control, is kept. */
static char *
alabels(char *a)
{
	lower_ascii(a);
	char *u = NULL, *back = NULL;
	int ok = idn2_to_unicode_8z8z(a, &u, 0) == IDN2_OK;
	if (ok) {
		int rc = idn2_to_ascii_8z(u, &back, IDN2_NONTRANSITIONAL);
		if (rc == IDN2_OK) {
			ok = strcmp(back, a) == 0;
		} else {
			ok = rc == IDN2_DISALLOWED;
			for (const unsigned char *c = (const unsigned char *)u; ok && *c; c++)
				ok = *c >= 0x20 && *c != 0x7f && !(c[0] == 0xc2 && c[1] < 0xa0);
		}
	}
	idn2_free(u);
	idn2_free(back);
	if (!ok) {
		free(a);
		return NULL;
	}
	return a;
}

/* Domain to ASCII (UTS #46, non-transitional, no STD3 rules) of the
 * decoded host d: a malloc'd lowercase string, or NULL. */
static char *
to_ascii(const char *d, size_t n)
{
	if (memchr(d, '\0', n))
		return NULL;   /* a forbidden code point strndup would cut at */
	int ascii = 1;
	for (size_t i = 0; i < n; i++)
		ascii &= (unsigned char)d[i] < 0x80;
	char *out = NULL;
	if (ascii && !has_alabel(d, n)) {
		/* For ASCII the mapping is lowercasing; libidn2 would also
		 * check hyphens, which the standard does not. */
		return lower_ascii(strndup(d, n));
	}
	if (!utf8_valid((const unsigned char *)d, n))
		return NULL;
	char *in = strndup(d, n);
	if (!in)
		return NULL;
	if (ascii)
		return alabels(in);
	int rc = idn2_to_ascii_8z(in, &out, IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT);
	free(in);
	if (rc != IDN2_OK)
		return NULL;
	char *s = strdup(out);
	idn2_free(out);
	return s;
}

/* The host parser for special URLs over h[0..n) (not empty): appends
 * the serialized host to b, or returns -1 with *why set. */
static int
host(sb *b, const char *h, size_t n, const char **why)
{
	if (h[0] == '[') {
		if (n < 2 || h[n - 1] != ']' || ipv6(b, h + 1, n - 2)) {
			*why = "bad IPv6 address";
			return -1;
		}
		return 0;
	}
	/* Percent-decode: "%41" is "A", a lone "%" stays. */
	char *d = malloc(n + 1);
	if (!d) {
		*why = "out of memory";
		return -1;
	}
	size_t dn = 0;
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (h[i] == '%' && i + 2 < n && (hi = pct_hexval(h[i + 1])) >= 0 && (lo = pct_hexval(h[i + 2])) >= 0) {
			d[dn++] = (char)(hi << 4 | lo);
			i += 2;
		} else {
			d[dn++] = h[i];
		}
	}
	char *a = to_ascii(d, dn);
	free(d);
	if (!a || !*a) {
		free(a);
		*why = "bad host name";
		return -1;
	}
	size_t an = strlen(a);
	for (size_t i = 0; i < an; i++) {
		unsigned char c = (unsigned char)a[i];
		if (c <= 0x20 || c == 0x7f || strchr("#%/:<>?@[\\]^|", c)) {
			free(a);
			*why = "forbidden character in the host name";
			return -1;
		}
	}
	int rc = 0;
	if (ends_in_number(a, an)) {
		rc = ipv4(b, a, an);
		if (rc)
			*why = "bad IPv4 address";
	} else {
		sb_put(b, a, an);
	}
	free(a);
	return rc;
}

/* The authority s[0..n): appends "user:pass@host:port" as serialized
 * for scheme (default port 80 or 443 dropped) and sets the host's
 * offsets in *u; -1 with *why on failure. */
static int
authority(sb *b, const char *s, size_t n, int https, wurl *u, const char **why)
{
	const char *at = NULL;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '@')
			at = s + i;
	if (at) {
		size_t un = (size_t)(at - s);
		const char *colon = memchr(s, ':', un);
		size_t namen = colon ? (size_t)(colon - s) : un;
		size_t passn = colon ? un - namen - 1 : 0;
		if (namen || passn) {
			sb_enc(b, s, namen, SET_USERINFO);
			if (passn) {
				sb_str(b, ":");
				sb_enc(b, colon + 1, passn, SET_USERINFO);
			}
			sb_str(b, "@");
		}
		n -= un + 1;
		s = at + 1;
	}
	size_t hn = n;
	int bracket = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '[')
			bracket = 1;
		else if (s[i] == ']')
			bracket = 0;
		else if (s[i] == ':' && !bracket) {
			hn = i;
			break;
		}
	}
	if (hn == 0) {
		*why = "empty host";
		return -1;
	}
	u->host = b->len;
	if (host(b, s, hn, why))
		return -1;
	u->host_end = b->len;
	if (hn < n) {
		const char *p = s + hn + 1;
		size_t pn = n - hn - 1;
		unsigned long port = 0;
		for (size_t i = 0; i < pn; i++) {
			if (p[i] < '0' || p[i] > '9') {
				*why = "bad port";
				return -1;
			}
			port = port * 10 + (unsigned long)(p[i] - '0');
			if (port > 65535) {
				*why = "port out of range";
				return -1;
			}
		}
		if (pn && port != (https ? 443UL : 80UL)) {
			char ps[8];
			snprintf(ps, sizeof ps, ":%lu", port);
			sb_str(b, ps);
		}
	}
	return 0;
}

/* The path state from s[0..n) (the part before '?'), after b's path so
 * far, which starts at b->p + start: segments appended, dot segments
 * applied. */
static void
path(sb *b, size_t start, const char *s, size_t n)
{
	size_t q = 0;
	for (;;) {
		size_t e = q;
		while (e < n && !is_slash(s[e]))
			e++;
		int sep = e < n, d = dots(s + q, e - q);
		if (d == 2) {
			/* Shorten: drop the last segment, if any. */
			size_t k = b->len;
			while (k > start && b->p[k - 1] != '/')
				k--;
			if (k > start)
				b->len = k - 1, b->p[b->len] = '\0';
		}
		if (d == 0) {
			sb_str(b, "/");
			sb_enc(b, s + q, e - q, SET_PATH);
		} else if (!sep) {
			sb_str(b, "/");
		}
		if (!sep)
			return;
		q = e + 1;
	}
}

int
wurl_parse(const char *in, size_t n, const wurl *base, wurl *u, const char **why)
{
	/* Leading and trailing C0 controls and spaces dropped, tabs and
	 * newlines removed; the fragment cut (in a special URL every '#'
	 * starts it). */
	size_t a = 0, z = n;
	while (a < z && (unsigned char)in[a] <= 0x20)
		a++;
	while (z > a && (unsigned char)in[z - 1] <= 0x20)
		z--;
	char *s = malloc(z - a + 1);
	if (!s) {
		*why = "out of memory";
		return WURL_FAIL;
	}
	size_t m = 0;
	for (size_t i = a; i < z && in[i] != '#'; i++)
		if (in[i] != '\t' && in[i] != '\n' && in[i] != '\r')
			s[m++] = in[i];
	s[m] = '\0';

	/* Scheme state. */
	size_t p = 0;
	int https = -1;
	if ((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z') {
		size_t i = 1;
		while (i < m && (((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') ||
				 (s[i] >= '0' && s[i] <= '9') || s[i] == '+' || s[i] == '-' || s[i] == '.'))
			i++;
		if (i < m && s[i] == ':') {
			if (i == 4 && strncasecmp(s, "http", 4) == 0)
				https = 0;
			else if (i == 5 && strncasecmp(s, "https", 5) == 0)
				https = 1;
			else {
				free(s);
				*why = "not an http(s) URL";
				return WURL_OTHER;
			}
			p = i + 1;
		}
	}
	int base_https = base ? base->href[4] == 's' : -1;
	if (https < 0 && !base) {
		free(s);
		*why = "not an absolute URL";
		return WURL_FAIL;
	}
	sb b = { 0 };
	wurl r = { 0 };
	int relative = base && (https < 0 || https == base_https);
	if (https < 0)
		https = base_https;
	sb_str(&b, https ? "https://" : "http://");
	int rc = WURL_FAIL;
	if (!relative || (p + 1 < m && is_slash(s[p]) && is_slash(s[p + 1]))) {
		/* Special authority (ignore) slashes: any run of them. */
		size_t auth = p;
		while (auth < m && is_slash(s[auth]))
			auth++;
		size_t e = auth;
		while (e < m && !is_slash(s[e]) && s[e] != '?')
			e++;
		if (authority(&b, s + auth, e - auth, https, &r, why))
			goto done;
		r.path = b.len;
		size_t qm = e;
		while (qm < m && s[qm] != '?')
			qm++;
		/* Path start state: a slash starts the path; else the
		 * first segment begins here. */
		path(&b, r.path, s + e + (e < qm && is_slash(s[e])), qm - e - (e < qm && is_slash(s[e])));
		p = qm;
	} else {
		/* Relative state: the base's authority, and its path unless
		 * s has one. */
		sb_put(&b, base->href + b.len, base->path - b.len);
		r.host = base->host;
		r.host_end = base->host_end;
		r.path = b.len;
		size_t qm = p;
		while (qm < m && s[qm] != '?')
			qm++;
		if (p == m) {
			sb_put(&b, base->href + base->path, base->len - base->path);
			r.query = base->query - base->path + r.path;
			goto serialized;
		}
		if (p == qm) {
			sb_put(&b, base->href + base->path, base->query - base->path);
		} else if (is_slash(s[p])) {
			path(&b, r.path, s + p + 1, qm - p - 1);
		} else {
			sb_put(&b, base->href + base->path, base->query - base->path);
			size_t k = b.len;
			while (k > r.path && b.p[k - 1] != '/')
				k--;
			if (k > r.path)
				b.len = k - 1, b.p[b.len] = '\0';
			path(&b, r.path, s + p, qm - p);
		}
		p = qm;
	}
	r.query = b.len;
	if (p < m) {   /* s[p] is '?' */
		sb_str(&b, "?");
		sb_enc(&b, s + p + 1, m - p - 1, SET_QUERY);
	}
serialized:
	if (b.oom) {
		*why = "out of memory";
		goto done;
	}
	r.href = b.p;
	r.len = b.len;
	b.p = NULL;
	*u = r;
	rc = WURL_OK;
done:
	free(b.p);
	free(s);
	return rc;
}

void
wurl_free(wurl *u)
{
	free(u->href);
	memset(u, 0, sizeof *u);
}
