/* cookie — RFC 6265's storage model over two lists per cookie: the
 * jar's, oldest first (the total cap's victims), and its site's (the
 * site cap's, and where a request's cookies are looked for); and one
 * index by name, domain and path, what makes a cookie the same. */
#include "cookie.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "htab.h"
#include "site.h"
#include "xalloc.h"

#define LINE_MAX_BYTES 8192   /* a jar line: name, value, path, domain fit */

typedef struct site site;

typedef struct cookie {
	struct cookie *older, *newer;       /* the jar's list */
	struct cookie *s_older, *s_newer;   /* its site's list */
	site *site;
	unsigned long long seq;             /* creation order */
	long long expires;                  /* unix seconds, when persistent */
	unsigned char persistent, host_only, secure, http_only;
	size_t path_len;
	/* In data, in this order: name, domain and path (with their NULs,
	 * the index's key), value. */
	char *name, *domain, *path, *value;
	char data[];
} cookie;

struct site {
	cookie *oldest, *newest;
	size_t n;
	const char *key;   /* the table's copy */
	size_t key_len;
};

struct cookie_jar {
	htab sites;
	htab index;   /* key(c) to c */
	cookie *oldest, *newest;
	size_t n, max_total, max_site;
	unsigned long long seq, evicted, refused;
};

/* A byte range of the input. */
typedef struct span {
	const char *p;
	size_t n;
} span;

cookie_jar *
cookie_jar_new(size_t max_total, size_t max_site)
{
	cookie_jar *j = xcalloc(1, sizeof *j);
	j->max_total = max_total ? max_total : 1;
	j->max_site = max_site ? max_site : 1;
	return j;
}

void
cookie_jar_free(cookie_jar *j)
{
	if (!j)
		return;
	for (cookie *c = j->oldest, *next; c; c = next) {
		next = c->newer;
		free(c);
	}
	size_t i = 0;
	for (htab_ent *e; (e = htab_next(&j->sites, &i));)
		free(e->val);
	htab_free(&j->sites);
	htab_free(&j->index);
	free(j);
}

cookie_counts
cookie_jar_counts(const cookie_jar *j)
{
	return (cookie_counts){ .kept = j->n, .evicted = j->evicted, .refused = j->refused };
}

static int
expired(const cookie *c, double now)
{
	return c->persistent && (double)c->expires <= now;
}

/* A cookie of the given parts, outside any list. */
static cookie *
cookie_make(span name, span value, span domain, span path)
{
	cookie *c = xcalloc(1, sizeof *c + name.n + value.n + domain.n + path.n + 4);
	char *p = c->data;
	span *part[4] = { &name, &domain, &path, &value };
	char **to[4] = { &c->name, &c->domain, &c->path, &c->value };
	for (int i = 0; i < 4; i++) {
		*to[i] = p;
		memcpy(p, part[i]->p, part[i]->n);
		p[part[i]->n] = '\0';
		p += part[i]->n + 1;
	}
	for (char *d = c->domain; *d; d++)
		*d = (char)tolower((unsigned char)*d);
	c->path_len = path.n;
	return c;
}

/* The site of domain, or NULL when the jar has none of it. */
static site *
site_find(const cookie_jar *j, const char *domain)
{
	const char *key = site_of(domain);
	htab_ent *e = htab_find(&j->sites, key, strlen(key));
	return e ? e->val : NULL;
}

/* The site of domain, made when absent. */
static site *
site_make(cookie_jar *j, const char *domain)
{
	const char *key = site_of(domain);
	size_t n = strlen(key);
	int added;
	htab_ent *e = htab_put(&j->sites, key, n, &added);
	if (!e)
		xalloc_die();
	if (added) {
		site *s = xcalloc(1, sizeof *s);
		s->key = e->key;
		s->key_len = n;
		e->val = s;
	}
	return e->val;
}

/* The length of c's key in the index: name, domain and path. */
static size_t
key_len(const cookie *c)
{
	return (size_t)(c->value - c->name) - 1;
}

/* The jar's cookie of c's name, domain and path, or NULL. */
static cookie *
find(const cookie_jar *j, const cookie *c)
{
	htab_ent *e = htab_find(&j->index, c->name, key_len(c));
	return e ? e->val : NULL;
}

/* Takes c out of both lists and frees it; a site left empty goes too. */
static void
drop(cookie_jar *j, cookie *c)
{
	site *s = c->site;
	*(c->older ? &c->older->newer : &j->oldest) = c->newer;
	*(c->newer ? &c->newer->older : &j->newest) = c->older;
	*(c->s_older ? &c->s_older->s_newer : &s->oldest) = c->s_newer;
	*(c->s_newer ? &c->s_newer->s_older : &s->newest) = c->s_older;
	htab_del(&j->index, c->name, key_len(c));
	j->n--;
	if (--s->n == 0) {
		htab_del(&j->sites, s->key, s->key_len);
		free(s);
	}
	free(c);
}

/* Puts c in old's place in both lists (its creation too), freeing old;
 * the index is the caller's. */
static void
replace(cookie_jar *j, cookie *old, cookie *c)
{
	site *s = old->site;
	c->site = s;
	c->seq = old->seq;
	c->older = old->older, c->newer = old->newer;
	c->s_older = old->s_older, c->s_newer = old->s_newer;
	*(c->older ? &c->older->newer : &j->oldest) = c;
	*(c->newer ? &c->newer->older : &j->newest) = c;
	*(c->s_older ? &c->s_older->s_newer : &s->oldest) = c;
	*(c->s_newer ? &c->s_newer->s_older : &s->newest) = c;
	free(old);
}

/* Removes c past a cap, counting it when it was still alive. */
static void
evict(cookie_jar *j, cookie *c, double now)
{
	j->evicted += !expired(c, now);
	drop(j, c);
}

/* Stores c (RFC 6265 section 5.3, steps 11 and 12): over the cookie of
 * its name, domain and path, or as the newest, then within the caps. */
static void
store(cookie_jar *j, cookie *c, double now)
{
	if (expired(c, now)) {   /* how a server deletes a cookie */
		cookie *old = find(j, c);
		if (old)
			drop(j, old);
		free(c);
		return;
	}
	int added;
	htab_ent *e = htab_put(&j->index, c->name, key_len(c), &added);
	if (!e)
		xalloc_die();
	cookie *old = e->val;
	e->val = c;
	if (!added) {
		replace(j, old, c);
		return;
	}
	site *s = site_make(j, c->domain);
	c->site = s;
	c->seq = j->seq++;
	c->older = j->newest;
	*(j->newest ? &j->newest->newer : &j->oldest) = c;
	j->newest = c;
	c->s_older = s->newest;
	*(s->newest ? &s->newest->s_newer : &s->oldest) = c;
	s->newest = c;
	j->n++;
	s->n++;
	while (s->n > j->max_site)
		evict(j, s->oldest, now);
	while (j->n > j->max_total)
		evict(j, j->oldest, now);
}

/* ---- parts of a request URL */

typedef struct target {
	int https;
	char host[256];   /* lowercase; an IPv6 address in brackets */
	span path;        /* "/" when the URL has none */
} target;

/* The parts of canonical http(s) URL url; 0, or -1 when it has none. */
static int
target_of(const char *url, target *t)
{
	const char *p = strstr(url, "://");
	if (!p)
		return -1;
	t->https = p - url == 5 && strncasecmp(url, "https", 5) == 0;
	const char *a = p + 3, *end = a + strcspn(a, "/?#");
	const char *at = memrchr(a, '@', (size_t)(end - a));
	if (at)
		a = at + 1;
	const char *h_end = end;
	if (*a == '[') {
		const char *rb = memchr(a, ']', (size_t)(end - a));
		if (!rb)
			return -1;
		h_end = rb + 1;
	} else {
		const char *colon = memchr(a, ':', (size_t)(end - a));
		if (colon)
			h_end = colon;
	}
	size_t n = (size_t)(h_end - a);
	if (n == 0 || n >= sizeof t->host)
		return -1;
	for (size_t i = 0; i < n; i++)
		t->host[i] = (char)tolower((unsigned char)a[i]);
	t->host[n] = '\0';
	t->path = (span){ end, strcspn(end, "?#") };
	if (t->path.n == 0)
		t->path = (span){ "/", 1 };
	return 0;
}

static int
is_ip(const char *host)
{
	struct in_addr a;
	return host[0] == '[' || inet_pton(AF_INET, host, &a) == 1;
}

/* RFC 6265 section 5.1.3. */
static int
domain_match(const char *host, const char *domain)
{
	size_t h = strlen(host), d = strlen(domain);
	if (h == d)
		return memcmp(host, domain, h) == 0;
	return h > d && host[h - d - 1] == '.' && memcmp(host + h - d, domain, d) == 0 &&
	       !is_ip(host);
}

/* RFC 6265 section 5.1.4: does cookie path c match request path r? */
static int
path_match(span r, const char *c, size_t cn)
{
	if (cn > r.n || memcmp(r.p, c, cn) != 0)
		return 0;
	return cn == r.n || c[cn - 1] == '/' || r.p[cn] == '/';
}

/* RFC 6265 section 5.1.4's default-path of request path r. */
static span
default_path(span r)
{
	const char *slash = r.n && r.p[0] == '/' ? memrchr(r.p, '/', r.n) : NULL;
	if (!slash || slash == r.p)
		return (span){ "/", 1 };
	return (span){ r.p, (size_t)(slash - r.p) };
}

/* ---- Set-Cookie */

static span
trim(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return (span){ p, (size_t)(end - p) };
}

static int
is(span s, const char *word)
{
	return s.n == strlen(word) && strncasecmp(s.p, word, s.n) == 0;
}

static int
has_ctl(span s)
{
	for (size_t i = 0; i < s.n; i++)
		if ((unsigned char)s.p[i] < 0x20 || s.p[i] == 0x7f)
			return 1;
	return 0;
}

/* RFC 6265 section 5.1.1's delimiter. */
static int
date_delim(unsigned char c)
{
	return c == 0x09 || (c >= 0x20 && c <= 0x2f) || (c >= 0x3b && c <= 0x40) ||
	       (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

/* Leading digits of token t (at most max of them, at least min) into
 * *v, the byte after them not a digit; their count, or 0. */
static size_t
digits(span t, size_t min, size_t max, int *v)
{
	size_t i = 0;
	*v = 0;
	while (i < t.n && isdigit((unsigned char)t.p[i])) {
		if (++i > max)
			return 0;
		*v = *v * 10 + (t.p[i - 1] - '0');
	}
	return i >= min ? i : 0;
}

/* hms-time of section 5.1.1 at the start of t. */
static int
date_time(span t, int *h, int *m, int *s)
{
	int *v[3] = { h, m, s };
	for (int i = 0; i < 3; i++) {
		size_t n = digits(t, 1, 2, v[i]);
		if (!n)
			return 0;
		t.p += n, t.n -= n;
		if (i < 2) {
			if (!t.n || *t.p != ':')
				return 0;
			t.p++, t.n--;
		}
	}
	return 1;
}

/* The month token t starts with (1 to 12), or 0. */
static int
month_of(span t)
{
	static const char months[] = "janfebmaraprmayjunjulaugsepoctnovdec";
	for (int i = 0; t.n >= 3 && i < 12; i++)
		if (strncasecmp(t.p, months + 3 * i, 3) == 0)
			return i + 1;
	return 0;
}

/* The cookie-date of section 5.1.1 in s, as unix seconds; 0, or -1
 * when it is none. */
static int
cookie_date(span s, long long *out)
{
	int have_time = 0, have_day = 0, have_month = 0, have_year = 0;
	int hour = 0, min = 0, sec = 0, day = 0, month = 0, year = 0;
	const char *p = s.p, *end = s.p + s.n;
	while (p < end) {
		while (p < end && date_delim((unsigned char)*p))
			p++;
		const char *q = p;
		while (q < end && !date_delim((unsigned char)*q))
			q++;
		span t = { p, (size_t)(q - p) };
		p = q;
		if (!t.n)
			continue;
		int v;
		if (!have_time && date_time(t, &hour, &min, &sec))
			have_time = 1;
		else if (!have_day && digits(t, 1, 2, &v))
			have_day = 1, day = v;
		else if (!have_month && (v = month_of(t)))
			have_month = 1, month = v;
		else if (!have_year && digits(t, 2, 4, &v))
			have_year = 1, year = v;
	}
	if (have_year && year >= 70 && year <= 99)
		year += 1900;
	else if (have_year && year <= 69)
		year += 2000;
	if (!have_time || !have_day || !have_month || !have_year || day < 1 || day > 31 ||
	    year < 1601 || hour > 23 || min > 59 || sec > 59)
		return -1;
	struct tm tm = { .tm_year = year - 1900, .tm_mon = month - 1, .tm_mday = day,
			 .tm_hour = hour, .tm_min = min, .tm_sec = sec };
	time_t t = timegm(&tm);
	if (tm.tm_mday != day)   /* normalized: no such day in that month */
		return -1;
	*out = (long long)t;
	return 0;
}

/* A Max-Age value (section 5.2.2) as an expiry from now; 0, or -1. */
static int
max_age(span v, double now, long long *out)
{
	size_t i = v.n && v.p[0] == '-';
	if (i == v.n)
		return -1;
	long long delta = 0;
	for (; i < v.n; i++) {
		if (!isdigit((unsigned char)v.p[i]))
			return -1;
		if (delta < 1000000000000LL)   /* past 30 000 years: forever */
			delta = delta * 10 + (v.p[i] - '0');
	}
	*out = v.p[0] == '-' || delta == 0 ? LLONG_MIN : (long long)now + delta;
	return 0;
}

static int
refuse(cookie_jar *j)
{
	j->refused++;
	return -1;
}

int
cookie_set(cookie_jar *j, const char *url, const char *line, size_t len, double now)
{
	target t;
	const char *end = line + len, *semi = memchr(line, ';', len);
	const char *nv_end = semi ? semi : end;
	const char *eq = memchr(line, '=', (size_t)(nv_end - line));
	if (target_of(url, &t) != 0 || !eq)
		return refuse(j);
	span name = trim(line, eq), value = trim(eq + 1, nv_end);
	span domain = { NULL, 0 }, path = { NULL, 0 };
	int have_path = 0, have_age = 0, have_expires = 0, secure = 0, http_only = 0;
	long long age = 0, expires = 0;
	for (const char *p = semi; p;) {
		const char *av = p + 1, *next = memchr(av, ';', (size_t)(end - av));
		const char *av_end = next ? next : end;
		const char *aeq = memchr(av, '=', (size_t)(av_end - av));
		span k = trim(av, aeq ? aeq : av_end), v = aeq ? trim(aeq + 1, av_end) : (span){ av_end, 0 };
		p = next;
		if (v.n > COOKIE_ATTR_MAX)
			continue;
		if (is(k, "expires"))
			have_expires |= cookie_date(v, &expires) == 0;
		else if (is(k, "max-age"))
			have_age |= max_age(v, now, &age) == 0;
		else if (is(k, "domain") && v.n) {   /* an empty one is ignored */
			domain = v;
			if (domain.p[0] == '.')
				domain.p++, domain.n--;
		} else if (is(k, "path"))
			path = v, have_path = 1;
		else if (is(k, "secure"))
			secure = 1;
		else if (is(k, "httponly"))
			http_only = 1;
	}
	if (!have_path || !path.n || path.p[0] != '/')
		path = default_path(t.path);
	if (!name.n || name.n + value.n > COOKIE_NAME_VALUE_MAX || has_ctl(name) || has_ctl(value) ||
	    has_ctl(path) || has_ctl(domain))
		return refuse(j);
	/* "Domain=." leaves none: host-only, as without the attribute. */
	int host_only = domain.n == 0;
	if (!host_only) {
		for (size_t i = 0; i < domain.n; i++)
			if ((unsigned char)domain.p[i] >= 0x80)
				return refuse(j);
	} else
		domain = (span){ t.host, strlen(t.host) };
	cookie *c = cookie_make(name, value, domain, path);
	if (!host_only) {
		/* A public suffix only for that very host, and as host-only
		 * (section 5.3 step 5); an address only as itself. */
		if (strcmp(c->domain, t.host) == 0 && (site_is_public_suffix(c->domain) || is_ip(t.host)))
			host_only = 1;
		else if (!domain_match(t.host, c->domain) || site_is_public_suffix(c->domain)) {
			free(c);
			return refuse(j);
		}
	}
	c->host_only = (unsigned char)host_only;
	c->secure = (unsigned char)secure;
	c->http_only = (unsigned char)http_only;
	c->persistent = (unsigned char)(have_age || have_expires);
	c->expires = have_age ? age : expires;
	store(j, c, now);
	return 0;
}

/* Orders a request's cookies: longer paths first, then older. */
static int
header_order(const void *a, const void *b)
{
	const cookie *x = *(cookie *const *)a, *y = *(cookie *const *)b;
	if (x->path_len != y->path_len)
		return x->path_len > y->path_len ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

char *
cookie_header(cookie_jar *j, const char *url, double now)
{
	target t;
	if (target_of(url, &t) != 0)
		return NULL;
	site *s = site_find(j, t.host);
	if (!s)
		return NULL;
	cookie **match = xmalloc(s->n * sizeof *match);
	size_t n = 0, len = 1;
	for (cookie *c = s->oldest, *next; c; c = next) {
		next = c->s_newer;
		if (expired(c, now)) {
			drop(j, c);   /* may free s: next is then NULL */
			continue;
		}
		if ((c->host_only ? strcmp(t.host, c->domain) == 0 : domain_match(t.host, c->domain)) &&
		    path_match(t.path, c->path, c->path_len) && (!c->secure || t.https)) {
			match[n++] = c;
			len += strlen(c->name) + strlen(c->value) + 3;   /* "; name=value" */
		}
	}
	char *h = NULL;
	if (n) {
		qsort(match, n, sizeof *match, header_order);
		h = xmalloc(len);
		char *p = h;
		for (size_t i = 0; i < n; i++)
			p = stpcpy(stpcpy(stpcpy(stpcpy(p, i ? "; " : ""), match[i]->name), "="),
				   match[i]->value);
	}
	free(match);
	return h;
}

/* ---- the Netscape jar */

static const char http_only_prefix[] = "#HttpOnly_";

/* Parses jar line line into *out (malloc'd, outside the jar) when it
 * is a cookie: returns an enum cookie_line, out set for KEPT only. */
static int
parse_line(const char *line, size_t len, double now, cookie **out)
{
	*out = NULL;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	int http_only = len >= sizeof http_only_prefix - 1 &&
			memcmp(line, http_only_prefix, sizeof http_only_prefix - 1) == 0;
	if (http_only)
		line += sizeof http_only_prefix - 1, len -= sizeof http_only_prefix - 1;
	else if (!len || line[0] == '#')
		return COOKIE_LINE_SKIPPED;
	span f[7];
	int n = 0;
	for (const char *p = line, *end = line + len;;) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));
		if (n == 7)
			return COOKIE_LINE_BAD;   /* an eighth field */
		f[n++] = (span){ p, (size_t)((tab ? tab : end) - p) };
		if (!tab)
			break;
		p = tab + 1;
	}
	if (n == 6)   /* curl writes a cookie with no value so */
		f[n++] = (span){ "", 0 };
	if (n != 7)
		return COOKIE_LINE_BAD;
	for (int i = 0; i < 7; i++)
		if (has_ctl(f[i]))
			return COOKIE_LINE_BAD;
	span domain = f[0];
	if (domain.n && domain.p[0] == '.')
		domain.p++, domain.n--;
	int tail = is(f[1], "TRUE"), secure = is(f[3], "TRUE");
	char num[24], *num_end;
	snprintf(num, sizeof num, "%.*s", (int)(f[4].n < 21 ? f[4].n : 21), f[4].p);
	errno = 0;
	long long expires = strtoll(num, &num_end, 10);
	if (!domain.n || domain.n > 255 || (!tail && !is(f[1], "FALSE")) ||
	    (!secure && !is(f[3], "FALSE")) || !f[2].n || f[2].p[0] != '/' ||
	    f[2].n > COOKIE_ATTR_MAX || !f[4].n || f[4].n > 20 || *num_end || errno ||
	    !f[5].n || f[5].n + f[6].n > COOKIE_NAME_VALUE_MAX)
		return COOKIE_LINE_BAD;
	for (size_t i = 0; i < domain.n; i++)
		if ((unsigned char)domain.p[i] >= 0x80)
			return COOKIE_LINE_BAD;
	cookie *c = cookie_make(f[5], f[6], domain, f[2]);
	if (tail && !is_ip(c->domain) && site_is_public_suffix(c->domain)) {
		free(c);
		return COOKIE_LINE_BAD;
	}
	c->host_only = (unsigned char)!tail;
	c->secure = (unsigned char)secure;
	c->http_only = (unsigned char)http_only;
	c->persistent = expires != 0;
	c->expires = expires;
	if (expired(c, now)) {
		free(c);
		return COOKIE_LINE_SKIPPED;
	}
	*out = c;
	return COOKIE_LINE_KEPT;
}

int
cookie_add_line(cookie_jar *j, const char *line, size_t len, double now)
{
	cookie *c;
	int rc = parse_line(line, len, now, &c);
	if (c)
		store(j, c, now);
	return rc;
}

/* Counts one loaded line's outcome into r and j. */
static void
count_line(cookie_jar *j, cookie_loaded *r, int rc)
{
	r->cookies += rc != COOKIE_LINE_SKIPPED;
	r->bad += rc == COOKIE_LINE_BAD;
	j->refused += rc == COOKIE_LINE_BAD;
}

int
cookie_load(cookie_jar *j, FILE *f, double now, cookie_loaded *r)
{
	char buf[LINE_MAX_BYTES + 2];
	unsigned long long evicted = j->evicted;
	*r = (cookie_loaded){ 0 };
	while (fgets(buf, sizeof buf, f)) {
		size_t n = strlen(buf);
		if (n == sizeof buf - 1 && buf[n - 1] != '\n') {
			int ch;   /* too long: the rest of it goes unread */
			while ((ch = getc(f)) != EOF && ch != '\n')
				;
			count_line(j, r, COOKIE_LINE_BAD);
			continue;
		}
		count_line(j, r, cookie_add_line(j, buf, n, now));
	}
	r->evicted = (unsigned long)(j->evicted - evicted);
	return ferror(f) ? -1 : 0;
}

void
cookie_load_str(cookie_jar *j, const char *s, double now, cookie_loaded *r)
{
	unsigned long long evicted = j->evicted;
	*r = (cookie_loaded){ 0 };
	while (*s) {
		size_t n = strcspn(s, "\n");
		count_line(j, r, n > LINE_MAX_BYTES ? COOKIE_LINE_BAD : cookie_add_line(j, s, n, now));
		s += n + (s[n] == '\n');
	}
	r->evicted = (unsigned long)(j->evicted - evicted);
}

static void
put_line(FILE *f, const cookie *c)
{
	fprintf(f, "%s%s%s\t%s\t%s\t%s\t%lld\t%s\t%s\n", c->http_only ? http_only_prefix : "",
		c->host_only ? "" : ".", c->domain, c->host_only ? "FALSE" : "TRUE", c->path,
		c->secure ? "TRUE" : "FALSE", c->persistent ? c->expires : 0LL, c->name, c->value);
}

int
cookie_save(const cookie_jar *j, FILE *f, double now)
{
	for (const cookie *c = j->oldest; c && !ferror(f); c = c->newer)
		if (!expired(c, now))
			put_line(f, c);
	return ferror(f) ? -1 : 0;
}

char *
cookie_dump(const cookie_jar *j, double now)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	if (!f || cookie_save(j, f, now) != 0 || fclose(f) != 0)
		xalloc_die();   /* a memory stream fails only for memory */
	return s;
}

int
cookie_holds(const cookie_jar *j, const char *line, size_t len)
{
	cookie *c;
	/* Any time before the epoch: an expiry in a line is not judged. */
	parse_line(line, len, -1e18, &c);
	if (!c)
		return 0;
	const cookie *o = find(j, c);
	int same = o && strcmp(o->value, c->value) == 0 && o->host_only == c->host_only &&
		   o->secure == c->secure && o->http_only == c->http_only &&
		   o->persistent == c->persistent && (!o->persistent || o->expires == c->expires);
	free(c);
	return same;
}
