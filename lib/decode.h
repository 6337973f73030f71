/* decode — undoing HTTP content codings (RFC 9110 8.4.1): gzip,
 * deflate (zlib's, or raw as some servers send it), br and zstd, for
 * bodies kept as the server sent them (fetch --from-warc).  What comes
 * out is bounded by the caller's limit, never by the input: a
 * compression bomb stops at it. */
#ifndef SLUICE_DECODE_H
#define SLUICE_DECODE_H

#include <stddef.h>

enum { DECODE_OK = 0, DECODE_BAD = -1, DECODE_TOO_LARGE = -2 };

/* Buffers reused from one body to the next. */
typedef struct decoder {
	char *buf[2];
	size_t cap[2];
} decoder;

/* Decodes in[0..n) by Content-Encoding value coding (a comma list, the
 * codings in the order they were applied; "identity" is none) into
 * *out, *out_len (d's buffer, valid until the next call, or in itself
 * when there is nothing to undo).  DECODE_OK; DECODE_TOO_LARGE when
 * more than max bytes would come out; DECODE_BAD for a coding not
 * known or data that is not of it.  partial: a stream that ends early
 * is kept as far as it goes (a body the archive cut), else it is
 * DECODE_BAD. */
int decode_body(decoder *d, const char *coding, const char *in, size_t n, size_t max, int partial,
		const char **out, size_t *out_len);

/* Frees d's buffers (an output of decode_body with them) and zeroes it. */
void decode_free(decoder *d);


#endif
