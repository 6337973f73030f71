#include "afile.h"

#include <errno.h>
#include <stdio.h>

int
afile_open(afile *a, const char *path)
{
	a->path = path;
	a->f = NULL;
	if ((size_t)snprintf(a->tmp, sizeof a->tmp, "%s.tmp", path) >= sizeof a->tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!(a->f = fopen(a->tmp, "w")))
		return -1;
	return 0;
}

int
afile_commit(afile *a)
{
	int bad = ferror(a->f);
	if (fclose(a->f) != 0 || bad) {
		int e = errno ? errno : EIO;
		remove(a->tmp);
		errno = e;
		return -1;
	}
	a->f = NULL;
	if (rename(a->tmp, a->path) != 0) {
		int e = errno;
		remove(a->tmp);
		errno = e;
		return -1;
	}
	return 0;
}
