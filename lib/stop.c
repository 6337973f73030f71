#include "stop.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"

volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t interrupts;
static sigset_t wait_mask;   /* the mask ppoll waits with: signals open */

/* Only records the signal: everything else happens outside. */
static void
on_signal(int sig)
{
	stop_signal = sig;
	if (sig == SIGINT)
		interrupts++;
}

void
stop_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;   /* no SA_RESTART: the wait must end */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigset_t block;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);
}

int
stop_now(void)
{
	return stop_signal == SIGTERM || interrupts >= 2;
}

void
stop_reraise(void)
{
	int sig = stop_signal ? stop_signal : SIGTERM;
	signal(sig, SIG_DFL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	_exit(128 + sig);   /* not reached unless the signal is ignored */
}

int
stop_fill(rec_in *r, long timeout_ms)
{
	for (;;) {
		if (stop_now())
			return STOP_SIGNAL;
		struct pollfd p = { .fd = r->fd, .events = POLLIN };
		struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
		int n = ppoll(&p, 1, timeout_ms < 0 ? NULL : &ts, &wait_mask);
		if (n < 0 && errno == EINTR)
			continue;   /* the loop head sees the signal */
		if (n < 0)
			return STOP_ERROR;
		if (n == 0)
			return STOP_TIMEOUT;
		/* Readable (or hung up, or in error): one read cannot block. */
		ssize_t got = rec_in_fill(r);
		if (got > 0)
			return STOP_DATA;
		if (got == 0)
			return STOP_EOF;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return STOP_DATA;
		return STOP_ERROR;
	}
}

int
stop_next(rec_in *r, msgpack_object *o, rec_out *out)
{
	for (;;) {
		int rc = rec_in_parse(r, o);
		if (rc != REC_NEED)
			return rc;
		if (out && rec_out_flush(out) < 0)
			msg_stdout_failed(errno);
		switch (stop_fill(r, -1)) {
		case STOP_SIGNAL:
			return REC_STOPPED;
		case STOP_ERROR:
			snprintf(r->err, sizeof r->err, "read error at byte %llu: %s",
				 (unsigned long long)r->offset, strerror(errno));
			return REC_IOERR;
		default:
			break;
		}
	}
}
