#include "pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "stop.h"
#include "tm.h"
#include "xalloc.h"

/* Results come from our own workers: no need to cap them below what a
 * page with --keep-body and its text can reach. */
#define POOL_MAX_RESULT ((size_t)1 << 40)

/* The pipe size asked for each direction (the default limit for an
 * unprivileged process is 1 MiB). */
#define POOL_PIPE_SIZE (1 << 20)

typedef struct pool_job {
	char *raw;      /* the input record's packed bytes */
	size_t n;
	char *url;      /* for messages; NULL when the record has none */
} pool_job;

typedef struct pool_worker {
	pid_t pid;      /* 0: no process */
	int to, from;   /* parent's ends: records to it, results from it */
	rec_in r;       /* results */
	pool_job q[POOL_CREDIT];   /* ring of records sent, oldest first */
	int head, count;
	int sent;       /* how many of q (from head) are fully written */
	size_t sent_off;   /* bytes of the next one written */
	int broken;     /* writing failed: wait for its results' EOF */
	/* When (tm_mono) the parent saw the worker start on its oldest
	 * record: that record fully sent, the one before it answered, and
	 * no byte of its answer in yet.  0 when it is not parsing one. */
	double started;
	int timed_out;  /* killed for --max-parse-time: say so in the reap */
} pool_worker;

typedef struct pool {
	int n;
	pool_worker *w;
	const page_opts *opts;
	double max_time;   /* --max-parse-time seconds; 0: no limit */
	rec_out *out;
	int closing;    /* inputs closed: workers are finishing */
	/* Records a dead worker held but had not started: handed out again
	 * before any new input.  At most n * POOL_CREDIT at once. */
	pool_job *retry;
	int nretry;
} pool;

/* ---- the worker process ------------------------------------------------- */

/* The body of a worker: reads records from fd in until EOF, writes each
 * result to fd out as one flushed msgpack record.  Never returns. */
static _Noreturn void
pool_worker_main(int in, int out, const page_opts *opts)
{
	/* Ctrl-C reaches the whole process group; the parent decides when
	 * work stops, and closes our input when it has. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	const char *crash = getenv(POOL_CRASH_ENV);
	if (crash && !*crash)
		crash = NULL;
	page *p = page_new(opts);
	rec_in r;
	rec_out o;
	if (!p || rec_in_init(&r, in, 0) < 0)
		_exit(EX_SOFTWARE);
	/* The parent already enforced --max-record on the stream. */
	r.max_record = POOL_MAX_RESULT;
	rec_out_init(&o, out, 0);
	msgpack_object rec;
	for (;;) {
		int rc = rec_in_parse(&r, &rec);
		if (rc == REC_NEED) {
			if (rec_in_fill(&r) < 0)
				_exit(EX_IOERR);
			continue;
		}
		if (rc == REC_EOF)
			_exit(0);
		if (rc != REC_OK)
			_exit(EX_SOFTWARE);   /* the parent sent garbage: a bug */
		if (crash) {
			const char *u;
			size_t un;
			if (rec_str(&rec, "url", &u, &un) && memmem(u, un, crash, strlen(crash)))
				abort();
		}
		const char *raw;
		size_t rawn;
		rec_in_raw(&r, &raw, &rawn);
		/* One flush per record, so a result is never stuck in our
		 * buffer while the parent waits for it. */
		if (page_process(p, raw, rawn, &rec, &o) < 0 || rec_out_flush(&o) < 0)
			_exit(errno == EPIPE ? 0 : EX_IOERR);
	}
}

/* ---- the parent --------------------------------------------------------- */

/* Frees what job j owns and clears it. */
static void
pool_job_free(pool_job *j)
{
	free(j->raw);
	free(j->url);
	memset(j, 0, sizeof *j);
}

/* Makes a parent-side pipe end non-blocking (so one slow worker never
 * stalls the others) and close-on-exec. */
static void
pool_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Starts worker i.  Dies (70) when pipes or fork fail: without workers
 * there is nothing useful to do. */
static void
pool_spawn(pool *p, int i)
{
	int down[2], up[2];
	if (pipe(down) < 0 || pipe(up) < 0)
		msg_die(EX_OSERR, "cannot create pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		msg_die(EX_OSERR, "cannot fork worker: %s", strerror(errno));
	if (pid == 0) {
		/* Keep only our own pipe ends: a sibling's fd held open here
		 * would hide that sibling's EOF from the parent. */
		for (int k = 0; k < p->n; k++) {
			if (p->w[k].pid == 0)
				continue;
			close(p->w[k].to);
			close(p->w[k].from);
		}
		close(down[1]);
		close(up[0]);
		close(STDIN_FILENO);
		pool_worker_main(down[0], up[1], p->opts);
	}
	close(down[0]);
	close(up[1]);
	pool_worker *w = &p->w[i];
	memset(w, 0, sizeof *w);
	w->pid = pid;
	w->to = down[1];
	w->from = up[0];
	/* Bigger pipes than the default 64 KiB mean fewer wake-ups per page
	 * on both sides; failure (a lower /proc/sys/fs/pipe-max-size) only
	 * costs speed. */
	fcntl(w->to, F_SETPIPE_SZ, POOL_PIPE_SIZE);
	fcntl(w->from, F_SETPIPE_SZ, POOL_PIPE_SIZE);
	pool_nonblock(w->to);
	pool_nonblock(w->from);
	if (rec_in_init(&w->r, w->from, 0) < 0)
		xalloc_die();
	w->r.max_record = POOL_MAX_RESULT;
}

/* Writes one finished record to stdout; a failed stdout ends the
 * program. */
static void
pool_write_out(pool *p, const char *raw, size_t n)
{
	if (rec_out_put(p->out, raw, n) < 0)
		msg_stdout_failed(errno);
}

/* Writes job j as its input plus parse_error = why. */
static void
pool_lost(pool *p, pool_job *j, const char *why)
{
	msgpack_zone z;
	msgpack_object o;
	size_t off = 0;
	msgpack_zone_init(&z, 4096);
	if (msgpack_unpack(j->raw, j->n, &off, &z, &o) == MSGPACK_UNPACK_SUCCESS) {
		rec_build b;
		rec_build_init(&b);
		rec_put_str(&b, "parse_error", why);
		if (rec_out_build(p->out, &b, &o, NULL) < 0)
			msg_stdout_failed(errno);
		rec_build_free(&b);
	}
	msgpack_zone_destroy(&z);
}

/* Reaps worker i after its results reached EOF (or turned to garbage):
 * reports and answers every record it still held, then replaces it
 * unless the pool is shutting down. */
static void
pool_reap(pool *p, int i)
{
	pool_worker *w = &p->w[i];
	int st = 0;
	close(w->from);
	if (w->to >= 0)
		close(w->to);
	/* At EOF the worker has exited or is exiting: wait for it.  A
	 * worker that wrote garbage is broken but may live on: end it. */
	if (!w->r.eof)
		kill(w->pid, SIGKILL);
	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	rec_in_free(&w->r);
	char why[64];
	if (w->timed_out)
		snprintf(why, sizeof why, "timeout");
	else if (WIFSIGNALED(st))
		snprintf(why, sizeof why, "worker killed by signal %d", WTERMSIG(st));
	else
		snprintf(why, sizeof why, "worker exited with status %d", WEXITSTATUS(st));
	int clean = WIFEXITED(st) && WEXITSTATUS(st) == 0 && p->closing;
	if (!clean && w->count == 0)
		msg_warn("%s (pid %ld, no record in hand)", why, (long)w->pid);
	/* The worker answers in order, so the oldest record it held is the
	 * one it died on; the rest were never started and get another
	 * worker instead of an error. */
	for (int k = 0; w->count > 0; w->count--, k++) {
		pool_job *j = &w->q[w->head];
		if (k == 0) {
			if (w->timed_out)
				msg_warn("%s: timeout: still parsing after %g s (--max-parse-time), worker killed",
					 j->url ? j->url : "(record without url)", p->max_time);
			else
				msg_warn("%s: %s", j->url ? j->url : "(record without url)", why);
			pool_lost(p, j, why);
			pool_job_free(j);
		} else {
			msg_note("%s: requeued after %s", j->url ? j->url : "(record without url)", why);
			p->retry[p->nretry++] = *j;
			memset(j, 0, sizeof *j);
		}
		w->head = (w->head + 1) % POOL_CREDIT;
	}
	w->pid = 0;
	if (!p->closing)
		pool_spawn(p, i);
}

/* Reads what worker i has written and passes on every whole result.
 * Returns 1 when the worker is gone (reaped). */
static int
pool_read(pool *p, int i)
{
	pool_worker *w = &p->w[i];
	ssize_t got = rec_in_fill(&w->r);
	if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
		w->r.eof = 1;
	for (;;) {
		msgpack_object o;
		int rc = rec_in_parse(&w->r, &o);
		if (rc == REC_NEED)
			return 0;
		if (rc != REC_OK || w->count == 0 || w->sent == 0) {
			/* EOF, a result cut short by a crash, or more results
			 * than records: the worker is finished either way. */
			pool_reap(p, i);
			return 1;
		}
		const char *raw;
		size_t n;
		rec_in_raw(&w->r, &raw, &n);
		pool_write_out(p, raw, n);
		pool_job_free(&w->q[w->head]);
		w->head = (w->head + 1) % POOL_CREDIT;
		w->count--;
		w->sent--;
		w->started = 0;   /* the next record's clock starts afresh */
	}
}

/* Writes as much of worker i's unsent records as its pipe takes. */
static void
pool_send(pool *p, int i)
{
	pool_worker *w = &p->w[i];
	while (w->sent < w->count && !w->broken) {
		pool_job *j = &w->q[(w->head + w->sent) % POOL_CREDIT];
		ssize_t n = write(w->to, j->raw + w->sent_off, j->n - w->sent_off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				w->broken = 1;   /* it died: its EOF will tell */
			return;
		}
		w->sent_off += (size_t)n;
		if (w->sent_off == j->n) {
			w->sent++;
			w->sent_off = 0;
		}
	}
}

/* The live worker with the fewest records in hand and room for one
 * more, or -1. */
static int
pool_pick(const pool *p)
{
	int best = -1;
	for (int i = 0; i < p->n; i++) {
		const pool_worker *w = &p->w[i];
		if (w->pid && !w->broken && w->count < POOL_CREDIT &&
		    (best < 0 || w->count < p->w[best].count))
			best = i;
	}
	return best;
}

/* Gives worker i (which has credit) a copy of record raw[0..n) and
 * starts sending it. */
static void
pool_give(pool *p, int i, const char *raw, size_t n, const msgpack_object *o)
{
	pool_worker *w = &p->w[i];
	pool_job *j = &w->q[(w->head + w->count) % POOL_CREDIT];
	j->raw = xmalloc(n);
	memcpy(j->raw, raw, n);
	j->n = n;
	j->url = rec_strdup(o, "url");
	w->count++;
	pool_send(p, i);
}

/* Hands worker i the oldest record waiting for a retry. */
static void
pool_give_retry(pool *p, int i)
{
	pool_worker *w = &p->w[i];
	w->q[(w->head + w->count) % POOL_CREDIT] = p->retry[0];
	memmove(p->retry, p->retry + 1, sizeof *p->retry * (size_t)--p->nretry);
	w->count++;
	pool_send(p, i);
}

/* ---- --max-parse-time ------------------------------------------------------
 *
 * The parent cannot see inside a worker, so it times each worker's
 * oldest record from the moment the worker must be on it: fully sent,
 * the record before it answered.  That moment is seen late, never early
 * (the parent may have been busy), so a record is never cut short; and
 * once a byte of its answer is in, the parsing is over, however long the
 * answer takes to arrive behind a slow stdout. */

/* Starts or stops worker i's clock for the state it is in now. */
static void
pool_clock(pool *p, int i, double now)
{
	pool_worker *w = &p->w[i];
	int parsing = w->pid && w->count > 0 && w->sent > 0 && rec_in_peek(&w->r) < 0;
	if (!parsing)
		w->started = 0;
	else if (w->started == 0)
		w->started = now;
}

/* How long the parent may sleep before some worker's record passes the
 * limit: sets *ts and returns it, or NULL when no clock runs. */
static const struct timespec *
pool_sleep(pool *p, double now, struct timespec *ts)
{
	double wait = -1;
	for (int i = 0; i < p->n; i++) {
		pool_worker *w = &p->w[i];
		if (!p->max_time || !w->started)
			continue;
		double left = w->started + p->max_time - now;
		if (wait < 0 || left < wait)
			wait = left > 0 ? left : 0;
	}
	if (wait < 0)
		return NULL;
	/* A millisecond late rather than early: waking before the deadline
	 * would only loop back here.  A huge limit sleeps a day at a time
	 * (a double that large does not fit a time_t). */
	wait += 0.001;
	if (wait > 86400)
		wait = 86400;
	ts->tv_sec = (time_t)wait;
	ts->tv_nsec = (long)((wait - (double)ts->tv_sec) * 1e9);
	return ts;
}

/* Kills and replaces each worker whose record has run past the limit.
 * A worker is read once more first: an answer that arrived while the
 * parent was busy elsewhere means the parsing had finished in time. */
static void
pool_expire(pool *p)
{
	if (!p->max_time)
		return;
	double now = tm_mono();
	for (int i = 0; i < p->n; i++) {
		pool_worker *w = &p->w[i];
		if (!w->started || now - w->started < p->max_time)
			continue;
		if (pool_read(p, i))
			continue;   /* it ended on its own, and is reaped */
		pool_clock(p, i, now);
		if (!w->started || now - w->started < p->max_time)
			continue;
		w->timed_out = 1;
		pool_reap(p, i);
	}
}

int
pool_run(int n, const page_opts *opts, double max_time, src *s, rec_out *out)
{
	pool p = { .n = n, .opts = opts, .max_time = max_time, .out = out };
	p.w = xcalloc((size_t)n, sizeof *p.w);
	p.retry = xcalloc((size_t)n * POOL_CREDIT, sizeof *p.retry);
	struct pollfd *fds = xcalloc((size_t)n * 2 + 1, sizeof *fds);
	int *who = xcalloc((size_t)n * 2 + 1, sizeof *who);
	for (int i = 0; i < n; i++)
		pool_spawn(&p, i);

	/* stop_signals() keeps SIGINT/SIGTERM blocked except inside ppoll,
	 * so a signal can never slip in between stop_now() and sleeping. */
	sigset_t wait_mask;
	sigprocmask(SIG_BLOCK, NULL, &wait_mask);
	sigdelset(&wait_mask, SIGINT);
	sigdelset(&wait_mask, SIGTERM);

	int input_done = 0, need_fill = 0, bad_input = 0;
	for (;;) {
		if (stop_now())
			input_done = 1;
		/* Hand out records while some worker has credit. */
		int pick;
		while (p.nretry && (pick = pool_pick(&p)) >= 0)
			pool_give_retry(&p, pick);
		while (!p.nretry && !input_done && !need_fill && (pick = pool_pick(&p)) >= 0) {
			const char *raw;
			size_t rn;
			msgpack_object o;
			int rc = src_next(s, &raw, &rn, &o);
			if (rc == REC_OK)
				pool_give(&p, pick, raw, rn, &o);
			else if (rc == REC_NEED)
				need_fill = 1;
			else {
				input_done = 1;
				bad_input = rc == REC_ERR;
			}
		}
		int busy = p.nretry;
		for (int i = 0; i < n; i++)
			busy += p.w[i].count;
		if (input_done && !busy && !p.closing) {
			/* Everything answered: closing the inputs lets each
			 * worker finish with a clean EOF. */
			p.closing = 1;
			for (int i = 0; i < n; i++)
				if (p.w[i].pid) {
					close(p.w[i].to);
					p.w[i].to = -1;
				}
		}
		int alive = 0;
		for (int i = 0; i < n; i++)
			alive += p.w[i].pid != 0;
		if (p.closing && !alive)
			break;

		double now = tm_mono();
		for (int i = 0; i < n; i++)
			pool_clock(&p, i, now);
		int nf = 0;
		if (!input_done && need_fill && pool_pick(&p) >= 0) {
			fds[nf] = (struct pollfd){ .fd = s->fd, .events = POLLIN };
			who[nf++] = -1;
		}
		for (int i = 0; i < n; i++) {
			pool_worker *w = &p.w[i];
			if (!w->pid)
				continue;
			fds[nf] = (struct pollfd){ .fd = w->from, .events = POLLIN };
			who[nf++] = i;
			if (w->sent < w->count && !w->broken && w->to >= 0) {
				fds[nf] = (struct pollfd){ .fd = w->to, .events = POLLOUT };
				who[nf++] = i;
			}
		}
		/* Output is buffered for throughput, but must not sit in the
		 * buffer while we sleep: flush only when nothing is ready.  The
		 * sleep ends at the first --max-parse-time deadline. */
		static const struct timespec zero;
		int r = ppoll(fds, (nfds_t)nf, &zero, &wait_mask);
		if (r == 0) {
			if (rec_out_flush(out) < 0)
				msg_stdout_failed(errno);
			struct timespec ts;
			r = ppoll(fds, (nfds_t)nf, pool_sleep(&p, now, &ts), &wait_mask);
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			msg_die(EX_OSERR, "poll failed: %s", strerror(errno));
		}
		for (int k = 0; k < nf; k++) {
			if (!fds[k].revents)
				continue;
			int i = who[k];
			if (i < 0) {
				need_fill = 0;
				if (src_fill(s) < 0) {
					input_done = 1;
					bad_input = 1;
				}
			} else if (fds[k].events & POLLOUT) {
				if (p.w[i].pid && fds[k].fd == p.w[i].to)
					pool_send(&p, i);
			} else if (p.w[i].pid && fds[k].fd == p.w[i].from) {
				pool_read(&p, i);
			}
		}
		pool_expire(&p);
	}
	free(p.w);
	free(p.retry);
	free(fds);
	free(who);
	if (rec_out_flush(out) < 0)
		msg_stdout_failed(errno);
	if (bad_input) {
		msg_warn("%s", s->err);
		return EX_DATAERR;
	}
	return 0;
}

int
pool_run_inline(const page_opts *opts, src *s, rec_out *out)
{
	page *p = page_new(opts);
	if (!p)
		xalloc_die();
	int rc = REC_EOF;
	for (;;) {
		const char *raw;
		size_t n;
		msgpack_object o;
		rc = src_next(s, &raw, &n, &o);
		if (rc == REC_NEED) {
			/* Nothing buffered: flush before waiting, so records
			 * never sit here while upstream is quiet. */
			if (rec_out_flush(out) < 0)
				msg_stdout_failed(errno);
			int w = src_wait(s);
			if (w < 0) {
				rc = REC_ERR;
				break;
			}
			if (w > 0) {
				rc = REC_EOF;
				break;
			}
			continue;
		}
		if (rc != REC_OK)
			break;
		if (page_process(p, raw, n, &o, out) < 0)
			msg_stdout_failed(errno);
	}
	page_free(p);
	if (rec_out_flush(out) < 0)
		msg_stdout_failed(errno);
	if (rc == REC_ERR) {
		msg_warn("%s", s->err);
		return EX_DATAERR;
	}
	return 0;
}
