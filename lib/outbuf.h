/* outbuf — records to stdout through a bounded non-blocking buffer, for
 * programs on a libuv loop (fetch, render).
 *
 * On a pipe or socket the fd is made non-blocking and drained from the
 * loop, so a slow consumer never blocks network (or DevTools) events.
 * Once `limit` bytes wait unwritten, the buffer is blocked: the program
 * starts nothing new.  It stays blocked until the consumer has taken
 * half of it, so what was held back resumes in one go, not one record at
 * a time (the two marks are one state, not two tests that can disagree).
 * The pipe is watched all along, so a consumer that went away ends the
 * program even while it writes nothing.  Files and terminals are written
 * directly.  Records are written once per loop pass (or once 64 KiB
 * wait), not one write per record: fewer syscalls here, fewer wakeups
 * downstream.
 */
#ifndef SLUICE_OUTBUF_H
#define SLUICE_OUTBUF_H

#include <stddef.h>
#include <uv.h>

#include "rec.h"

typedef struct outbuf {
	rec_out out;               /* records are built into out.buf */
	size_t sent;               /* bytes of out.buf already written */
	size_t limit;
	int nonblocking;           /* we set O_NONBLOCK and poll */
	int saved_flags;
	uv_poll_t poll_w;
	int polling;               /* waiting for room, not only for a hangup */
	int blocked;               /* from limit bytes waiting to half that */
	unsigned long reopened;    /* how many times blocked went to 0 */
} outbuf;

/* Sets up o on fd (JSON lines when json > 0, msgpack when < 0, as
 * rec_out_init), holding up to limit bytes before it is blocked.  A
 * write error or a reader gone ends the program (msg_stdout_failed). */
void outbuf_init(outbuf *o, uv_loop_t *loop, int fd, int json, size_t limit);

/* A record was added to o->out.buf: writes now once 64 KiB wait, else
 * leaves it to the next outbuf_drain. */
void outbuf_record(outbuf *o);

/* Writes what the fd takes now; watches for room when it takes less. */
void outbuf_drain(outbuf *o);

/* Whether o holds limit bytes (until half of them were taken). */
int outbuf_blocked(const outbuf *o);

/* Counts each time o went from blocked to open, wherever that happened:
 * a pass that sees the count change must run again, since the work it
 * held back has no event left to wake the loop. */
unsigned long outbuf_reopened(const outbuf *o);

/* Whether nothing waits unwritten. */
int outbuf_idle(const outbuf *o);

/* Flushes the rest blocking, restores the fd's flags, frees.  The poll
 * handle is closed: run the loop once more before closing it. */
void outbuf_close(outbuf *o);

#endif
