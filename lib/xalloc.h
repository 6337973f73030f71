/* xalloc — the one way out of memory ends: `PROG: out of memory` on
 * stderr and exit 71 (EX_OSERR, lib/msg's exit table).
 *
 * The x* functions are the C library's allocators that never return
 * NULL.  Code whose caller can recover or report with more context (a
 * -1 from rec_in_init, a frontier call filling err) keeps returning an
 * error; code with nowhere sensible to go calls these.  fetch is an
 * event loop whose state (leases held, jobs in flight) cannot be unwound
 * half-way through a callback, so it dies here too: the same end the
 * abort() these replace had, with a message and a documented status
 * instead of a core.  Every buffer an x* call makes is still bounded by
 * a flag, as any other.
 */
#ifndef SLUICE_XALLOC_H
#define SLUICE_XALLOC_H

#include <stddef.h>

/* Prints `PROG: out of memory` and exits 71, for a caller whose
 * allocator reported failure its own way (a -1, a NULL from a library). */
_Noreturn void xalloc_die(void);

/* malloc, calloc and realloc that die instead of returning NULL.  A
 * size of 0 allocates one byte, so the result is never NULL either. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);

/* strdup and strndup that die instead of returning NULL. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* a, sep and b in one new string: a path ("/") or an environment
 * entry ("="). */
char *xjoin(const char *a, const char *sep, const char *b);

#endif
