#include "src.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "stop.h"
#include "wurl.h"

int
src_init_stream(src *s, int fd, size_t max_record)
{
	memset(s, 0, sizeof *s);
	s->fd = fd;
	return rec_in_init(&s->in, fd, max_record);
}

int
src_init_files(src *s, char *const *files, int n, const char *base,
	       size_t max_record)
{
	memset(s, 0, sizeof *s);
	s->fd = -1;
	s->files = files;
	s->nfiles = n;
	s->base = base;
	s->max_record = max_record ? max_record : REC_MAX_RECORD_DEFAULT;
	msgpack_sbuffer_init(&s->rec);
	if (!msgpack_zone_init(&s->zone, 4096))
		return -1;
	/* in is unused but freed by src_free: give it a valid state. */
	return rec_in_init(&s->in, -1, 0);
}

void
src_free(src *s)
{
	rec_in_free(&s->in);
	if (s->files) {
		msgpack_sbuffer_destroy(&s->rec);
		msgpack_zone_destroy(&s->zone);
	}
}

/* Packs NUL-terminated s as a msgpack str. */
static void
src_pack_str(msgpack_packer *pk, const char *s)
{
	size_t n = strlen(s);
	msgpack_pack_str(pk, n);
	msgpack_pack_str_body(pk, s, n);
}

/* Reads all of path into a malloc'd buffer; NULL with errno set. */
static char *
src_slurp(const char *path, size_t max, size_t *n)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	struct stat st;
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			errno = EISDIR;
		close(fd);
		return NULL;
	}
	size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 65536, len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			close(fd);
			errno = ENOMEM;
			return NULL;
		}
		if (len == cap) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb)
				free(buf);
			buf = nb;
			continue;
		}
		ssize_t r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > max) {
			free(buf);
			close(fd);
			errno = EFBIG;
			return NULL;
		}
	}
	close(fd);
	*n = len;
	return buf;
}

/* Packs the record for one HTML file into s->rec. */
static void
src_file_record(src *s, const char *url, const char *body, size_t n)
{
	msgpack_packer pk;
	s->rec.size = 0;
	msgpack_packer_init(&pk, &s->rec, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 4);
	src_pack_str(&pk, "url");
	src_pack_str(&pk, url);
	src_pack_str(&pk, "final_url");
	src_pack_str(&pk, url);
	/* Stored files have no headers: say HTML so nothing is sniffed;
	 * the charset still comes from a BOM or <meta>. */
	src_pack_str(&pk, "ctype");
	src_pack_str(&pk, "text/html");
	src_pack_str(&pk, "body");
	msgpack_pack_bin(&pk, n);
	msgpack_pack_bin_body(&pk, body, n);
}

/* The url of --html file path under --base (an http(s) URL: parse's
 * main checks it): the base itself for a lone file; with several, the
 * file's name resolved against it (--base https://example.com/docs/
 * a.html b.html: .../docs/a.html, .../docs/b.html), so that each keeps
 * a name, and a row in sink, of its own.  malloc'd, or NULL. */
static char *
src_file_url(const src *s, const char *path)
{
	if (s->nfiles == 1)
		return strdup(s->base);
	const char *name = strrchr(path, '/');
	name = name ? name + 1 : path;
	/* The name is one path segment: '?', '#', '%', ':' or '/' in it
	 * are its own bytes, not a URL's syntax. */
	char *seg = malloc(strlen(name) * 3 + 1), *o = seg;
	if (!seg)
		return NULL;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (isalnum(*c) || strchr("-._~!$&'()*+,;=@", *c))
			*o++ = (char)*c;
		else
			o += sprintf(o, "%%%02X", *c);
	}
	*o = '\0';
	wurl b, u;
	const char *why;
	char *url = NULL;
	if (wurl_parse(s->base, strlen(s->base), NULL, &b, &why) == WURL_OK) {
		if (wurl_parse(seg, strlen(seg), &b, &u, &why) == WURL_OK)
			url = u.href;
		wurl_free(&b);
	}
	free(seg);
	return url;
}

/* The record for the next readable --html file, or REC_EOF; unreadable
 * files are reported and counted, not fatal. */
static int
src_next_file(src *s, const char **raw, size_t *rawn, msgpack_object *o)
{
	while (s->next < s->nfiles) {
		const char *path = s->files[s->next++];
		size_t n;
		char *body = src_slurp(path, s->max_record, &n);
		if (!body) {
			msg_warn("cannot read %s: %s", path,
				 errno == EFBIG ? "larger than --max-record" : strerror(errno));
			s->file_errors++;
			continue;
		}
		char abs[PATH_MAX], *url = NULL;
		if (s->base) {
			url = src_file_url(s, path);
		} else if (realpath(path, abs)) {
			url = malloc(strlen(abs) + 8);
			if (url)
				strcpy(url, "file://"), strcat(url, abs);
		}
		if (!url) {
			free(body);
			msg_warn("cannot resolve %s: %s", path, strerror(errno));
			s->file_errors++;
			continue;
		}
		src_file_record(s, url, body, n);
		free(body);
		free(url);
		msgpack_zone_clear(&s->zone);
		size_t off = 0;
		if (msgpack_unpack(s->rec.data, s->rec.size, &off, &s->zone, o) !=
		    MSGPACK_UNPACK_SUCCESS)
			abort();   /* we packed it ourselves a moment ago */
		*raw = s->rec.data;
		*rawn = s->rec.size;
		return REC_OK;
	}
	return REC_EOF;
}

int
src_next(src *s, const char **raw, size_t *rawn, msgpack_object *o)
{
	if (s->files)
		return src_next_file(s, raw, rawn, o);
	int rc = rec_in_parse(&s->in, o);
	if (rc == REC_OK)
		rec_in_raw(&s->in, raw, rawn);
	else if (rc == REC_ERR)
		snprintf(s->err, sizeof s->err, "%s", s->in.err);
	return rc;
}

int
src_fill(src *s)
{
	if (rec_in_fill(&s->in) >= 0)
		return 0;
	snprintf(s->err, sizeof s->err, "read error at byte %llu: %s",
		 (unsigned long long)s->in.offset, strerror(errno));
	return -1;
}

int
src_wait(src *s)
{
	switch (stop_fill(&s->in, -1)) {
	case STOP_SIGNAL:
		return 1;
	case STOP_ERROR:
		snprintf(s->err, sizeof s->err, "read error at byte %llu: %s",
			 (unsigned long long)s->in.offset, strerror(errno));
		return -1;
	default:
		return 0;
	}
}
