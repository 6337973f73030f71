#include "warc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <openssl/rand.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "db.h"
#include "digest.h"
#include "exchange.h"
#include "htab.h"
#include "jstr.h"
#include "rec.h"
#include "sql.h"
#include "xalloc.h"

#define PROFILE_IDENTICAL "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"
#define PROFILE_NOT_MODIFIED "http://netpreserve.org/warc/1.1/revisit/server-not-modified"

/* "<urn:uuid:" 36 ">" and the NUL. */
#define ID_SIZE 48
/* "2026-01-05T12:00:00.123456Z" and the NUL. */
#define DATE_SIZE 32

/* A payload written in this series, for identical-payload revisits. */
typedef struct seen {
	char *uri;
	char date[DATE_SIZE];
	char id[ID_SIZE];
} seen;

struct swarc {
	char *stem;              /* the path without its extension */
	const char *ext;         /* ".warc.gz" or ".warc" */
	int gz;
	int seq;                 /* the file's number in the series, 0 for the first */
	int fd;
	char *path, *name;       /* the current file; name its last part */
	char *index;             /* its index, stem[-NNNNN].cdxj */
	unsigned long long size; /* bytes in it */
	unsigned long long in_file;   /* records in it, warcinfo aside */
	char info_id[ID_SIZE];   /* its warcinfo's record id */
	const swarc_conf *c;
	char **lines;            /* the current file's index lines */
	size_t n_lines, cap_lines, committed;
	htab seen;               /* payload digest label -> seen */
	msgpack_sbuffer out;     /* the record being written, as it goes to the file */
	z_stream z;
	digest *block, *payload;
	swarc_counts n;
	char err[512];
};

/* One WARC record: its header fields, and a block of up to two parts
 * (an HTTP head and its payload). */
typedef struct wrec {
	const char *type;
	const char *uri;         /* WARC-Target-URI, or NULL */
	const char *date;
	const char *ip;          /* WARC-IP-Address, or NULL */
	const char *ctype;
	const char *concurrent;  /* WARC-Concurrent-To, or NULL */
	const char *more;        /* further fields, "name: value\r\n" each, or NULL */
	const char *head;
	size_t head_len;
	const char *payload;
	size_t payload_len;
	int payload_digest;      /* write WARC-Payload-Digest */
	const char *digest_given;    /* ... with this value instead (a revisit's) */
	/* The index line: when mime is set, with status and the key. */
	const char *mime;
	int status;
	char id[ID_SIZE];        /* out: its WARC-Record-ID */
	char payload_label[DIGEST_LABEL_SIZE];   /* out: its payload digest */
} wrec;

static void
puts_(msgpack_sbuffer *b, const char *s)
{
	msgpack_sbuffer_write(b, s, strlen(s));
}

static void
field(msgpack_sbuffer *b, const char *name, const char *value)
{
	puts_(b, name);
	puts_(b, ": ");
	puts_(b, value);
	puts_(b, "\r\n");
}

/* A random (version 4) UUID as a WARC-Record-ID, from OpenSSL's CSPRNG.
 * 0, or -1 when it has no entropy to give. */
static int
new_id(char out[ID_SIZE])
{
	unsigned char u[16];
	if (RAND_bytes(u, sizeof u) != 1)
		return -1;
	u[6] = (unsigned char)((u[6] & 0x0f) | 0x40);
	u[8] = (unsigned char)((u[8] & 0x3f) | 0x80);
	snprintf(out, ID_SIZE,
		 "<urn:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x>",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
	return 0;
}

/* Unix seconds t as WARC-Date (microseconds, UTC), and as the 14 digits
 * of a CDXJ timestamp when ts is not NULL. */
static void
warc_date(double t, char out[DATE_SIZE], char ts[15])
{
	if (!(t >= 0 && t < 253402300800.0))
		t = 0;
	time_t sec = (time_t)t;
	long us = lround((t - (double)sec) * 1e6);
	if (us >= 1000000)
		sec++, us -= 1000000;
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t k = strftime(out, DATE_SIZE, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + k, DATE_SIZE - k, ".%06dZ", (int)us);
	if (ts)
		strftime(ts, 15, "%Y%m%d%H%M%S", &tm);
}

/* ---- the index */

static int
by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
swarc_surt(const char *u, size_t n, char *out)
{
	size_t o = 0;
	const char *s = u, *end = u + n;
	if (!(n >= 7 && strncasecmp(u, "http://", 7) == 0) &&
	    !(n >= 8 && strncasecmp(u, "https://", 8) == 0)) {
		memcpy(out, u, n);
		out[n] = '\0';
		return;
	}
	int https = (u[4] | 0x20) == 's';
	s += https ? 8 : 7;
	const char *aend = s;
	while (aend < end && *aend != '/' && *aend != '?' && *aend != '#')
		aend++;
	for (const char *q = aend; q > s; q--)
		if (q[-1] == '@') {
			s = q;   /* no user or password in a key */
			break;
		}
	/* www., www2. ... are the same site to a replay tool. */
	if (aend - s > 4 && strncasecmp(s, "www", 3) == 0) {
		const char *d = s + 3;
		while (d < aend && *d >= '0' && *d <= '9')
			d++;
		if (d < aend && *d == '.')
			s = d + 1;
	}
	const char *hend = aend, *port = NULL;
	const char *bracket = memchr(s, ']', (size_t)(aend - s));
	const char *colon = memchr(bracket ? bracket : s, ':', (size_t)(aend - (bracket ? bracket : s)));
	if (colon) {
		hend = colon;
		port = colon + 1;
		if ((size_t)(aend - port) == (https ? 3u : 2u) &&
		    memcmp(port, https ? "443" : "80", https ? 3 : 2) == 0)
			port = NULL;
	}
	/* The host's labels, last first. */
	const char *l = hend;
	while (l > s) {
		const char *dot = l;
		while (dot > s && dot[-1] != '.')
			dot--;
		for (const char *c = dot; c < l; c++)
			out[o++] = (char)((*c >= 'A' && *c <= 'Z') ? *c + 32 : *c);
		if (dot > s)
			out[o++] = ',';
		l = dot > s ? dot - 1 : s;
	}
	if (port) {
		out[o++] = ':';
		memcpy(out + o, port, (size_t)(aend - port));
		o += (size_t)(aend - port);
	}
	out[o++] = ')';
	const char *p = aend, *pend = p;
	while (pend < end && *pend != '?' && *pend != '#')
		pend++;
	if (p == pend)
		out[o++] = '/';
	for (; p < pend; p++)
		out[o++] = (char)((*p >= 'A' && *p <= 'Z') ? *p + 32 : *p);
	if (pend < end && *pend == '?') {
		const char *q = pend + 1, *qend = q;
		while (qend < end && *qend != '#')
			qend++;
		if (qend > q) {
			/* The arguments sorted, as URLSearchParams would not
			 * re-encode them: byte order of the lowercased text. */
			size_t qn = (size_t)(qend - q), na = 1;
			char *lower = xmalloc(qn + 1);
			for (size_t i = 0; i < qn; i++) {
				lower[i] = (char)((q[i] >= 'A' && q[i] <= 'Z') ? q[i] + 32 : q[i]);
				na += q[i] == '&';
			}
			lower[qn] = '\0';
			char **args = xmalloc(na * sizeof *args);
			na = 0;
			for (char *a = lower; a;) {
				args[na++] = a;
				if ((a = strchr(a, '&')))
					*a++ = '\0';
			}
			qsort(args, na, sizeof *args, by_text);
			out[o++] = '?';
			for (size_t i = 0; i < na; i++) {
				if (i)
					out[o++] = '&';
				size_t al = strlen(args[i]);
				memcpy(out + o, args[i], al);
				o += al;
			}
			free(args);
			free(lower);
		}
	}
	out[o] = '\0';
}

/* Notes r's index line: the key, timestamp and JSON pywb's cdxj-indexer
 * writes (status, length and offset as strings, the digest without its
 * "sha1:"), for the record at offset of len bytes. */
static void
index_line(swarc *w, const wrec *r, double t, unsigned long long offset, unsigned long long len)
{
	size_t un = strlen(r->uri);
	char *key = xmalloc(un + 2), ts[15], date[DATE_SIZE];
	swarc_surt(r->uri, un, key);
	warc_date(t, date, ts);
	char *line = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&line, &size);
	if (!f)
		xalloc_die();
	fprintf(f, "%s %s {\"url\": ", key, ts);
	jstr_put(f, r->uri);
	fputs(", \"mime\": ", f);
	jstr_put(f, r->mime);
	if (r->status)
		fprintf(f, ", \"status\": \"%d\"", r->status);
	const char *d = r->digest_given ? r->digest_given : r->payload_label;
	if (strncmp(d, "sha1:", 5) == 0)
		fprintf(f, ", \"digest\": \"%s\"", d + 5);
	fprintf(f, ", \"length\": \"%llu\", \"offset\": \"%llu\", \"filename\": ", len, offset);
	jstr_put(f, w->name);
	fputs("}\n", f);
	if (fclose(f) != 0)
		xalloc_die();
	free(key);
	if (w->n_lines == w->cap_lines) {
		w->cap_lines = w->cap_lines ? 2 * w->cap_lines : 256;
		w->lines = xrealloc(w->lines, w->cap_lines * sizeof *w->lines);
	}
	w->lines[w->n_lines++] = line;
}

/* Writes s[0..n) whole to fd.  0, or -1 with errno. */
static int
write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t k = write(fd, s, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Writes lines[0..n) to path through path.tmp and a rename, synced
 * with --sync full.  0, or -1 with errno. */
static int
write_lines(const char *path, char **lines, size_t n)
{
	size_t pl = strlen(path);
	char *tmp = xmalloc(pl + 5);
	memcpy(tmp, path, pl);
	memcpy(tmp + pl, ".tmp", 5);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	int rc = fd < 0 ? -1 : 0;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = write_all(fd, lines[i], strlen(lines[i]));
	if (rc == 0 && sql_sync() == SQL_SYNC_FULL)
		rc = fsync(fd);
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	if (rc == 0)
		rc = rename(tmp, path);
	int e = errno;
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	errno = e;
	return rc;
}

int
swarc_sort_index(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char **lines = NULL, *line = NULL;
	size_t n = 0, cap = 0, size = 0;
	ssize_t len;
	while ((len = getline(&line, &size, f)) > 0) {
		if (n == cap)
			lines = xrealloc(lines, (cap = cap ? 2 * cap : 256) * sizeof *lines);
		/* A line cut by a crash gets its newline, so the next one
		 * stays a line of its own. */
		if (line[len - 1] != '\n') {
			lines[n] = xmalloc((size_t)len + 2);
			memcpy(lines[n], line, (size_t)len);
			memcpy(lines[n++] + len, "\n", 2);
		} else {
			lines[n++] = xstrdup(line);
		}
	}
	free(line);
	int rc = ferror(f) ? -1 : 0;
	fclose(f);
	if (rc == 0) {
		if (n)
			qsort(lines, n, sizeof *lines, by_text);
		rc = write_lines(path, lines, n);
	}
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	return rc;
}

/* Appends the index lines of the records put since the last commit to
 * the current file's index.  0, or -1 with errno. */
static int
index_append(swarc *w)
{
	if (w->committed == w->n_lines)
		return 0;
	int fd = open(w->index, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	int rc = fd < 0 ? -1 : 0;
	for (size_t i = w->committed; rc == 0 && i < w->n_lines; i++)
		rc = write_all(fd, w->lines[i], strlen(w->lines[i]));
	if (rc == 0 && sql_sync() == SQL_SYNC_FULL)
		rc = fsync(fd);
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	if (rc == 0)
		w->committed = w->n_lines;
	return rc;
}

/* ---- files */

/* Ends the current file: its records committed, its index rewritten
 * sorted.  0, or -1 with the reason in w->err. */
static int
file_end(swarc *w)
{
	if (w->fd < 0)
		return 0;
	if (swarc_commit(w) < 0)
		return -1;
	if (w->n_lines)   /* qsort's base may not be NULL, even for none */
		qsort(w->lines, w->n_lines, sizeof *w->lines, by_text);
	int rc = write_lines(w->index, w->lines, w->n_lines);
	if (rc < 0)
		snprintf(w->err, sizeof w->err, "%s: %s", w->index, strerror(errno));
	if (close(w->fd) != 0 && rc == 0) {
		snprintf(w->err, sizeof w->err, "%s: %s", w->path, strerror(errno));
		rc = -1;
	}
	w->fd = -1;
	for (size_t i = 0; i < w->n_lines; i++)
		free(w->lines[i]);
	w->n_lines = w->committed = 0;
	return rc;
}

static int emit(swarc *w, wrec *r, double t);

/* Opens the next free file of the series and writes its warcinfo.  0,
 * or -1 with the reason in w->err. */
static int
file_start(swarc *w)
{
	size_t sl = strlen(w->stem);
	for (;; w->seq++) {
		free(w->path);
		free(w->index);
		w->path = xmalloc(sl + 24);
		w->index = xmalloc(sl + 24);
		if (w->seq)
			snprintf(w->path, sl + 24, "%s-%05d%s", w->stem, w->seq, w->ext),
			snprintf(w->index, sl + 24, "%s-%05d.cdxj", w->stem, w->seq);
		else
			snprintf(w->path, sl + 24, "%s%s", w->stem, w->ext),
			snprintf(w->index, sl + 24, "%s.cdxj", w->stem);
		w->fd = open(w->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
		if (w->fd >= 0)
			break;
		if (errno != EEXIST) {
			snprintf(w->err, sizeof w->err, "%s", strerror(errno));
			return -1;
		}
	}
	const char *slash = strrchr(w->path, '/');
	w->name = slash ? (char *)slash + 1 : w->path;
	w->size = w->in_file = 0;
	w->n.files++;
	/* An index left from a file of that name that is gone no longer
	 * describes anything. */
	unlink(w->index);

	msgpack_sbuffer info;
	msgpack_sbuffer_init(&info);
	field(&info, "software", "sluice sink/" SLUICE_VERSION);
	field(&info, "format", "WARC File Format 1.1");
	field(&info, "conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/");
	if (w->c->info)
		puts_(&info, w->c->info);
	char fname[1100];
	snprintf(fname, sizeof fname, "WARC-Filename: %s\r\n", w->name);
	wrec r = { .type = "warcinfo", .ctype = "application/warc-fields", .more = fname,
		   .head = info.data, .head_len = info.size };
	double now;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	int rc = emit(w, &r, now);
	memcpy(w->info_id, r.id, ID_SIZE);
	msgpack_sbuffer_destroy(&info);
	return rc;
}

/* Deflates s[0..n) into w->out; flush is Z_NO_FLUSH or Z_FINISH. */
static void
deflate_part(swarc *w, const char *s, size_t n, int flush)
{
	w->z.next_in = (Bytef *)s;
	w->z.avail_in = (uInt)n;
	do {
		if (w->out.alloc - w->out.size < 65536) {
			w->out.alloc = w->out.alloc * 2 + 65536;
			w->out.data = xrealloc(w->out.data, w->out.alloc);
		}
		w->z.next_out = (Bytef *)w->out.data + w->out.size;
		w->z.avail_out = (uInt)(w->out.alloc - w->out.size);
		size_t before = w->z.avail_out;
		int zrc = deflate(&w->z, flush);
		if (zrc == Z_STREAM_ERROR)
			xalloc_die();
		w->out.size += before - w->z.avail_out;
	} while (w->z.avail_in || (flush == Z_FINISH && w->z.avail_out == 0));
}

/* The record's part s[0..n) as it goes to the file. */
static void
add(swarc *w, const char *s, size_t n)
{
	if (w->gz)
		deflate_part(w, s, n, Z_NO_FLUSH);
	else
		msgpack_sbuffer_write(&w->out, s, n);
}

/* Writes record r dated t, moving to the next file of the series first
 * when r would take this one past max_size (never for a warcinfo, and
 * never for a file's first record).  0, or -1 with the reason in
 * w->err; r->id is its WARC-Record-ID. */
static int
emit(swarc *w, wrec *r, double t)
{
	if (new_id(r->id) < 0) {
		snprintf(w->err, sizeof w->err, "no random bytes for a record id");
		return -1;
	}
	char date[DATE_SIZE], block[DIGEST_LABEL_SIZE], num[32];
	warc_date(t, date, NULL);
	digest_update(w->block, r->head, r->head_len);
	digest_update(w->block, r->payload, r->payload_len);
	digest_final(w->block, block);
	if (r->payload_digest && !r->digest_given) {
		digest_update(w->payload, r->payload, r->payload_len);
		digest_final(w->payload, r->payload_label);
	}
	msgpack_sbuffer h;
	msgpack_sbuffer_init(&h);
	puts_(&h, "WARC/1.1\r\n");
	field(&h, "WARC-Type", r->type);
	field(&h, "WARC-Record-ID", r->id);
	field(&h, "WARC-Date", date);
	if (r->uri)
		field(&h, "WARC-Target-URI", r->uri);
	if (strcmp(r->type, "warcinfo") != 0)
		field(&h, "WARC-Warcinfo-ID", w->info_id);
	if (r->ip)
		field(&h, "WARC-IP-Address", r->ip);
	if (r->concurrent)
		field(&h, "WARC-Concurrent-To", r->concurrent);
	if (r->more)
		puts_(&h, r->more);
	field(&h, "WARC-Block-Digest", block);
	if (r->payload_digest)
		field(&h, "WARC-Payload-Digest", r->digest_given ? r->digest_given : r->payload_label);
	field(&h, "Content-Type", r->ctype);
	snprintf(num, sizeof num, "%zu", r->head_len + r->payload_len);
	field(&h, "Content-Length", num);
	puts_(&h, "\r\n");

	w->out.size = 0;
	if (w->gz && deflateReset(&w->z) != Z_OK)
		xalloc_die();
	add(w, h.data, h.size);
	add(w, r->head, r->head_len);
	add(w, r->payload, r->payload_len);
	if (w->gz)
		deflate_part(w, "\r\n\r\n", 4, Z_FINISH);
	else
		msgpack_sbuffer_write(&w->out, "\r\n\r\n", 4);
	msgpack_sbuffer_destroy(&h);

	if (strcmp(r->type, "warcinfo") != 0 && w->in_file &&
	    w->size + w->out.size > w->c->max_size) {
		/* The record must stay whole: the series goes on in a new
		 * file, and r is written again there, under its warcinfo. */
		if (file_end(w) < 0 || file_start(w) < 0)
			return -1;
		return emit(w, r, t);
	}
	if (write_all(w->fd, w->out.data, w->out.size) < 0) {
		int e = errno;
		/* Only whole records in the file: cut the part written. */
		if (ftruncate(w->fd, (off_t)w->size) < 0)
			e = e ? e : errno;
		snprintf(w->err, sizeof w->err, "%s: %s", w->path, strerror(e));
		return -1;
	}
	if (r->mime)
		index_line(w, r, t, w->size, w->out.size);
	w->size += w->out.size;
	w->in_file += strcmp(r->type, "warcinfo") != 0;
	w->n.records++;
	return 0;
}

/* ---- records */

/* The value of header name in HTTP head h[0..n) (its first line
 * skipped), trimmed, its length in *vl; NULL when absent. */
static const char *
head_value(const char *h, size_t n, const char *name, size_t *vl)
{
	size_t nl = strlen(name);
	const char *end = h + n, *l = memchr(h, '\n', n);
	while (l && ++l < end) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		const char *le = e ? e : end;
		if ((size_t)(le - l) > nl && strncasecmp(l, name, nl) == 0 && l[nl] == ':') {
			const char *v = l + nl + 1;
			while (v < le && (*v == ' ' || *v == '\t'))
				v++;
			while (le > v && (le[-1] == '\r' || le[-1] == ' ' || le[-1] == '\t'))
				le--;
			*vl = (size_t)(le - v);
			return v;
		}
		l = e;
	}
	return NULL;
}

/* The status of HTTP head h[0..n) ("HTTP/1.1 200 OK", "HTTP/2 304"),
 * or 0. */
static int
head_status(const char *h, size_t n)
{
	const char *sp = memchr(h, ' ', n);
	if (n < 5 || memcmp(h, "HTTP/", 5) != 0 || !sp || (size_t)(sp - h) + 4 > n)
		return 0;
	int st = 0;
	for (int i = 1; i <= 3; i++) {
		if (sp[i] < '0' || sp[i] > '9')
			return 0;
		st = st * 10 + sp[i] - '0';
	}
	return st;
}

/* The media type of head h (Content-Type up to its parameters,
 * lowercased) into out, or "unk" as pywb says when it has none. */
static void
head_mime(const char *h, size_t n, char *out, size_t outlen)
{
	size_t vl = 0;
	const char *v = head_value(h, n, "content-type", &vl);
	size_t k = 0;
	for (; v && k < vl && k + 1 < outlen && v[k] != ';' && v[k] != ' '; k++)
		out[k] = (char)((v[k] >= 'A' && v[k] <= 'Z') ? v[k] + 32 : v[k]);
	if (!k)
		snprintf(out, outlen, "unk");
	else
		out[k] = '\0';
}

/* A msgpack string or bin value as a C string (malloc'd), or NULL. */
static char *
str_of(const msgpack_object *map, const char *key)
{
	const char *s;
	size_t n;
	return rec_str(map, key, &s, &n) ? xstrndup(s, n) : NULL;
}

/* Writes exchange x (a map of fetch --raw's exchanges): its response,
 * or a revisit (server-not-modified for the 304 of a recrawl,
 * identical-payload-digest for a payload this series holds), then its
 * request.  resp_id gets the response's record id, *date its date, uri
 * (malloc'd) its URL.  1 when written, 0 when x is no exchange (no url
 * or response), -1 on an error. */
static int
put_exchange(swarc *w, const msgpack_object *x, int not_modified, char resp_id[ID_SIZE],
	     double *date, char **uri)
{
	const char *req = "", *head, *payload = "";
	size_t req_n = 0, head_n, payload_n = 0;
	if (x->type != MSGPACK_OBJECT_MAP || !(*uri = str_of(x, "url")))
		return 0;
	if (!rec_str(x, "response", &head, &head_n)) {
		free(*uri);
		*uri = NULL;
		return 0;
	}
	rec_str(x, "request", &req, &req_n);
	rec_str(x, "payload", &payload, &payload_n);
	if (!rec_double(x, "date", date))
		*date = 0;
	char *ip = str_of(x, "ip");
	const msgpack_object *te = rec_get(x, "transfer_encoding");
	char *unchunked = NULL;
	if (te && rec_eq(te, "chunked"))
		/* Transfer-Encoding kept as X-Orig-Transfer-Encoding, as
		 * Browsertrix keeps a coding it undid: the payload is no
		 * longer chunked, and a reader must not undo the chunks. */
		head = unchunked = exchange_head_rewrite(head, head_n, (const char *const[]){ "transfer-encoding", NULL },
							 NULL, &head_n);
	const msgpack_object *cut = rec_get(x, "payload_cut");
	int truncated = cut && cut->type == MSGPACK_OBJECT_BOOLEAN && cut->via.boolean;

	char mime[128], more[4096], dated[DATE_SIZE];
	head_mime(head, head_n, mime, sizeof mime);
	wrec r = { .type = "response", .uri = *uri, .ip = ip,
		   .ctype = "application/http; msgtype=response", .head = head, .head_len = head_n,
		   .payload = payload, .payload_len = payload_n, .payload_digest = 1,
		   .mime = mime, .status = head_status(head, head_n) };
	seen *orig = NULL;
	if (not_modified) {
		r.type = "revisit";
		r.payload_digest = 0;
		r.more = "WARC-Profile: " PROFILE_NOT_MODIFIED "\r\n";
		r.mime = "warc/revisit";
		w->n.not_modified++;
	} else {
		digest_update(w->payload, payload, payload_n);
		digest_final(w->payload, r.payload_label);
		r.digest_given = r.payload_label;
		htab_ent *e = payload_n && !truncated && w->c->dedup_max ?
			htab_get(&w->seen, r.payload_label) : NULL;
		if (e && (orig = e->val)) {
			snprintf(more, sizeof more,
				 "WARC-Profile: " PROFILE_IDENTICAL "\r\nWARC-Refers-To: %s\r\n"
				 "WARC-Refers-To-Target-URI: %.3000s\r\nWARC-Refers-To-Date: %s\r\n",
				 orig->id, orig->uri, orig->date);
			r.type = "revisit";
			r.more = more;
			r.payload = "";
			r.payload_len = 0;
			r.mime = "warc/revisit";
			w->n.revisits++;
			w->n.saved += payload_n;
		} else if (truncated) {
			r.more = "WARC-Truncated: length\r\n";
		}
	}
	int rc = emit(w, &r, *date);
	if (rc == 0 && !orig && !not_modified && payload_n && !truncated &&
	    (long)w->seen.n < w->c->dedup_max) {
		int added;
		htab_ent *e = htab_put(&w->seen, r.payload_label, strlen(r.payload_label), &added);
		if (!e)
			xalloc_die();
		if (added) {
			seen *s = xmalloc(sizeof *s);
			s->uri = xstrdup(*uri);
			warc_date(*date, dated, NULL);
			memcpy(s->date, dated, DATE_SIZE);
			memcpy(s->id, r.id, ID_SIZE);
			e->val = s;
		}
	}
	memcpy(resp_id, r.id, ID_SIZE);
	free(unchunked);
	if (rc == 0) {
		wrec q = { .type = "request", .uri = *uri, .ctype = "application/http; msgtype=request",
			   .concurrent = resp_id, .head = req, .head_len = req_n };
		rc = emit(w, &q, *date);
	}
	free(ip);
	return rc < 0 ? -1 : 1;
}

/* The metadata record of rec's last exchange: its outlinks (parse's
 * links), fetch's timing and attempts, and the hops that led to it, as
 * Heritrix's fields (outlink, fetchTimeMs) and ours (attempts, hop:
 * STATUS URL).  0, or -1. */
static int
put_metadata(swarc *w, const msgpack_object *rec, const char *uri, double date, const char *resp_id)
{
	msgpack_sbuffer b;
	msgpack_sbuffer_init(&b);
	char num[64];
	double ms;
	int64_t attempts;
	if (rec_double(rec, "time_ms", &ms)) {
		snprintf(num, sizeof num, "%.3f", ms);
		field(&b, "fetchTimeMs", num);
	}
	if (rec_int(rec, "attempts", &attempts)) {
		snprintf(num, sizeof num, "%lld", (long long)attempts);
		field(&b, "attempts", num);
	}
	const msgpack_object *hops = rec_get(rec, "redirects");
	for (uint32_t i = 0; hops && hops->type == MSGPACK_OBJECT_ARRAY && i < hops->via.array.size; i++) {
		const msgpack_object *h = &hops->via.array.ptr[i];
		const char *s;
		size_t n;
		int64_t st;
		if (h->type != MSGPACK_OBJECT_MAP || !rec_str(h, "url", &s, &n) || !rec_int(h, "status", &st))
			continue;
		snprintf(num, sizeof num, "hop: %lld ", (long long)st);
		puts_(&b, num);
		msgpack_sbuffer_write(&b, s, n);
		puts_(&b, "\r\n");
	}
	const msgpack_object *links = rec_get(rec, "links");
	for (uint32_t i = 0; links && links->type == MSGPACK_OBJECT_ARRAY && i < links->via.array.size; i++) {
		const msgpack_object *l = &links->via.array.ptr[i];
		if (l->type != MSGPACK_OBJECT_STR || memchr(l->via.str.ptr, '\n', l->via.str.size) ||
		    memchr(l->via.str.ptr, '\r', l->via.str.size))
			continue;
		puts_(&b, "outlink: ");
		msgpack_sbuffer_write(&b, l->via.str.ptr, l->via.str.size);
		puts_(&b, "\r\n");
	}
	int rc = 0;
	if (b.size) {
		wrec r = { .type = "metadata", .uri = uri, .ctype = "application/warc-fields",
			   .concurrent = resp_id, .head = b.data, .head_len = b.size };
		rc = emit(w, &r, date);
	}
	msgpack_sbuffer_destroy(&b);
	return rc;
}

/* One of render's outputs, key of rec, as a resource record at uri:
 * the DOM, the screenshot, the PDF.  0 (also when rec has no key), or
 * -1. */
static int
put_resource(swarc *w, const msgpack_object *rec, const char *key, const char *uri,
	     const char *ctype, double date, const char *concurrent)
{
	const char *s;
	size_t n;
	if (!rec_str(rec, key, &s, &n))
		return 0;
	/* Indexed as warcio.js does: the whole Content-Type, no status. */
	wrec r = { .type = "resource", .uri = uri, .ctype = ctype, .concurrent = concurrent,
		   .payload = s, .payload_len = n, .payload_digest = 1, .mime = ctype, .head = "" };
	return emit(w, &r, date);
}

int
swarc_put(swarc *w, const msgpack_object *rec)
{
	char *url = str_of(rec, "url");
	if (!url || !*url || rec_get(rec, "url")->type != MSGPACK_OBJECT_STR) {
		free(url);
		return SDB_SKIPPED;
	}
	const msgpack_object *xs = rec_get(rec, "exchanges");
	uint32_t nx = xs && xs->type == MSGPACK_OBJECT_ARRAY ? xs->via.array.size : 0;
	int rendered = rec_get(rec, "rendered") != NULL;
	if (!nx) {
		free(url);
		if (rec_get(rec, "error")) {
			w->n.dead++;
			return SWARC_DEAD;
		}
		if (!rendered)
			return SWARC_NOT_RAW;
		url = str_of(rec, "url");
	}
	int rc = 0, not_modified = rec_not_modified(rec), any = 0;
	char resp_id[ID_SIZE] = "", *uri = NULL;
	double date = 0;
	for (uint32_t i = 0; i < nx && rc >= 0; i++) {
		free(uri);
		uri = NULL;
		rc = put_exchange(w, &xs->via.array.ptr[i], not_modified && i + 1 == nx, resp_id, &date, &uri);
		any |= rc > 0;
	}
	if (rc >= 0 && any)
		rc = put_metadata(w, rec, uri, date, resp_id);
	if (rc >= 0 && rendered) {
		double t;
		if (!rec_double(rec, "fetched_at", &t))
			t = date;
		size_t ul = strlen(url);
		char *urn = xmalloc(ul + 16);
		const char *conc = any ? resp_id : NULL;
		/* The DOM stands for the page itself when no response does,
		 * so the rendered page is what replays at its URL. */
		snprintf(urn, ul + 16, "urn:dom:%s", url);
		rc = put_resource(w, rec, "body", any ? urn : url, "text/html; charset=utf-8", t, conc);
		snprintf(urn, ul + 16, "urn:fullPage:%s", url);
		if (rc >= 0)
			rc = put_resource(w, rec, "screenshot", urn, "image/png", t, conc);
		snprintf(urn, ul + 16, "urn:pdf:%s", url);
		if (rc >= 0)
			rc = put_resource(w, rec, "pdf", urn, "application/pdf", t, conc);
		free(urn);
	}
	free(uri);
	free(url);
	return rc < 0 ? -1 : SDB_STORED;
}

/* ---- the series */

swarc *
swarc_open(const swarc_conf *c, char *err, size_t errlen)
{
	swarc *w = xcalloc(1, sizeof *w);
	size_t n = strlen(c->path);
	w->c = c;
	w->fd = -1;
	w->gz = n > 8 && strcmp(c->path + n - 8, ".warc.gz") == 0;
	w->ext = w->gz ? ".warc.gz" : ".warc";
	w->stem = xstrndup(c->path, n - strlen(w->ext));
	w->block = digest_new(DIGEST_SHA1);
	w->payload = digest_new(DIGEST_SHA1);
	msgpack_sbuffer_init(&w->out);
	/* A gzip member a record: its own header, so readers can seek. */
	if (w->gz && deflateInit2(&w->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
				  Z_DEFAULT_STRATEGY) != Z_OK)
		xalloc_die();
	/* Past RLIMIT_FSIZE a write fails with EFBIG, which cuts the file
	 * back to a whole record, instead of killing sink mid-record. */
	signal(SIGXFSZ, SIG_IGN);
	if (file_start(w) < 0) {
		snprintf(err, errlen, "%s", w->err);
		swarc_close(w, NULL, 0);
		return NULL;
	}
	return w;
}

int
swarc_commit(swarc *w)
{
	if (w->fd >= 0 && sql_sync() == SQL_SYNC_FULL && fsync(w->fd) != 0) {
		snprintf(w->err, sizeof w->err, "%s: %s", w->path, strerror(errno));
		return -1;
	}
	if (index_append(w) < 0) {
		snprintf(w->err, sizeof w->err, "%s: %s", w->index, strerror(errno));
		return -1;
	}
	return 0;
}

int
swarc_close(swarc *w, char *err, size_t errlen)
{
	int rc = file_end(w);
	if (rc < 0 && err)
		snprintf(err, errlen, "%s", w->err);
	size_t i = 0;
	htab_ent *e;
	while ((e = htab_next(&w->seen, &i))) {
		seen *s = e->val;
		if (s)
			free(s->uri);
		free(s);
	}
	htab_free(&w->seen);
	free(w->lines);
	free(w->stem);
	free(w->path);
	free(w->index);
	digest_free(w->block);
	digest_free(w->payload);
	if (w->gz)
		deflateEnd(&w->z);
	msgpack_sbuffer_destroy(&w->out);
	free(w);
	return rc;
}

const char *
swarc_errmsg(const swarc *w)
{
	return w->err;
}

swarc_counts
swarc_count(const swarc *w)
{
	return w->n;
}
