/* cs — find a page's character encoding and decode it to UTF-8.
 *
 * gumbo only reads UTF-8, so every body is decoded first.  The encoding
 * is chosen the way browsers do, in this order: a byte order mark, the
 * charset parameter of the Content-Type, a <meta> in the first 1024
 * bytes (the HTML standard's prescan), else UTF-8 unless the body is
 * not UTF-8 and a <meta> comes later (browsers reparse with it).
 * Labels and decoders are the WHATWG Encoding standard's: ISO-8859-1,
 * latin1 and US-ASCII mean windows-1252, gb2312 means GBK, euc-kr means
 * windows-949, and so on.  Bytes that are invalid in the chosen encoding become U+FFFD;
 * decoding never fails.
 */
#ifndef PARSE_CHARSET_H
#define PARSE_CHARSET_H

#include <stddef.h>

#include "buf.h"

/* Decodes body[0..n) to UTF-8.  ctype is the Content-Type value (may be
 * NULL; need not be NUL-terminated, ctn bytes).  Sets *out and *outn to the
 * UTF-8 text, which is either body itself (valid UTF-8 needs no copy,
 * BOM skipped) or scratch's memory; either way it stays valid until
 * scratch or body change. */
void cs_decode(const char *body, size_t n, const char *ctype, size_t ctn,
	       pbuf *scratch, const char **out, size_t *outn);

/* The charset parameter of a Content-Type value, or 0 when there is
 * none: sets *v and *vn to the (unquoted) value inside s. */
int cs_ctype_param(const char *s, size_t n, const char **v, size_t *vn);

#endif
