#include "jsonl.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "rec.h"

#define SJL_FLUSH_AT (1 << 20)

int
sjl_open(sjl *j, const char *path)
{
	msgpack_sbuffer_init(&j->buf);
	if (strcmp(path, "-") == 0) {
		j->fd = 1;
		return 0;
	}
	j->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	return j->fd < 0 ? -1 : 0;
}

int
sjl_flush(sjl *j)
{
	size_t done = 0;
	while (done < j->buf.size) {
		ssize_t n = write(j->fd, j->buf.data + done, j->buf.size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			/* Keep what was not written out of the next attempt's
			 * way: the caller is about to exit anyway. */
			j->buf.size = 0;
			return -1;
		}
		done += (size_t)n;
	}
	j->buf.size = 0;
	return 0;
}

int
sjl_put(sjl *j, const msgpack_object *rec)
{
	rec_json(rec, &j->buf);
	msgpack_sbuffer_write(&j->buf, "\n", 1);
	return j->buf.size >= SJL_FLUSH_AT ? sjl_flush(j) : 0;
}

int
sjl_close(sjl *j)
{
	int rc = 0;
	if (j->fd > 2)
		rc = close(j->fd);
	j->fd = -1;
	msgpack_sbuffer_destroy(&j->buf);
	return rc;
}
