/* loop — one libuv loop driving one libcurl multi handle through the
 * multi-socket API: curl tells us which sockets to watch and when to time
 * out; uv tells curl what happened.  The callbacks only tell curl: what
 * finished is taken by the driver (drive.c) with loop_done.  See curl's
 * docs/examples/multi-uv.c for the skeleton this follows. */
#include "fetch.h"

#include <stdlib.h>

typedef struct sock {
	uv_poll_t poll;
	curl_socket_t fd;
} sock;

static void
on_sock_closed(uv_handle_t *h)
{
	free(h->data);
}

static void
on_poll(uv_poll_t *p, int status, int events)
{
	sock *s = p->data;
	int flags = 0, running;
	/* An error status is libuv's EPOLLERR: a reset or closed peer, often
	 * a reused connection the server dropped at its keep-alive timeout.
	 * CURL_CSELECT_ERR would fail the transfer outright ("select/poll
	 * returned error"); no flags make curl poll the socket itself, read
	 * the reset and, on a reused connection, retry on a fresh one, as
	 * curl_multi_perform does.  curl's multi-uv.c does the same. */
	if (status == 0) {
		if (events & UV_READABLE)
			flags |= CURL_CSELECT_IN;
		if (events & UV_WRITABLE)
			flags |= CURL_CSELECT_OUT;
	}
	curl_multi_socket_action(F.multi, s->fd, flags, &running);
}

/* CURLMOPT_SOCKETFUNCTION: start, change or stop watching a socket. */
static int
on_socket(CURL *e, curl_socket_t fd, int what, void *userp, void *sockp)
{
	(void)e, (void)userp;
	sock *s = sockp;
	if (what == CURL_POLL_REMOVE) {
		if (s) {
			uv_poll_stop(&s->poll);
			uv_close((uv_handle_t *)&s->poll, on_sock_closed);
			curl_multi_assign(F.multi, fd, NULL);
		}
		return 0;
	}
	if (!s) {
		s = calloc(1, sizeof *s);
		if (!s || uv_poll_init_socket(F.loop, &s->poll, fd) != 0) {
			free(s);
			return -1;
		}
		s->fd = fd;
		s->poll.data = s;
		curl_multi_assign(F.multi, fd, s);
	}
	int ev = (what & CURL_POLL_IN ? UV_READABLE : 0) |
		 (what & CURL_POLL_OUT ? UV_WRITABLE : 0);
	uv_poll_start(&s->poll, ev, on_poll);
	return 0;
}

static void
on_curl_timeout(uv_timer_t *t)
{
	(void)t;
	loop_kick();
}

/* CURLMOPT_TIMERFUNCTION: curl wants to be called after ms.  A zero
 * timeout still goes through the loop: calling socket_action from inside
 * this callback is not allowed. */
static int
on_timer(CURLM *m, long ms, void *userp)
{
	(void)m, (void)userp;
	if (ms < 0)
		uv_timer_stop(&F.curl_timer);
	else
		uv_timer_start(&F.curl_timer, on_curl_timeout, (uint64_t)ms, 0);
	return 0;
}

/* Returns the job of the next finished transfer, with its result in
 * *rc, or NULL when none is left.  The driver drains this after every
 * loop pass, so completions of any socket_action are seen. */
job *
loop_done(CURLcode *rc)
{
	CURLMsg *m;
	int left;
	while ((m = curl_multi_info_read(F.multi, &left))) {
		if (m->msg != CURLMSG_DONE)
			continue;
		job *j;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&j);
		*rc = m->data.result;
		return j;
	}
	return NULL;
}

/* Drives the transfers whose timers ran out, among them those just
 * unpaused (curl_easy_pause makes them due at once). */
void
loop_kick(void)
{
	int running;
	curl_multi_socket_action(F.multi, CURL_SOCKET_TIMEOUT, 0, &running);
}

int
loop_init(void)
{
	F.loop = uv_default_loop();
	F.multi = curl_multi_init();
	if (!F.multi)
		return -1;
	uv_timer_init(F.loop, &F.curl_timer);
	curl_multi_setopt(F.multi, CURLMOPT_SOCKETFUNCTION, on_socket);
	curl_multi_setopt(F.multi, CURLMOPT_TIMERFUNCTION, on_timer);
	/* The scheduler bounds requests; these are curl's hard caps on
	 * connections, so a bug in ours cannot open more. */
	curl_multi_setopt(F.multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, F.o.concurrency);
	curl_multi_setopt(F.multi, CURLMOPT_MAXCONNECTS, F.o.concurrency);
	curl_multi_setopt(F.multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	return 0;
}

void
loop_add(job *j)
{
	F.inflight++;
	j->fprev = NULL;
	j->next = F.flying;
	if (F.flying)
		F.flying->fprev = j;
	F.flying = j;
	curl_multi_add_handle(F.multi, j->easy);
}

void
loop_remove(job *j)
{
	curl_multi_remove_handle(F.multi, j->easy);
	F.inflight--;
	if (j->fprev)
		j->fprev->next = j->next;
	else
		F.flying = j->next;
	if (j->next)
		j->next->fprev = j->fprev;
	j->next = j->fprev = NULL;
}

void
loop_close(void)
{
	curl_multi_cleanup(F.multi);
	F.multi = NULL;
}
