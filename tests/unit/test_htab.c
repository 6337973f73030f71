/* Unit tests of lib/htab: put, find, del and next on a table of string
 * copies, through growth and through many removals (tombstones), keys
 * with NULs inside, values kept through growth, clear. */
#include "htab.h"

#include <stdint.h>
#include <stdlib.h>

#define CHECK_PROG "test_htab"
#include "check.h"

/* The set operations the checks below read well as: an entry's val is
 * a marker, so del can tell a removed entry from an absent one. */
static int
strset_has(const htab *t, const char *s)
{
	return htab_get(t, s) != NULL;
}

static int
strset_add(htab *t, const char *s)
{
	int added;
	htab_ent *e = htab_put(t, s, strlen(s), &added);
	if (!e)
		return -1;
	e->val = (void *)t;
	return added;
}

static int
strset_del(htab *t, const char *s)
{
	return htab_del(t, s, strlen(s)) != NULL;
}

/* How many entries htab_next visits, and whether each is in the set
 * and seen once (by a mark in seen[], indexed by the "hN" number). */
static size_t
walk(const htab *s, unsigned char *seen, size_t max, int *dup)
{
	size_t i = 0, n = 0;
	const char *e;
	*dup = 0;
	for (htab_ent *ent; (ent = htab_next(s, &i));) {
		e = ent->key;
		n++;
		if (seen && e[0] == 'h') {
			size_t k = strtoul(e + 1, NULL, 10);
			if (k < max)
				*dup += seen[k]++ != 0;
		}
	}
	return n;
}

int
main(void)
{
	/* FNV-1a, 64-bit: the published offset basis and test vectors. */
	if (sizeof(size_t) == 8) {
		check_int("htab_hash('') is the offset basis", (long long)0xcbf29ce484222325u,
			  (long long)htab_hash("", 0));
		check_int("htab_hash('a')", (long long)0xaf63dc4c8601ec8cu,
			  (long long)htab_hash("a", 1));
		check_int("htab_hash('foobar')", (long long)0x85944171f73967e8u,
			  (long long)htab_hash("foobar", 6));
	}

	htab s = { 0 };
	int dup;
	check_int("an empty set has nothing", 0, strset_has(&s, "a"));
	check_int("del on an empty set", 0, strset_del(&s, "a"));
	check_int("next on an empty set", 0, (long long)walk(&s, NULL, 0, &dup));

	char buf[] = "example.com";
	check_int("add a new entry", 1, strset_add(&s, buf));
	buf[0] = 'X';                                   /* the set holds a copy */
	check_int("has it after its source changed", 1, strset_has(&s, "example.com"));
	check_int("adding it again", 0, strset_add(&s, "example.com"));
	check_int("n counts it once", 1, (long long)s.n);
	check_int("a prefix is another string", 0, strset_has(&s, "example.co"));
	check_int("case matters", 0, strset_has(&s, "Example.com"));
	check_int("the empty string is an entry", 1, strset_add(&s, ""));
	check_int("has the empty string", 1, strset_has(&s, ""));
	check_int("next visits both", 2, (long long)walk(&s, NULL, 0, &dup));
	check_int("del removes it", 1, strset_del(&s, "example.com"));
	check_int("a second del finds nothing", 0, strset_del(&s, "example.com"));
	check_int("gone after del", 0, strset_has(&s, "example.com"));
	check_int("the other stays", 1, strset_has(&s, ""));
	check_int("re-add after del", 1, strset_add(&s, "example.com"));
	check_int("has it again", 1, strset_has(&s, "example.com"));
	check_int("n is 2", 2, (long long)s.n);
	htab_free(&s);
	check_int("free empties", 0, (long long)(s.n + s.cap + s.used) + (s.slot != NULL));
	check_int("a freed set is usable", 1, strset_add(&s, "a"));
	htab_free(&s);

	/* Growth: 20000 entries, every one there, next visits each once. */
	enum { N = 20000 };
	unsigned char *seen = calloc(N, 1);
	char key[32];
	int bad = 0;
	for (size_t k = 0; k < N; k++) {
		snprintf(key, sizeof key, "h%zu", k);
		bad += strset_add(&s, key) != 1;
	}
	check_int("20000 adds each new", 0, bad);
	check_int("n is 20000", N, (long long)s.n);
	check_true("the table stays at most half full", s.used * 2 <= s.cap);
	bad = 0;
	for (size_t k = 0; k < N; k++) {
		snprintf(key, sizeof key, "h%zu", k);
		bad += strset_has(&s, key) != 1;
	}
	check_int("has each of 20000", 0, bad);
	check_int("has no h20000", 0, strset_has(&s, "h20000"));
	check_int("next visits 20000", N, (long long)walk(&s, seen, N, &dup));
	check_int("next visits each once", 0, dup);

	/* Tombstones: delete the even ones; the odd stay findable past them. */
	bad = 0;
	for (size_t k = 0; k < N; k += 2) {
		snprintf(key, sizeof key, "h%zu", k);
		bad += strset_del(&s, key) != 1;
	}
	check_int("10000 dels each found", 0, bad);
	check_int("n is 10000", N / 2, (long long)s.n);
	bad = 0;
	for (size_t k = 0; k < N; k++) {
		snprintf(key, sizeof key, "h%zu", k);
		bad += strset_has(&s, key) != (int)(k & 1);
	}
	check_int("only the odd remain", 0, bad);
	memset(seen, 0, N);
	check_int("next skips removed slots", N / 2, (long long)walk(&s, seen, N, &dup));
	/* Re-add the even ones: each new again, none twice. */
	bad = 0;
	for (size_t k = 0; k < N; k += 2) {
		snprintf(key, sizeof key, "h%zu", k);
		bad += strset_add(&s, key) != 1;
	}
	check_int("re-adds each new", 0, bad);
	check_int("n is 20000 again", N, (long long)s.n);
	memset(seen, 0, N);
	check_int("next visits 20000 after re-adds", N, (long long)walk(&s, seen, N, &dup));
	check_int("each once after re-adds", 0, dup);

	/* Churn: add and remove one key 100000 times; tombstones must not
	 * fill the table (an add would then probe forever). */
	bad = 0;
	for (size_t k = 0; k < 100000; k++) {
		snprintf(key, sizeof key, "churn%zu", k);
		bad += strset_add(&s, key) != 1 || strset_del(&s, key) != 1;
	}
	check_int("100000 add+del pairs", 0, bad);
	check_int("n is still 20000", N, (long long)s.n);
	check_true("used stays at most half the slots", s.used * 2 <= s.cap);
	bad = 0;
	for (size_t k = 0; k < N; k++) {
		snprintf(key, sizeof key, "h%zu", k);
		bad += !strset_has(&s, key) || strset_del(&s, key) != 1;
	}
	check_int("remove all 20000", 0, bad);
	check_int("n is 0", 0, (long long)s.n);
	check_int("next on a set of tombstones", 0, (long long)walk(&s, NULL, 0, &dup));
	check_int("a removed key is not there", 0, strset_has(&s, "h1"));
	check_int("add after emptying", 1, strset_add(&s, "h1"));
	check_int("has it", 1, strset_has(&s, "h1"));
	htab_free(&s);

	/* Keys are bytes with a length: NULs inside, prefixes apart. */
	int added;
	htab_ent *e = htab_put(&s, "a\0b", 3, &added);
	check_true("a key with a NUL inside is added", e && added);
	e->val = &s;
	check_true("found by its bytes", htab_find(&s, "a\0b", 3) == e);
	check_true("its prefix up to the NUL is another key", htab_find(&s, "a", 1) == NULL);
	check_int("the copy is NUL-terminated", 0, e->key[3]);
	check_true("put of a present key returns it, not added",
		   htab_put(&s, "a\0b", 3, &added) == e && !added && e->val == &s);

	/* Values survive growth. */
	static int vals[N];
	bad = 0;
	for (size_t k = 0; k < N; k++) {
		snprintf(key, sizeof key, "v%zu", k);
		htab_ent *v = htab_put(&s, key, strlen(key), NULL);
		if (!v) {
			bad++;
			continue;
		}
		v->val = &vals[k];
	}
	for (size_t k = 0; k < N; k++) {
		snprintf(key, sizeof key, "v%zu", k);
		htab_ent *v = htab_get(&s, key);
		bad += !v || v->val != &vals[k];
	}
	check_int("20000 values found where put", 0, bad);
	check_true("del returns the value", htab_del(&s, "v7", 2) == &vals[7]);
	check_true("del of an absent key returns NULL", htab_del(&s, "v7", 2) == NULL);

	/* Removing the entry just walked is allowed. */
	size_t i = 0, walked = 0;
	for (htab_ent *w; (w = htab_next(&s, &i)); walked++)
		htab_del(&s, w->key, w->len);
	check_int("a walk that removes visits every entry", N, (long long)walked);
	check_int("and leaves the table empty", 0, (long long)s.n);

	/* Clear keeps the slots, forgets the entries. */
	strset_add(&s, "x");
	size_t cap = s.cap;
	htab_clear(&s);
	check_int("clear empties", 0, (long long)(s.n + s.used));
	check_int("clear keeps the slots", (long long)cap, (long long)s.cap);
	check_int("x is gone after clear", 0, strset_has(&s, "x"));
	check_int("usable after clear", 1, strset_add(&s, "x"));
	htab_free(&s);
	free(seen);
	return check_done();
}
