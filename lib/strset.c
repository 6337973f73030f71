#include "strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A removed entry: probing goes on past it. */
static char gone;
#define STRSET_GONE (&gone)

size_t
strset_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;   /* FNV-1a's offset basis */
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return (size_t)h;
}

/* The slot holding s, or the empty one where it would go. */
static char **
find(const strset *set, const char *s)
{
	char **tomb = NULL;
	for (size_t i = strset_hash(s) & (set->cap - 1);; i = (i + 1) & (set->cap - 1)) {
		char **p = &set->slot[i];
		if (!*p)
			return tomb ? tomb : p;
		if (*p == STRSET_GONE)
			tomb = tomb ? tomb : p;
		else if (strcmp(*p, s) == 0)
			return p;
	}
}

int
strset_has(const strset *set, const char *s)
{
	if (set->n == 0)
		return 0;
	char **p = find(set, s);
	return *p && *p != STRSET_GONE;
}

/* Rehashes into twice the live entries' room, dropping removed ones. */
static int
grow(strset *set)
{
	size_t cap = 16;
	while (cap < set->n * 4)
		cap *= 2;
	strset t = { calloc(cap, sizeof(char *)), cap, 0, 0 };
	if (!t.slot)
		return -1;
	for (size_t i = 0; i < set->cap; i++)
		if (set->slot[i] && set->slot[i] != STRSET_GONE) {
			*find(&t, set->slot[i]) = set->slot[i];
			t.n = ++t.used;
		}
	free(set->slot);
	*set = t;
	return 0;
}

int
strset_add(strset *set, const char *s)
{
	if ((set->used + 1) * 2 > set->cap && grow(set) != 0)
		return -1;
	char **p = find(set, s);
	if (*p && *p != STRSET_GONE)
		return 0;
	char *copy = strdup(s);
	if (!copy)
		return -1;
	if (!*p)
		set->used++;
	*p = copy;
	set->n++;
	return 1;
}

int
strset_del(strset *set, const char *s)
{
	if (set->n == 0)
		return 0;
	char **p = find(set, s);
	if (!*p || *p == STRSET_GONE)
		return 0;
	free(*p);
	*p = STRSET_GONE;
	set->n--;
	return 1;
}

const char *
strset_next(const strset *set, size_t *i)
{
	for (; *i < set->cap; (*i)++)
		if (set->slot[*i] && set->slot[*i] != STRSET_GONE)
			return set->slot[(*i)++];
	return NULL;
}

void
strset_free(strset *set)
{
	for (size_t i = 0; i < set->cap; i++)
		if (set->slot[i] != STRSET_GONE)
			free(set->slot[i]);
	free(set->slot);
	*set = (strset){ 0 };
}
