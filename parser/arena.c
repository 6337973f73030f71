#include "arena.h"

#include <stdint.h>
#include <stdlib.h>

#include "xalloc.h"

/* Under ASan (make SAN=1) the arena keeps ASan's checks working: free
 * chunk space is poisoned, each allocation is unpoisoned exactly and
 * followed by a poisoned gap, and arena_reset poisons everything, so an
 * overflow of a gumbo string or a use of the tree after its page is done
 * is still reported. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define ARENA_GAP 16
#define ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ARENA_GAP 0
#define ARENA_POISON(p, n) ((void)(p), (void)(n))
#define ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Chunk size: big enough that a typical page needs one or two, small
 * enough that a tiny page does not touch much memory. */
#define ARENA_CHUNK ((size_t)1 << 20)
#define ARENA_KEEP ((size_t)8 << 20)
#define ARENA_ALIGN 16

struct arena_chunk {
	arena_chunk *next;
	size_t size, used;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

void
arena_init(arena *a)
{
	a->head = a->spare = NULL;
	a->used = a->cap = 0;
	a->over = NULL;
}

/* Frees a chain of chunks. */
static void
arena_free_list(arena_chunk *c)
{
	while (c) {
		arena_chunk *next = c->next;
		free(c);
		c = next;
	}
}

void
arena_free(arena *a)
{
	/* Chunks go back to malloc unpoisoned, as ASan expects. */
	for (arena_chunk *c = a->head; c; c = c->next)
		ARENA_UNPOISON(c->data, c->size);
	for (arena_chunk *c = a->spare; c; c = c->next)
		ARENA_UNPOISON(c->data, c->size);
	arena_free_list(a->head);
	arena_free_list(a->spare);
	arena_init(a);
}

void
arena_reset(arena *a)
{
	/* Every chunk becomes spare, up to the budget; the rest (the tail
	 * of a huge page) goes back to malloc. */
	size_t kept = 0;
	a->used = 0;
	for (arena_chunk *c = a->spare; c; c = c->next)
		kept += c->size;
	while (a->head) {
		arena_chunk *c = a->head;
		a->head = c->next;
		if (kept + c->size <= ARENA_KEEP && c->size == ARENA_CHUNK) {
			c->used = 0;
			ARENA_POISON(c->data, c->size);
			c->next = a->spare;
			a->spare = c;
			kept += c->size;
		} else {
			ARENA_UNPOISON(c->data, c->size);
			free(c);
		}
	}
}

/* A new empty chunk with size bytes of room; dies when out of memory. */
static arena_chunk *
arena_chunk_new(size_t size)
{
	arena_chunk *c = xmalloc(sizeof *c + size);
	c->size = size;
	c->used = 0;
	c->next = NULL;
	ARENA_POISON(c->data, size);
	return c;
}

void *
arena_alloc(void *userdata, size_t n)
{
	arena *a = userdata;
	size_t want = n;
	n = (n + ARENA_GAP + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	arena_chunk *c = a->head;
	if (c && c->size - c->used >= n) {
		void *p = c->data + c->used;
		c->used += n;
		ARENA_UNPOISON(p, want);
		return p;
	}
	size_t add = n > ARENA_CHUNK / 4 ? n : ARENA_CHUNK;
	if (a->over && (a->used + add > a->cap || a->used + add < add))
		longjmp(*a->over, 1);
	a->used += add;
	if (n > ARENA_CHUNK / 4) {
		/* A big block (a long text node, a large vector) gets a chunk
		 * of its own behind head, so head's free space is not lost. */
		arena_chunk *big = arena_chunk_new(n);
		big->used = n;
		if (c) {
			big->next = c->next;
			c->next = big;
		} else {
			a->head = big;
		}
		ARENA_UNPOISON(big->data, want);
		return big->data;
	}
	if (a->spare) {
		c = a->spare;
		a->spare = c->next;
	} else {
		c = arena_chunk_new(ARENA_CHUNK);
	}
	c->next = a->head;
	a->head = c;
	c->used = n;
	ARENA_UNPOISON(c->data, want);
	return c->data;
}

void
arena_dealloc(void *userdata, void *p)
{
	(void)userdata;
	(void)p;
}
