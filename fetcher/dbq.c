/* dbq — the frontier (--queue), and its statements on a thread of
 * their own.
 *
 * A lease on a large frontier takes tens of milliseconds, a heartbeat
 * as long, the queue ages of --stats a second: on the loop thread each
 * would stall every transfer and timer for that long.  So once leasing
 * starts, one thread runs them, one task at a time, in the order they
 * were posted (one FIFO: a write posted after a lease runs after it, and
 * the frontier handle, not thread-safe, has one user at a time).  A
 * finished task goes on a second list and a uv_async_t wakes the loop;
 * the driver's pass takes the answers (dbq_collect), as it takes
 * finished transfers.  Before the thread starts (seeding) and after it
 * is joined (exit), a task runs at once on the caller's thread.
 */
#include "fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "frontier.h"
#include "msg.h"
#include "pgsql.h"
#include "url.h"

static fr *front;

static uv_thread_t thread;
static uv_mutex_t mu;
static uv_cond_t cv;
static uv_async_t wake;
static dbq_task *todo, *todo_tail;   /* posted, not yet run */
static dbq_task *fin, *fin_tail;     /* run, answer not yet taken */
static int running, quit;
static long posted;                  /* posted and not yet collected */

void
dbq_open(const char *path)
{
	char err[256];
	front = fr_open(path, NULL, NULL, err, sizeof err);
	if (!front) {
		char *shown = url_shown(path);   /* a URI's password */
		msg_die(EX_IOERR, "cannot open '%s': %s", shown ? shown : path, err);
	}
	/* --cookies keeps the session in the job: its file, like the jar,
	 * is for this user's eyes only (SQLite gives its -wal and -shm the
	 * main file's mode). */
	if (F.o.cookies && !pgsql_is_uri(path)) {
		char side[4096];
		chmod(path, 0600);
		for (const char *const *x = (const char *const[]){ "-wal", "-shm", NULL }; *x; x++)
			if (snprintf(side, sizeof side, "%s%s", path, *x) < (int)sizeof side)
				chmod(side, 0600);
	}
}

struct fr *
dbq_frontier(void)
{
	return front;
}

void
dbq_check(int rc, const char *what)
{
	if (rc < 0)
		msg_die(EX_IOERR, "cannot %s the queue: %s", what, fr_error(front));
}

/* Only wakes the loop: the driver's pass collects the answers. */
static void
on_wake(uv_async_t *a)
{
	(void)a;
}

static void
append(dbq_task **head, dbq_task **tail, dbq_task *t)
{
	t->next = NULL;
	if (*tail)
		(*tail)->next = t;
	else
		*head = t;
	*tail = t;
}

static void
worker(void *arg)
{
	(void)arg;
	uv_mutex_lock(&mu);
	for (;;) {
		while (!todo && !quit)
			uv_cond_wait(&cv, &mu);
		dbq_task *t = todo;
		if (!t)
			break;   /* told to quit, and nothing is left */
		if (!(todo = t->next))
			todo_tail = NULL;
		uv_mutex_unlock(&mu);
		t->run(t);
		uv_mutex_lock(&mu);
		append(&fin, &fin_tail, t);
		uv_async_send(&wake);
	}
	uv_mutex_unlock(&mu);
}

int
dbq_start(void)
{
	if (running)
		return 0;
	if (uv_mutex_init(&mu) != 0)
		return -1;
	if (uv_cond_init(&cv) != 0 || uv_async_init(F.loop, &wake, on_wake) != 0) {
		uv_mutex_destroy(&mu);
		return -1;
	}
	/* The driver decides when the loop ends (dbq_idle): the handle
	 * alone keeps nothing alive. */
	uv_unref((uv_handle_t *)&wake);
	quit = 0;
	if (uv_thread_create(&thread, worker, NULL) != 0) {
		uv_close((uv_handle_t *)&wake, NULL);
		uv_cond_destroy(&cv);
		uv_mutex_destroy(&mu);
		return -1;
	}
	running = 1;
	return 0;
}

void
dbq_post(dbq_task *t)
{
	if (!running) {
		t->run(t);
		t->done(t);
		return;
	}
	posted++;
	uv_mutex_lock(&mu);
	append(&todo, &todo_tail, t);
	uv_cond_signal(&cv);
	uv_mutex_unlock(&mu);
}

/* The finished tasks, in the order they were posted; the list is
 * empty after. */
static dbq_task *
take_finished(void)
{
	uv_mutex_lock(&mu);
	dbq_task *t = fin;
	fin = fin_tail = NULL;
	uv_mutex_unlock(&mu);
	return t;
}

/* Gives each of the tasks t its answer. */
static void
answer(dbq_task *t)
{
	/* done may post more: they go on todo, not on this list. */
	for (dbq_task *next; t; t = next) {
		next = t->next;
		posted--;
		t->done(t);
	}
}

void
dbq_collect(void)
{
	if (running)
		answer(take_finished());
}

int
dbq_idle(void)
{
	return posted == 0;
}

void
dbq_stop(void)
{
	if (!running)
		return;
	uv_mutex_lock(&mu);
	quit = 1;
	uv_cond_signal(&cv);
	uv_mutex_unlock(&mu);
	uv_thread_join(&thread);
	/* What the last tasks answered; whatever their answers post now
	 * runs at once, on this thread. */
	dbq_task *t = take_finished();
	running = 0;
	answer(t);
	uv_close((uv_handle_t *)&wake, NULL);
	uv_cond_destroy(&cv);
	uv_mutex_destroy(&mu);
}

void
dbq_close(void)
{
	if (!front)
		return;
	dbq_stop();
	fr_close(front);
	front = NULL;
}
