/* lease — fetch --queue DB: the URLs come from a durable frontier.
 *
 * Input URLs are admitted to the frontier first (de-duplicated, so a
 * rerun with the same list adds nothing).  Then fetch leases due URLs in
 * batches, as capacity frees, skipping hosts that already have enough
 * waiting so one slow host cannot starve the rest.  Each record carries
 * `depth` and `lease` for its reader (docs/records.md); the sink
 * acknowledges by `url` and takes depth from the frontier.  fetch ends only
 * when nothing is pending or leased: while the sink may still add links
 * or a lease may still come back, it polls.
 *
 * fetch is an owner of the frontier (lib/frontier.h): it joins when its
 * loop starts, beats every second, and each beat takes back the leases
 * of fetches that no longer run, so a rerun after kill -9 resumes at
 * once and several fetches can work on one job.  It leases only URLs of
 * hosts it owns (lib/frontier.h, "Hosts"), so it alone paces them.
 *
 * A URL to retry goes back to the frontier with the time it may go
 * (lease_defer), every time: the wait survives a crash or restart, other
 * fetches on the job honour it, and no lease is held through a wait that
 * may be longer than --lease.  Its next lease carries on the count of
 * attempts.  A URL leased --max-attempts times is not leased again but
 * ends as a dead letter, `attempts_exhausted`: a record that never
 * reaches the sink (validate --drop, a stage that crashes on it) would
 * otherwise be leased again every --lease seconds, forever.
 *
 * Hosts can be paused in the frontier (fetch --pause HOST): every beat
 * reads the paused set, so within a second or two no fetch on the job
 * starts such a host; the URLs it had waiting go back to pending
 * unstarted, the ones in flight finish.  The job ends when all that
 * remains belongs to paused hosts, and says so.  With --min-yield, the
 * beat also judges the hosts we own whose accepted share over their last
 * --yield-window stored records (counted by sink --queue) fell below it:
 * the yield guard halves such a host's rate, halves it again, then
 * pauses it, a fresh window a step (guard_step).
 *
 * Where the statements run: seeding, the join and first holds at the
 * loop's start, --report and --pause run on the loop thread, before
 * anything is in flight.  From the end of seeding every statement is a
 * task for the frontier's thread (dbq.c), which alone uses the handle
 * then: writes (hand-backs, defers, redirect targets) are posted with
 * copies of their strings and nothing waits for them; a lease, the
 * heartbeat and the queue ages are posted one of each at a time, and
 * their answers change the scheduler in the driver's pass.  The tasks
 * run in the order posted, so a hand-back posted after a lease runs
 * after it: the lease's "nothing outstanding" stays true when its
 * answer comes with nothing alive.  At exit the thread is joined and
 * the last statements run on the loop thread again.
 */
#include "fetch.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "frontier.h"
#include "msg.h"
#include "pgsql.h"
#include "htab.h"
#include "tm.h"
#include "url.h"
#include "xalloc.h"

#define LEASE_POLL_MS 50
#define LEASE_HOST_BACKLOG 8   /* waiting jobs per host slot before we skip it */

static fr *front;
static uv_timer_t poll_timer, beat_timer;
static int seeding = 1;
/* Posted to the frontier's thread and not yet answered: one of each at
 * most.  beat_due: the heartbeat's timer ran. */
static int leasing, beating, ageing, beat_due;
/* F.alive when a lease found every due URL's host full (0: it did not).
 * The next lease waits for the poll timer, or for half a host's backlog
 * to be emitted, whichever comes first: with one fast host, LEASE_POLL_MS
 * alone would cap it at LEASE_HOST_BACKLOG * -p URLs per poll (640 a
 * second at -p 4), however fast the host answers. */
static long full_alive;
static rec_build lease_rec;       /* {depth, lease} of each leased job */
/* --recrawl: when this fetch started (unix s), and whether a recrawl
 * has nothing left to bring back (the frontier's thread's). */
static double started;
static int recrawl_over;
static msgpack_sbuffer lease_bytes;
static long seeded_batch;

/* The paused hosts, as of the last beat: hosts point into reasons. */
typedef struct holds {
	char **names, **reasons;
	int n, cap;
} holds;
static holds held;

/* Dies with the frontier's reason when a frontier call failed. */
static void
check(int rc, const char *what)
{
	if (rc < 0)
		msg_die(EX_IOERR, "cannot %s the queue: %s", what, fr_error(front));
}

int
lease_open(const char *path)
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
	rec_build_init(&lease_rec);
	msgpack_sbuffer_init(&lease_bytes);
	return 0;
}

int
lease_active(void)
{
	return front != NULL;
}

struct fr *
lease_frontier(void)
{
	return front;
}

/* Admits one input URL.  Seeds are their own scope at depth 0. */
void
lease_admit(const char *canon, const char *host)
{
	if (seeded_batch == 0)
		fr_begin(front);
	if (fr_add(front, canon, host, host, 0, NULL) < 0)
		msg_die(EX_IOERR, "cannot add to the queue: %s", fr_error(front));
	if (++seeded_batch == 10000) {
		fr_commit(front);
		seeded_batch = 0;
	}
}

/* A copy of s (NULL stays NULL); dies when out of memory, as job_new. */
static char *
dup_str(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Writes: posted, and nothing waits for their answer.  They carry
 * copies of their strings, the jobs they came from are gone. */
enum { W_UNLEASE, W_DEFER, W_REDIRECTED };

typedef struct write_task {
	dbq_task t;
	int kind;
	char *url, *host, *from;
	double at, host_at;
	char **urls;             /* W_UNLEASE: the n URLs handed back */
	int n;
} write_task;

static void
write_run(dbq_task *t)
{
	write_task *w = (write_task *)t;
	switch (w->kind) {
	case W_UNLEASE:
		/* One transaction for all: on PostgreSQL each commit waits
		 * for its WAL flush, which one statement at a time made a
		 * stop with 230 waiting URLs take 15 s. */
		check(fr_begin(front), "update");
		for (int i = 0; i < w->n; i++)
			check(fr_unlease(front, w->urls[i]), "update");
		check(fr_commit(front), "update");
		break;
	case W_DEFER:
		check(fr_defer(front, w->url, w->at, w->host, w->host_at), "update");
		break;
	default:
		check(fr_add(front, w->url, w->host, w->host, 0, w->from), "add to");
		check(fr_done(front, w->url, NULL, NULL, 0), "update");
	}
}

static void
write_done(dbq_task *t)
{
	write_task *w = (write_task *)t;
	for (int i = 0; i < w->n; i++)
		free(w->urls[i]);
	free(w->urls);
	free(w->url);
	free(w->host);
	free(w->from);
	free(w);
}

static write_task *
new_write(int kind, const char *url, const char *host, const char *from, double at,
	  double host_at)
{
	write_task *w = xmalloc(sizeof *w);
	*w = (write_task){ .t = { .run = write_run, .done = write_done }, .kind = kind,
			   .url = dup_str(url), .host = dup_str(host), .from = dup_str(from),
			   .at = at, .host_at = host_at };
	return w;
}

/* Adds url (taken over) to hand-back w. */
static void
unlease_add(write_task *w, char *url)
{
	w->urls = xrealloc(w->urls, (size_t)(w->n + 1) * sizeof *w->urls);
	w->urls[w->n++] = url;
}

/* Posts hand-back w, or frees it when it holds no URL. */
static void
unlease_post(write_task *w)
{
	if (w->n)
		dbq_post(&w->t);
	else
		write_done(&w->t);
}

static void
post_write(int kind, const char *url, const char *host, const char *from, double at,
	   double host_at)
{
	dbq_post(&new_write(kind, url, host, from, at, host_at)->t);
}

/* A job of the frontier's follows a redirect to canon: the frontier
 * learns the target is done, so a crawl that finds it later does not
 * fetch it again (the input's record holds what it answered). */
void
lease_redirected(const char *canon, const char *host, const char *from)
{
	if (front)
		post_write(W_REDIRECTED, canon, host, from, 0, 0);
}

/* Input is exhausted: commit the last seeds and start leasing, from the
 * frontier's thread. */
void
lease_seeded(void)
{
	if (seeded_batch)
		fr_commit(front);
	seeded_batch = 0;
	seeding = 0;
	if (dbq_start() != 0)
		msg_die(EX_OSERR, "cannot start the queue's thread");
}

/* What a lease's accept and gap may know of the scheduler, taken on the
 * loop thread when the lease is posted (on the frontier's thread they
 * may not read the scheduler, which the loop changes meanwhile): per
 * host name, the room for waiting jobs its host has left and its
 * interval.  A name not in it is paced as a host the scheduler has no
 * state for: LEASE_HOST_BACKLOG * -p slots, -d apart.  So --policy
 * values reach the min_gap a host's first lease stores only from its
 * second lease.  Under --pace-by site (or a site= line) a host is a
 * site: the names of its waiting jobs lead to it, but a name of the
 * site that has none waiting gets slots and -d of its own, so a lease
 * may queue more than the backlog for the site. */
typedef struct room {
	long left;    /* jobs it may still take in */
	double gap;   /* its interval between starts */
} room;

typedef struct snap {
	htab names;        /* host name -> its pace's index + 1 */
	room *paces;
	int n_paces, cap_paces;
	room dflt;
} snap;

/* Adds pace p, returning its index. */
static int
snap_pace(snap *s, room p)
{
	if (s->n_paces == s->cap_paces) {
		s->cap_paces = s->cap_paces ? s->cap_paces * 2 : 64;
		s->paces = xrealloc(s->paces, s->cap_paces * sizeof *s->paces);
	}
	s->paces[s->n_paces] = p;
	return s->n_paces++;
}

/* Leads name to pace i, unless it leads somewhere already. */
static void
snap_name(snap *s, const char *name, int i)
{
	int added;
	htab_ent *e = htab_put(&s->names, name, strlen(name), &added);
	if (!e)
		xalloc_die();
	if (added)
		e->val = (void *)(intptr_t)(i + 1);
}

/* The pace of host name: its host's, or a new one as for a new host. */
static room *
snap_of(snap *s, const char *name)
{
	htab_ent *e = htab_get(&s->names, name);
	if (e)
		return &s->paces[(intptr_t)e->val - 1];
	int i = snap_pace(s, s->dflt);
	snap_name(s, name, i);
	return &s->paces[i];
}

/* The scheduler's hosts into s: those that differ from a new one. */
static void
snap_take(snap *s)
{
	s->dflt = (room){ LEASE_HOST_BACKLOG * F.o.per_host, F.o.delay };
	size_t b = 0;
	for (host *h; (h = host_next(&b));) {
		double gap = pace_interval(&h->pace);
		if (h->n_fresh == 0 && h->per_host == F.o.per_host && gap == F.o.delay)
			continue;
		int i = snap_pace(s, (room){ LEASE_HOST_BACKLOG * h->per_host - h->n_fresh, gap });
		snap_name(s, h->name, i);
		for (job *j = h->fresh; j; j = j->next)
			if (j->hname && strcmp(j->hname, h->name) != 0)
				snap_name(s, j->hname, i);
	}
}

static void
snap_free(snap *s)
{
	htab_free(&s->names);
	free(s->paces);
}

/* A row a lease answered: taken, turned away by accept but its host
 * claimed (its host_next still holds), or ended as attempts_exhausted. */
enum { ROW_TAKEN, ROW_CLAIMED, ROW_EXHAUSTED };

typedef struct leased {
	int kind;
	char *url, *host, *detail;
	char *etag, *last_modified;   /* the stored page's validators */
	int depth, lease;
	double host_next;
} leased;

/* One lease: at most one is posted at a time. */
typedef struct lease_task {
	dbq_task t;
	long room;
	snap snap;
	leased *rows;        /* in the order fr_lease saw them */
	int n_rows, cap_rows;
	int n;               /* fr_lease's count */
	int turned;          /* rows turned away: their host had no room */
	int outstanding;     /* when n is 0: fr_outstanding's */
	long long held;      /* when outstanding is 0: fr_held's */
} lease_task;

/* Keeps a copy of row r, of kind. */
static void
keep(lease_task *l, int kind, const fr_row *r, const char *detail)
{
	if (l->n_rows == l->cap_rows) {
		l->cap_rows = l->cap_rows ? l->cap_rows * 2 : 64;
		l->rows = xrealloc(l->rows, l->cap_rows * sizeof *l->rows);
	}
	l->rows[l->n_rows++] = (leased){ kind, dup_str(r->url), dup_str(r->host), dup_str(detail),
					 dup_str(r->etag), dup_str(r->last_modified),
					 r->depth, r->lease, r->host_next };
}

/* fr_lease's gap: the interval this fetch keeps between starts to the
 * host of r, kept in the job for whoever owns the host next. */
static double
gap_of(void *arg, const fr_row *r)
{
	lease_task *l = arg;
	return snap_of(&l->snap, r->host)->gap;
}

/* fr_lease's accept: takes the row unless its host has enough waiting.
 * Frontier URLs are canonical already: no parsing here, this runs for
 * every candidate of every lease. */
static int
accept_row(void *arg, const fr_row *r)
{
	lease_task *l = arg;
	room *p = snap_of(&l->snap, r->host);
	if (p->left <= 0) {
		l->turned++;
		if (r->host_next > 0)
			keep(l, ROW_CLAIMED, r, NULL);
		return 0;
	}
	p->left--;
	keep(l, ROW_TAKEN, r, NULL);
	return 1;
}

/* fr_lease's exhausted: the URL's dead letter, emitted with the answer. */
static void
exhausted(void *arg, const fr_row *r, const char *detail)
{
	keep(arg, ROW_EXHAUSTED, r, detail);
}

/* On the frontier's thread. */
static void
lease_run(dbq_task *t)
{
	lease_task *l = (lease_task *)t;
	double now = tm_wall();
	check(fr_expire(front, now), "update");
	l->n = fr_lease(front, (int)l->room, now, F.o.lease, (int)F.o.max_attempts, gap_of,
			accept_row, exhausted, l);
	check(l->n, "lease from");
	/* Asked here, in turn: a handback posted after this lease runs
	 * after it, so a URL in memory when the answer comes was leased
	 * when this counted it. */
	if (l->n == 0 && (l->outstanding = fr_outstanding(front)) == 0)
		l->held = fr_held(front);
}

/* The job of leased row r. */
static job *
leased_job(const leased *r)
{
	/* The input record the job passes through: the row's depth and
	 * lease number, for the record's reader (docs/records.md).  sink
	 * needs neither: it acknowledges by url and reads depth from the
	 * frontier (sinker/ack.c). */
	rec_build_reset(&lease_rec);
	rec_put_int(&lease_rec, "depth", r->depth);
	rec_put_int(&lease_rec, "lease", r->lease);
	lease_bytes.size = 0;
	rec_build_finish(&lease_rec, NULL, NULL, &lease_bytes);
	job *j = job_new(dup_str(r->url), lease_bytes.data, lease_bytes.size);
	host_place(j, r->host);
	/* Each earlier lease made an attempt, or was lost with its fetch. */
	j->prior = r->lease - 1;
	/* A recrawl's: its attempts ask whether the page changed. */
	j->etag = dup_str(r->etag);
	j->last_modified = dup_str(r->last_modified);
	return j;
}

static void
lease_free(lease_task *l)
{
	for (int i = 0; i < l->n_rows; i++) {
		free(l->rows[i].url);
		free(l->rows[i].host);
		free(l->rows[i].detail);
		free(l->rows[i].etag);
		free(l->rows[i].last_modified);
	}
	free(l->rows);
	snap_free(&l->snap);
	free(l);
}

/* Only wakes the loop: the driver's next pass leases again. */
static void
on_poll(uv_timer_t *t)
{
	(void)t;
}

/* The job is over for us: says what waits for paused hosts (n URLs). */
static void
note_held(long long n)
{
	if (n <= 0 || held.n == 0)
		return;
	char list[512] = "";
	for (int i = 0; i < held.n; i++) {
		size_t l = strlen(list);
		snprintf(list + l, sizeof list - l, "%s%s (%s)", i ? ", " : "", held.names[i],
			 held.reasons[i]);
	}
	msg_note("%lld URLs wait for paused hosts: %s", n, list);
}

/* The lease's answer, on the loop: the jobs, the dead letters, and
 * whether the job is over. */
static void
lease_done(dbq_task *t)
{
	lease_task *l = (lease_task *)t;
	leasing = 0;
	double mono = tm_mono(), wall = tm_wall();
	write_task *back = new_write(W_UNLEASE, NULL, NULL, NULL, 0, 0);
	for (int i = 0; i < l->n_rows; i++) {
		leased *r = &l->rows[i];
		if (r->kind == ROW_EXHAUSTED) {
			job *j = leased_job(r);
			j->error = FETCHERR_ATTEMPTS_EXHAUSTED;
			j->error_detail = dup_str(r->detail);
			job_emit(j);
			continue;
		}
		/* A host just taken from another fetch goes on at its pace. */
		if (r->host_next > 0) {
			host *h = host_get(r->host);
			pace_defer(&h->pace, mono + (r->host_next - wall));
		}
		/* Stopped meanwhile: back unstarted, as lease_interrupt's. */
		if (r->kind == ROW_TAKEN && F.stopping)
			unlease_add(back, dup_str(r->url));
		else if (r->kind == ROW_TAKEN)
			sched_enqueue(leased_job(r));
	}
	unlease_post(back);
	if (l->n == 0 && !F.stopping) {
		if (F.alive == 0 && l->outstanding == 0) {
			F.input_done = 1;
			note_held(l->held);
		} else {
			uv_timer_start(&poll_timer, on_poll, LEASE_POLL_MS, 0);
			full_alive = l->turned > 0 ? F.alive : 0;
		}
	}
	lease_free(l);
}

int
lease_defer(job *j, double wait)
{
	if (!front)
		return 0;
	host *h = j->host;
	double mono = tm_mono(), wall = tm_wall();
	/* The host's hold (a Retry-After, the breaker) goes to the job too,
	 * for whoever leases its URLs next. */
	double until = pace_free_at(&h->pace);
	post_write(W_DEFER, j->url, h->name, NULL, wall + wait, until > mono ? wall + until - mono : 0);
	job_drop(j);
	return 1;
}

static void
holds_free(holds *h)
{
	for (int i = 0; i < h->n; i++) {
		free(h->names[i]);
		free(h->reasons[i]);
	}
	free(h->names);
	free(h->reasons);
	*h = (holds){ 0 };
}

/* fr_paused's callback: one more paused host. */
static void
collect(void *arg, const char *host, const char *reason)
{
	holds *h = arg;
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 8;
		h->names = xrealloc(h->names, h->cap * sizeof *h->names);
		h->reasons = xrealloc(h->reasons, h->cap * sizeof *h->reasons);
	}
	h->names[h->n] = dup_str(host);
	h->reasons[h->n++] = dup_str(reason);
}

/* fr_leaving's callback: a host we hand to other fetches is held too. */
static void
collect_leaving(void *arg, const char *host)
{
	collect(arg, host, "handed to another fetch on the job");
}

/* Hands the leases of the waiting jobs of held hosts (of all hosts when
 * any) back unstarted, and says how many, of_what. */
static void
unlease_waiting(int any, const char *of_what)
{
	write_task *w = new_write(W_UNLEASE, NULL, NULL, NULL, 0, 0);
	for (job *j; (j = host_take_held(any));) {
		unlease_add(w, j->url);   /* taken over from the job */
		j->url = NULL;
		job_drop(j);
	}
	int n = w->n;
	unlease_post(w);
	if (n > 0)
		msg_note("%d unstarted URLs%s back to the queue", n, of_what);
}

/* Reads the paused hosts and the ones we hand back into now. */
static void
read_holds(holds *now)
{
	check(fr_paused(front, collect, now), "read");
	fr_leaving(front, collect_leaving, now);
}

/* now (taken over) is what is held: the scheduler holds those hosts,
 * and the leases of their URLs that have not started go back. */
static void
take_holds(holds *now)
{
	host_set_holds((const char *const *)now->names, (const char *const *)now->reasons, now->n);
	holds_free(&held);
	held = *now;
	*now = (holds){ 0 };
	unlease_waiting(0, " of paused or handed-over hosts");
}

/* A signal stops fetch: the URLs it holds that have not started go back
 * to pending, unused, for the next run; as records they would be dead
 * letters (`interrupted`) once the sink saw them. */
void
lease_interrupt(void)
{
	if (front)
		unlease_waiting(1, "");
}

/* Checks fr_beat's or fr_join's count (what: the call) and says how
 * many leases of dead fetches came back. */
static void
note_reclaimed(int n, const char *what)
{
	check(n, what);
	if (n > 0)
		msg_note("%d URLs leased by a fetch that no longer runs are pending again", n);
}

/* --recrawl AGE: done URLs stored more than AGE ago go back to pending,
 * but only those stored before this fetch started, so each comes back
 * at most once in a run and a small AGE cannot keep the job going for
 * ever.  From the first recrawl whose limit is the start, nothing more
 * can come.  Returns how many came back. */
static int
recrawl(void)
{
	if (F.o.recrawl < 0 || recrawl_over)
		return 0;
	double now = tm_wall(), before = fmin(now - F.o.recrawl, started);
	int n = fr_recrawl(front, before, now);
	check(n, "update");
	recrawl_over = before == started;
	return n;
}

/* Says how many URLs a recrawl brought back (n), when any. */
static void
note_recrawled(int n)
{
	if (n > 0)
		msg_note("%d URLs stored more than %g s ago are pending again for a recrawl", n,
			 F.o.recrawl);
}

/* A host the yield guard judged on the frontier's thread: below
 * --min-yield over a fresh window, or slowed and not below. */
typedef struct judged {
	char *host;
	double share;
	int low;
} judged;

/* One heartbeat: at most one is posted at a time. */
typedef struct beat_task {
	dbq_task t;
	int reclaimed;    /* fr_beat's count */
	int recrawled;    /* recrawl's */
	char *cookies;    /* --cookies: the jar to store, when it changed */
	judged *judged;   /* the yield guard's hosts, n_judged of them */
	int n_judged, cap_judged;
	holds now;        /* the hosts held: paused, or handed back */
} beat_task;

/* fr_yields's callback: a host of ours below the guard, or slowed and
 * no longer below, for the beat's answer to decide its next step. */
static void
guard(void *arg, const char *host, double share, int slowed)
{
	beat_task *b = arg;
	int low = share < F.o.min_yield;
	if ((!low && !slowed) || !fr_owns(front, host))
		return;
	if (b->n_judged == b->cap_judged) {
		b->cap_judged = b->cap_judged ? b->cap_judged * 2 : 8;
		b->judged = xrealloc(b->judged, (size_t)b->cap_judged * sizeof *b->judged);
	}
	b->judged[b->n_judged++] = (judged){ dup_str(host), share, low };
}

/* The guard's steps to store: a host's reason, or its pause. */
typedef struct step_task {
	dbq_task t;
	char *host, *reason;     /* reason NULL: back at full rate */
	int pause;
} step_task;

static void
step_run(dbq_task *t)
{
	step_task *s = (step_task *)t;
	if (s->pause)
		check(fr_pause(front, s->host, s->reason, tm_wall()), "update");
	else
		check(fr_slow(front, s->host, s->reason, tm_wall()), "update");
}

static void
step_done(dbq_task *t)
{
	step_task *s = (step_task *)t;
	free(s->host);
	free(s->reason);
	free(s);
}

/* Stores host's step: pause, or the reason its rate is what it is. */
static void
post_step(const char *host, const char *reason, int pause)
{
	step_task *s = xcalloc(1, sizeof *s);
	s->t = (dbq_task){ .run = step_run, .done = step_done };
	s->host = dup_str(host);
	s->reason = reason ? dup_str(reason) : NULL;
	s->pause = pause;
	dbq_post(&s->t);
}

#define GUARD_HALVINGS 2   /* x0.5, then x0.25, then the pause */

/* The yield guard's next step for one host it judged: below --min-yield
 * over a fresh window, its rate is halved (pace_brake), halved again,
 * then the host is paused for every fetch on the job; a fresh window
 * back at --min-yield undoes one halving.  Each step starts a new
 * window (fr_slow), so the next is judged at the new rate. */
static void
guard_step(const judged *g)
{
	host *h = host_get(g->host);
	struct pace_conf c = health_conf();
	int brake = h->pace.brake;
	char why[128], m[256];
	snprintf(why, sizeof why, "yield %.0f%% %s %.0f%% over the last %ld stored", g->share * 100,
		 g->low ? "<" : ">=", F.o.min_yield * 100, F.o.yield_window);
	if (g->low && brake >= GUARD_HALVINGS) {
		snprintf(m, sizeof m, "paused %s: %s (fetch --queue DB --resume %s puts it back)",
			 g->host, why, g->host);
		msg_warn("%s", m);
		post_step(g->host, why, 1);
		/* Held from now, not from the next beat's read; --resume
		 * then puts it back at its full rate, with a fresh window. */
		collect(&held, g->host, why);
		host_set_holds((const char *const *)held.names, (const char *const *)held.reasons,
			       held.n);
		unlease_waiting(0, " of paused or handed-over hosts");
		pace_brake(&h->pace, &c, 0);
		stats_guard(h, 1);
		alert_fire(h, ALERT_YIELD, g->share, m);
		return;
	}
	if (!g->low && brake == 0) {   /* a reason left by an earlier run */
		post_step(g->host, NULL, 0);
		return;
	}
	int to = g->low ? brake + 1 : brake - 1;
	double interval = pace_brake(&h->pace, &c, to);
	char reason[192];
	snprintf(reason, sizeof reason, "rate x%g: %s", ldexp(1, -to), why);
	if (g->low) {
		snprintf(m, sizeof m, "%s: yield %.2f below %g: rate halved%s (interval %.3f s)", g->host,
			 g->share, F.o.min_yield, to > 1 ? " again, x0.25" : "", interval);
	} else {
		snprintf(m, sizeof m, "%s: yield %.2f back at %g: rate %s (interval %.3f s)", g->host,
			 g->share, F.o.min_yield, to ? "doubled, x0.5" : "back in full", interval);
	}
	msg_warn("%s", m);
	post_step(g->host, to ? reason : NULL, 0);
	if (g->low) {
		stats_guard(h, 0);
		alert_fire(h, ALERT_YIELD, g->share, m);
	}
}

/* On the frontier's thread. */
static void
beat_run(dbq_task *t)
{
	beat_task *b = (beat_task *)t;
	b->reclaimed = fr_beat(front, tm_wall());
	check(b->reclaimed, "update");
	b->recrawled = recrawl();
	if (F.o.min_yield > 0)
		check(fr_yields(front, (int)F.o.yield_window, guard, b), "read");
	read_holds(&b->now);
	if (b->cookies)
		check(fr_cookies_put(front, b->cookies, tm_wall()), "update");
}

/* The beat's answer.  URLs it took back are leased by the next pass.
 * The guard's steps are stored before the next beat reads the paused
 * hosts (tasks run in order), and a host it pauses is held at once. */
static void
beat_done(dbq_task *t)
{
	beat_task *b = (beat_task *)t;
	beating = 0;
	note_reclaimed(b->reclaimed, "update");
	note_recrawled(b->recrawled);
	take_holds(&b->now);
	for (int i = 0; i < b->n_judged; i++) {
		guard_step(&b->judged[i]);
		free(b->judged[i].host);
	}
	free(b->judged);
	free(b->cookies);
	free(b);
}

/* --cookies: the jar as last stored in the job (cookies_changed). */
static char *cookies_stored;

/* The jar (req_cookies_dump) when it changed since it was last stored,
 * for the job: so a rerun or another fetch has the session.  NULL
 * when it did not, or without --cookies. */
static char *
cookies_changed(void)
{
	char *now = req_cookies_dump();
	if (!now || (cookies_stored && strcmp(now, cookies_stored) == 0)) {
		free(now);
		return NULL;
	}
	free(cookies_stored);
	cookies_stored = dup_str(now);
	return now;
}

/* The heartbeat's timer: the driver's pass posts it. */
static void
on_beat(uv_timer_t *t)
{
	(void)t;
	beat_due = 1;
}

void
lease_want(void)
{
	if (!front)
		return;
	dbq_collect();
	if (beat_due && !beating) {
		beat_task *b = xcalloc(1, sizeof *b);
		b->t = (dbq_task){ .run = beat_run, .done = beat_done };
		b->cookies = cookies_changed();
		beat_due = 0;
		beating = 1;   /* before: without the thread, done runs within */
		dbq_post(&b->t);
	}
	if (seeding || F.stopping || F.input_done || leasing)
		return;
	/* Refill in batches, once half the room is free: a write
	 * transaction for every freed slot would cost more than the
	 * fetches, and contend with the sink's acknowledgements. */
	long room = F.o.pending - F.alive;
	if (room <= 0 || (F.alive > 0 && room < (F.o.pending + 1) / 2))
		return;
	if (uv_is_active((uv_handle_t *)&poll_timer)) {
		if (full_alive == 0 || F.alive > full_alive - LEASE_HOST_BACKLOG * F.o.per_host / 2)
			return;
		uv_timer_stop(&poll_timer);
	}
	full_alive = 0;
	lease_task *l = xcalloc(1, sizeof *l);
	l->t = (dbq_task){ .run = lease_run, .done = lease_done };
	l->room = room;
	snap_take(&l->snap);
	leasing = 1;
	dbq_post(&l->t);
}

int
lease_idle(void)
{
	return dbq_idle();
}

void
lease_end_loop(void)
{
	dbq_stop();
}

int
lease_init_loop(void)
{
	if (!front)
		return 0;
	if (uv_timer_init(F.loop, &poll_timer) != 0 || uv_timer_init(F.loop, &beat_timer) != 0)
		return -1;
	/* On this thread: no task is posted before seeding ends. */
	started = tm_wall();
	note_recrawled(recrawl());
	note_reclaimed(fr_join(front, tm_wall()), "join");
	if (F.o.cookies) {   /* the job's jar over --cookies FILE's */
		char *c = fr_cookies(front, tm_wall());
		check(c ? 0 : -1, "read");
		req_cookies_load(c);
		free(c);
	}
	holds now = { 0 };
	read_holds(&now);
	take_holds(&now);
	uint64_t ms = (uint64_t)(FR_OWNER_BEAT * 1000);
	return uv_timer_start(&beat_timer, on_beat, ms, ms);
}

/* A read of the queue ages, for --stats. */
typedef struct ages_task {
	dbq_task t;
	struct queue_age *ages;
	size_t n, cap;
} ages_task;

/* fr_queue_ages's callback: one more host. */
static void
add_age(void *arg, const char *host, double age)
{
	ages_task *a = arg;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->ages = xrealloc(a->ages, a->cap * sizeof *a->ages);
	}
	a->ages[a->n].host = dup_str(host);
	a->ages[a->n++].age = age;
}

static void
free_ages(void)
{
	for (size_t i = 0; i < F.n_queue_ages; i++)
		free(F.queue_ages[i].host);
	free(F.queue_ages);
	F.queue_ages = NULL;
	F.n_queue_ages = 0;
}

static void
ages_run(dbq_task *t)
{
	check(fr_queue_ages(front, tm_wall(), add_age, t), "read");
}

static void
ages_done(dbq_task *t)
{
	ages_task *a = (ages_task *)t;
	ageing = 0;
	free_ages();
	F.queue_ages = a->ages;
	F.n_queue_ages = a->n;
	free(a);
}

void
lease_queue_ages(void)
{
	if (!front || ageing)
		return;
	ages_task *a = xcalloc(1, sizeof *a);
	a->t = (dbq_task){ .run = ages_run, .done = ages_done };
	ageing = 1;
	dbq_post(&a->t);
}

/* --pause HOST (on) and --resume HOST: change the job and exit. */
int
lease_pause(const char *host, int on)
{
	double now = tm_wall();
	int rc = on ? fr_pause(front, host, "paused by hand", now) : fr_resume(front, host, now);
	check(rc, "update");
	if (on)
		msg_note("paused %s: fetches on the job stop starting it within 2 s", host);
	else
		msg_note(rc ? "resumed %s" : "%s was not paused", host);
	lease_close();
	return 0;
}

/* --report and --requeue-dead: print the job's state and exit. */
int
lease_report(int requeue)
{
	if (requeue) {
		int n = fr_requeue_dead(front);
		check(n, "requeue in");
		msg_note("%d dead URLs back to pending", n);
	}
	int rc = fr_report(front, tm_wall(), stdout);
	lease_close();
	return rc;
}

void
lease_close(void)
{
	if (!front)
		return;
	dbq_stop();
	char *c = cookies_changed();   /* the jar as the fetch ends */
	if (c)
		check(fr_cookies_put(front, c, tm_wall()), "update");
	free(c);
	free(cookies_stored);
	cookies_stored = NULL;
	fr_close(front);
	front = NULL;
	holds_free(&held);
	free_ages();
	rec_build_free(&lease_rec);
	msgpack_sbuffer_destroy(&lease_bytes);
}
