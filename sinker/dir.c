#include "dir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>

#include "cols.h"
#include "db.h"
#include "htab.h"
#include "rec.h"
#include "sql.h"
#include "utf8.h"
#include "xalloc.h"

/* The index of the pages written: what cols_dups reads, and the file
 * each url went to. */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS pages (\n"
	"  url TEXT PRIMARY KEY, file TEXT NOT NULL, status INTEGER, error TEXT,\n"
	"  accepted INTEGER, stored_at REAL NOT NULL, content_hash TEXT, simhash TEXT,\n"
	"  dup_of TEXT, sim0 INTEGER, sim1 INTEGER, sim2 INTEGER, sim3 INTEGER\n"
	");\n"
	"CREATE INDEX IF NOT EXISTS pages_sim0 ON pages(sim0);\n"
	"CREATE INDEX IF NOT EXISTS pages_sim1 ON pages(sim1);\n"
	"CREATE INDEX IF NOT EXISTS pages_sim2 ON pages(sim2);\n"
	"CREATE INDEX IF NOT EXISTS pages_sim3 ON pages(sim3);\n";

static const char upsert[] =
	"INSERT INTO pages (url, file, status, stored_at, content_hash, simhash, dup_of,"
	" sim0, sim1, sim2, sim3) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
	" ON CONFLICT(url) DO UPDATE SET file = excluded.file, status = excluded.status,"
	" stored_at = excluded.stored_at, content_hash = excluded.content_hash,"
	" simhash = excluded.simhash, dup_of = excluded.dup_of, sim0 = excluded.sim0,"
	" sim1 = excluded.sim1, sim2 = excluded.sim2, sim3 = excluded.sim3";

/* Longest name sdir_name makes, NUL included. */
#define NAME_MAX_LEN 1100

struct sdir {
	int fd;                  /* DIR */
	sqlite3 *h;
	sqlite3_stmt *begin, *commit, *upsert, *dups;
	int in_txn;
	msgpack_sbuffer file;    /* scratch: the Markdown file */
	char err[512];
};

static void
put(msgpack_sbuffer *b, const char *s, size_t n)
{
	msgpack_sbuffer_write(b, s, n);
}

static void
puts_(msgpack_sbuffer *b, const char *s)
{
	put(b, s, strlen(s));
}

/* ---- names */

static int
safe_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("._~%+=,@-", c) != NULL;
}

static void
hex16(uint64_t h, char out[17])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 15; i >= 0; i--, h >>= 4)
		out[i] = digits[h & 15];
	out[16] = '\0';
}

/* Appends part s[0..n) made safe to out (at *len, room for 120 more
 * bytes), a directory's when dir.  A part that had to change gets its
 * hash, so two parts never meet in one name; but a host's port colon
 * (host) becomes '_' as a matter of course. */
static void
add_part(char *out, size_t *len, const char *s, size_t n, int dir, int host)
{
	char *p = out + *len;
	size_t k = 0;
	int changed = 0;
	if (n == 0) {
		p[k++] = '_';
	} else if (s[0] == '.') {
		p[k++] = '_';   /* no hidden files, no "." or ".." */
	}
	for (size_t i = 0; i < n && k < 100; i++) {
		unsigned char c = (unsigned char)s[i];
		if (host && c == ':') {
			c = '_';
		} else if (!safe_byte(c)) {
			c = '_';
			changed = 1;
		} else if (host && c >= 'A' && c <= 'Z') {
			c = (unsigned char)(c + 32);
		}
		p[k++] = (char)c;
	}
	if (n > 100) {
		k = 80;
		changed = 1;
	}
	if (changed) {
		char h[17];
		hex16(htab_hash(s, n), h);
		p[k++] = '~';
		memcpy(p + k, h, 16);
		k += 16;
	}
	if (dir && ((k >= 3 && memcmp(p + k - 3, ".md", 3) == 0) ||
		    (k >= 4 && (memcmp(p + k - 4, ".png", 4) == 0 || memcmp(p + k - 4, ".pdf", 4) == 0))))
		p[k++] = '_';
	*len += k;
}

void
sdir_name(const char *u, size_t n, char *out, size_t outlen)
{
	char buf[NAME_MAX_LEN + 200];
	size_t len = 0;
	const char *end = u + n, *s = u, *host = NULL, *hend = NULL;
	for (const char *q = u; q + 2 < end; q++) {
		if (*q == ':' && q[1] == '/' && q[2] == '/') {
			host = q + 3;
			break;
		}
		if (*q == '/' || *q == '?' || *q == '#')
			break;
	}
	if (host) {
		hend = host;
		while (hend < end && *hend != '/' && *hend != '?' && *hend != '#')
			hend++;
		s = hend;
		/* A user and password never go into a file name. */
		for (const char *q = hend; q > host; q--)
			if (q[-1] == '@') {
				host = q;
				break;
			}
		add_part(buf, &len, host, (size_t)(hend - host), 1, 1);
	} else {
		/* Not a URL with a host (a path, a mailto:): no name to take
		 * from it, only its hash. */
		char h[17];
		hex16(htab_hash(u, n), h);
		snprintf(out, outlen, "_other/%s", h);
		return;
	}
	const char *pend = s;
	while (pend < end && *pend != '?' && *pend != '#')
		pend++;
	const char *qs = pend < end && *pend == '?' ? pend + 1 : NULL, *qend = qs;
	while (qend && qend < end && *qend != '#')
		qend++;
	if (s < pend && *s == '/')
		s++;
	int parts = 1;
	while (len < NAME_MAX_LEN && parts <= 32) {
		const char *e = memchr(s, '/', (size_t)(pend - s));
		buf[len++] = '/';
		parts++;
		if (!e) {
			if (s == pend)
				memcpy(buf + len, "index", 5), len += 5;
			else
				add_part(buf, &len, s, (size_t)(pend - s), 0, 0);
			break;
		}
		add_part(buf, &len, s, (size_t)(e - s), 1, 0);
		s = e + 1;
	}
	if (qs && len < NAME_MAX_LEN) {
		char h[17];
		hex16(htab_hash(qs, (size_t)(qend - qs)), h);
		buf[len++] = '@';
		memcpy(buf + len, h, 16);
		len += 16;
	}
	if (len >= NAME_MAX_LEN - 24 || parts > 32) {
		/* Too long or too deep for a file system: the host and a hash. */
		size_t hl = (size_t)((char *)memchr(buf, '/', len) - buf);
		char h[17];
		hex16(htab_hash(u, n), h);
		len = hl;
		memcpy(buf + len, "/_long/", 7);
		memcpy(buf + len + 7, h, 16);
		len += 23;
	}
	snprintf(out, outlen, "%.*s", (int)len, buf);
}

/* ---- files */

/* Opens directory name (one part) under fd, making it if missing, never
 * through a symlink.  The fd, or -1 with errno. */
static int
subdir(int fd, const char *name)
{
	int d = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d < 0 && errno == ENOENT) {
		if (mkdirat(fd, name, 0777) != 0 && errno != EEXIST)
			return -1;
		d = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return d;
}

/* Writes data[0..n) as file base in directory fd: a temporary file,
 * synced with --sync full, renamed over base.  0, or -1 with errno. */
static int
write_atomic(int fd, const char *base, const char *data, size_t n)
{
	char tmp[64];
	snprintf(tmp, sizeof tmp, ".sluice-tmp.%ld", (long)getpid());
	int f = openat(fd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (f < 0)
		return -1;
	size_t off = 0;
	while (off < n) {
		ssize_t w = write(f, data + off, n - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			goto fail;
		off += (size_t)w;
	}
	if (sql_sync() == SQL_SYNC_FULL && fsync(f) != 0)
		goto fail;
	if (close(f) != 0) {
		f = -1;
		goto fail;
	}
	if (renameat(fd, tmp, fd, base) != 0) {
		f = -1;
		goto fail;
	}
	return sql_sync() == SQL_SYNC_FULL ? fsync(fd) : 0;
fail:;
	int e = errno;
	if (f >= 0)
		close(f);
	unlinkat(fd, tmp, 0);
	errno = e;
	return -1;
}

/* Appends s[0..n) as a YAML double-quoted scalar: backslash and quote
 * escaped, control characters, YAML's other line breaks (U+0085, U+2028,
 * U+2029) and DEL as escapes, invalid UTF-8 as U+FFFD. */
static void
yaml_str(msgpack_sbuffer *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
	put(b, "\"", 1);
	while (p < e) {
		size_t ok = utf8_valid(p, (size_t)(e - p));
		for (size_t i = 0; i < ok; i++) {
			unsigned char c = p[i];
			char esc[12];
			if (c == '"' || c == '\\') {
				esc[0] = '\\', esc[1] = (char)c;
				put(b, esc, 2);
			} else if (c < 0x20 || c == 0x7f) {
				snprintf(esc, sizeof esc, "\\x%02x", c);
				put(b, esc, 4);
			} else if (c == 0xc2 && i + 1 < ok && p[i + 1] == 0x85) {
				put(b, "\\N", 2);
				i++;
			} else if (c == 0xe2 && i + 2 < ok && p[i + 1] == 0x80 &&
				   (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
				put(b, p[i + 2] == 0xa8 ? "\\L" : "\\P", 2);
				i += 2;
			} else {
				put(b, (const char *)p + i, 1);
			}
		}
		p += ok;
		if (p < e) {
			put(b, "\xef\xbf\xbd", 3);
			p += utf8_bad_len(p, (size_t)(e - p));
		}
	}
	put(b, "\"", 1);
}

/* A front matter line "key: "value"" for a string (or bin) key of rec. */
static void
yaml_key(msgpack_sbuffer *b, const char *key, const char *s, size_t n)
{
	puts_(b, key);
	puts_(b, ": ");
	yaml_str(b, s, n);
	puts_(b, "\n");
}

/* A front matter line for key of rec when it is a string, or an array
 * (keywords) as a flow sequence of its strings. */
static void
yaml_rec_key(msgpack_sbuffer *b, const msgpack_object *rec, const char *key)
{
	const msgpack_object *v = rec_get(rec, key);
	if (v && v->type == MSGPACK_OBJECT_STR) {
		yaml_key(b, key, v->via.str.ptr, v->via.str.size);
	} else if (v && v->type == MSGPACK_OBJECT_ARRAY) {
		puts_(b, key);
		puts_(b, ": [");
		const char *sep = "";
		for (uint32_t i = 0; i < v->via.array.size; i++) {
			const msgpack_object *e = &v->via.array.ptr[i];
			if (e->type != MSGPACK_OBJECT_STR)
				continue;
			puts_(b, sep);
			yaml_str(b, e->via.str.ptr, e->via.str.size);
			sep = ", ";
		}
		puts_(b, "]\n");
	}
}

/* The Markdown file of rec into d->file. */
static void
markdown_file(sdir *d, const msgpack_object *rec, const msgpack_object *url, const char *dup)
{
	msgpack_sbuffer *b = &d->file;
	const char *s;
	size_t n;
	double t;
	b->size = 0;
	puts_(b, "---\n");
	yaml_key(b, "url", url->via.str.ptr, url->via.str.size);
	if (rec_str(rec, "title", &s, &n))
		yaml_key(b, "title", s, n);
	for (size_t i = COLS_META; i < COLS_N; i++)
		yaml_rec_key(b, rec, cols_names[i]);
	if (rec_double(rec, "fetched_at", &t) && t >= 0 && t < 253402300800.0) {
		time_t sec = (time_t)t;
		struct tm tm;
		char iso[40], ms[8];
		gmtime_r(&sec, &tm);
		strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(ms, sizeof ms, ".%03dZ", (int)((t - (double)sec) * 1000) % 1000);
		strcat(iso, ms);
		yaml_key(b, "fetched_at", iso, strlen(iso));
	}
	if (rec_str(rec, "content_hash", &s, &n))
		yaml_key(b, "content_hash", s, n);
	if (dup)
		yaml_key(b, "dup_of", dup, strlen(dup));
	puts_(b, "---\n\n");
	if (rec_str(rec, "markdown", &s, &n) || rec_str(rec, "main_text", &s, &n) ||
	    rec_str(rec, "text", &s, &n)) {
		put(b, s, n);
		if (n && s[n - 1] != '\n')
			puts_(b, "\n");
	}
}

/* Writes (or, when rec has no such key, removes) the .png or .pdf
 * beside the page.  0, or -1 with errno. */
static int
side_file(int fd, const char *base, const char *ext, const msgpack_object *rec, const char *key)
{
	char name[NAME_MAX_LEN + 8];
	snprintf(name, sizeof name, "%s%s", base, ext);
	const char *s;
	size_t n;
	if (rec_str(rec, key, &s, &n))
		return write_atomic(fd, name, s, n);
	return unlinkat(fd, name, 0) == 0 || errno == ENOENT ? 0 : -1;
}

/* Writes the page's files under name (sdir_name's).  0, or -1 with the
 * reason in d->err. */
static int
write_page(sdir *d, const char *name, const msgpack_object *rec)
{
	char path[NAME_MAX_LEN];
	snprintf(path, sizeof path, "%s", name);
	int fd = dup(d->fd);
	char *part = path, *slash;
	while (fd >= 0 && (slash = strchr(part, '/'))) {
		*slash = '\0';
		int sub = subdir(fd, part);
		if (sub < 0)
			snprintf(d->err, sizeof d->err, "%.200s: %s", part, strerror(errno));
		close(fd);
		fd = sub;
		part = slash + 1;
	}
	if (fd < 0)
		return -1;
	char md[NAME_MAX_LEN + 8];
	snprintf(md, sizeof md, "%s.md", part);
	int rc = 0;
	if (write_atomic(fd, md, d->file.data, d->file.size) != 0 ||
	    side_file(fd, part, ".png", rec, "screenshot") != 0 ||
	    side_file(fd, part, ".pdf", rec, "pdf") != 0) {
		snprintf(d->err, sizeof d->err, "%.200s: %s", name, strerror(errno));
		rc = -1;
	}
	close(fd);
	return rc;
}

/* ---- the index */

static int
step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

sdir *
sdir_open(const char *path, char *err, size_t errlen)
{
	sdir *d = xcalloc(1, sizeof *d);
	msgpack_sbuffer_init(&d->file);
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		snprintf(err, errlen, "%s", strerror(errno));
		free(d);
		return NULL;
	}
	if ((d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		free(d);
		return NULL;
	}
	char idx[4096];
	snprintf(idx, sizeof idx, "%s.sluice.db", path);
	d->h = sql_open(idx, schema, err, errlen);
	if (!d->h ||
	    sqlite3_prepare_v2(d->h, "BEGIN IMMEDIATE", -1, &d->begin, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->h, "COMMIT", -1, &d->commit, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->h, upsert, -1, &d->upsert, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(d->h, cols_dups, -1, &d->dups, NULL) != SQLITE_OK) {
		if (d->h)
			snprintf(err, errlen, "%s: %s", idx, sqlite3_errmsg(d->h));
		sdir_close(d);
		return NULL;
	}
	return d;
}

int
sdir_put(sdir *d, const msgpack_object *rec, double stored_at)
{
	const msgpack_object *url = rec_get(rec, "url");
	if (!url || url->type != MSGPACK_OBJECT_STR || url->via.str.size == 0)
		return SDB_SKIPPED;
	char why[80];
	enum cols_kind kind = cols_kind(rec, why, sizeof why);
	if (kind == COLS_UNCHANGED)
		return SDB_UNCHANGED;
	if (kind == COLS_FAILED || kind == COLS_REJECTED)
		return SDB_KEPT;
	/* robots.txt and sitemaps are read for their links (sink --follow),
	 * not kept: no page to write. */
	if (rec_sitemap(rec))
		return SDB_STORED;
	if (!d->in_txn) {
		if (step(d->begin) < 0)
			goto db_error;
		d->in_txn = 1;
	}
	char name[NAME_MAX_LEN];
	sdir_name(url->via.str.ptr, url->via.str.size, name, sizeof name);
	int rc = 0;
	uint64_t h;
	int has_sim = cols_simhash(rec, &h);
	char *dup = has_sim ? sdb_dup_lookup(d->dups, rec, url, h, &rc) : NULL;
	if (rc < 0)
		goto db_error;
	markdown_file(d, rec, url, dup);
	if (write_page(d, name, rec) < 0) {
		free(dup);
		return -1;
	}
	sqlite3_stmt *st = d->upsert;
	const char *s;
	size_t n;
	int64_t status;
	sqlite3_bind_text(st, 1, url->via.str.ptr, (int)url->via.str.size, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (rec_int(rec, "status", &status))
		sqlite3_bind_int64(st, 3, status);
	sqlite3_bind_double(st, 4, stored_at);
	if (rec_str(rec, "content_hash", &s, &n))
		sqlite3_bind_text(st, 5, s, (int)n, SQLITE_STATIC);
	if (has_sim) {
		rec_str(rec, "simhash", &s, &n);
		sqlite3_bind_text(st, 6, s, (int)n, SQLITE_STATIC);
		for (int i = 0; i < 4; i++)
			sqlite3_bind_int(st, 8 + i, cols_band(h, i));
	}
	if (dup)
		sqlite3_bind_text(st, 7, dup, -1, SQLITE_STATIC);
	rc = step(st);
	sqlite3_clear_bindings(st);
	free(dup);
	if (rc < 0)
		goto db_error;
	return SDB_STORED;
db_error:
	snprintf(d->err, sizeof d->err, ".sluice.db: %s", sqlite3_errmsg(d->h));
	return -1;
}

int
sdir_commit(sdir *d)
{
	if (!d->in_txn)
		return 0;
	if (step(d->commit) < 0) {
		snprintf(d->err, sizeof d->err, ".sluice.db: %s", sqlite3_errmsg(d->h));
		return -1;
	}
	d->in_txn = 0;
	return 0;
}

const char *
sdir_errmsg(sdir *d)
{
	return d->err;
}

void
sdir_close(sdir *d)
{
	if (!d)
		return;
	sqlite3_finalize(d->begin);
	sqlite3_finalize(d->commit);
	sqlite3_finalize(d->upsert);
	sqlite3_finalize(d->dups);
	sqlite3_close(d->h);
	if (d->fd >= 0)
		close(d->fd);
	msgpack_sbuffer_destroy(&d->file);
	free(d);
}
