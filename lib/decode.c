/* decode — see decode.h. */
#include "decode.h"

#include <brotli/decode.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <zstd.h>

#include "xalloc.h"

enum coding { C_IDENTITY, C_GZIP, C_DEFLATE, C_BR, C_ZSTD, C_UNKNOWN };

/* One decoding's output: a buffer of d's that grows, up to max + 1
 * bytes, so that passing max is seen. */
typedef struct sink {
	char **buf;
	size_t *cap;
	size_t len, max;
} sink;

/* Room for more output at s's end: 0, or -1 once max was passed. */
static int
room(sink *s)
{
	if (s->len > s->max)
		return -1;
	if (s->len == *s->cap) {
		size_t c = *s->cap ? *s->cap * 2 : 64 * 1024;
		if (c > s->max + 1)
			c = s->max + 1;
		*s->buf = xrealloc(*s->buf, c);
		*s->cap = c;
	}
	return 0;
}

/* zlib with window bits wbits (gzip: 31, zlib: 15, raw: -15); gzip's
 * members one after the other. */
static int
inflate_into(sink *s, const unsigned char *in, size_t n, int wbits, int partial)
{
	z_stream z = { 0 };
	if (inflateInit2(&z, wbits) != Z_OK)
		xalloc_die();
	int rc = Z_OK;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)n;   /* bodies are far below 4 GiB: --max-body */
	for (;;) {
		if (room(s) < 0) {
			rc = DECODE_TOO_LARGE;
			break;
		}
		z.next_out = (unsigned char *)*s->buf + s->len;
		z.avail_out = (uInt)(*s->cap - s->len);
		rc = inflate(&z, Z_NO_FLUSH);
		s->len = *s->cap - z.avail_out;
		if (rc == Z_STREAM_END) {
			if (wbits != 31 || z.avail_in == 0) {
				rc = DECODE_OK;
				break;
			}
			inflateReset(&z);   /* another gzip member */
			continue;
		}
		if (rc == Z_BUF_ERROR && z.avail_in == 0) {
			rc = partial ? DECODE_OK : DECODE_BAD;   /* it ends early */
			break;
		}
		if (rc != Z_OK && rc != Z_BUF_ERROR) {
			rc = DECODE_BAD;
			break;
		}
	}
	inflateEnd(&z);
	return rc == DECODE_OK && s->len > s->max ? DECODE_TOO_LARGE : rc;
}

static int
brotli_into(sink *s, const unsigned char *in, size_t n, int partial)
{
	BrotliDecoderState *b = BrotliDecoderCreateInstance(NULL, NULL, NULL);
	if (!b)
		xalloc_die();
	int rc;
	for (;;) {
		if (room(s) < 0) {
			rc = DECODE_TOO_LARGE;
			break;
		}
		size_t avail = *s->cap - s->len;
		uint8_t *next = (uint8_t *)*s->buf + s->len;
		BrotliDecoderResult r = BrotliDecoderDecompressStream(b, &n, &in, &avail, &next, NULL);
		s->len = *s->cap - avail;
		if (r == BROTLI_DECODER_RESULT_SUCCESS) {
			rc = DECODE_OK;
			break;
		}
		if (r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
			rc = partial ? DECODE_OK : DECODE_BAD;
			break;
		}
		if (r == BROTLI_DECODER_RESULT_ERROR) {
			rc = DECODE_BAD;
			break;
		}
	}
	BrotliDecoderDestroyInstance(b);
	return rc == DECODE_OK && s->len > s->max ? DECODE_TOO_LARGE : rc;
}

static int
zstd_into(sink *s, const unsigned char *in, size_t n, int partial)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	if (!z)
		xalloc_die();
	ZSTD_inBuffer ib = { in, n, 0 };
	int rc;
	size_t r = 0;
	for (;;) {
		if (room(s) < 0) {
			rc = DECODE_TOO_LARGE;
			break;
		}
		ZSTD_outBuffer ob = { *s->buf, *s->cap, s->len };
		r = ZSTD_decompressStream(z, &ob, &ib);
		s->len = ob.pos;
		if (ZSTD_isError(r)) {
			rc = DECODE_BAD;
			break;
		}
		if (ib.pos == ib.size && ob.pos < ob.size) {
			/* all read: r == 0 when the last frame was whole */
			rc = r == 0 || partial ? DECODE_OK : DECODE_BAD;
			break;
		}
	}
	ZSTD_freeDStream(z);
	return rc == DECODE_OK && s->len > s->max ? DECODE_TOO_LARGE : rc;
}

/* The coding named by t[0..n), case aside. */
static enum coding
coding_of(const char *t, size_t n)
{
	static const struct { const char *name; enum coding c; } names[] = {
		{ "identity", C_IDENTITY }, { "gzip", C_GZIP }, { "x-gzip", C_GZIP },
		{ "deflate", C_DEFLATE }, { "br", C_BR }, { "zstd", C_ZSTD },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i].name) == n && strncasecmp(t, names[i].name, n) == 0)
			return names[i].c;
	return C_UNKNOWN;
}

/* Undoes one coding of in[0..n) into s. */
static int
undo(sink *s, enum coding c, const char *in, size_t n, int partial)
{
	const unsigned char *u = (const unsigned char *)in;
	switch (c) {
	case C_GZIP:
		return inflate_into(s, u, n, 31, partial);
	case C_DEFLATE: {
		/* RFC 9110's deflate is zlib's format; some servers send it
		 * raw, which browsers (and libcurl) take too. */
		int rc = inflate_into(s, u, n, 15, partial);
		if (rc == DECODE_BAD && s->len == 0)
			rc = inflate_into(s, u, n, -15, partial);
		return rc;
	}
	case C_BR:
		return brotli_into(s, u, n, partial);
	case C_ZSTD:
		return zstd_into(s, u, n, partial);
	default:
		return DECODE_BAD;
	}
}

int
decode_body(decoder *d, const char *coding, const char *in, size_t n, size_t max, int partial,
	    const char **out, size_t *out_len)
{
	enum coding list[8];
	int k = 0;
	for (const char *p = coding; *p;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		size_t len = strcspn(p, ", \t");
		if (!len)
			break;
		enum coding c = coding_of(p, len);
		if (c == C_UNKNOWN || k == (int)(sizeof list / sizeof list[0]))
			return DECODE_BAD;
		if (c != C_IDENTITY)
			list[k++] = c;
		p += len;
	}
	*out = in;
	*out_len = n;
	if (!k && n > max)
		return DECODE_TOO_LARGE;
	/* The last coding applied is undone first, each into the buffer
	 * the one before did not write. */
	for (int i = k - 1, b = 0; i >= 0; i--, b ^= 1) {
		sink s = { &d->buf[b], &d->cap[b], 0, max };
		int rc = undo(&s, list[i], *out, *out_len, partial);
		if (rc != DECODE_OK)
			return rc;
		*out = d->buf[b];
		*out_len = s.len;
	}
	return DECODE_OK;
}

void
decode_free(decoder *d)
{
	for (int i = 0; i < 2; i++)
		free(d->buf[i]);
	*d = (decoder){ 0 };
}
