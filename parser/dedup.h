/* dedup — what lets sink tell that two pages hold the same article:
 * `content_hash`, the SHA-256 of the normalized main text (equal text,
 * whatever the menus around it), and `simhash`, a 64-bit fingerprint over
 * its word shingles that moves by a few bits when a sentence changes
 * (Charikar's simhash; sink calls two pages near-duplicates within a
 * Hamming distance of 3, as Manku et al. did for the web).  Both are
 * written by parse --main; docs/records.md says how to read them.
 */
#ifndef PARSE_DEDUP_H
#define PARSE_DEDUP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Words per shingle: three words keep word order in the fingerprint
 * without letting one changed word touch more than three features. */
#define DEDUP_SHINGLE 3

/* Writes s[0..n) (UTF-8) to b (reset first) as both hashes see it:
 * ASCII letters lowercased, runs of whitespace (ASCII, and U+00A0
 * no-break space) collapsed to one space, none leading or trailing. */
void dedup_normalize(pbuf *b, const char *s, size_t n);

/* The SHA-256 of s[0..n) as 64 lowercase hex digits and a NUL, through
 * libcrypto's EVP interface.  0, or -1 when libcrypto failed (out of
 * memory), hex then "". */
int dedup_sha256_hex(const char *s, size_t n, char hex[65]);

/* The simhash of normalized text s[0..n): each run of DEDUP_SHINGLE
 * words (words are the space-separated tokens with ASCII punctuation
 * trimmed from their ends; a text of fewer words is one shingle) hashed
 * to 64 bits, and bit i of the result set where most shingles have it
 * set.  0 for a text without words. */
uint64_t dedup_simhash(const char *s, size_t n);

/* How many bits a and b differ in. */
int dedup_distance(uint64_t a, uint64_t b);

/* h as 16 lowercase hex digits and a NUL: the record's `simhash`. */
void dedup_hex64(uint64_t h, char out[17]);

#endif
