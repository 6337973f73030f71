/* cookies — --cookies FILE: the jar, in the Netscape format libcurl (and
 * so fetch) reads and writes, carried from page to page.
 *
 * Each page's browser context is new, so the jar lives here, in
 * lib/cookie's store with its bounds (COOKIE_SITE_MAX a site,
 * --max-cookies in all, the oldest evicted): loaded once, set into each
 * context before its tab opens (Storage.setCookies), and the context's
 * cookies read back before it is disposed (Storage.getCookies) and
 * merged in, one cookie per name, domain and path, so a page that sets
 * thousands costs what the bounds allow, never the square of it.  Jar
 * lines are the exchange between the two forms.  At exit the jar is
 * written aside and renamed over the file, 0600 (lib/cookiefile).  A
 * cookie the server deleted stays in the jar until it expires: a merge
 * only adds and replaces.
 */
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cookiefile.h"
#include "tm.h"
#include "xalloc.h"

static const char *path;
static cookie_jar *jar;

int
cookies_load(const char *file, char *err, size_t errlen)
{
	path = file;
	jar = cookie_jar_new((size_t)R.o.max_cookies, COOKIE_SITE_MAX);
	return cookiefile_load(jar, file, R.o.max_cookies, tm_wall(), err, errlen);
}

/* The Storage.setCookies cookie of jar line l (as cookie_dump writes
 * it, so well formed), or NULL. */
static json_t *
from_line(char *l)
{
	int http_only = strncmp(l, "#HttpOnly_", 10) == 0;
	if (http_only)
		l += 10;
	char *f[7];
	for (int i = 0; i < 7; i++) {
		f[i] = l;
		l += strcspn(l, "\t");
		if (i < 6 && !*l)
			return NULL;
		if (*l)
			*l++ = '\0';
	}
	const char *dom = f[0], *cpath = f[2];
	int secure = strcmp(f[3], "TRUE") == 0;
	json_t *c = json_pack("{s:s, s:s, s:s, s:b, s:b}", "name", f[5], "value", f[6], "path", cpath,
			      "secure", secure, "httpOnly", http_only);
	if (dom[0] == '.') {
		json_object_set_new(c, "domain", json_string(dom));
	} else {
		/* Host-only: set by URL, so it does not reach subdomains. */
		size_t n = strlen(dom) + strlen(cpath) + 16;
		char *url = xmalloc(n);
		snprintf(url, n, "%s://%s%s", secure ? "https" : "http", dom, cpath);
		json_object_set_new(c, "url", json_string(url));
		free(url);
	}
	double exp = strtod(f[4], NULL);
	if (exp > 0)
		json_object_set_new(c, "expires", json_real(exp));
	return c;
}

json_t *
cookies_params(void)
{
	if (!jar)
		return NULL;
	char *s = cookie_dump(jar, tm_wall());
	json_t *a = json_array();
	for (char *l = s, *next; *l; l = next) {
		next = l + strcspn(l, "\n");
		if (*next)
			*next++ = '\0';
		json_t *c = from_line(l);
		if (c)
			json_array_append_new(a, c);
	}
	free(s);
	return a;
}

void
cookies_merge(json_t *got)
{
	size_t i;
	json_t *c;
	if (!jar)
		return;
	double now = tm_wall();
	json_array_foreach(got, i, c) {
		const char *n = json_string_value(json_object_get(c, "name"));
		const char *v = json_string_value(json_object_get(c, "value"));
		const char *d = json_string_value(json_object_get(c, "domain"));
		const char *p = json_string_value(json_object_get(c, "path"));
		if (!n || !v || !d || !p || !*d)
			continue;
		double exp = json_number_value(json_object_get(c, "expires"));
		if (json_is_true(json_object_get(c, "session")) || exp < 0)
			exp = 0;
		size_t len = strlen(n) + strlen(v) + strlen(d) + strlen(p) + 64;
		char *line = xmalloc(len);
		len = (size_t)snprintf(line, len, "%s%s\t%s\t%s\t%s\t%.0f\t%s\t%s",
				       json_is_true(json_object_get(c, "httpOnly")) ? "#HttpOnly_" : "", d,
				       d[0] == '.' ? "TRUE" : "FALSE", p,
				       json_is_true(json_object_get(c, "secure")) ? "TRUE" : "FALSE", exp, n, v);
		cookie_add_line(jar, line, len, now);   /* a bad one is counted there */
		free(line);
	}
}

int
cookies_save(void)
{
	if (!jar)
		return 0;
	int rc = cookiefile_save(jar, path, "render", tm_wall());
	cookie_jar_free(jar);
	jar = NULL;
	return rc;
}
