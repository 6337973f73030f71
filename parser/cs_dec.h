/* cs_dec — the WHATWG Encoding Standard's decoders, label lookup and the
 * HTML <meta> prescan, behind charset.h.
 *
 * Each decoder follows the standard's algorithm for its encoding
 * (https://encoding.spec.whatwg.org/), error mode "replacement": it
 * appends the UTF-8 of s[0..n) to out, an error is one U+FFFD, and a byte
 * the standard "prepends" to the input is read again.  None fails, none
 * reads outside s, and out is NUL-terminated afterwards.  The tables they
 * read are the standard's indexes, generated into cs_tables.c.
 */
#ifndef PARSE_CS_DEC_H
#define PARSE_CS_DEC_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "cs_data.h"

/* The encoding a label names, as the standard's "get an encoding": ASCII
 * whitespace trimmed, ASCII case ignored.  -1 when it names none. */
int cs_label_find(const char *s, size_t n);

/* How far into a page the prescan looks, as HTML specifies. */
#define CS_PRESCAN 1024

/* The encoding a <meta> in the first limit bytes of s[0..n) names, by
 * the HTML standard's "prescan a byte stream to determine its encoding"
 * (UTF-16 becomes UTF-8, x-user-defined windows-1252), or -1. */
int cs_prescan(const char *s, size_t n, size_t limit);

/* The encoding named by a meta content attribute value s[0..n), by the
 * HTML standard's "extracting a character encoding from a meta element",
 * or -1. */
int cs_meta_content(const char *s, size_t n);

/* UTF-8 with each ill-formed subpart replaced by U+FFFD: sets *out to s
 * itself when it is all valid, else to scratch's text. */
void cs_utf8(const char *s, size_t n, pbuf *scratch, const char **out, size_t *outn);

/* Decodes s[0..n) in enc (any but UTF-8), appending to out. */
void cs_dec(enum cs_enc enc, const unsigned char *s, size_t n, pbuf *out);

void cs_dec_single(const uint16_t *index, const unsigned char *s, size_t n, pbuf *out);
void cs_dec_x_user_defined(const unsigned char *s, size_t n, pbuf *out);
void cs_dec_replacement(const unsigned char *s, size_t n, pbuf *out);
void cs_dec_utf16(int be, const unsigned char *s, size_t n, pbuf *out);
void cs_dec_gb18030(const unsigned char *s, size_t n, pbuf *out);
void cs_dec_big5(const unsigned char *s, size_t n, pbuf *out);
void cs_dec_euc_jp(const unsigned char *s, size_t n, pbuf *out);
void cs_dec_iso_2022_jp(const unsigned char *s, size_t n, pbuf *out);
void cs_dec_shift_jis(const unsigned char *s, size_t n, pbuf *out);
void cs_dec_euc_kr(const unsigned char *s, size_t n, pbuf *out);

/* The replacement character, the decoders' "error". */
#define CS_FFFD 0xFFFDu

/* What a two-byte decoder's first(b) says of a byte outside a pair: a
 * code point (>= 0), or one of these. */
#define CS_LEAD (-1L)   /* starts a pair */
#define CS_BAD (-2L)    /* an error */

/* The loop that Big5, EUC-KR and Shift_JIS share: a byte is first(b)'s
 * character, or a lead; then pair(lead, b, out) writes the pair's
 * character(s) and returns 1, or returns 0 for an error, which is one
 * U+FFFD with an ASCII trail byte read again (cs_trail).  A lead at the
 * end is an error too. */
void cs_dec_pairs(const unsigned char *s, size_t n, pbuf *out, long (*first)(unsigned b),
		  int (*pair)(unsigned lead, unsigned b, pbuf *out));

/* Appends code point c (a scalar value) to b as UTF-8, keeping room for
 * the NUL that cs_end writes. */
static inline void
cs_put(pbuf *b, uint32_t c)
{
	if (b->cap - b->len < 5)
		pbuf_reserve(b, 4);
	unsigned char *o = (unsigned char *)b->p + b->len;
	if (c < 0x80) {
		o[0] = (unsigned char)c;
		b->len += 1;
	} else if (c < 0x800) {
		o[0] = (unsigned char)(0xc0 | c >> 6);
		o[1] = (unsigned char)(0x80 | (c & 0x3f));
		b->len += 2;
	} else if (c < 0x10000) {
		o[0] = (unsigned char)(0xe0 | c >> 12);
		o[1] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (c & 0x3f));
		b->len += 3;
	} else {
		o[0] = (unsigned char)(0xf0 | c >> 18);
		o[1] = (unsigned char)(0x80 | (c >> 12 & 0x3f));
		o[2] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		o[3] = (unsigned char)(0x80 | (c & 0x3f));
		b->len += 4;
	}
}

/* NUL-terminates b after the decoders' cs_put calls. */
static inline void
cs_end(pbuf *b)
{
	pbuf_reserve(b, 0);
	b->p[b->len] = '\0';
}

/* Ends a two-byte sequence at its trail byte b = s[*i]: writes c, or
 * U+FFFD when c is 0 (the pair has no character), and steps past b
 * unless b is ASCII, which the standard reads again as a byte of its own. */
static inline void
cs_trail(pbuf *out, uint32_t c, unsigned b, size_t *i)
{
	cs_put(out, c ? c : CS_FFFD);
	if (c || b >= 0x80)
		(*i)++;
}

/* The code point at pointer p of a multi-byte index of n entries, or 0
 * (the index's null) when p is past its end or has none. */
static inline uint32_t
cs_index(const uint16_t *index, size_t n, size_t p)
{
	return p < n ? index[p] : 0;
}

#endif
