#include "digest.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

struct digest {
	EVP_MD_CTX *ctx;
	enum digest_kind kind;
};

static const EVP_MD *
md(enum digest_kind kind)
{
	return kind == DIGEST_SHA1 ? EVP_sha1() : EVP_sha256();
}

digest *
digest_new(enum digest_kind kind)
{
	digest *d = xcalloc(1, sizeof *d);
	d->kind = kind;
	if (!(d->ctx = EVP_MD_CTX_new()) || !EVP_DigestInit_ex(d->ctx, md(kind), NULL))
		xalloc_die();   /* only a failed allocation stops these */
	return d;
}

void
digest_update(digest *d, const void *p, size_t n)
{
	if (n && !EVP_DigestUpdate(d->ctx, p, n))
		xalloc_die();
}

void
digest_final(digest *d, char *out)
{
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned len = 0;
	if (!EVP_DigestFinal_ex(d->ctx, h, &len) || !EVP_DigestInit_ex(d->ctx, md(d->kind), NULL))
		xalloc_die();
	if (d->kind == DIGEST_SHA1) {
		memcpy(out, "sha1:", 5);
		digest_base32(h, len, out + 5);
		return;
	}
	memcpy(out, "sha256:", 7);
	for (unsigned i = 0; i < len; i++)
		snprintf(out + 7 + 2 * i, 3, "%02x", h[i]);
}

void
digest_free(digest *d)
{
	if (!d)
		return;
	EVP_MD_CTX_free(d->ctx);
	free(d);
}

void
digest_of(enum digest_kind kind, const void *p, size_t n, char *out)
{
	digest *d = digest_new(kind);
	digest_update(d, p, n);
	digest_final(d, out);
	digest_free(d);
}

void
digest_base32(const unsigned char *src, size_t n, char *out)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
	size_t o = 0;
	for (size_t i = 0; i < n; i += 5) {
		unsigned char b[5] = { 0 };
		size_t k = n - i < 5 ? n - i : 5;
		memcpy(b, src + i, k);
		unsigned long long v = 0;
		for (int j = 0; j < 5; j++)
			v = v << 8 | b[j];
		/* 5 bytes give 8 letters; a short group's last ones are '='. */
		size_t letters = (k * 8 + 4) / 5;
		for (int j = 7; j >= 0; j--)
			out[o + (size_t)(7 - j)] = (size_t)(7 - j) < letters ? alphabet[(v >> (5 * j)) & 31] : '=';
		o += 8;
	}
	out[o] = '\0';
}

unsigned
digest_raw(enum digest_kind kind, const void *p, size_t n, unsigned char *out)
{
	unsigned len = 0;
	if (!EVP_Digest(p, n, out, &len, md(kind), NULL))
		xalloc_die();
	return len;
}
