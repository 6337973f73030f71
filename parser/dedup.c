#include "dedup.h"

#include <string.h>

#include <openssl/evp.h>

#include "htab.h"

void
dedup_normalize(pbuf *b, const char *s, size_t n)
{
	pbuf_reset(b);
	pbuf_reserve(b, n);
	/* Through a local pointer: stores through b->p could alias b, and
	 * the compiler would reload it for every byte. */
	char *o = b->p, *start = o;
	int space = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int ws = pbuf_isspace(c) || c == '\v';
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0xa0) {
			ws = 1;
			i++;
		}
		if (ws) {
			space = o > start;
			continue;
		}
		if (space) {
			*o++ = ' ';
			space = 0;
		}
		*o++ = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
	}
	*o = '\0';
	b->len = (size_t)(o - start);
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

/* The bits of a byte, one to a byte: bit i of b is byte i of
 * SPREAD(b), so a shingle's 64 bits count in eight additions. */
#define SPREAD(b) \
	((uint64_t)((b) & 1) | (uint64_t)((b) >> 1 & 1) << 8 | (uint64_t)((b) >> 2 & 1) << 16 | \
	 (uint64_t)((b) >> 3 & 1) << 24 | (uint64_t)((b) >> 4 & 1) << 32 | \
	 (uint64_t)((b) >> 5 & 1) << 40 | (uint64_t)((b) >> 6 & 1) << 48 | (uint64_t)((b) >> 7 & 1) << 56)
#define SPREAD4(b) SPREAD(b), SPREAD((b) + 1), SPREAD((b) + 2), SPREAD((b) + 3)
#define SPREAD16(b) SPREAD4(b), SPREAD4((b) + 4), SPREAD4((b) + 8), SPREAD4((b) + 12)
#define SPREAD64(b) SPREAD16(b), SPREAD16((b) + 16), SPREAD16((b) + 32), SPREAD16((b) + 48)
static const uint64_t spread[256] = { SPREAD64(0), SPREAD64(64), SPREAD64(128), SPREAD64(192) };

/* The bit votes: how many shingles had each bit set, as eight byte
 * counters a word (acc, emptied into ones before a byte can wrap) and
 * in full (ones).  A bit's vote is its ones against the other
 * shingles' zeros; counting by bytes costs a shingle 8 additions,
 * where a +1/-1 a bit was a third of parse --main's extra time. */
typedef struct votes {
	uint64_t acc[8];
	uint32_t ones[64];
	size_t n, inacc;
} votes;

static void
votes_flush(votes *v)
{
	for (int j = 0; j < 8; j++) {
		for (int b = 0; b < 8; b++)
			v->ones[8 * j + b] += (uint32_t)(v->acc[j] >> 8 * b & 255);
		v->acc[j] = 0;
	}
	v->inacc = 0;
}

/* Adds shingle hash h to the votes. */
static void
vote(votes *v, uint64_t h)
{
	if (v->inacc == 255)
		votes_flush(v);
	for (int j = 0; j < 8; j++)
		v->acc[j] += spread[h >> 8 * j & 255];
	v->inacc++;
	v->n++;
}

uint64_t
dedup_simhash(const char *s, size_t n)
{
	votes v = { 0 };
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
		vote(&v, h);
	}
	if (words == 0)
		return 0;
	if (words < DEDUP_SHINGLE) {
		uint64_t h = 0;
		for (size_t k = 0; k < words; k++)
			h = fmix64(h ^ w[k]);
		vote(&v, h);
	}
	/* A bit is set when its ones outnumber its zeros. */
	votes_flush(&v);
	uint64_t r = 0;
	for (int i = 0; i < 64; i++)
		if (2 * (size_t)v.ones[i] > v.n)
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
