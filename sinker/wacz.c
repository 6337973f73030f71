#include "wacz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zip.h>

#include "db.h"
#include "digest.h"
#include "jstr.h"
#include "rec.h"
#include "sql.h"
#include "xalloc.h"

struct swacz {
	char *target, *stage;    /* FILE.wacz, FILE.wacz.staging */
	swarc_conf c;
	char *series;            /* the WARC series' first file */
	swarc *w;
	char *pages;             /* stage/pages.jsonl: this run's and a killed run's pages */
	msgpack_sbuffer pending; /* pages put since the last commit */
	char err[600];
};

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

swacz *
swacz_open(const char *target, const swarc_conf *c, char *err, size_t errlen)
{
	swacz *z = xcalloc(1, sizeof *z);
	z->target = xstrdup(target);
	size_t n = strlen(target) + 16;
	z->stage = xmalloc(n);
	snprintf(z->stage, n, "%s.staging", target);
	char *archive = xjoin(z->stage, "/", "archive");
	if ((mkdir(z->stage, 0777) != 0 && errno != EEXIST) ||
	    (mkdir(archive, 0777) != 0 && errno != EEXIST)) {
		snprintf(err, errlen, "%s: %s", z->stage, strerror(errno));
		goto fail;
	}
	/* A killed sink left its indexes in input order: the merge at the
	 * end reads them sorted. */
	DIR *d = opendir(archive);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (!ends_with(e->d_name, ".cdxj"))
			continue;
		char *p = xjoin(archive, "/", e->d_name);
		int rc = swarc_sort_index(p);
		free(p);
		if (rc < 0) {
			snprintf(err, errlen, "%s/%s: %s", archive, e->d_name, strerror(errno));
			closedir(d);
			goto fail;
		}
	}
	if (d)
		closedir(d);
	/* A run's own name, so it never meets a WARC of the WACZ's earlier
	 * runs or of a killed one. */
	char stem[64];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(stem, sizeof stem, "data-%Y%m%d%H%M%S", &tm);
	snprintf(stem + strlen(stem), sizeof stem - strlen(stem), "-%ld.warc.gz", (long)getpid());
	z->series = xjoin(archive, "/", stem);
	z->pages = xjoin(z->stage, "/", "pages.jsonl");
	z->c = *c;
	z->c.path = z->series;
	msgpack_sbuffer_init(&z->pending);
	free(archive);
	archive = NULL;
	if (!(z->w = swarc_open(&z->c, err, errlen)))
		goto fail;
	return z;
fail:
	free(archive);
	free(z->series);
	free(z->pages);
	free(z->stage);
	free(z->target);
	free(z);
	return NULL;
}

/* Whether rec is a page for pages.jsonl: the entries a visitor starts
 * from, so the answers that are not pages stay out. */
static int
is_page(const msgpack_object *rec)
{
	int64_t status;
	const char *ct;
	size_t n;
	const msgpack_object *acc = rec_get(rec, "accepted");
	if (rec_get(rec, "error") || rec_not_modified(rec) || rec_sitemap(rec) ||
	    (acc && acc->type == MSGPACK_OBJECT_BOOLEAN && !acc->via.boolean) ||
	    !rec_int(rec, "status", &status) || status < 200 || status > 299)
		return 0;
	if (rec_get(rec, "rendered"))
		return 1;
	return rec_str(rec, "ctype", &ct, &n) && memmem(ct, n, "html", 4) != NULL;
}

/* The time of rec's page: its last exchange's date, else fetched_at. */
static double
page_time(const msgpack_object *rec)
{
	double t = 0;
	const msgpack_object *xs = rec_get(rec, "exchanges");
	if (xs && xs->type == MSGPACK_OBJECT_ARRAY && xs->via.array.size &&
	    xs->via.array.ptr[xs->via.array.size - 1].type == MSGPACK_OBJECT_MAP &&
	    rec_double(&xs->via.array.ptr[xs->via.array.size - 1], "date", &t))
		return t;
	rec_double(rec, "fetched_at", &t);
	return t;
}

int
swacz_put(swacz *z, const msgpack_object *rec)
{
	int rc = swarc_put(z->w, rec);
	if (rc != SDB_STORED || !is_page(rec))
		return rc;
	char *url = rec_strdup(rec, "url"), *title = rec_strdup(rec, "title");
	double t = page_time(rec);
	if (!(t >= 0 && t < 253402300800.0)) /* as warc.c dates a record */
		t = 0;
	time_t sec = (time_t)t;
	struct tm tm;
	char ts[40];
	gmtime_r(&sec, &tm);
	size_t k = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(ts + k, sizeof ts - k, ".%03dZ", (int)((t - (double)sec) * 1000) % 1000);
	char *line = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&line, &size);
	if (!f)
		xalloc_die();
	fputs("{\"url\": ", f);
	jstr_put(f, url);
	fprintf(f, ", \"ts\": \"%s\"", ts);
	if (title) {
		fputs(", \"title\": ", f);
		jstr_put(f, title);
	}
	fputs("}\n", f);
	if (fclose(f) != 0)
		xalloc_die();
	msgpack_sbuffer_write(&z->pending, line, size);
	free(line);
	free(url);
	free(title);
	return rc;
}

int
swacz_commit(swacz *z)
{
	if (swarc_commit(z->w) < 0) {
		snprintf(z->err, sizeof z->err, "%s", swarc_errmsg(z->w));
		return -1;
	}
	if (!z->pending.size)
		return 0;
	FILE *f = fopen(z->pages, "ae");
	int rc = f && fwrite(z->pending.data, 1, z->pending.size, f) == z->pending.size &&
		fflush(f) == 0 && (sql_sync() != SQL_SYNC_FULL || fsync(fileno(f)) == 0) ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc < 0) {
		snprintf(z->err, sizeof z->err, "%s: %s", z->pages, strerror(errno));
		return -1;
	}
	z->pending.size = 0;
	return 0;
}

const char *
swacz_errmsg(const swacz *z)
{
	return z->err[0] ? z->err : swarc_errmsg(z->w);
}

swarc_counts
swacz_count(const swacz *z)
{
	return swarc_count(z->w);
}

/* ---- the package */

/* The entry name of zip za into path, a file of its own.  1 when
 * copied, 0 when za has no such entry, -1 on an error. */
static int
unzip_to(zip_t *za, const char *name, const char *path)
{
	if (!za || zip_name_locate(za, name, 0) < 0)
		return 0;
	zip_file_t *zf = zip_fopen(za, name, 0);
	FILE *out = fopen(path, "we");
	int rc = zf && out ? 1 : -1;
	char buf[65536];
	zip_int64_t n;
	while (rc > 0 && (n = zip_fread(zf, buf, sizeof buf)) > 0)
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			rc = -1;
	if (rc > 0 && n < 0)
		rc = -1;
	if (zf)
		zip_fclose(zf);
	if (out && fclose(out) != 0)
		rc = -1;
	return rc;
}

/* Merges the sorted line files in[0..n) into path, sorted (a file
 * whose last line lacks its newline gets one).  0, or -1 with errno. */
static int
merge(char **in, size_t n, const char *path)
{
	FILE *out = fopen(path, "we"), **f = xcalloc(n ? n : 1, sizeof *f);
	char **line = xcalloc(n ? n : 1, sizeof *line);
	size_t *cap = xcalloc(n ? n : 1, sizeof *cap);
	int rc = out ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!(f[i] = fopen(in[i], "re")))
			rc = -1;
		else if (getline(&line[i], &cap[i], f[i]) < 0)
			free(line[i]), line[i] = NULL;
	}
	while (rc == 0) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (line[i] && (best == n || strcmp(line[i], line[best]) < 0))
				best = i;
		if (best == n)
			break;
		/* An index line holds no NUL; one from a damaged package is
		 * written up to it, never read before its start. */
		size_t len = strlen(line[best]);
		if (fwrite(line[best], 1, len, out) != len ||
		    ((len == 0 || line[best][len - 1] != '\n') && fputc('\n', out) == EOF))
			rc = -1;
		if (getline(&line[best], &cap[best], f[best]) < 0)
			free(line[best]), line[best] = NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (f[i])
			fclose(f[i]);
		free(line[i]);
	}
	if (out && fclose(out) != 0)
		rc = -1;
	free(f);
	free(line);
	free(cap);
	return rc;
}

/* Copies the lines of file from to out, its first (the header of a
 * pages.jsonl) left out when skip_first.  0, or -1. */
static int
copy_lines(const char *from, FILE *out, int skip_first)
{
	FILE *f = fopen(from, "re");
	if (!f)
		return errno == ENOENT ? 0 : -1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0, first = 1;
	while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
		if (!(first && skip_first) && fwrite(line, 1, (size_t)len, out) != (size_t)len)
			rc = -1;
		first = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

/* The sha256 label and size of zip entry i, read through. */
static int
entry_hash(zip_t *za, zip_uint64_t i, char *label, unsigned long long *bytes)
{
	zip_file_t *zf = zip_fopen_index(za, i, 0);
	if (!zf)
		return -1;
	digest *d = digest_new(DIGEST_SHA256);
	char buf[65536];
	zip_int64_t n;
	*bytes = 0;
	while ((n = zip_fread(zf, buf, sizeof buf)) > 0) {
		digest_update(d, buf, (size_t)n);
		*bytes += (unsigned long long)n;
	}
	zip_fclose(zf);
	digest_final(d, label);
	digest_free(d);
	return n < 0 ? -1 : 0;
}

/* Adds file path as entry name, stored when store; the file is read at
 * zip_close.  0, or -1. */
static int
add_file(zip_t *za, const char *name, const char *path, int store)
{
	zip_source_t *src = zip_source_file(za, path, 0, -1);
	zip_int64_t i = src ? zip_file_add(za, name, src, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8) : -1;
	if (i < 0) {
		zip_source_free(src);
		return -1;
	}
	return store ? zip_set_file_compression(za, (zip_uint64_t)i, ZIP_CM_STORE, 0) : 0;
}

/* Adds s (malloc'd; the zip frees it) as entry name. */
static int
add_text(zip_t *za, const char *name, char *s, size_t n)
{
	zip_source_t *src = zip_source_buffer(za, s, n, 1);
	if (!src) {
		free(s);
		return -1;
	}
	if (zip_file_add(za, name, src, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8) < 0) {
		zip_source_free(src);
		return -1;
	}
	return 0;
}

/* The staged files under archive/ ending in suffix, malloc'd names,
 * *n of them. */
static char **
staged(const char *stage, const char *suffix, size_t *n)
{
	char *archive = xjoin(stage, "/", "archive");
	DIR *d = opendir(archive);
	char **names = NULL;
	struct dirent *e;
	*n = 0;
	while (d && (e = readdir(d))) {
		if (!ends_with(e->d_name, suffix) || e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (*n + 1) * sizeof *names);
		names[(*n)++] = xjoin(archive, "/", e->d_name);
	}
	if (d)
		closedir(d);
	free(archive);
	return names;
}

static void
free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Removes the staging directory: its archive's files, then the rest. */
static void
unstage(const char *stage)
{
	size_t n;
	char **all = staged(stage, "", &n);
	for (size_t i = 0; i < n; i++)
		unlink(all[i]);
	free_names(all, n);
	static const char *const files[] = { "archive", "pages.jsonl", "pages-all.jsonl",
		"index.cdxj", "old.cdxj", NULL };
	for (int i = 0; files[i]; i++) {
		char *p = xjoin(stage, "/", files[i]);
		if (unlink(p) != 0 && errno == EISDIR)
			rmdir(p);
		free(p);
	}
	rmdir(stage);
}

/* Builds the package: see wacz.h.  0, or -1 with the reason in err. */
static int
build(swacz *z, char *err, size_t errlen)
{
	int zerr = 0, rc = -1;
	zip_t *za = zip_open(z->target, ZIP_CREATE, &zerr);
	char *old_index = xjoin(z->stage, "/", "old.cdxj"), *index = xjoin(z->stage, "/", "index.cdxj");
	char *all_pages = xjoin(z->stage, "/", "pages-all.jsonl");
	size_t nw = 0, ni = 0;
	char **warcs = staged(z->stage, ".warc.gz", &nw), **idx = staged(z->stage, ".cdxj", &ni);
	FILE *pages = NULL;
	char *dp = NULL;
	size_t dp_n = 0;
	FILE *f = NULL;
	if (!za) {
		zip_error_t ze;
		zip_error_init_with_code(&ze, zerr);
		snprintf(err, errlen, "%s: %s", z->target, zip_error_strerror(&ze));
		zip_error_fini(&ze);
		goto out;
	}
	/* The earlier runs' index and pages, with this run's. */
	int had = unzip_to(za, "indexes/index.cdxj", old_index);
	if (had < 0)
		goto zip_fail;
	if (had) {
		idx = xrealloc(idx, (ni + 1) * sizeof *idx);
		idx[ni++] = xstrdup(old_index);
	}
	if (merge(idx, ni, index) < 0)
		goto sys_fail;
	had = unzip_to(za, "pages/pages.jsonl", all_pages);
	if (had < 0)
		goto zip_fail;
	char *prev = NULL;
	if (had) {
		prev = xjoin(z->stage, "/", "pages-prev.jsonl");
		if (rename(all_pages, prev) < 0) {
			free(prev);
			goto sys_fail;
		}
	}
	int ok = (pages = fopen(all_pages, "we")) &&
		 fputs("{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}\n", pages) != EOF &&
		 !(prev && copy_lines(prev, pages, 1) < 0) && copy_lines(z->pages, pages, 0) >= 0;
	if (pages && fclose(pages) != 0)
		ok = 0;
	pages = NULL;
	if (!ok) {
		if (prev)
			unlink(prev), free(prev);
		goto sys_fail;
	}
	if (prev)
		unlink(prev), free(prev);

	for (size_t i = 0; i < nw; i++) {
		char name[600];
		snprintf(name, sizeof name, "archive/%s", strrchr(warcs[i], '/') + 1);
		if (add_file(za, name, warcs[i], 1) < 0)
			goto zip_fail;
	}
	if (add_file(za, "indexes/index.cdxj", index, 0) < 0 ||
	    add_file(za, "pages/pages.jsonl", all_pages, 0) < 0)
		goto zip_fail;

	/* datapackage.json: every file of the package, hashed as it will
	 * be stored (a new file from the staging directory, an earlier
	 * run's read back from the WACZ). */
	if (!(f = open_memstream(&dp, &dp_n)))
		xalloc_die();
	char created[40];
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
	const char *base = strrchr(z->target, '/') ? strrchr(z->target, '/') + 1 : z->target;
	fputs("{\n  \"profile\": \"data-package\",\n  \"wacz_version\": \"1.1.1\",\n  \"title\": ", f);
	jstr_put(f, base);
	fprintf(f, ",\n  \"created\": \"%s\",\n  \"modified\": \"%s\",\n"
		"  \"software\": \"sluice sink/" SLUICE_VERSION "\",\n  \"resources\": [", created, created);
	zip_int64_t entries = zip_get_num_entries(za, 0);
	int first = 1;
	for (zip_int64_t i = 0; i < entries; i++) {
		const char *name = zip_get_name(za, (zip_uint64_t)i, 0);
		if (!name || strcmp(name, "datapackage.json") == 0 ||
		    strcmp(name, "datapackage-digest.json") == 0)
			continue;
		char label[DIGEST_LABEL_SIZE];
		unsigned long long bytes = 0;
		const char *path = NULL;
		if (strcmp(name, "indexes/index.cdxj") == 0)
			path = index;
		else if (strcmp(name, "pages/pages.jsonl") == 0)
			path = all_pages;
		for (size_t w = 0; !path && w < nw; w++)
			if (strncmp(name, "archive/", 8) == 0 && strcmp(name + 8, strrchr(warcs[w], '/') + 1) == 0)
				path = warcs[w];
		if (path) {
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				goto sys_fail;
			digest *d = digest_new(DIGEST_SHA256);
			char buf[65536];
			ssize_t n;
			while ((n = read(fd, buf, sizeof buf)) > 0) {
				digest_update(d, buf, (size_t)n);
				bytes += (unsigned long long)n;
			}
			close(fd);
			digest_final(d, label);
			digest_free(d);
			if (n < 0)
				goto sys_fail;
		} else if (entry_hash(za, (zip_uint64_t)i, label, &bytes) < 0) {
			goto zip_fail;
		}
		const char *slash = strrchr(name, '/');
		fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", f);
		jstr_put(f, slash ? slash + 1 : name);
		fputs(", \"path\": ", f);
		jstr_put(f, name);
		fprintf(f, ", \"hash\": \"%s\", \"bytes\": %llu}", label, bytes);
		first = 0;
	}
	fputs("\n  ]\n}\n", f);
	if (fclose(f) != 0)
		xalloc_die();
	f = NULL;
	char label[DIGEST_LABEL_SIZE];
	digest_of(DIGEST_SHA256, dp, dp_n, label);
	char *digest_json = xmalloc(200);
	int dn = snprintf(digest_json, 200, "{\"path\": \"datapackage.json\", \"hash\": \"%s\"}\n", label);
	if (add_text(za, "datapackage.json", dp, dp_n) < 0) {
		dp = NULL;
		free(digest_json);
		goto zip_fail;
	}
	dp = NULL;
	if (add_text(za, "datapackage-digest.json", digest_json, (size_t)dn) < 0)
		goto zip_fail;
	if (zip_close(za) < 0)
		goto zip_fail;
	za = NULL;
	if (sql_sync() == SQL_SYNC_FULL) {
		int fd = open(z->target, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fsync(fd) != 0) {
			snprintf(err, errlen, "%s: %s", z->target, strerror(errno));
			if (fd >= 0)
				close(fd);
			goto out;
		}
		close(fd);
	}
	rc = 0;
	goto out;
zip_fail:
	snprintf(err, errlen, "%s: %s", z->target, zip_strerror(za));
	goto out;
sys_fail:
	snprintf(err, errlen, "%s: %s", z->stage, strerror(errno));
out:
	if (f)
		fclose(f);
	free(dp);
	if (za)
		zip_discard(za);
	free_names(warcs, nw);
	free_names(idx, ni);
	free(old_index);
	free(index);
	free(all_pages);
	return rc;
}

int
swacz_close(swacz *z, char *err, size_t errlen)
{
	int rc = swacz_commit(z);
	if (rc < 0)
		snprintf(err, errlen, "%s", swacz_errmsg(z));
	if (swarc_close(z->w, rc < 0 ? NULL : err, errlen) < 0)
		rc = -1;
	if (rc == 0 && (rc = build(z, err, errlen)) == 0)
		unstage(z->stage);
	msgpack_sbuffer_destroy(&z->pending);
	free(z->series);
	free(z->pages);
	free(z->stage);
	free(z->target);
	free(z);
	return rc;
}
