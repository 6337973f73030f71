/* rec — the record stream: concatenated msgpack maps with string keys.
 *
 * Three parts, each usable alone:
 *   rec_in     reads records (or, for fetch, text lines) from an fd;
 *   rec_build  builds an output record that keeps every input key it does
 *              not replace or drop (the pass-through rule of DESIGN.md);
 *   rec_out    writes built records to an fd as msgpack or JSON lines.
 *
 * Limits are the caller's: rec_in refuses a record larger than max_record
 * bytes, nested deeper than REC_MAX_DEPTH or holding more elements than
 * max_record allows (REC_ELEMENT_BYTES) before msgpack-c allocates
 * anything for it, so neither a hostile length prefix nor a record of
 * millions of one-byte elements can cause a giant allocation.  Scanning
 * resumes where it stopped at each fill: O(bytes read) however the
 * record is split across reads.
 */
#ifndef SLUICE_REC_H
#define SLUICE_REC_H

#include <msgpack.h>
#include <stdint.h>
#include <sys/types.h>

#define REC_MAX_RECORD_DEFAULT ((size_t)64 << 20)
#define REC_MAX_DEPTH 24
#define REC_MAX_LINE 65536

/* msgpack-c decodes every element (scalar, string or container) into a
 * 24-byte msgpack_object, so a record of one-byte elements would cost 24
 * times its size.  rec_in allows one element per REC_ELEMENT_BYTES bytes
 * of max_record, and never fewer than REC_MIN_ELEMENTS: the decoded tree
 * stays under 1.5 times max_record (96 MiB at the default 64 MiB). */
#define REC_ELEMENT_BYTES 16
#define REC_MIN_ELEMENTS 65536

/* What a read returns.  REC_ERR is the stream's fault (malformed: exit
 * 65), REC_IOERR the reading's (read(2) failed: exit 74); r->err names
 * the offset either way.  -3 is lib/stop's REC_STOPPED. */
enum { REC_OK = 1, REC_EOF = 0, REC_ERR = -1, REC_NEED = -2, REC_IOERR = -4 };

/* Where the scan of a partly buffered record stopped, so the next fill
 * resumes there instead of rescanning the record from its start. */
typedef struct rec_scan {
	uint64_t pos;       /* bytes of the record walked; may pass the end of
			       what is buffered while a string's body arrives */
	uint64_t elements;  /* elements seen so far */
	int depth;          /* index of the innermost open container */
	uint64_t left[REC_MAX_DEPTH + 1];  /* elements still due per level */
} rec_scan;

typedef struct rec_in {
	int fd;
	size_t max_record;
	msgpack_unpacker u;
	msgpack_unpacked res;
	rec_scan scan;     /* progress through the next record's headers */
	uint64_t offset;   /* stream offset of the first unconsumed byte */
	size_t last_len;   /* bytes of the record rec_in_parse last returned */
	int eof;
	char err[160];     /* why REC_ERR or REC_IOERR, names the offset */
} rec_in;

/* Prepares r to read from fd.  Returns 0, or -1 when out of memory. */
int rec_in_init(rec_in *r, int fd, size_t max_record);
void rec_in_free(rec_in *r);

/* Reads once from the fd into the buffer.  Returns bytes read, 0 at end
 * of input (sets r->eof), -1 with errno set (EAGAIN on a non-blocking fd
 * with nothing to read). */
ssize_t rec_in_fill(rec_in *r);

/* Takes the next record from what is buffered, without reading.  REC_OK
 * sets *o to a map valid until the next call; REC_NEED asks for a fill;
 * REC_EOF is a clean end; REC_ERR means the stream is malformed and
 * r->err says where and why. */
int rec_in_parse(rec_in *r, msgpack_object *o);

/* The msgpack bytes of the record rec_in_parse last returned, valid until
 * the next call: for passing a record on, or to a worker, unchanged. */
void rec_in_raw(const rec_in *r, const char **p, size_t *n);

/* rec_in_parse with blocking fills: the loop every filter stage uses.
 * A read error is REC_IOERR with the reason in r->err. */
int rec_in_next(rec_in *r, msgpack_object *o);

/* Takes the next line (without its newline or CR) from what is buffered,
 * valid until the next call.  Same returns as rec_in_parse; a line longer
 * than REC_MAX_LINE is REC_ERR. */
int rec_in_line(rec_in *r, const char **line, size_t *len);

/* The first buffered byte, or -1 when nothing is buffered: lets a reader
 * tell a msgpack map (0x80-0x8f, 0xde, 0xdf) from a text line. */
int rec_in_peek(const rec_in *r);

/* Whether byte c can start a msgpack map. */
int rec_is_map_start(int c);

/* One input of a stage that reads URLs (fetch, render): a text line or
 * a record, valid until the next call. */
typedef struct rec_item {
	const char *url;        /* the line (indent dropped), or the record's
				   `url` string; NULL: a record without one */
	size_t url_len;
	msgpack_object rec;     /* the record; NIL for a line */
	const char *raw;        /* the record's msgpack bytes; NULL for a line */
	size_t raw_len;
} rec_item;

/* Takes the next URL input from what r has buffered, without reading.
 * *fmt (0 before a file's first call) keeps the file's format, decided
 * by its first byte: a msgpack map, else text lines, whose blank lines
 * and # comments are skipped.  Returns as rec_in_parse. */
int rec_in_item(rec_in *r, int *fmt, rec_item *it);

/* ---- field accessors: all return NULL/0 when absent or of another type */

/* The value of key in map, or NULL. */
const msgpack_object *rec_get(const msgpack_object *map, const char *key);

/* The value at a dotted path such as "fields.price", or NULL. */
const msgpack_object *rec_path(const msgpack_object *map, const char *path);

/* Sets *s and *n to the string (or bin) value of key; returns 1, or 0. */
int rec_str(const msgpack_object *map, const char *key, const char **s, size_t *n);

/* A NUL-terminated malloc'd copy of the string value of key, or NULL. */
char *rec_strdup(const msgpack_object *map, const char *key);

/* Sets *v to the integer (or float, truncated) value of key; 1 or 0. */
int rec_int(const msgpack_object *map, const char *key, int64_t *v);

/* Sets *v to the numeric value of key; 1 or 0. */
int rec_double(const msgpack_object *map, const char *key, double *v);

/* Whether o is a string equal to s. */
int rec_eq(const msgpack_object *o, const char *s);

/* Whether o is "empty": absent, nil, false, "", [] or {}. */
int rec_empty(const msgpack_object *o);

/* Whether rec is a conditional request's "unchanged" answer: `status`
 * 304 and `not_modified` true (docs/records.md).  It has no body: parse
 * and validate pass it through, sink keeps the page it stored before. */
int rec_not_modified(const msgpack_object *rec);

/* What parse made of rec, when it is no page: REC_SITEMAP_URLSET (a
 * sitemap's urlset), REC_SITEMAP_INDEX (a sitemap index, or a robots.txt,
 * whose links are sitemaps too); 0 for anything else, a sitemap parse
 * could not read included (docs/records.md, `sitemap`). */
enum { REC_SITEMAP_URLSET = 1, REC_SITEMAP_INDEX };
int rec_sitemap(const msgpack_object *rec);

/* ---- building a record ---------------------------------------------- */

#define REC_MAX_KEYS 64

typedef struct rec_build {
	msgpack_sbuffer kv;   /* packed key/value pairs, no map header */
	msgpack_packer pk;    /* packs into kv; use after rec_key */
	uint32_t n;
	const char *keys[REC_MAX_KEYS];  /* keys put: must outlive the build */
} rec_build;

void rec_build_init(rec_build *b);
void rec_build_free(rec_build *b);

/* Starts a new record, forgetting the previous one. */
void rec_build_reset(rec_build *b);

/* Packs key and returns the packer for its value, which the caller packs
 * next (a map or array for nested values). */
msgpack_packer *rec_key(rec_build *b, const char *key);

void rec_put_str(rec_build *b, const char *key, const char *s);
void rec_put_strn(rec_build *b, const char *key, const char *s, size_t n);
void rec_put_bin(rec_build *b, const char *key, const void *p, size_t n);
void rec_put_int(rec_build *b, const char *key, int64_t v);
void rec_put_double(rec_build *b, const char *key, double v);
void rec_put_bool(rec_build *b, const char *key, int v);

/* Whether key was put in this build. */
int rec_has_key(const rec_build *b, const char *key);

/* Appends the finished map to out: the keys put, then every key of in
 * (which may be NULL) that was not put and is not in drop (a
 * NULL-terminated list, or NULL). */
void rec_build_finish(rec_build *b, const msgpack_object *in,
		      const char *const *drop, msgpack_sbuffer *out);

/* ---- writing ---------------------------------------------------------- */

typedef struct rec_out {
	int fd;
	int json;          /* write JSON lines instead of msgpack */
	size_t flush_at;   /* rec_out_put writes once buf reaches this */
	msgpack_sbuffer buf;
	msgpack_sbuffer rec;  /* scratch for rec_out_build */
} rec_out;

/* Prepares o for fd.  json < 0 means "JSON when fd is a terminal".
 * flush_at starts at 64 KiB; a caller that drains buf itself (fetch,
 * on a non-blocking pipe) sets it to SIZE_MAX. */
void rec_out_init(rec_out *o, int fd, int json);
void rec_out_free(rec_out *o);

/* Appends one packed map (msgpack bytes), converting to a JSON line if
 * o->json, and writes when the buffer reaches o->flush_at.  Returns 0, or -1
 * with errno set when the write failed. */
int rec_out_put(rec_out *o, const char *map, size_t len);

/* rec_build_finish straight into o. */
int rec_out_build(rec_out *o, rec_build *b, const msgpack_object *in,
		  const char *const *drop);

/* rec_out_build of the input record kept as its msgpack bytes (in,
 * in_len: a record rec_in read; NULL for none), with the keys the stage
 * owns (own: a NULL-terminated list) dropped from it: an input's stale
 * values of them never pass through, even where b leaves one out. */
int rec_out_pass(rec_out *o, rec_build *b, const char *in, size_t in_len,
		 const char *const *own);

/* Writes everything buffered (blocking).  0, or -1 with errno. */
int rec_out_flush(rec_out *o);

/* ---- JSON --------------------------------------------------------------- */

/* Appends o as JSON to out.  Strings with invalid UTF-8 get U+FFFD for
 * each bad byte; bin values become base64 strings; NaN, infinities and
 * ext values become null.  A non-string map key becomes a string holding
 * its JSON text, escaped once; non-string keys nested inside that text
 * are not quoted again.  The output is at most 8 bytes per byte of o's
 * msgpack encoding (docs/records.md derives the bound). */
void rec_json(const msgpack_object *o, msgpack_sbuffer *out);

#endif
