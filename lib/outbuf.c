/* outbuf — see outbuf.h. */
#include "outbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"

#define OUTBUF_WRITE_AT 65536

/* Room in the pipe, or the pipe's reader is gone (libuv reports the
 * error a pipe's writer gets then as a failed poll). */
static void
on_writable(uv_poll_t *p, int status, int events)
{
	(void)events;
	if (status < 0)
		msg_stdout_failed(EPIPE);
	outbuf_drain(p->data);
}

void
outbuf_init(outbuf *o, uv_loop_t *loop, int fd, int json, size_t limit)
{
	memset(o, 0, sizeof *o);
	o->saved_flags = -1;
	rec_out_init(&o->out, fd, json);
	o->out.flush_at = SIZE_MAX;   /* we drain it ourselves */
	o->limit = limit;
	struct stat st;
	if (fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
		o->saved_flags = fcntl(fd, F_GETFL);
		if (o->saved_flags >= 0 && fcntl(fd, F_SETFL, o->saved_flags | O_NONBLOCK) == 0 &&
		    uv_poll_init(loop, &o->poll_w, fd) == 0) {
			o->nonblocking = 1;
			o->poll_w.data = o;
			uv_poll_start(&o->poll_w, UV_DISCONNECT, on_writable);
		}
	}
}

int
outbuf_blocked(const outbuf *o)
{
	return o->blocked;
}

unsigned long
outbuf_reopened(const outbuf *o)
{
	return o->reopened;
}

int
outbuf_idle(const outbuf *o)
{
	return o->out.buf.size == o->sent;
}

void
outbuf_drain(outbuf *o)
{
	rec_out *out = &o->out;
	while (o->sent < out->buf.size) {
		ssize_t n = write(out->fd, out->buf.data + o->sent, out->buf.size - o->sent);
		if (n > 0) {
			o->sent += (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && errno == EAGAIN) {
			if (!o->polling && o->nonblocking) {
				uv_poll_start(&o->poll_w, UV_WRITABLE | UV_DISCONNECT, on_writable);
				o->polling = 1;
			}
			break;
		} else {
			msg_stdout_failed(errno);
		}
	}
	if (o->sent == out->buf.size) {
		o->sent = out->buf.size = 0;
		if (o->polling) {
			uv_poll_start(&o->poll_w, UV_DISCONNECT, on_writable);
			o->polling = 0;
		}
	} else if (o->sent >= out->buf.size / 2) {
		memmove(out->buf.data, out->buf.data + o->sent, out->buf.size - o->sent);
		out->buf.size -= o->sent;
		o->sent = 0;
	}
	if (o->blocked && out->buf.size - o->sent < o->limit / 2) {
		o->blocked = 0;
		o->reopened++;
	}
}

void
outbuf_record(outbuf *o)
{
	if (o->out.buf.size - o->sent >= o->limit)
		o->blocked = 1;
	if (o->out.buf.size - o->sent >= OUTBUF_WRITE_AT)
		outbuf_drain(o);
}

void
outbuf_close(outbuf *o)
{
	rec_out *out = &o->out;
	if (o->nonblocking) {
		uv_poll_stop(&o->poll_w);
		uv_close((uv_handle_t *)&o->poll_w, NULL);
		fcntl(out->fd, F_SETFL, o->saved_flags);
		o->nonblocking = 0;
	}
	if (o->sent < out->buf.size) {
		memmove(out->buf.data, out->buf.data + o->sent, out->buf.size - o->sent);
		out->buf.size -= o->sent;
		o->sent = 0;
		if (rec_out_flush(out) != 0)
			msg_stdout_failed(errno);
	}
	rec_out_free(out);
}
