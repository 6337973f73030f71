/* output — records to stdout through a bounded buffer.
 *
 * On a pipe or socket stdout is made non-blocking and drained from the
 * loop, so a slow consumer never blocks network events.  Once --buffer
 * bytes wait unwritten, output is blocked: the scheduler starts nothing
 * and transfers pause in their write callback.  It stays blocked until
 * the consumer has taken half of the buffer, so the driver resumes the
 * paused transfers in one go, not one record at a time (the two marks
 * are one state, not two tests that can disagree).  The pipe is watched
 * all along, so a consumer that went away ends fetch even while it
 * writes nothing (a queue waiting for acknowledgements that will never
 * come).  Files and terminals are written directly.  Records are written once per loop pass (or
 * once 64 KiB wait), not one write per record: fewer syscalls here,
 * fewer wakeups downstream.
 */
#include "fetch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"

static rec_out out;
static size_t sent;          /* bytes of out.buf already written */
static size_t limit;
static int nonblocking;      /* we set O_NONBLOCK and poll */
static int saved_flags = -1;
static uv_poll_t poll_w;
static int polling;          /* waiting for room, not only for a hangup */
static int blocked;          /* from --buffer bytes waiting to half that */
static unsigned long reopened;  /* how many times blocked went to 0 */

#define OUTPUT_WRITE_AT 65536

static void on_writable(uv_poll_t *p, int status, int events);

void
output_init(int fd, int json, size_t lim)
{
	rec_out_init(&out, fd, json ? 1 : -1);
	out.flush_at = SIZE_MAX;   /* we drain it ourselves */
	limit = lim;
	struct stat st;
	if (fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
		saved_flags = fcntl(fd, F_GETFL);
		if (saved_flags >= 0 && fcntl(fd, F_SETFL, saved_flags | O_NONBLOCK) == 0 &&
		    uv_poll_init(F.loop, &poll_w, fd) == 0) {
			nonblocking = 1;
			uv_poll_start(&poll_w, UV_DISCONNECT, on_writable);
		}
	}
}

rec_out *
output_rec(void)
{
	return &out;
}

int
output_blocked(void)
{
	return blocked;
}

/* Counts each time output went from blocked to open, wherever that
 * happened: a driver pass that sees the count change must run again,
 * since the jobs it held back have no event left to wake the loop. */
unsigned long
output_reopened(void)
{
	return reopened;
}

int
output_idle(void)
{
	return out.buf.size == sent;
}

/* Room in the pipe, or the pipe's reader is gone (libuv reports the
 * error a pipe's writer gets then as a failed poll). */
static void
on_writable(uv_poll_t *p, int status, int events)
{
	(void)p, (void)events;
	if (status < 0)
		msg_stdout_failed(EPIPE);
	output_drain();
}

/* Writes what the pipe takes now; watches for room when it takes less. */
void
output_drain(void)
{
	while (sent < out.buf.size) {
		ssize_t n = write(out.fd, out.buf.data + sent, out.buf.size - sent);
		if (n > 0) {
			sent += (size_t)n;
		} else if (n < 0 && errno == EINTR) {
			continue;
		} else if (n < 0 && errno == EAGAIN) {
			if (!polling && nonblocking) {
				uv_poll_start(&poll_w, UV_WRITABLE | UV_DISCONNECT, on_writable);
				polling = 1;
			}
			break;
		} else {
			msg_stdout_failed(errno);
		}
	}
	if (sent == out.buf.size) {
		sent = out.buf.size = 0;
		if (polling) {
			uv_poll_start(&poll_w, UV_DISCONNECT, on_writable);
			polling = 0;
		}
	} else if (sent >= out.buf.size / 2) {
		memmove(out.buf.data, out.buf.data + sent, out.buf.size - sent);
		out.buf.size -= sent;
		sent = 0;
	}
	if (blocked && out.buf.size - sent < limit / 2) {
		blocked = 0;
		reopened++;
	}
}

/* A record was added to the buffer: writes now once 64 KiB wait, else
 * leaves it to the driver's output_drain at the end of the pass. */
void
output_record(void)
{
	if (out.buf.size - sent >= limit)
		blocked = 1;
	if (out.buf.size - sent >= OUTPUT_WRITE_AT)
		output_drain();
}

/* Flushes the rest blocking, restores stdout's flags, frees. */
void
output_close(void)
{
	if (nonblocking) {
		uv_poll_stop(&poll_w);
		uv_close((uv_handle_t *)&poll_w, NULL);
		fcntl(out.fd, F_SETFL, saved_flags);
		nonblocking = 0;
	}
	if (sent < out.buf.size) {
		memmove(out.buf.data, out.buf.data + sent, out.buf.size - sent);
		out.buf.size -= sent;
		sent = 0;
		if (rec_out_flush(&out) != 0)
			msg_stdout_failed(errno);
	}
	rec_out_free(&out);
}
