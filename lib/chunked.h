/* chunked — undoing HTTP/1.1's chunked transfer coding (RFC 9112 7.1),
 * for bodies kept as they came off the wire: fetch --raw's payload (a
 * WARC holds the payload without its transfer coding) and chunked
 * bodies that some archives store raw.  Pure: bytes in, bytes out. */
#ifndef SLUICE_CHUNKED_H
#define SLUICE_CHUNKED_H

#include <stddef.h>

/* Decodes the chunked body buf[0..n) in place: the chunks' data, one
 * after the other, chunk extensions and trailers dropped.  Returns the
 * decoded length; sets *whole to 1 when the last chunk (size 0) was
 * found, 0 when the body ends early or a size line is malformed (what
 * was decoded before it is kept: a cut body, as the wire had it). */
size_t chunked_decode(char *buf, size_t n, int *whole);

#endif
