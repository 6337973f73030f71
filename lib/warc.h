/* warc — a streaming reader of WARC files (ISO 28500: WARC/1.0 and 1.1)
 * and of the HTTP messages their records hold.
 *
 * A file is plain, gzip per record (what Common Crawl, wget and Heritrix
 * write: a reader may seek to any record), or one gzip stream; the
 * format is found from its first bytes.  Records are pulled one at a
 * time.  Memory is bounded by the caller's limits, never by the input:
 * a header block over WARC_MAX_HEADER is malformed, and a block longer
 * than max_block is read past without being held (the record comes back
 * without it), so the buffer never passes about max_block +
 * WARC_MAX_HEADER.  A reader on a non-blocking fd (a pipe) says
 * WARC_NEED when it must wait for bytes, and resumes where it stopped.
 *
 * Whatever goes wrong is named with a byte offset: that of the record
 * (of its gzip member when gzip per record: what CDX indexes name) or,
 * for a broken gzip stream, of the member.
 */
#ifndef SLUICE_WARC_H
#define SLUICE_WARC_H

#include <stddef.h>
#include <stdint.h>

/* A record's header block, its version line and fields included. */
#define WARC_MAX_HEADER ((size_t)1 << 20)

/* What warc_next returns: as lib/rec's (REC_OK ...), so a reader of
 * either reads the same. */
enum { WARC_OK = 1, WARC_EOF = 0, WARC_ERR = -1, WARC_NEED = -2, WARC_IOERR = -4 };

typedef struct warc_field {
	const char *name, *value;   /* value: folded lines joined, ends trimmed */
} warc_field;

typedef struct warc_record {
	uint64_t offset;          /* of the record, or of its gzip member when
				     it starts one */
	const char *version;      /* "WARC/1.0", "WARC/1.1" */
	const warc_field *fields;
	size_t n_fields;
	uint64_t length;          /* Content-Length: the block's bytes */
	char *block;              /* the block (the caller may change its
				     bytes), or NULL when longer than
				     max_block: it was not held */
} warc_record;

typedef struct warc_reader warc_reader;

/* A reader of fd (not closed by warc_close), holding blocks of up to
 * max_block bytes.  Never NULL: out of memory dies (xalloc). */
warc_reader *warc_open(int fd, size_t max_block);
void warc_close(warc_reader *r);

/* The next record in *rec, valid until the next call: WARC_OK.
 * WARC_EOF: the file ended after a whole record (or was empty).
 * WARC_NEED: the fd said EAGAIN: call again once it is readable.
 * WARC_ERR: the file is malformed there (no WARC, an ARC file, a bad
 * header line, a Content-Length that is not the block's, a gzip member
 * cut short...), WARC_IOERR: read(2) failed; warc_error says why and
 * where; both are final. */
int warc_next(warc_reader *r, warc_record *rec);

/* Why warc_next failed: "malformed WARC record at byte N: why". */
const char *warc_error(const warc_reader *r);

/* The value of field name (any case) of rec, or NULL. */
const char *warc_get(const warc_record *rec, const char *name);

/* What a digest field says of bytes p[0..n). */
enum warc_digest { WARC_DIGEST_NONE, WARC_DIGEST_OK, WARC_DIGEST_BAD };

/* Checks digest (a WARC-Block-Digest or WARC-Payload-Digest value,
 * "ALGORITHM:VALUE", VALUE in base32 or hex; sha1 and sha256 are known)
 * against p[0..n): NONE when digest is NULL or of another algorithm,
 * BAD when it does not match or cannot be read. */
enum warc_digest warc_digest_check(const char *digest, const void *p, size_t n);

/* Unix seconds of a WARC-Date (W3C datetime, UTC: "2024-05-01T10:00:00Z",
 * fractions allowed), or -1 when s is not one. */
double warc_date(const char *s);

/* An HTTP response, as a record's block holds it. */
typedef struct warc_http {
	const char *version;      /* "1.0", "1.1", "2", "3" */
	long status;
	warc_field *headers;      /* names lowercased */
	size_t n_headers;
	char *body;               /* within the block: the payload */
	size_t body_len;
	/* the reader's own */
	char *store;              /* the status line and headers, copied */
	size_t store_cap, headers_cap;
} warc_http;

/* What fetch itself would take of an answer's head: libcurl's 300 KiB
 * (fetch's too_large), and a count of fields no server sends, so that
 * a hostile file cannot make the joining of repeated names quadratic. */
enum { WARC_HTTP_HEAD_MAX = 300 * 1024, WARC_HTTP_FIELDS_MAX = 1000 };

/* Reads the status line and headers of block[0..n) into h (its buffers
 * reused from one call to the next): 0, or -1 when it is no HTTP
 * response (no status line, no end of the headers, a head over
 * WARC_HTTP_HEAD_MAX bytes or WARC_HTTP_FIELDS_MAX fields). */
int warc_http_parse(warc_http *h, char *block, size_t n);

/* The value of header name (lowercase) in h, or NULL. */
const char *warc_http_header(const warc_http *h, const char *name);

void warc_http_free(warc_http *h);

#endif
