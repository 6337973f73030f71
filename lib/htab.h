/* htab — the tree's one hash table: keys are byte strings (copies the
 * table owns), each with a value pointer the caller owns.  Add, find and
 * remove in constant time on average (open addressing, linear probing,
 * at most half full).  fetch's hosts and lease snapshot, the frontier's
 * host sets, parse's links and validate's per-host summary are htabs.
 *
 * An entry pointer stays valid until the next htab_put or htab_del on
 * the table; a key pointer until its entry is removed. */
#ifndef SLUICE_HTAB_H
#define SLUICE_HTAB_H

#include <stddef.h>
#include <string.h>

typedef struct htab_ent {
	char *key;     /* NUL-terminated copy; NULL: empty slot */
	size_t len;    /* key's length, NULs inside allowed */
	void *val;
} htab_ent;

typedef struct htab {
	htab_ent *slot;
	size_t cap;    /* a power of 2, or 0 before the first put */
	size_t n;      /* entries */
	size_t used;   /* entries and removed slots: what probing sees */
} htab;

/* FNV-1a (64-bit) of key[0..len): the table's hash. */
size_t htab_hash(const char *key, size_t len);
/* The entry of key, or NULL. */
htab_ent *htab_find(const htab *t, const char *key, size_t len);
/* The entry of key, added (with val NULL) when absent, setting *added
 * to 1 then and 0 otherwise (added may be NULL).  NULL when out of
 * memory, the table unchanged. */
htab_ent *htab_put(htab *t, const char *key, size_t len, int *added);
/* Removes key's entry, freeing the key copy; returns its val (NULL when
 * absent, or when the val was NULL). */
void *htab_del(htab *t, const char *key, size_t len);
/* The entry at or after slot *i, moving *i past it; NULL after the last.
 * Start with *i = 0.  htab_del of the entry returned is allowed during a
 * walk; htab_put is not. */
htab_ent *htab_next(const htab *t, size_t *i);
/* Removes every entry, keeping the slots' memory for reuse. */
void htab_clear(htab *t);
/* Frees the keys and the slots (not the vals); the table is empty and
 * usable again. */
void htab_free(htab *t);

/* htab_find of a NUL-terminated key. */
static inline htab_ent *
htab_get(const htab *t, const char *key)
{
	return htab_find(t, key, strlen(key));
}

#endif
