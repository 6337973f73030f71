/* robots — robots.txt per RFC 9309 (see robots.h).
 *
 * Groups match the product token case-insensitively, else "*"; several
 * matching groups combine.  The longest matching rule wins, Allow on a
 * tie; `*` matches any run of characters, a final `$` anchors the end.
 * Patterns and paths are compared in one percent-encoded form (§2.2.2).
 *
 * Google's leniencies that the RFC does not forbid are kept, because
 * sites are written against Google: a user-agent value counts up to its
 * first character outside [A-Za-z_-] ("FooBot/2.1", "Foo Bar"), a line
 * with no colon splits at its whitespace ("disallow /"), an Allow of
 * ".../index.html" also allows ".../", and a UTF-8 byte order mark, even
 * a partial one, is skipped.
 */
#include "robots.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pct.h"
#include "url.h"

typedef struct rule {
	int allow;
	char *pat;
	size_t len;
} rule;

struct robots {
	rule *rules;
	size_t n, cap;
	int deny_all;
	char *sitemaps[ROBOTS_MAX_SITEMAPS];
	size_t n_sitemaps;
};

/* RFC 3986 unreserved: the octets that mean the same encoded or not. */
static int
unreserved(int c)
{
	return isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

/* Writes s[0..n) to out (room for 3n + 1) in the form patterns and paths
 * are compared in, per RFC 9309 §2.2.2: %xx with upper-case hex, decoded
 * when it encodes an unreserved octet; with raw set, octets outside
 * ASCII percent-encoded too (robots.txt holds "/café", a URL "/caf%C3%A9").
 * Returns the length written. */
static size_t
pct_norm(const char *s, size_t n, int raw, char *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int hi, lo;
		if (c == '%' && i + 2 < n &&
		    (hi = pct_hexval(s[i + 1])) >= 0 && (lo = pct_hexval(s[i + 2])) >= 0) {
			int v = hi * 16 + lo;
			if (unreserved(v))
				out[k++] = (char)v;
			else
				k += pct_put(out + k, (unsigned char)v);
			i += 2;
		} else if (raw && c >= 0x80) {
			k += pct_put(out + k, c);
		} else {
			out[k++] = (char)c;
		}
	}
	out[k] = '\0';
	return k;
}

/* Whether pattern p (n bytes: `*` any run, a final `$` the end) matches
 * a prefix of path s, or all of it when anchored.  Greedy, with one
 * backtrack point (the last `*`): a later `*` makes every earlier choice
 * final, so at most n × strlen(s) steps and no recursion. */
static int
match(const char *p, size_t n, const char *s)
{
	int anchored = n > 0 && p[n - 1] == '$';
	if (anchored)
		n--;
	size_t i = 0, star = SIZE_MAX;
	const char *from = NULL;   /* where the last `*` resumes */
	for (;;) {
		if (i < n && p[i] == '*') {
			while (i < n && p[i] == '*')
				i++;
			star = i;
			from = s;
			continue;
		}
		if (i == n && (!anchored || *s == '\0'))
			return 1;
		if (i < n && *s && *s == p[i]) {
			i++;
			s++;
			continue;
		}
		if (star == SIZE_MAX || *from == '\0')
			return 0;
		i = star;
		s = ++from;
	}
}

int
robots_allowed(const struct robots *r, const char *path)
{
	if (!r)
		return 1;
	if (r->deny_all)
		return 0;
	if (strcmp(path, "/robots.txt") == 0)
		return 1;
	/* The path is already percent-encoded (fetch's URLs are canonical);
	 * only its %xx need the rules' form. */
	char *norm = NULL;
	if (strchr(path, '%')) {
		size_t n = strlen(path);
		if (!(norm = malloc(n + 1)))
			return 0;   /* out of memory refuses, never allows */
		pct_norm(path, n, 0, norm);
		path = norm;
	}
	const rule *best = NULL;
	for (size_t i = 0; i < r->n; i++) {
		const rule *x = &r->rules[i];
		if (!match(x->pat, x->len, path))
			continue;
		if (!best || x->len > best->len || (x->len == best->len && x->allow))
			best = x;
	}
	free(norm);
	return !best || best->allow;
}

static char *
trim(char *s, char *e)
{
	while (s < e && isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		e--;
	*e = '\0';
	return s;
}

/* Splits "key: value" (comment stripped, both trimmed).  A line with no
 * colon splits at its whitespace when it is exactly two words, as Google
 * reads "disallow /".  Returns 0 for a line with no key. */
static int
field(char *line, char **key, char **val)
{
	char *hash = strchr(line, '#');
	char *end = hash ? hash : line + strlen(line);
	*end = '\0';
	char *sep = strchr(line, ':');
	if (!sep) {
		char *s = trim(line, end);
		char *w = s + strcspn(s, " \t");   /* end of the first word */
		char *v = w + strspn(w, " \t");    /* start of the second */
		if (w == s || !*v || v[strcspn(v, " \t")])
			return 0;
		*w = '\0';
		*key = s, *val = v;
		return 1;
	}
	*key = trim(line, sep);
	*val = trim(sep + 1, end);
	return **key != '\0';
}

/* Appends a rule of pattern v in compared form, growing the array
 * geometrically (a 500 KiB file holds tens of thousands); 0, or -1 when
 * out of memory. */
static int
add_rule(struct robots *r, int allow, const char *v, size_t n)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		rule *nr = realloc(r->rules, cap * sizeof *nr);
		if (!nr)
			return -1;
		r->rules = nr;
		r->cap = cap;
	}
	rule *x = &r->rules[r->n];
	if (!(x->pat = malloc(3 * n + 1)))
		return -1;
	x->len = pct_norm(v, n, 1, x->pat);
	x->allow = allow;
	r->n++;
	return 0;
}

/* Adds the rules of an Allow or Disallow line with value v.  Google's
 * leniency: "Allow: /d/index.html" (or .htm) also allows "/d/" exactly,
 * the same page under its directory's name. */
static int
add_line(struct robots *r, int allow, const char *v)
{
	size_t n = strlen(v);
	if (add_rule(r, allow, v, n) != 0)
		return -1;
	const char *slash = strrchr(v, '/');
	if (!allow || !slash || strncmp(slash, "/index.htm", 10) != 0)
		return 0;
	char *dir = malloc(n + 2);
	if (!dir)
		return -1;
	size_t k = (size_t)(slash - v) + 1;
	memcpy(dir, v, k);
	dir[k++] = '$';
	int rc = add_rule(r, 1, dir, k);
	free(dir);
	return rc;
}

/* The next line of txt from *pos (ended by CR, LF or NUL), cut at
 * ROBOTS_MAX_LINE bytes into buf; returns 0 at the end. */
static int
next_line(const char *txt, size_t n, size_t *pos, char *buf)
{
	if (*pos >= n)
		return 0;
	size_t k = 0, i = *pos;
	for (; i < n && txt[i] != '\r' && txt[i] != '\n' && txt[i] != '\0'; i++)
		if (k < ROBOTS_MAX_LINE)
			buf[k++] = txt[i];
	buf[k] = '\0';
	*pos = i + 1;
	return 1;
}

/* Keeps the Sitemap: URL v when it is one robots_sitemaps gives (out of
 * memory, it is left out like a bad one). */
static void
add_sitemap(struct robots *r, const char *v)
{
	url_parts u;
	const char *why;
	if (r->n_sitemaps == ROBOTS_MAX_SITEMAPS || url_canon(v, strlen(v), &u, &why) != 0)
		return;
	int keep = url_fetchable(u.scheme) && strlen(u.canon) <= ROBOTS_MAX_SITEMAP_URL;
	for (size_t i = 0; keep && i < r->n_sitemaps; i++)
		keep = strcmp(r->sitemaps[i], u.canon) != 0;
	if (keep) {
		r->sitemaps[r->n_sitemaps++] = u.canon;
		u.canon = NULL;
	}
	url_parts_free(&u);
}

size_t
robots_sitemaps(const struct robots *r, const char *const **urls)
{
	*urls = r ? (const char *const *)r->sitemaps : NULL;
	return r ? r->n_sitemaps : 0;
}

int
robots_token_valid(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-");
	return n > 0 && s[n] == '\0';
}

int
robots_agent_opt(void *dst, const char *s)
{
	if (!robots_token_valid(s))
		return -1;
	*(const char **)dst = s;
	return 0;
}

/* Whether user-agent value v names agent (its first run of [A-Za-z_-]:
 * "Sluice/1.0" and "sluice images" both name sluice); 2 when v is "*". */
static int
agent_of(const char *v, const char *agent)
{
	if (v[0] == '*' && (v[1] == '\0' || isspace((unsigned char)v[1])))
		return 2;
	size_t n = strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-");
	return n > 0 && n == strlen(agent) && strncasecmp(v, agent, n) == 0;
}

struct robots *
robots_parse(const char *txt, size_t n, const char *agent, double *crawl_delay)
{
	struct robots *r = calloc(1, sizeof *r);
	char *line = malloc(ROBOTS_MAX_LINE + 1);
	if (!r || !line) {
		free(r);
		free(line);
		return NULL;
	}
	if (n > ROBOTS_MAX_BYTES)
		n = ROBOTS_MAX_BYTES;
	/* A byte order mark, or the start of one, is no part of line 1. */
	size_t start = 0;
	while (start < 3 && start < n && txt[start] == "\xEF\xBB\xBF"[start])
		start++;
	/* Two passes: first learn whether any group names us, then keep
	 * the rules of the groups that apply.  A group is its user-agent
	 * lines and the rules after them: only a rule ends the list of
	 * agents, so Sitemap and unknown lines between agents do not. */
	double delays[2] = { 0, 0 };
	int named = 0;
	for (int pass = 0; pass < 2; pass++) {
		int in_agents = 0, mine = 0, star = 0;
		for (size_t pos = start; next_line(txt, n, &pos, line);) {
			char *k, *v;
			if (!field(line, &k, &v))
				continue;
			if (strcasecmp(k, "user-agent") == 0) {
				if (!in_agents)
					mine = star = 0;
				in_agents = 1;
				int a = agent_of(v, agent);
				if (a == 1)
					mine = 1, named = 1;
				else if (a == 2)
					star = 1;
				continue;
			}
			if (strcasecmp(k, "sitemap") == 0) {
				if (pass == 0)
					add_sitemap(r, v);
				continue;   /* outside groups */
			}
			int allow = strcasecmp(k, "allow") == 0;
			int rule = allow || strcasecmp(k, "disallow") == 0;
			int delay = strcasecmp(k, "crawl-delay") == 0;
			if (!rule && !delay)
				continue;   /* unknown: outside groups */
			in_agents = 0;
			int applies = named ? mine : star;
			if (pass == 0 || !applies)
				continue;
			if (rule && *v) {
				if (add_line(r, allow, v) != 0)
					break;
			} else if (delay) {
				double d = strtod(v, NULL);
				if (isfinite(d) && d > 0)
					delays[named ? 0 : 1] = d;
			}
		}
	}
	free(line);
	*crawl_delay = named ? delays[0] : delays[1];
	return r;
}

struct robots *
robots_deny_all(void)
{
	struct robots *r = calloc(1, sizeof *r);
	if (r)
		r->deny_all = 1;
	return r;
}

const char *
robots_reason(const struct robots *r)
{
	return r && r->deny_all ? "robots.txt unreachable" : "disallowed by robots.txt";
}

void
robots_free(struct robots *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		free(r->rules[i].pat);
	free(r->rules);
	for (size_t i = 0; i < r->n_sitemaps; i++)
		free(r->sitemaps[i]);
	free(r);
}

