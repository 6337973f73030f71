/* strset — a set of strings (copies), for the hosts a frontier owner
 * holds: add, test and remove in constant time on average. */
#ifndef SLUICE_STRSET_H
#define SLUICE_STRSET_H

#include <stddef.h>

typedef struct strset {
	char **slot;   /* NULL empty, STRSET_GONE removed */
	size_t cap, n, used;
} strset;

/* FNV-1a of s: the set's hash, for other tables keyed by strings. */
size_t strset_hash(const char *s);
/* Whether s is in the set. */
int strset_has(const strset *set, const char *s);
/* Adds a copy of s; 1 when added, 0 when it was there, -1 out of memory. */
int strset_add(strset *set, const char *s);
/* Removes s; 1 when it was there. */
int strset_del(strset *set, const char *s);
/* The entry at or after slot *i, moving *i past it; NULL after the last.
 * Start with *i = 0; the set must not change meanwhile. */
const char *strset_next(const strset *set, size_t *i);
/* Empties the set and frees its memory. */
void strset_free(strset *set);

#endif
