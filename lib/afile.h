/* afile — a file a reader never sees half of: written to a temporary
 * file beside it and renamed over it (rename(2) in one directory is
 * atomic).  What --stats and --metrics write: node_exporter's textfile
 * collector reads only names ending in .prom, so the temporary one,
 * PATH.tmp, is never read half-written.
 */
#ifndef SLUICE_AFILE_H
#define SLUICE_AFILE_H

#include <stdio.h>

typedef struct afile {
	FILE *f;                 /* write here between open and commit */
	const char *path;
	char tmp[4096];          /* path.tmp */
} afile;

/* Opens path.tmp for writing into a->f: 0, or -1 with errno set (a path
 * too long for tmp: ENAMETOOLONG). */
int afile_open(afile *a, const char *path);

/* Closes a->f and renames it over the path: 0, or -1 with errno set, the
 * temporary file removed and the path left as it was. */
int afile_commit(afile *a);

#endif
