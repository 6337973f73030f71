#include "rules.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "msg.h"
#include "num.h"
#include "xalloc.h"

/* Appends item (of size sz) to the array *arr of *n items. */
static void
push(void *arr, size_t *n, const void *item, size_t sz)
{
	char **a = arr;
	*a = xrealloc(*a, (*n + 1) * sz);
	memcpy(*a + *n * sz, item, sz);
	(*n)++;
}

void
vrules_init(vrules *rs)
{
	memset(rs, 0, sizeof *rs);
}

/* Frees everything s owns (not s itself). */
static void
section_free(vsection *s)
{
	free(s->host);
	free(s->status);
	for (size_t i = 0; i < s->nctype; i++)
		free(s->ctype[i]);
	free(s->ctype);
	for (size_t i = 0; i < s->nrequire; i++)
		free(s->require[i]);
	free(s->require);
	for (size_t i = 0; i < s->nmarker; i++)
		vre_free(s->marker[i]);
	free(s->marker);
	for (size_t i = 0; i < s->nreject; i++)
		vre_free(s->reject[i]);
	free(s->reject);
}

void
vrules_free(vrules *rs)
{
	section_free(&rs->global);
	for (size_t i = 0; i < rs->nhosts; i++)
		section_free(&rs->hosts[i]);
	free(rs->hosts);
}

/* Replaces s's status set with the comma list v ("any" = no check). */
static int
set_status(vsection *s, const char *v)
{
	vrange *list;
	size_t n;
	if (num_status_ranges(v, &list, &n) < 0)
		return -1;
	free(s->status);
	s->status = list, s->nstatus = n, s->has_status = 1;
	return 0;
}

/* Replaces s's content types with the comma list v, lowercased so the
 * check can be a plain prefix compare ("any" = no check). */
static void
set_ctype(vsection *s, const char *v)
{
	for (size_t i = 0; i < s->nctype; i++)
		free(s->ctype[i]);
	s->nctype = 0;
	s->has_ctype = 1;
	if (strcasecmp(v, "any") == 0)
		return;
	for (const char *p = v;;) {
		size_t len = strcspn(p, ",");
		while (len && isspace((unsigned char)*p))
			p++, len--;
		char *t = xstrndup(p, len);
		for (char *c = t; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (*t)
			push(&s->ctype, &s->nctype, &t, sizeof t);
		else
			free(t);
		if (!p[len])
			break;
		p += len + 1;
	}
}

int
vrules_add(vrules *rs, vsection *s, const char *name, const char *value,
	   char *err, size_t errlen)
{
	if (!s)
		s = &rs->global;
	if (strcmp(name, "status") == 0) {
		if (set_status(s, value) < 0) {
			snprintf(err, errlen, "bad status range '%s': want N, N-M or Nxx, statuses"
				 " from %d to %d, or any", value, NUM_STATUS_MIN, NUM_STATUS_MAX);
			return -1;
		}
	} else if (strcmp(name, "ctype") == 0) {
		set_ctype(s, value);
	} else if (strcmp(name, "require") == 0) {
		if (!*value) {
			snprintf(err, errlen, "require needs a field name");
			return -1;
		}
		char *f = xstrdup(value);
		push(&s->require, &s->nrequire, &f, sizeof f);
	} else if (strcmp(name, "marker") == 0 || strcmp(name, "reject") == 0) {
		char why[200];
		vre *re = vre_compile(value, why, sizeof why);
		if (!re) {
			snprintf(err, errlen, "bad regex '%s' %s", value, why);
			return -1;
		}
		if (name[0] == 'm')
			push(&s->marker, &s->nmarker, &re, sizeof re);
		else
			push(&s->reject, &s->nreject, &re, sizeof re);
	} else if (strcmp(name, "min-text") == 0) {
		if (num_long(value, 1L << 30, &s->min_text) < 0) {
			snprintf(err, errlen, "bad min-text '%s'", value);
			return -1;
		}
		s->has_min_text = 1;
	} else if (strcmp(name, "refusals") == 0) {
		if (strcasecmp(value, "on") != 0 && strcasecmp(value, "off") != 0) {
			snprintf(err, errlen, "bad refusals '%s': want on or off", value);
			return -1;
		}
		s->refusals = strcasecmp(value, "on") == 0;
		s->has_refusals = 1;
	} else {
		snprintf(err, errlen, "unknown rule '%s'", name);
		return -1;
	}
	return 0;
}

/* Strips leading and trailing white space in place. */
static char *
trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

int
vrules_load(vrules *rs, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -2;
	}
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	vsection *cur = NULL;   /* NULL: the global section */
	int rc = 0;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		char why[300];
		if (*s == '[') {
			/* `[host NAME]` opens a section; `[global]` goes back. */
			size_t n = strlen(s);
			if (s[n - 1] != ']') {
				snprintf(why, sizeof why, "unclosed section header");
				goto bad;
			}
			s[n - 1] = 0;
			s = trim(s + 1);
			if (strcmp(s, "global") == 0) {
				cur = NULL;
				continue;
			}
			if (strncmp(s, "host", 4) != 0 || !isspace((unsigned char)s[4]) ||
			    !*trim(s + 4)) {
				snprintf(why, sizeof why, "bad section '[%s]': use [host NAME]", s);
				goto bad;
			}
			vsection sec;
			memset(&sec, 0, sizeof sec);
			sec.host = xstrdup(trim(s + 4));
			for (char *c = sec.host; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			/* push may move rs->hosts; cur is taken after it. */
			push(&rs->hosts, &rs->nhosts, &sec, sizeof sec);
			cur = &rs->hosts[rs->nhosts - 1];
			continue;
		}
		size_t k = strcspn(s, " \t");
		char *value = s[k] ? trim(s + k + 1) : s + k;
		s[k] = 0;
		if (vrules_add(rs, cur, s, value, why, sizeof why) < 0)
			goto bad;
		continue;
bad:
		snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
		rc = -1;
		break;
	}
	if (rc == 0 && ferror(f)) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		rc = -2;
	}
	free(line);
	fclose(f);
	return rc;
}

/* Whether pattern (lowercase; exact, or `*.domain`) names host.
 * `*.domain` covers the domain itself and every subdomain, as fetch's
 * --policy does, so one spelling means the same in both files. */
static int
host_matches(const char *pattern, const char *host, size_t n)
{
	if (pattern[0] == '*' && pattern[1] == '.') {
		const char *dom = pattern + 2;
		size_t m = strlen(dom);
		if (n == m)
			return strncasecmp(host, dom, m) == 0;
		return n > m && host[n - m - 1] == '.' &&
		       strncasecmp(host + n - m, dom, m) == 0;
	}
	return strlen(pattern) == n && strncasecmp(pattern, host, n) == 0;
}

size_t
vrules_for_host(const vrules *rs, const char *host, size_t hostlen,
		const vsection **out, size_t max)
{
	size_t n = 0;
	if (max == 0)
		return 0;
	out[n++] = &rs->global;
	if (!host)
		return n;
	for (size_t i = 0; i < rs->nhosts && n < max; i++)
		if (host_matches(rs->hosts[i].host, host, hostlen))
			out[n++] = &rs->hosts[i];
	return n;
}
