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
 * A URL leased --max-attempts times is not leased again but ends as a
 * dead letter, `attempts_exhausted`: a record that never reaches the
 * sink (validate --drop, a stage that crashes on it) would otherwise be
 * leased again every --lease seconds, forever.
 *
 * Where the statements run: seeding runs on the loop thread, before
 * anything is in flight.  From the end of seeding every statement is a
 * task for the frontier's thread (dbq.c), which alone uses the handle
 * then: a lease is posted one at a time, and its answer changes the
 * scheduler in the driver's pass.  The tasks run in the order posted,
 * so a hand-back posted after a lease runs after it: the lease's
 * "nothing outstanding" stays true when its answer comes with nothing
 * alive.  The heartbeat is beat.c's, the posted writes qwrite.c's.
 */
#include "fetch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontier.h"
#include "htab.h"
#include "msg.h"
#include "tm.h"
#include "xalloc.h"

#define LEASE_POLL_MS 50
#define LEASE_HOST_BACKLOG 8   /* waiting jobs per host slot before we skip it */

static uv_timer_t poll_timer;
static int seeding = 1;
static int leasing;      /* a lease is posted and not yet answered */
/* Waiting for acknowledgements: since when (tm_mono, 0: not waiting),
 * and whether it was said.  A sink without --queue never acknowledges,
 * and fetch would wait for --lease, --max-attempts times, in silence. */
#define LEASE_ACK_NOTE_S 10.0
static double ack_since;
static int ack_said;
/* F.alive when a lease found every due URL's host full (0: it did not).
 * The next lease waits for the poll timer, or for half a host's backlog
 * to be emitted, whichever comes first: with one fast host, LEASE_POLL_MS
 * alone would cap it at LEASE_HOST_BACKLOG * -p URLs per poll (640 a
 * second at -p 4), however fast the host answers. */
static long full_alive;
static rec_build lease_rec;       /* {depth, lease} of each leased job */
static msgpack_sbuffer lease_bytes;
static long seeded_batch;

int
lease_active(void)
{
	return dbq_frontier() != NULL;
}

/* Admits one input URL.  Seeds are their own scope at depth 0. */
void
lease_admit(const char *canon, const char *host)
{
	fr *front = dbq_frontier();
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

void
lease_seeded(void)
{
	if (seeded_batch)
		fr_commit(dbq_frontier());
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
	int ask_mine;        /* count what we leased, when n is 0 */
	long long mine;      /* fr_leased_mine's */
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
	fr *front = dbq_frontier();
	dbq_check(fr_expire(front, now), "update");
	l->n = fr_lease(front, (int)l->room, now, F.o.lease, (int)F.o.max_attempts, gap_of,
			accept_row, exhausted, l);
	dbq_check(l->n, "lease from");
	/* Asked here, in turn: a handback posted after this lease runs
	 * after it, so a URL in memory when the answer comes was leased
	 * when this counted it. */
	if (l->n == 0 && (l->outstanding = fr_outstanding(front)) == 0)
		l->held = fr_held(front);
	else if (l->n == 0 && l->ask_mine)
		l->mine = fr_leased_mine(front);
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
	job_set_host_name(j, r->host);
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

/* The lease's answer, on the loop: the jobs, the dead letters, and
 * whether the job is over. */
static void
lease_done(dbq_task *t)
{
	lease_task *l = (lease_task *)t;
	leasing = 0;
	double mono = tm_mono(), wall = tm_wall();
	struct qwrite *back = qwrite_handback();
	for (int i = 0; i < l->n_rows; i++) {
		leased *r = &l->rows[i];
		if (r->kind == ROW_EXHAUSTED) {
			job *j = leased_job(r);
			record_fail(j, FETCHERR_ATTEMPTS_EXHAUSTED, dup_str(r->detail));
			continue;
		}
		/* A host just taken from another fetch goes on at its pace. */
		if (r->host_next > 0) {
			host *h = sched_host_of(r->host);
			if (h)
				pace_defer(&h->pace, mono + (r->host_next - wall));
		}
		/* Stopped meanwhile: back unstarted, as lease_interrupt's. */
		if (r->kind == ROW_TAKEN && F.stopping)
			qwrite_handback_add(back, dup_str(r->url));
		else if (r->kind == ROW_TAKEN)
			sched_enqueue(leased_job(r));
	}
	qwrite_handback_post(back);
	/* Every record written and the job not over: waiting for the
	 * sink's acknowledgements, or for retries to come due. */
	if (l->n == 0 && F.alive == 0 && l->outstanding) {
		if (!ack_since)
			ack_since = mono;
		if (l->mine > 0 && !ack_said) {
			msg_note("%lld URLs written %.0f s ago wait for sink --queue to acknowledge them"
				 " (a sink without --queue never does: they are leased again after"
				 " --lease %g s)", l->mine, mono - ack_since, F.o.lease);
			ack_said = 1;
		}
	} else {
		ack_since = 0;
	}
	if (l->n == 0 && !F.stopping) {
		if (F.alive == 0 && l->outstanding == 0) {
			F.input_done = 1;
			beat_note_held(l->held);
		} else {
			uv_timer_start(&poll_timer, on_poll, LEASE_POLL_MS, 0);
			full_alive = l->turned > 0 ? F.alive : 0;
		}
	}
	lease_free(l);
}

/* A signal stops fetch: the URLs it holds that have not started go back
 * to pending, unused, for the next run; as records they would be dead
 * letters (`interrupted`) once the sink saw them. */
void
lease_interrupt(void)
{
	if (dbq_frontier())
		qwrite_unlease_waiting(1, "");
}

void
lease_want(void)
{
	if (!dbq_frontier() || seeding || F.stopping || F.input_done || leasing)
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
	l->ask_mine = ack_since && !ack_said && tm_mono() - ack_since >= LEASE_ACK_NOTE_S;
	snap_take(&l->snap);
	leasing = 1;
	dbq_post(&l->t);
}

int
lease_init(void)
{
	rec_build_init(&lease_rec);
	msgpack_sbuffer_init(&lease_bytes);
	return uv_timer_init(F.loop, &poll_timer);
}

void
lease_close(void)
{
	if (!dbq_frontier())
		return;
	rec_build_free(&lease_rec);
	msgpack_sbuffer_destroy(&lease_bytes);
}
