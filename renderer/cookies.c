/* cookies — --cookies FILE: the jar, in the Netscape format libcurl (and
 * so fetch) reads and writes, carried from page to page.
 *
 * Each page's browser context is new, so the jar lives here: loaded once,
 * set into each context before its tab opens (Storage.setCookies), and
 * the context's cookies read back before it is disposed
 * (Storage.getCookies) and merged in, one cookie per name, domain and
 * path.  At exit the jar is written aside and renamed over the file,
 * 0600.  A cookie the server deleted stays in the jar until it expires:
 * a merge only adds and replaces.
 */
#include "render.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"

static const char *path;
static json_t *jar;     /* CDP Network.Cookie-like objects */

/* The jar's key of cookie c: name, domain, path. */
static int
same(json_t *a, json_t *b)
{
	const char *k[] = { "name", "domain", "path" };
	for (int i = 0; i < 3; i++) {
		const char *x = json_string_value(json_object_get(a, k[i]));
		const char *y = json_string_value(json_object_get(b, k[i]));
		if (!x || !y || strcmp(x, y) != 0)
			return 0;
	}
	return 1;
}

static void
put(json_t *c)
{
	size_t i;
	json_t *o;
	json_array_foreach(jar, i, o)
		if (same(o, c)) {
			json_array_set_new(jar, i, c);
			return;
		}
	json_array_append_new(jar, c);
}

int
cookies_load(const char *file, char *err, size_t errlen)
{
	path = file;
	jar = json_array();
	FILE *f = fopen(file, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;   /* a new jar, written at exit */
		snprintf(err, errlen, "cannot read cookie jar '%s': %s", file, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) >= 0) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		char *l = line;
		int http_only = 0;
		if (strncmp(l, "#HttpOnly_", 10) == 0)
			l += 10, http_only = 1;
		else if (l[0] == '#' || !l[0])
			continue;
		char *fld[7], *save = NULL;
		int n = 0;
		for (char *t = strtok_r(l, "\t", &save); t && n < 7; t = strtok_r(NULL, "\t", &save))
			fld[n++] = t;
		if (n == 6)
			fld[n++] = "";   /* an empty value */
		if (n != 7)
			continue;    /* not a cookie line: skipped, as libcurl does */
		const char *dom = fld[0];
		int sub = strcmp(fld[1], "TRUE") == 0;
		json_t *c = json_pack("{s:s, s:s, s:s, s:b, s:b}", "name", fld[5], "value", fld[6],
				      "path", fld[2], "secure", strcmp(fld[3], "TRUE") == 0,
				      "httpOnly", http_only);
		char d[512];
		snprintf(d, sizeof d, "%s%s", sub && dom[0] != '.' ? "." : "", dom);
		json_object_set_new(c, "domain", json_string(d));
		double exp = strtod(fld[4], NULL);
		if (exp > 0)
			json_object_set_new(c, "expires", json_real(exp));
		put(c);
	}
	free(line);
	fclose(f);
	return 0;
}

json_t *
cookies_params(void)
{
	if (!jar)
		return NULL;
	json_t *a = json_array();
	size_t i;
	json_t *c;
	json_array_foreach(jar, i, c) {
		json_t *p = json_deep_copy(c);
		const char *dom = json_string_value(json_object_get(c, "domain"));
		if (dom && dom[0] != '.') {
			/* Host-only: set by URL, so it does not reach subdomains. */
			char url[1024];
			snprintf(url, sizeof url, "%s://%s%s",
				 json_is_true(json_object_get(c, "secure")) ? "https" : "http", dom,
				 json_string_value(json_object_get(c, "path")));
			json_object_del(p, "domain");
			json_object_set_new(p, "url", json_string(url));
		}
		json_array_append_new(a, p);
	}
	return a;
}

void
cookies_merge(json_t *got)
{
	size_t i;
	json_t *c;
	if (!jar)
		return;
	json_array_foreach(got, i, c) {
		const char *n = json_string_value(json_object_get(c, "name"));
		const char *v = json_string_value(json_object_get(c, "value"));
		const char *d = json_string_value(json_object_get(c, "domain"));
		const char *p = json_string_value(json_object_get(c, "path"));
		if (!n || !v || !d || !p)
			continue;
		json_t *k = json_pack("{s:s, s:s, s:s, s:s, s:b, s:b}", "name", n, "value", v,
				      "domain", d, "path", p,
				      "secure", json_is_true(json_object_get(c, "secure")),
				      "httpOnly", json_is_true(json_object_get(c, "httpOnly")));
		double exp = json_number_value(json_object_get(c, "expires"));
		if (!json_is_true(json_object_get(c, "session")) && exp > 0)
			json_object_set_new(k, "expires", json_real(exp));
		put(k);
	}
}

int
cookies_save(void)
{
	if (!jar)
		return 0;
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	int rc = -1;
	FILE *f = NULL;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && (f = fdopen(fd, "w"))) {
		fputs("# Netscape HTTP Cookie File\n# written by sluice render\n\n", f);
		size_t i;
		json_t *c;
		json_array_foreach(jar, i, c) {
			const char *d = json_string_value(json_object_get(c, "domain"));
			fprintf(f, "%s%s\t%s\t%s\t%s\t%.0f\t%s\t%s\n",
				json_is_true(json_object_get(c, "httpOnly")) ? "#HttpOnly_" : "", d,
				d[0] == '.' ? "TRUE" : "FALSE",
				json_string_value(json_object_get(c, "path")),
				json_is_true(json_object_get(c, "secure")) ? "TRUE" : "FALSE",
				json_number_value(json_object_get(c, "expires")),
				json_string_value(json_object_get(c, "name")),
				json_string_value(json_object_get(c, "value")));
		}
		rc = fflush(f) == 0 && fsync(fd) == 0 ? 0 : -1;
		if (fclose(f) != 0)
			rc = -1;
	} else if (fd >= 0)
		close(fd);
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc != 0) {
		msg_warn("cannot write cookie jar '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
	json_decref(jar);
	jar = NULL;
	return rc;
}
