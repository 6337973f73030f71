#include "htab.h"

#include <stdint.h>
#include <stdlib.h>

/* The key of a removed entry: probing goes on past it. */
static char gone;
#define GONE (&gone)

size_t
htab_hash(const char *key, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;   /* FNV-1a's offset basis */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211u;
	return (size_t)h;
}

/* The slot holding key, or the slot where it would go: the first
 * removed one passed, else the empty one that ended the probe. */
static htab_ent *
slot_of(const htab *t, const char *key, size_t len)
{
	htab_ent *tomb = NULL;
	for (size_t i = htab_hash(key, len) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		htab_ent *e = &t->slot[i];
		if (!e->key)
			return tomb ? tomb : e;
		if (e->key == GONE)
			tomb = tomb ? tomb : e;
		else if (e->len == len && memcmp(e->key, key, len) == 0)
			return e;
	}
}

static int
live(const htab_ent *e)
{
	return e->key && e->key != GONE;
}

htab_ent *
htab_find(const htab *t, const char *key, size_t len)
{
	if (t->n == 0)
		return NULL;
	htab_ent *e = slot_of(t, key, len);
	return live(e) ? e : NULL;
}

/* Rehashes into room for four times the live entries, dropping the
 * removed ones. */
static int
grow(htab *t)
{
	size_t cap = 16;
	while (cap < t->n * 4)
		cap *= 2;
	htab_ent *slot = calloc(cap, sizeof *slot);
	if (!slot)
		return -1;
	htab nt = { slot, cap, t->n, t->n };
	for (size_t i = 0; i < t->cap; i++)
		if (live(&t->slot[i]))
			*slot_of(&nt, t->slot[i].key, t->slot[i].len) = t->slot[i];
	free(t->slot);
	*t = nt;
	return 0;
}

htab_ent *
htab_put(htab *t, const char *key, size_t len, int *added)
{
	if ((t->used + 1) * 2 > t->cap && grow(t) != 0)
		return NULL;
	htab_ent *e = slot_of(t, key, len);
	if (added)
		*added = !live(e);
	if (live(e))
		return e;
	char *copy = malloc(len + 1);
	if (!copy)
		return NULL;
	memcpy(copy, key, len);
	copy[len] = '\0';
	if (!e->key)
		t->used++;
	*e = (htab_ent){ copy, len, NULL };
	t->n++;
	return e;
}

void *
htab_del(htab *t, const char *key, size_t len)
{
	htab_ent *e = htab_find(t, key, len);
	if (!e)
		return NULL;
	void *val = e->val;
	free(e->key);
	*e = (htab_ent){ GONE, 0, NULL };
	t->n--;
	return val;
}

htab_ent *
htab_next(const htab *t, size_t *i)
{
	for (; *i < t->cap; (*i)++)
		if (live(&t->slot[*i]))
			return &t->slot[(*i)++];
	return NULL;
}

void
htab_clear(htab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i].key != GONE)
			free(t->slot[i].key);
	if (t->cap)
		memset(t->slot, 0, t->cap * sizeof *t->slot);
	t->n = t->used = 0;
}

void
htab_free(htab *t)
{
	htab_clear(t);
	free(t->slot);
	*t = (htab){ 0 };
}
