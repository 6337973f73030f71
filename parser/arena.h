/* arena — a bump allocator for gumbo's trees.
 *
 * gumbo makes one malloc per node, attribute and text buffer (9 million
 * for a 20 MB page) and frees the tree with a recursive walk that
 * overflows the stack on deeply nested pages.  Handing gumbo an arena
 * (GumboOptions.allocator) makes allocation a pointer bump, makes "free"
 * a no-op, and replaces gumbo_destroy_output by arena_reset: no per-node
 * free and no recursion.  gumbo frees little while it parses (its total
 * allocation is ~13% above its peak), so never reusing freed blocks
 * costs little memory.
 */
#ifndef PARSE_ARENA_H
#define PARSE_ARENA_H

#include <setjmp.h>
#include <stddef.h>

typedef struct arena_chunk arena_chunk;

typedef struct arena {
	arena_chunk *head;   /* the chunk being filled; full ones follow */
	arena_chunk *spare;  /* empty chunks kept by arena_reset */
	size_t used;         /* bytes of chunks in head's chain */
	size_t cap;          /* when over is set: most bytes used may reach */
	jmp_buf *over;       /* where arena_alloc jumps past cap; NULL: no cap */
} arena;

void arena_init(arena *a);

/* Frees every chunk. */
void arena_free(arena *a);

/* Forgets every allocation.  Keeps up to ARENA_KEEP bytes of chunks for
 * the next page, so one huge page does not pin its memory for good. */
void arena_reset(arena *a);

/* A GumboAllocatorFunction: n bytes, 16-byte aligned, from the arena
 * passed as userdata.  Dies through xalloc_die when out of memory (gumbo
 * cannot handle a NULL; in a worker the pool reports the death).  When a->over is set
 * and the chunks would pass a->cap bytes, longjmps to *a->over instead:
 * gumbo keeps nothing outside its allocations, which are all in the
 * arena, so leaving it mid-parse and calling arena_reset loses nothing. */
void *arena_alloc(void *userdata, size_t n);

/* A GumboDeallocatorFunction that does nothing: arena_reset frees. */
void arena_dealloc(void *userdata, void *p);

#endif
