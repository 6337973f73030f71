/* utf8 — checking UTF-8 the Unicode standard's way, for the decoders'
 * fast path (parse) and for text PostgreSQL must accept (sink). */
#ifndef SLUICE_UTF8_H
#define SLUICE_UTF8_H

#include <stddef.h>

/* The length of the valid UTF-8 prefix of s[0..n). */
size_t utf8_valid(const unsigned char *s, size_t n);

/* How many bytes at s (n > 0, where no valid sequence starts) form one
 * maximal subpart of an ill-formed sequence: the lead byte plus the
 * continuation bytes that could still have completed it.  WHATWG (and
 * Unicode) replace each such subpart with one U+FFFD. */
size_t utf8_bad_len(const unsigned char *s, size_t n);

#endif
