/* smaps — a process's proportional memory, from /proc/PID/smaps_rollup.
 *
 * RSS counts a page that n processes share n times, once in each; PSS
 * counts 1/n of it in each, so the PSS of a process tree sums to what
 * the tree holds.  A browser's processes share much (its binary, fonts,
 * shared memory), so for them the two differ most. */
#ifndef SLUICE_SMAPS_H
#define SLUICE_SMAPS_H

#include <stddef.h>

/* The Pss: line of smaps_rollup text s (n bytes, not NUL-terminated),
 * in bytes, into *bytes: 0, or -1 when s holds none. */
int smaps_pss(const char *s, size_t n, size_t *bytes);

/* Process pid's PSS in bytes into *bytes: 0, or -1 when its
 * smaps_rollup cannot be read (the process is gone, the kernel is older
 * than 4.14, or it is another user's and we may not) or holds no Pss:
 * line. */
int smaps_pid_pss(long pid, size_t *bytes);

#endif
