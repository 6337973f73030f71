#include "jsonl.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
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
	return fd < 0 ? -1 : 0;
}

int
sjl_flush(sjl *j)
{
	return rec_out_flush(&j->out);
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
