/* robots — robots.txt per RFC 9309: fetched once per host before its
 * first request, counted as a start for pacing, kept for the run.
 *
 * Groups match our product token ("sluice") case-insensitively, else
 * "*"; several matching groups combine.  The longest matching rule wins,
 * Allow on a tie; `*` matches any run of characters, a final `$` anchors
 * the end.  4xx means no rules; 5xx (and 429) or no answer means
 * "disallow all for now": the fetch is retried with backoff, and after
 * --retries failures the host's URLs end with `error: robots`.
 */
#include "fetch.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msg.h"
#include "tm.h"

#define ROBOTS_TOKEN "sluice"

typedef struct rule {
	int allow;
	char *pat;
	size_t len;
} rule;

struct robots {
	rule *rules;
	size_t n;
	int deny_all;
};

/* Whether pattern p (n bytes, with * and a final $) matches a prefix of
 * path s, or all of it when anchored. */
static int
match(const char *p, size_t n, const char *s)
{
	if (n == 0)
		return 1;
	if (*p == '$' && n == 1)
		return *s == '\0';
	if (*p == '*') {
		for (;; s++) {
			if (match(p + 1, n - 1, s))
				return 1;
			if (!*s)
				return 0;
		}
	}
	return *s == *p && match(p + 1, n - 1, s + 1);
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

/* Parses robots.txt txt (n bytes) for product token agent; sets
 * *crawl_delay (0 when none).  Returns the rules (never NULL unless out
 * of memory). */
struct robots *
robots_parse(const char *txt, size_t n, const char *agent, double *crawl_delay)
{
	struct robots *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	/* Two passes: first learn whether any group names us, then keep
	 * the rules of the groups that apply. */
	double delays[2] = { 0, 0 };
	int named = 0;
	for (int pass = 0; pass < 2; pass++) {
		char *copy = strndup(txt, n), *save = NULL;
		if (!copy)
			break;
		int in_agents = 0, mine = 0, star = 0;
		for (char *line = strtok_r(copy, "\r\n", &save); line;
		     line = strtok_r(NULL, "\r\n", &save)) {
			char *k, *v;
			if (!field(line, &k, &v))
				continue;
			if (strcasecmp(k, "user-agent") == 0) {
				if (!in_agents)
					mine = star = 0;
				in_agents = 1;
				if (strcasecmp(v, agent) == 0 ||
				    (strncasecmp(v, agent, strlen(agent)) == 0 && v[strlen(agent)] == '/'))
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
				rule *nr = realloc(r->rules, (r->n + 1) * sizeof *nr);
				if (!nr)
					break;
				r->rules = nr;
				r->rules[r->n].allow = allow;
				r->rules[r->n].pat = strdup(v);
				r->rules[r->n].len = strlen(v);
				r->n++;
			} else if (strcasecmp(k, "crawl-delay") == 0) {
				double d = strtod(v, NULL);
				if (isfinite(d) && d > 0)
					delays[named ? 0 : 1] = d;
			}
		}
		free(copy);
	}
	*crawl_delay = named ? delays[0] : delays[1];
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

/* The job that fetches h's robots.txt; h waits for it (ROBOTS_LOADING).
 * The scheduler starts it like any job, so it counts against the host's
 * pacing, but it is no input: not in F.alive, no record. */
job *
robots_job(host *h)
{
	job *j = calloc(1, sizeof *j);
	if (!j)
		abort();
	size_t n = strlen(h->key) + sizeof "/robots.txt";
	j->url = malloc(n);
	if (!j->url)
		abort();
	snprintf(j->url, n, "%s/robots.txt", h->key);
	j->host = h;
	j->is_robots = 1;
	h->robots_state = ROBOTS_LOADING;
	return j;
}

/* Takes the answer of j, h's robots.txt request (rc, j->status): the
 * rules, no rules, or a wait before asking again; frees j. */
void
robots_done(job *j, CURLcode rc)
{
	host *h = j->host;
	long st = j->status;
	if (rc == CURLE_OK && st >= 200 && st < 300) {
		h->robots = robots_parse(j->body ? j->body : "", j->body_len,
					 ROBOTS_TOKEN, &h->crawl_delay);
		h->robots_state = ROBOTS_READY;
	} else if (rc == CURLE_OK && st >= 400 && st < 500 && st != 429) {
		h->robots_state = ROBOTS_READY;   /* no rules */
	} else if (++h->robots_fails > F.o.retries) {
		h->robots = calloc(1, sizeof *h->robots);
		if (h->robots)
			h->robots->deny_all = 1;
		h->robots_state = ROBOTS_READY;
		msg_note("robots.txt of %s unreachable, its URLs are refused", h->key);
	} else {
		/* Disallow all for now: try again after a backoff, holding the
		 * host's URLs meanwhile. */
		double wait = fmin(60, F.o.backoff * pow(2, h->robots_fails - 1));
		h->next_start = tm_mono() + wait;
		h->robots_state = ROBOTS_NONE;
	}
	job_free(j);
}
