/* qwrite — --queue: the writes fetch posts to the frontier's thread
 * and never waits for: hand-backs (leases of URLs that go back to
 * pending unstarted), defers (a URL to retry, with the time it may go)
 * and redirect targets (done, so a crawl does not fetch them again).
 *
 * A URL to retry goes back to the frontier with the time it may go,
 * every time: the wait survives a crash or restart, other fetches on
 * the job honour it, and no lease is held through a wait that may be
 * longer than --lease.  Its next lease carries on the count of
 * attempts.
 *
 * Each write carries copies of its strings: the jobs it came from are
 * gone when it runs.  Writes run in the order posted, after whatever
 * was posted before them (a lease, a beat).
 */
#include "fetch.h"

#include <stdlib.h>

#include "frontier.h"
#include "msg.h"
#include "tm.h"
#include "xalloc.h"

enum { W_UNLEASE, W_DEFER, W_REDIRECTED };

struct qwrite {
	dbq_task t;
	int kind;
	char *url, *host, *from;
	double at, host_at;
	char **urls;             /* W_UNLEASE: the n URLs handed back */
	int n;
};

static void
write_run(dbq_task *t)
{
	struct qwrite *w = (struct qwrite *)t;
	fr *front = dbq_frontier();
	switch (w->kind) {
	case W_UNLEASE:
		/* One transaction for all: on PostgreSQL each commit waits
		 * for its WAL flush, which one statement at a time made a
		 * stop with 230 waiting URLs take 15 s. */
		dbq_check(fr_begin(front), "update");
		for (int i = 0; i < w->n; i++)
			dbq_check(fr_unlease(front, w->urls[i]), "update");
		dbq_check(fr_commit(front), "update");
		break;
	case W_DEFER:
		dbq_check(fr_defer(front, w->url, w->at, w->host, w->host_at), "update");
		break;
	default:
		dbq_check(fr_add(front, w->url, w->host, w->host, 0, w->from), "add to");
		dbq_check(fr_done(front, w->url, NULL, NULL, 0), "update");
	}
}

static void
write_done(dbq_task *t)
{
	struct qwrite *w = (struct qwrite *)t;
	for (int i = 0; i < w->n; i++)
		free(w->urls[i]);
	free(w->urls);
	free(w->url);
	free(w->host);
	free(w->from);
	free(w);
}

/* A copy of s (NULL stays NULL). */
static char *
dup_str(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct qwrite *
new_write(int kind, const char *url, const char *host, const char *from, double at,
	  double host_at)
{
	struct qwrite *w = xmalloc(sizeof *w);
	*w = (struct qwrite){ .t = { .run = write_run, .done = write_done }, .kind = kind,
			      .url = dup_str(url), .host = dup_str(host), .from = dup_str(from),
			      .at = at, .host_at = host_at };
	return w;
}

struct qwrite *
qwrite_handback(void)
{
	return new_write(W_UNLEASE, NULL, NULL, NULL, 0, 0);
}

void
qwrite_handback_add(struct qwrite *w, char *url)
{
	w->urls = xrealloc(w->urls, (size_t)(w->n + 1) * sizeof *w->urls);
	w->urls[w->n++] = url;
}

void
qwrite_handback_post(struct qwrite *w)
{
	if (w->n)
		dbq_post(&w->t);
	else
		write_done(&w->t);
}

int
qwrite_defer(job *j, double wait)
{
	if (!dbq_frontier())
		return 0;
	host *h = j->host;
	double mono = tm_mono(), wall = tm_wall();
	double until = pace_free_at(&h->pace);
	dbq_post(&new_write(W_DEFER, j->url, h->name, NULL, wall + wait,
			    until > mono ? wall + until - mono : 0)->t);
	job_drop(j);
	return 1;
}

void
qwrite_redirected(const char *canon, const char *host, const char *from)
{
	if (dbq_frontier())
		dbq_post(&new_write(W_REDIRECTED, canon, host, from, 0, 0)->t);
}

void
qwrite_unlease_waiting(int any, const char *of_what)
{
	struct qwrite *w = qwrite_handback();
	for (job *j; any && (j = dns_take_waiting());) {
		qwrite_handback_add(w, j->url);   /* its name not yet resolved */
		j->url = NULL;
		job_drop(j);
	}
	for (job *j; (j = host_take_held(any));) {
		qwrite_handback_add(w, j->url);   /* taken over from the job */
		j->url = NULL;
		job_drop(j);
	}
	int n = w->n;
	qwrite_handback_post(w);
	if (n > 0)
		msg_note("%d unstarted URLs%s back to the queue", n, of_what);
}
