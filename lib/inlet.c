/* inlet — see inlet.h. */
#include "inlet.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"

static void
close_file(inlet *l)
{
	if (!l->open)
		return;
	if (l->poll) {
		uv_close((uv_handle_t *)l->poll, (uv_close_cb)free);
		l->poll = NULL;
	}
	l->polling = 0;
	if (l->in.fd > 0)
		close(l->in.fd);
	rec_in_free(&l->in);
	l->open = 0;
}

/* Opens the next file that opens; the input ends after the last. */
static void
next_file(inlet *l)
{
	close_file(l);
	for (;;) {
		if (++l->fi >= (l->nfiles ? l->nfiles : 1)) {
			l->ended = 1;
			return;
		}
		const char *name = l->nfiles ? l->files[l->fi] : "-";
		int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			msg_warn("cannot open '%s': %s", name, strerror(errno));
			l->failed_open = 1;
			continue;
		}
		rec_in_init(&l->in, fd, l->max_record);
		l->open = 1;
		l->fmt = 0;
		struct stat st;
		if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
			l->poll = malloc(sizeof *l->poll);
			if (!l->poll || uv_poll_init(l->loop, l->poll, fd) != 0) {
				free(l->poll);
				l->poll = NULL;   /* e.g. /dev/null: read it directly */
			} else {
				l->poll->data = l;
			}
		}
		return;
	}
}

static void
on_readable(uv_poll_t *p, int status, int events)
{
	(void)events;
	inlet *l = p->data;
	if (status < 0 || rec_in_fill(&l->in) < 0) {
		if (status >= 0 && errno == EAGAIN)
			return;
		msg_warn("cannot read input: %s", status < 0 ? uv_strerror(status) : strerror(errno));
		next_file(l);
	}
}

void
inlet_init(inlet *l, uv_loop_t *loop, char **files, int n, size_t max_record)
{
	*l = (inlet){ .loop = loop, .files = files, .nfiles = n, .fi = -1, .max_record = max_record };
	next_file(l);
}

int
inlet_next(inlet *l, rec_item *it)
{
	while (!l->ended) {
		int rc = rec_in_item(&l->in, &l->fmt, it);
		if (rc == REC_OK)
			return rc;
		if (rc == REC_EOF) {
			next_file(l);
		} else if (rc == REC_ERR) {
			msg_warn("%s", l->in.err);
			close_file(l);
			l->ended = l->malformed = 1;
		} else if (l->poll) {
			if (!l->polling) {
				uv_poll_start(l->poll, UV_READABLE, on_readable);
				l->polling = 1;
			}
			return REC_NEED;
		} else if (rec_in_fill(&l->in) < 0) {
			msg_warn("cannot read input: %s", strerror(errno));
			next_file(l);
		}
	}
	return l->malformed ? REC_ERR : REC_EOF;
}

void
inlet_hold(inlet *l)
{
	if (l->polling) {
		uv_poll_stop(l->poll);
		l->polling = 0;
	}
}

void
inlet_close(inlet *l)
{
	close_file(l);
	l->ended = 1;
}
