/* warc — see warc.h. */
#include "warc.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "digest.h"
#include "xalloc.h"

#define READ_SIZE ((size_t)256 << 10)   /* bytes asked of read(2) at once */

/* Where the reader is within a record. */
enum state { S_START, S_HEADER, S_BLOCK, S_SKIP, S_TRAILER };

struct warc_reader {
	int fd;
	size_t max_block;
	/* the file as WARC text: buf[start..end) is read and not yet
	 * taken, buf[0] at offset base of that text */
	char *buf;
	size_t cap, start, end;
	uint64_t base;
	int eof;                 /* no byte of the text is left to read */
	int started;             /* the first bytes were read: gz is known */
	/* gzip: the file's bytes in zin[0..zin_n), zin[0] at file offset
	 * zin_off; the member being inflated started at text offset
	 * mem_text and file offset mem_file */
	int gz, member_end, raw_eof;
	z_stream z;
	unsigned char *zin;
	size_t zin_n;
	uint64_t zin_off, mem_text, mem_file;
	/* the record */
	enum state state;
	uint64_t offset;         /* warc_record.offset */
	size_t scan;             /* S_HEADER: bytes of it searched for its end */
	uint64_t length, left;   /* Content-Length; S_SKIP: bytes still to pass */
	char *hdr;               /* the header block, fields made in place */
	size_t hdr_cap;
	warc_field *fields;
	size_t n_fields, fields_cap;
	const char *version;
	int failed;              /* WARC_ERR or WARC_IOERR, once it failed */
	char err[256];
};

static const char trailer[4] = "\r\n\r\n";

/* Fails r for good with code: "malformed WARC record at byte off: ...". */
__attribute__((format(printf, 4, 5))) static int
fail(warc_reader *r, int code, uint64_t off, const char *fmt, ...)
{
	int n = code == WARC_IOERR ? snprintf(r->err, sizeof r->err, "cannot read at byte %" PRIu64 ": ", off)
				   : snprintf(r->err, sizeof r->err, "malformed WARC record at byte %" PRIu64 ": ", off);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
	va_end(ap);
	r->failed = code;
	return code;
}

warc_reader *
warc_open(int fd, size_t max_block)
{
	warc_reader *r = xcalloc(1, sizeof *r);
	r->fd = fd;
	r->max_block = max_block;
	r->zin = xmalloc(READ_SIZE);
	return r;
}

void
warc_close(warc_reader *r)
{
	if (!r)
		return;
	if (r->gz)
		inflateEnd(&r->z);
	free(r->zin);
	free(r->buf);
	free(r->hdr);
	free(r->fields);
	free(r);
}

const char *
warc_error(const warc_reader *r)
{
	return r->err;
}

/* Reads into p[0..n): bytes read, 0 at the end, WARC_NEED or WARC_IOERR. */
static ssize_t
read_some(warc_reader *r, void *p, size_t n)
{
	ssize_t k;
	do
		k = read(r->fd, p, n);
	while (k < 0 && errno == EINTR);
	if (k >= 0)
		return k;
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return WARC_NEED;
	return fail(r, WARC_IOERR, r->base + r->end, "%s", strerror(errno));
}

/* The first bytes of the file: gzip (1f 8b) or not.  1, or what read_some
 * said. */
static int
start(warc_reader *r)
{
	while (r->zin_n < 2) {
		ssize_t k = read_some(r, r->zin + r->zin_n, READ_SIZE - r->zin_n);
		if (k < 0)
			return (int)k;
		if (k == 0)
			break;
		r->zin_n += (size_t)k;
	}
	r->started = 1;
	r->raw_eof = r->zin_n < 2;
	r->gz = r->zin_n >= 2 && r->zin[0] == 0x1f && r->zin[1] == 0x8b;
	if (r->gz) {
		/* Members are taken one at a time (inflateReset): 15 + 16
		 * reads one gzip member. */
		if (inflateInit2(&r->z, 15 + 16) != Z_OK)
			xalloc_die();
		r->z.next_in = r->zin;
		r->z.avail_in = (uInt)r->zin_n;
	} else {
		memcpy(r->buf + r->end, r->zin, r->zin_n);   /* fill left room */
		r->end += r->zin_n;
		r->eof = r->raw_eof;
	}
	return 1;
}

/* Inflates into buf's free room, reading the file as needed, and stops
 * at a member's end, so the next member's start is known before any of
 * its text is taken.  1 when text came, 0 at the file's clean end, else
 * WARC_NEED or a failure. */
static int
inflate_some(warc_reader *r)
{
	z_stream *z = &r->z;
	for (;;) {
		if (z->avail_in == 0 && !r->raw_eof) {
			r->zin_off += r->zin_n;
			ssize_t k = read_some(r, r->zin, READ_SIZE);
			if (k < 0)
				return (int)k;
			r->zin_n = (size_t)k;
			r->raw_eof = k == 0;
			z->next_in = r->zin;
			z->avail_in = (uInt)k;
		}
		uint64_t here = r->zin_off + (uint64_t)(z->next_in - r->zin);
		if (r->member_end) {
			if (z->avail_in == 0) {
				r->eof = 1;
				return 0;
			}
			inflateReset(z);
			r->member_end = 0;
			r->mem_text = r->base + r->end;
			r->mem_file = here;
		}
		if (z->avail_in == 0)
			return fail(r, WARC_ERR, r->mem_file, "the gzip member is cut short");
		z->next_out = (unsigned char *)r->buf + r->end;
		z->avail_out = (uInt)(r->cap - r->end);
		int rc = inflate(z, Z_NO_FLUSH);
		size_t got = r->cap - r->end - z->avail_out;
		r->end += got;
		if (rc == Z_STREAM_END)
			r->member_end = 1;
		else if (rc != Z_OK && rc != Z_BUF_ERROR)
			return fail(r, WARC_ERR, r->mem_file, "bad gzip data: %s",
				    z->msg ? z->msg : "inflate failed");
		if (got)
			return 1;
	}
}

/* Makes room for n bytes from start, then reads some more text.  1, 0
 * at the end of the text, WARC_NEED or a failure. */
static int
fill(warc_reader *r, size_t n)
{
	if (r->start && (r->cap - r->end < READ_SIZE || r->cap - r->start < n)) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->base += r->start;
		r->end -= r->start;
		r->start = 0;
	}
	if (r->cap < n + READ_SIZE) {
		r->cap = n + READ_SIZE;
		r->buf = xrealloc(r->buf, r->cap);
	}
	if (!r->started) {
		int rc = start(r);
		if (rc <= 0 || r->end > r->start)
			return rc;
	}
	if (r->eof)
		return 0;
	if (r->gz)
		return inflate_some(r);
	ssize_t k = read_some(r, r->buf + r->end, r->cap - r->end);
	if (k <= 0) {
		r->eof = k == 0;
		return (int)k;
	}
	r->end += (size_t)k;
	return 1;
}

/* Makes n bytes from start readable: 1, 0 when the text ends before,
 * WARC_NEED or a failure. */
static int
want(warc_reader *r, size_t n)
{
	while (r->end - r->start < n) {
		int rc = fill(r, n);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

/* Whether c may be in a field name (RFC 9110's token). */
static int
tchar(int c)
{
	return c > 32 && c < 127 && !strchr("\"(),/:;<=>?@[\\]{}", c);
}

/* The header lines in t[0..n) (each ending with LF, CR before it
 * dropped, the blank line that ends them excluded) as fields in
 * *f[0..*nf), made in place: names and values NUL-terminated, a folded
 * line joined to its value by one space, values trimmed; lower: names
 * lowercased.  strict: a line that is no field is an error (-1 with its
 * number in *bad); else it is left out. */
static int
fields(char *t, size_t n, warc_field **f, size_t *nf, size_t *cap, int lower, int strict, size_t *bad)
{
	char *w = t, *p = t, *end = t + n;
	size_t line = 0;
	*nf = 0;
	while (p < end) {
		char *lf = memchr(p, '\n', (size_t)(end - p));
		char *e = lf ? lf : end;
		char *next = lf ? lf + 1 : end;
		line++;
		if (e > p && e[-1] == '\r')
			e--;
		if (e == p)
			break;   /* the blank line that ends them */
		if ((*p == ' ' || *p == '\t') && *nf) {
			/* obsolete line folding: one space for it */
			while (p < e && (*p == ' ' || *p == '\t'))
				p++;
			while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			if (p < e) {
				w[-1] = ' ';
				memmove(w, p, (size_t)(e - p));
				w += e - p;
				*w++ = '\0';
			}
			p = next;
			continue;
		}
		char *colon = memchr(p, ':', (size_t)(e - p));
		char *c = p;
		while (colon && c < colon && tchar((unsigned char)*c))
			c++;
		if (!colon || colon == p || c != colon) {
			if (strict) {
				*bad = line;
				return -1;
			}
			p = next;
			continue;
		}
		if (*nf == *cap) {
			*cap = *cap ? *cap * 2 : 32;
			*f = xrealloc(*f, *cap * sizeof **f);
		}
		char *name = w;
		for (c = p; c < colon; c++)
			*w++ = lower ? (char)tolower((unsigned char)*c) : *c;
		*w++ = '\0';
		c = colon + 1;
		while (c < e && (*c == ' ' || *c == '\t'))
			c++;
		while (e > c && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		char *value = w;
		memmove(w, c, (size_t)(e - c));
		w += e - c;
		*w++ = '\0';
		(*f)[(*nf)++] = (warc_field){ name, value };
		p = next;
	}
	return 0;
}

/* The length of the header block at s[0..n) (its blank line included),
 * searched from *scan, which moves to the last line not yet ended; 0
 * while it has not ended. */
static size_t
header_end(const char *s, size_t n, size_t *scan)
{
	const char *p = s + *scan, *end = s + n;
	for (const char *lf; (lf = memchr(p, '\n', (size_t)(end - p)));) {
		if (lf == p || (lf == p + 1 && *p == '\r'))
			return (size_t)(lf + 1 - s);
		p = lf + 1;
		*scan = (size_t)(p - s);
	}
	return 0;
}

/* Checks that the record at s[0..avail) starts as WARC does: 0, or a
 * failure (an ARC file, a file that is no WARC, a record without its
 * version line). */
static int
version_line(warc_reader *r, const char *s, size_t avail)
{
	if (avail >= 5 && memcmp(s, "WARC/", 5) == 0)
		return 0;
	if (r->base + r->start > 0)
		return fail(r, WARC_ERR, r->offset, "no WARC/ version line where a record starts");
	snprintf(r->err, sizeof r->err, avail >= 9 && strncmp(s, "filedesc:", 9) == 0 ?
		 "an ARC file, not WARC: only WARC/1.0 and 1.1 are read" : "not a WARC file: it starts with no WARC/ version line");
	return r->failed = WARC_ERR;
}

/* Reads the header block of the record at start: 1 (state S_BLOCK or
 * S_SKIP), WARC_NEED, or a failure. */
static int
header(warc_reader *r)
{
	for (;;) {
		const char *s = r->buf + r->start;
		size_t avail = r->end - r->start;
		if ((avail >= 9 || r->eof) && version_line(r, s, avail) < 0)
			return r->failed;
		size_t hlen = header_end(s, avail, &r->scan);
		if (hlen) {
			if (hlen > WARC_MAX_HEADER)
				break;
			if (hlen > r->hdr_cap) {
				r->hdr_cap = hlen;
				r->hdr = xrealloc(r->hdr, hlen);
			}
			memcpy(r->hdr, s, hlen);
			r->start += hlen;
			char *lf = memchr(r->hdr, '\n', hlen);
			char *v = lf;
			if (v > r->hdr && v[-1] == '\r')
				v--;
			*v = '\0';
			r->version = r->hdr;
			size_t bad = 0;
			if (fields(lf + 1, hlen - (size_t)(lf + 1 - r->hdr), &r->fields, &r->n_fields,
				   &r->fields_cap, 0, 1, &bad) != 0)
				return fail(r, WARC_ERR, r->offset, "header line %zu is no field", bad + 1);
			const char *cl = NULL;
			for (size_t i = 0; i < r->n_fields; i++)
				if (strcasecmp(r->fields[i].name, "Content-Length") == 0)
					cl = r->fields[i].value;
			char *e;
			errno = 0;
			unsigned long long len = cl && isdigit((unsigned char)*cl) ? strtoull(cl, &e, 10) : 0;
			if (!cl || !isdigit((unsigned char)*cl) || *e || errno || len > INT64_MAX)
				return fail(r, WARC_ERR, r->offset, cl ? "bad Content-Length '%.40s'" : "no Content-Length%s",
					    cl ? cl : "");
			r->length = r->left = len;
			r->state = len > r->max_block ? S_SKIP : S_BLOCK;
			return 1;
		}
		if (avail > WARC_MAX_HEADER)
			break;
		int rc = fill(r, avail + 1);
		if (rc == 0 && version_line(r, r->buf + r->start, r->end - r->start) < 0)
			return r->failed;
		if (rc == 0)
			return fail(r, WARC_ERR, r->offset, avail ? "the file ends within the header block" :
				    "the file ends where a record starts");
		if (rc < 0)
			return rc;
	}
	return fail(r, WARC_ERR, r->offset, "header block over %zu bytes", WARC_MAX_HEADER);
}

/* The 4 bytes after the block, which must be CRLF CRLF: 1, WARC_NEED or
 * a failure. */
static int
end_of_block(warc_reader *r)
{
	int rc = want(r, sizeof trailer);
	if (rc < 0)
		return rc;
	if (rc == 0 || memcmp(r->buf + r->start, trailer, sizeof trailer) != 0)
		return fail(r, WARC_ERR, r->offset, "Content-Length %" PRIu64 " is not the block's length"
			    " (no CRLF CRLF after it)", r->length);
	r->start += sizeof trailer;
	r->state = S_START;
	return 1;
}

int
warc_next(warc_reader *r, warc_record *rec)
{
	if (r->failed)
		return r->failed;
	for (;;) {
		int rc;
		switch (r->state) {
		case S_START:
			rc = want(r, 1);
			if (rc <= 0)
				return rc;
			r->offset = r->base + r->start;
			if (r->gz && r->mem_text == r->offset)
				r->offset = r->mem_file;
			r->scan = 0;
			r->state = S_HEADER;
			break;
		case S_HEADER:
			if ((rc = header(r)) < 0)
				return rc;
			if (r->state == S_BLOCK)
				break;
			/* its block is passed over on the next call */
			*rec = (warc_record){ .offset = r->offset, .version = r->version, .fields = r->fields,
					      .n_fields = r->n_fields, .length = r->length };
			return WARC_OK;
		case S_BLOCK:
			rc = want(r, (size_t)r->length + sizeof trailer);
			if (rc < 0)
				return rc;
			if (rc == 0)
				return fail(r, WARC_ERR, r->offset, "the file ends within the block"
					    " (Content-Length %" PRIu64 ")", r->length);
			*rec = (warc_record){ .offset = r->offset, .version = r->version, .fields = r->fields,
					      .n_fields = r->n_fields, .length = r->length,
					      .block = r->buf + r->start };
			/* the trailer is in the buffer: the block stays put */
			r->start += (size_t)r->length;
			return end_of_block(r) < 0 ? r->failed : WARC_OK;
		case S_SKIP:
			while (r->left) {
				size_t take = r->end - r->start;
				if (take > r->left)
					take = (size_t)r->left;
				r->start += take;
				r->left -= take;
				if (r->left && (rc = fill(r, 1)) <= 0)
					return rc < 0 ? rc : fail(r, WARC_ERR, r->offset, "the file ends within"
								  " the block (Content-Length %" PRIu64 ")", r->length);
			}
			r->state = S_TRAILER;
			break;
		case S_TRAILER:
			if ((rc = end_of_block(r)) < 0)
				return rc;
			break;
		}
	}
}

const char *
warc_get(const warc_record *rec, const char *name)
{
	for (size_t i = 0; i < rec->n_fields; i++)
		if (strcasecmp(rec->fields[i].name, name) == 0)
			return rec->fields[i].value;
	return NULL;
}

/* Whether value v[0..n) (hex, or base32 with its padding optional, any
 * case) spells the bytes d[0..dn). */
static int
spells(const char *v, size_t n, const unsigned char *d, unsigned dn)
{
	char enc[2 * DIGEST_MAX + 1];   /* hex; base32 is shorter */
	if (n == 2 * (size_t)dn) {
		for (unsigned i = 0; i < dn; i++)
			snprintf(enc + 2 * i, 3, "%02x", d[i]);
	} else {
		digest_base32(d, dn, enc);
		while (n && v[n - 1] == '=')
			n--;
		if (strlen(enc) < n || (enc[n] && enc[n] != '='))
			return 0;
	}
	return strncasecmp(v, enc, n) == 0 && n > 0;
}

enum warc_digest
warc_digest_check(const char *digest, const void *p, size_t n)
{
	if (!digest)
		return WARC_DIGEST_NONE;
	enum digest_kind kind;
	size_t alen = strcspn(digest, ":");
	if (alen == 4 && strncasecmp(digest, "sha1", 4) == 0)
		kind = DIGEST_SHA1;
	else if ((alen == 6 && strncasecmp(digest, "sha256", 6) == 0) ||
		 (alen == 7 && strncasecmp(digest, "sha-256", 7) == 0))
		kind = DIGEST_SHA256;
	else
		return WARC_DIGEST_NONE;
	if (!digest[alen])
		return WARC_DIGEST_BAD;
	unsigned char got[DIGEST_MAX];
	unsigned glen = digest_raw(kind, p, n, got);
	const char *v = digest + alen + 1;
	return spells(v, strlen(v), got, glen) ? WARC_DIGEST_OK : WARC_DIGEST_BAD;
}

double
warc_date(const char *s)
{
	struct tm t = { 0 };
	int n = 0;
	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &t.tm_year, &t.tm_mon, &t.tm_mday, &t.tm_hour,
			 &t.tm_min, &t.tm_sec, &n) != 6 || n != 19)
		return -1;
	double frac = 0, unit = 0.1;
	const char *p = s + n;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++, unit /= 10)
			frac += (*p - '0') * unit;
	if (strcmp(p, "Z") != 0 || t.tm_mon < 1 || t.tm_mon > 12 || t.tm_mday < 1 || t.tm_mday > 31 ||
	    t.tm_hour > 23 || t.tm_min > 59 || t.tm_sec > 60)
		return -1;
	t.tm_year -= 1900;
	t.tm_mon -= 1;
	return (double)timegm(&t) + frac;
}

int
warc_http_parse(warc_http *h, char *block, size_t n)
{
	size_t scan = 0, hlen = header_end(block, n, &scan);
	char *lf = memchr(block, '\n', n);
	if (!hlen || !lf || n < 12 || memcmp(block, "HTTP/", 5) != 0 || hlen > WARC_HTTP_HEAD_MAX)
		return -1;
	if (hlen > h->store_cap) {
		h->store_cap = hlen;
		h->store = xrealloc(h->store, hlen);
	}
	memcpy(h->store, block, hlen);
	/* "HTTP/1.1 200 OK": the version, one space, three digits */
	char *s = h->store + 5, *sp = memchr(s, ' ', (size_t)(lf - block) - 5);
	if (!sp || sp == s || sp + 4 > h->store + (lf - block) || !isdigit((unsigned char)sp[1]) ||
	    !isdigit((unsigned char)sp[2]) || !isdigit((unsigned char)sp[3]) ||
	    (sp[4] != ' ' && sp[4] != '\r' && sp[4] != '\n'))
		return -1;
	*sp = '\0';
	/* HTTP/2 and 3 have no minor version; some writers say "2.0" */
	if ((s[0] == '2' || s[0] == '3') && strcmp(s + 1, ".0") == 0)
		s[1] = '\0';
	h->version = s;
	h->status = (sp[1] - '0') * 100 + (sp[2] - '0') * 10 + (sp[3] - '0');
	size_t first = (size_t)(lf + 1 - block), bad;
	fields(h->store + first, hlen - first, &h->headers, &h->n_headers, &h->headers_cap, 1, 0, &bad);
	if (h->n_headers > WARC_HTTP_FIELDS_MAX)
		return -1;
	h->body = block + hlen;
	h->body_len = n - hlen;
	return 0;
}

const char *
warc_http_header(const warc_http *h, const char *name)
{
	for (size_t i = 0; i < h->n_headers; i++)
		if (strcmp(h->headers[i].name, name) == 0)
			return h->headers[i].value;
	return NULL;
}

void
warc_http_free(warc_http *h)
{
	free(h->store);
	free(h->headers);
	*h = (warc_http){ 0 };
}
