#include "dedup.h"

#include <string.h>

#include <openssl/evp.h>

#include "htab.h"

void
dedup_normalize(pbuf *b, const char *s, size_t n)
{
	pbuf_reset(b);
	pbuf_reserve(b, n);
	int space = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int ws = pbuf_isspace(c) || c == '\v';
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0xa0) {
			ws = 1;
			i++;
		}
		if (ws) {
			space = b->len > 0;
			continue;
		}
		if (space) {
			b->p[b->len++] = ' ';
			space = 0;
		}
		b->p[b->len++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	b->p[b->len] = '\0';
}

int
dedup_sha256_hex(const char *s, size_t n, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	hex[0] = '\0';
	if (!EVP_Digest(s, n, md, &len, EVP_sha256(), NULL) || len != 32)
		return -1;
	static const char digits[] = "0123456789abcdef";
	for (unsigned i = 0; i < len; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[64] = '\0';
	return 0;
}

/* MurmurHash3's finalizer: FNV-1a alone leaves its high bits poorly
 * mixed, and simhash needs every bit of a feature's hash a fair coin. */
static uint64_t
fmix64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static int
is_punct(unsigned char c)
{
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
	       (c >= '{' && c <= '~');
}

/* Adds shingle hash h to the bit votes. */
static void
vote(int32_t v[64], uint64_t h)
{
	for (int i = 0; i < 64; i++)
		v[i] += (h >> i & 1) ? 1 : -1;
}

uint64_t
dedup_simhash(const char *s, size_t n)
{
	int32_t v[64] = { 0 };
	uint64_t w[DEDUP_SHINGLE];   /* the last words' hashes, a ring */
	size_t words = 0;
	for (size_t i = 0; i < n;) {
		while (i < n && s[i] == ' ')
			i++;
		size_t a = i;
		while (i < n && s[i] != ' ')
			i++;
		size_t e = i;
		while (a < e && is_punct((unsigned char)s[a]))
			a++;
		while (e > a && is_punct((unsigned char)s[e - 1]))
			e--;
		if (a == e)
			continue;
		w[words % DEDUP_SHINGLE] = htab_hash(s + a, e - a);
		if (++words < DEDUP_SHINGLE)
			continue;
		/* Combined in order, so "a b c" and "c b a" differ. */
		uint64_t h = 0;
		for (size_t k = words - DEDUP_SHINGLE; k < words; k++)
			h = fmix64(h ^ w[k % DEDUP_SHINGLE]);
		vote(v, h);
	}
	if (words == 0)
		return 0;
	if (words < DEDUP_SHINGLE) {
		uint64_t h = 0;
		for (size_t k = 0; k < words; k++)
			h = fmix64(h ^ w[k]);
		vote(v, h);
	}
	uint64_t r = 0;
	for (int i = 0; i < 64; i++)
		if (v[i] > 0)
			r |= 1ULL << i;
	return r;
}

int
dedup_distance(uint64_t a, uint64_t b)
{
	return __builtin_popcountll(a ^ b);
}

void
dedup_hex64(uint64_t h, char out[17])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 15; i >= 0; i--, h >>= 4)
		out[i] = digits[h & 15];
	out[16] = '\0';
}
