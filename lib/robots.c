/* robots — robots.txt per RFC 9309 (see robots.h).
 *
 * Groups match the product token case-insensitively, else "*"; several
 * matching groups combine.  The longest matching rule wins, Allow on a
 * tie; `*` matches any run of characters, a final `$` anchors the end.
 */
#include "robots.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct rule {
	int allow;
	char *pat;
	size_t len;
} rule;

struct robots {
	rule *rules;
	size_t n, cap;
	int deny_all;
};

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
	const rule *best = NULL;
	for (size_t i = 0; i < r->n; i++) {
		const rule *x = &r->rules[i];
		if (!match(x->pat, x->len, path))
			continue;
		if (!best || x->len > best->len || (x->len == best->len && x->allow))
			best = x;
	}
	return !best || best->allow;
}

/* Splits "key: value" (comment stripped, both trimmed).  Returns 0 for a
 * line with no key. */
static int
field(char *line, char **key, char **val)
{
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	char *colon = strchr(line, ':');
	if (!colon)
		return 0;
	*colon = '\0';
	char *k = line, *v = colon + 1;
	while (isspace((unsigned char)*k))
		k++;
	for (char *e = colon; e > k && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	while (isspace((unsigned char)*v))
		v++;
	for (char *e = v + strlen(v); e > v && isspace((unsigned char)e[-1]);)
		*--e = '\0';
	*key = k, *val = v;
	return 1;
}

/* Appends a rule, growing the array geometrically (a 500 KiB file holds
 * tens of thousands); 0, or -1 when out of memory. */
static int
add_rule(struct robots *r, int allow, const char *v)
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
	if (!(x->pat = strdup(v)))
		return -1;
	x->allow = allow;
	x->len = strlen(v);
	r->n++;
	return 0;
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
	/* Two passes: first learn whether any group names us, then keep
	 * the rules of the groups that apply. */
	double delays[2] = { 0, 0 };
	int named = 0;
	size_t alen = strlen(agent);
	for (int pass = 0; pass < 2; pass++) {
		int in_agents = 0, mine = 0, star = 0;
		for (size_t pos = 0; next_line(txt, n, &pos, line);) {
			char *k, *v;
			if (!field(line, &k, &v))
				continue;
			if (strcasecmp(k, "user-agent") == 0) {
				if (!in_agents)
					mine = star = 0;
				in_agents = 1;
				if (strcasecmp(v, agent) == 0 ||
				    (strncasecmp(v, agent, alen) == 0 && v[alen] == '/'))
					mine = 1, named = 1;
				else if (strcmp(v, "*") == 0)
					star = 1;
				continue;
			}
			in_agents = 0;
			int applies = named ? mine : star;
			if (pass == 0 || !applies)
				continue;
			int allow = strcasecmp(k, "allow") == 0;
			if ((allow || strcasecmp(k, "disallow") == 0) && *v) {
				if (add_rule(r, allow, v) != 0)
					break;
			} else if (strcasecmp(k, "crawl-delay") == 0) {
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
	free(r);
}

