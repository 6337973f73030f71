#include "jsonl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SJL_FLUSH_AT (1 << 20)

int
sjl_open(sjl *j, const char *path)
{
	int fd = 1;
	if (strcmp(path, "-") != 0)
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	rec_out_init(&j->out, fd, 1);
	j->out.flush_at = SJL_FLUSH_AT;
	/* A write past RLIMIT_FSIZE should fail with EFBIG, which sjl_flush
	 * cleans up after, instead of killing sink mid-line. */
	signal(SIGXFSZ, SIG_IGN);
	return fd < 0 ? -1 : 0;
}

/* The size of the regular file on fd, or -1 for anything else (a pipe,
 * a terminal, /dev/null), which cannot be truncated. */
static off_t
sjl_size(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	return st.st_size;
}

int
sjl_flush(sjl *j)
{
	if (j->out.buf.size == 0)
		return 0;
	/* The buffer holds whole lines only, and the file ends after the
	 * last whole line written: remember where, so a failed write (full
	 * disk, EFBIG, EIO) can be cut back to it. */
	off_t end = sjl_size(j->out.fd);
	if (rec_out_flush(&j->out) == 0)
		return 0;
	int e = errno;   /* the write's error is the one to report */
	if (end >= 0 && ftruncate(j->out.fd, end) < 0)
		e = e ? e : errno;
	/* The failed batch is not in the file: do not write its tail later. */
	j->out.buf.size = 0;
	errno = e;
	return -1;
}

int
sjl_put(sjl *j, const msgpack_object *rec)
{
	rec_json(rec, &j->out.buf);
	msgpack_sbuffer_write(&j->out.buf, "\n", 1);
	return j->out.buf.size >= j->out.flush_at ? sjl_flush(j) : 0;
}

int
sjl_close(sjl *j)
{
	int rc = 0;
	if (j->out.fd > 2)
		rc = close(j->out.fd);
	j->out.fd = -1;
	rec_out_free(&j->out);
	return rc;
}
