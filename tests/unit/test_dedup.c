/* test_dedup — parse's content_hash and simhash (parser/dedup.c):
 * SHA-256 against FIPS 180-2's vectors, normalization, and simhash
 * distances for near and different texts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "dedup.h"

#define CHECK_PROG "test_dedup"
#include "check.h"

/* A pseudo-random article of n words from a small vocabulary: the
 * same seed gives the same text. */
static char *
article(unsigned seed, int n)
{
	static const char *const vocab[] = {
		"the", "server", "keeps", "a", "log", "of", "every", "request", "and",
		"its", "answer", "which", "operators", "read", "when", "pages", "fail",
		"to", "load", "in", "time", "while", "crawlers", "wait", "politely",
		"for", "their", "turn", "on", "each", "host", "table", "index",
		"query", "planner", "chooses", "plan", "rows", "columns", "vacuum",
		"writes", "ahead", "commit", "transaction", "lock", "snapshot",
		"replica", "backup", "restore", "checkpoint",
	};
	size_t nv = sizeof vocab / sizeof vocab[0];
	char *s = malloc((size_t)n * 16 + 1);
	size_t len = 0;
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		len += (size_t)sprintf(s + len, "%s%s%s", i ? " " : "",
				       vocab[(seed >> 16) % nv], i % 12 == 11 ? "." : "");
	}
	s[len] = '\0';
	return s;
}

static uint64_t
sim(const char *s)
{
	pbuf b;
	pbuf_init(&b);
	dedup_normalize(&b, s, strlen(s));
	uint64_t h = dedup_simhash(b.p, b.len);
	pbuf_free(&b);
	return h;
}

int
main(void)
{
	char hex[65];
	dedup_sha256_hex("abc", 3, hex);
	check_str("sha256 of abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hex);
	dedup_sha256_hex("", 0, hex);
	check_str("sha256 of nothing", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", hex);

	pbuf b;
	pbuf_init(&b);
	const char *raw = " \tHello,\n\n WORLD\xc2\xa0 caf\xc3\x89  ";
	dedup_normalize(&b, raw, strlen(raw));
	check_str("normalized: lowercased, spaces collapsed and stripped", "hello, world caf\xc3\x89", b.p);
	dedup_normalize(&b, "", 0);
	check_int("normalized nothing is empty", 0, (long long)b.len);
	pbuf_free(&b);

	char h16[17];
	dedup_hex64(0x0123456789abcdefULL, h16);
	check_str("hex64", "0123456789abcdef", h16);
	dedup_hex64(~0ULL, h16);
	check_str("hex64 of all ones", "ffffffffffffffff", h16);

	check_int("simhash of no words", 0, (long long)sim("  ... "));
	check_true("simhash ignores case and spacing",
		   sim("The Quick brown fox, jumps") == sim("the quick  BROWN fox jumps"));
	check_true("simhash keeps word order", sim("a b c d") != sim("d c b a"));
	/* Pinned: the votes are counted a byte a bit and emptied every
	 * 255 shingles, which must not change a hash (records and sink's
	 * near-duplicate column keep them). */
	char *pin = article(7, 1000);
	char pinhex[17];
	dedup_hex64(sim(pin), pinhex);
	check_str("simhash of a 1000-word article, as first defined", "4346967fca9648b4", pinhex);
	free(pin);

	/* Near: one sentence of an article changed (a word replaced), over
	 * 50 articles of 1000 words: simhash is a vote, so a copy lands
	 * within 3 bits often, not always; a sentence rewritten whole is a
	 * bigger share of the shingles (docs/records.md). */
	int near = 0, worst = 0;
	for (unsigned seed = 1; seed <= 50; seed++) {
		char *a = article(seed, 1000), *c = strdup(a);
		char *w = strchr(c + 3000, ' ') + 1;
		memcpy(w, "zzz", 3);   /* a word none of the vocabulary has */
		int d = dedup_distance(sim(a), sim(c));
		near += d <= 3;
		worst = d > worst ? d : worst;
		free(a);
		free(c);
	}
	printf("# one word changed: %d of 50 within distance 3, the farthest %d\n", near, worst);
	check_true("one changed sentence: at least 45 of 50 within distance 3", near >= 45);

	/* Far: every pair of 50 other articles from the same vocabulary. */
	uint64_t h[50];
	for (unsigned i = 0; i < 50; i++) {
		char *o = article(100 + i, 1000);
		h[i] = sim(o);
		free(o);
	}
	int nearest = 64;
	for (int i = 0; i < 50; i++)
		for (int j = i + 1; j < 50; j++) {
			int d = dedup_distance(h[i], h[j]);
			nearest = d < nearest ? d : nearest;
		}
	printf("# nearest of 1225 pairs of different articles: distance %d\n", nearest);
	check_true("different articles: all beyond distance 3", nearest > 3);
	check_int("distance of complements", 64, dedup_distance(0, ~0ULL));
	return check_done();
}
