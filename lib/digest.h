/* digest — the digests web archives carry: SHA-1 as WARC's
 * WARC-Block-Digest and WARC-Payload-Digest write it ("sha1:" and the
 * 20 bytes in RFC 4648 base32, 32 capitals and digits, as Heritrix,
 * wget and Common Crawl do), and SHA-256 in hex as WACZ's
 * datapackage.json lists its files ("sha256:" and 64 hex digits).
 * OpenSSL's libcrypto computes them. */
#ifndef SLUICE_DIGEST_H
#define SLUICE_DIGEST_H

#include <stddef.h>

enum digest_kind { DIGEST_SHA1, DIGEST_SHA256 };

/* Room for the longest label digest_final writes, NUL included:
 * "sha256:" and 64 hex digits. */
#define DIGEST_LABEL_SIZE 72

typedef struct digest digest;

/* A running digest of kind; dies of out of memory (xalloc). */
digest *digest_new(enum digest_kind kind);

/* Adds p[0..n) to the running digest. */
void digest_update(digest *d, const void *p, size_t n);

/* Writes the digest of everything given since digest_new (or the last
 * digest_final) into out (DIGEST_LABEL_SIZE bytes) as its label, and
 * starts d again, empty. */
void digest_final(digest *d, char *out);

/* Frees d; NULL is nothing. */
void digest_free(digest *d);

/* The label of p[0..n)'s digest of kind into out (DIGEST_LABEL_SIZE
 * bytes): digest_new, digest_update and digest_final at once. */
void digest_of(enum digest_kind kind, const void *p, size_t n, char *out);

/* The largest digest digest_raw writes: SHA-256's 32 bytes. */
#define DIGEST_MAX 32

/* The bytes of p[0..n)'s digest of kind into out (DIGEST_MAX bytes);
 * returns how many: 20 for SHA-1, 32 for SHA-256.  For a reader that
 * compares a digest it was given, in whatever spelling. */
unsigned digest_raw(enum digest_kind kind, const void *p, size_t n, unsigned char *out);

/* src[0..n) in RFC 4648 base32 (capitals and 2-7, '=' padding to a
 * multiple of 8) into out, NUL-terminated; out holds at least
 * (n + 4) / 5 * 8 + 1 bytes. */
void digest_base32(const unsigned char *src, size_t n, char *out);

#endif
