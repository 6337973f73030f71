/* policy — --policy FILE: per-host overrides of the pacing flags.
 *
 *   # host            settings
 *   example.org       delay=1.5 per_host=2
 *   *.example.net     rate=0.5 burst=2 robots=on
 *   slow.example.com  pause=on
 *   site=example.co.uk delay=2
 *   api.example.com   header=X-Api-Key: 0123
 *
 * A line names a host exactly, or "*.domain" for the domain and all its
 * subdomains, each with pacing of its own; or "site=DOMAIN" for every
 * host of the registrable domain DOMAIN (lib/site.h) paced as one.  The
 * first matching line wins.  Keys: delay, rate, burst,
 * per_host, robots (on|off), pause (on|off).  SIGHUP re-reads the file
 * (drive.c), so a running fetch can pause and resume hosts.
 *
 * header=LINE sends the header LINE (curl's -H syntax: "Name: value",
 * "Name:" or "Name;") to the hosts the line matches, and only to them
 * (req.c).  It takes the rest of the line, '#' included, since values
 * are free text; a host with several headers has several lines.  Header
 * lines are collected from every matching line, and a line with nothing
 * but headers does not count as the first match for the other keys.
 */
#include "fetch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msg.h"
#include "num.h"
#include "site.h"
#include "xalloc.h"

enum { SET_DELAY = 1, SET_RATE = 2, SET_BURST = 4, SET_PER_HOST = 8, SET_ROBOTS = 16,
       SET_PAUSE = 32 };

typedef struct pentry {
	char *host;              /* a pattern, or a site when is_site */
	int is_site;
	unsigned set;
	double delay, rate, burst;
	long per_host;
	int robots, pause;
	struct curl_slist *headers;   /* header= lines, in order */
} pentry;

struct policy {
	pentry *v;
	size_t n;
};

/* Sets *flag from "on" or "off"; -1 for anything else. */
static int
on_off(const char *v, int *flag)
{
	*flag = strcmp(v, "on") == 0;
	return *flag || strcmp(v, "off") == 0 ? 0 : -1;
}

static int
setting(pentry *e, const char *k, const char *v)
{
	if (strcmp(k, "delay") == 0)
		return e->set |= SET_DELAY, num_seconds(v, &e->delay);
	if (strcmp(k, "rate") == 0)
		return e->set |= SET_RATE, num_seconds(v, &e->rate);
	if (strcmp(k, "burst") == 0)
		return e->set |= SET_BURST, num_seconds(v, &e->burst);
	if (strcmp(k, "per_host") == 0)
		return e->set |= SET_PER_HOST,
		       num_long(v, 10000, &e->per_host) || e->per_host < 1 ? -1 : 0;
	if (strcmp(k, "robots") == 0)
		return e->set |= SET_ROBOTS, on_off(v, &e->robots);
	if (strcmp(k, "pause") == 0)
		return e->set |= SET_PAUSE, on_off(v, &e->pause);
	return -1;
}

/* Where the header= setting of line starts (its value), cutting the
 * line there; NULL when it has none.  Only a word of its own counts:
 * "header=" after the host and white space. */
static char *
header_setting(char *line)
{
	for (char *p = line; (p = strstr(p, "header=")); p += 7)
		if (p > line && (p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return p + 7;
		}
	return NULL;
}

/* Reads path into *out.  Returns 0; or EX_NOINPUT or EX_USAGE (a bad
 * line, named by file and line) with the message in err. */
int
policy_load(const char *path, struct policy **out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return EX_NOINPUT;
	}
	struct policy *p = xcalloc(1, sizeof *p);
	char line[8192];
	for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
		/* A cut line would send a cut header and read the rest of it,
		 * maybe a key, as settings to echo: refuse it whole. */
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, lineno,
				 sizeof line - 2);
			fclose(f);
			policy_free(p);
			return EX_USAGE;
		}
		char *hdr = header_setting(line);
		char *hash = strchr(line, '#'), *save = NULL;
		if (hash)
			*hash = '\0';
		char *tok = strtok_r(line, " \t\r\n", &save);
		if (!tok)
			continue;
		p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
		pentry *e = &p->v[p->n++];
		memset(e, 0, sizeof *e);
		e->is_site = strncmp(tok, "site=", 5) == 0;
		e->host = xstrdup(tok + (e->is_site ? 5 : 0));
		while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
			char *eq = strchr(tok, '=');
			if (eq)
				*eq = '\0';
			if (!eq || setting(e, tok, eq + 1) != 0) {
				if (eq)
					*eq = '=';
				snprintf(err, errlen, "%s:%d: bad setting '%s'", path, lineno, tok);
				fclose(f);
				policy_free(p);
				return EX_USAGE;
			}
		}
		if (hdr) {
			size_t n = strlen(hdr);
			while (n && (hdr[n - 1] == '\n' || hdr[n - 1] == '\r'))
				hdr[--n] = '\0';
			/* The value is not echoed: it may be a key. */
			if (hdr_check(hdr) != 0) {
				snprintf(err, errlen, "%s:%d: bad header (want header=Name: value)",
					 path, lineno);
				fclose(f);
				policy_free(p);
				return EX_USAGE;
			}
			struct curl_slist *l = curl_slist_append(e->headers, hdr);
			if (!l)
				xalloc_die();
			e->headers = l;
		}
	}
	fclose(f);
	*out = p;
	return 0;
}

int
policy_has_site(const struct policy *p, const char *site)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (p->v[i].is_site && p->v[i].set && strcasecmp(p->v[i].host, site) == 0)
			return 1;   /* a line of headers only paces nothing */
	return 0;
}

static int
matches(const char *pat, const char *host)
{
	if (strncmp(pat, "*.", 2) != 0)
		return strcasecmp(pat, host) == 0;
	const char *dom = pat + 2;
	size_t hl = strlen(host), dl = strlen(dom);
	return strcasecmp(host, dom) == 0 ||
	       (hl > dl && host[hl - dl - 1] == '.' && strcasecmp(host + hl - dl, dom) == 0);
}

void
policy_apply(const struct policy *p, host *h)
{
	for (size_t i = 0; p && i < p->n; i++) {
		const pentry *e = &p->v[i];
		if ((!e->set && e->headers) || !matches(e->host, h->name))
			continue;
		if (e->set & SET_DELAY) h->pace.delay = e->delay;
		if (e->set & SET_RATE) h->pace.rate = e->rate;
		if (e->set & SET_BURST) h->pace.burst = e->burst;
		if (e->set & SET_PER_HOST) h->per_host = e->per_host;
		if (e->set & SET_ROBOTS) h->use_robots = e->robots;
		if (e->set & SET_PAUSE) h->policy_hold = e->pause;
		return;
	}
}

/* Whether entry e's pattern covers host name host. */
static int
covers(const pentry *e, const char *host)
{
	return e->is_site ? strcasecmp(site_of(host), e->host) == 0 : matches(e->host, host);
}

void
policy_headers(const struct policy *p, const char *host,
	       void (*each)(const char *line, void *arg), void *arg)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (p->v[i].headers && covers(&p->v[i], host))
			for (const struct curl_slist *l = p->v[i].headers; l; l = l->next)
				each(l->data, arg);
}

long
policy_max_per_host(const struct policy *p, long dflt)
{
	long m = dflt;
	for (size_t i = 0; p && i < p->n; i++)
		if ((p->v[i].set & SET_PER_HOST) && p->v[i].per_host > m)
			m = p->v[i].per_host;
	return m;
}

void
policy_free(struct policy *p)
{
	for (size_t i = 0; p && i < p->n; i++) {
		free(p->v[i].host);
		curl_slist_free_all(p->v[i].headers);
	}
	if (p)
		free(p->v);
	free(p);
}
