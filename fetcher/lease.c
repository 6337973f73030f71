/* lease — fetch --queue DB: the URLs come from a durable frontier.
 *
 * Input URLs are admitted to the frontier first (de-duplicated, so a
 * rerun with the same list adds nothing).  Then fetch leases due URLs in
 * batches, as capacity frees, skipping hosts that already have enough
 * waiting so one slow host cannot starve the rest.  Each record carries
 * `depth` and `lease` so the sink can acknowledge it.  fetch ends only
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
 * beat also pauses hosts whose accepted share over their last
 * --yield-window stored records (counted by sink --queue) fell below it.
 */
#include "fetch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontier.h"
#include "msg.h"
#include "tm.h"
#include "url.h"

#define LEASE_POLL_MS 50
#define LEASE_HOST_BACKLOG 8   /* waiting jobs per host slot before we skip it */

static fr *front;
static uv_timer_t poll_timer, beat_timer;
static int seeding = 1;
static rec_build lease_rec;       /* {depth, lease} of each leased job */
static msgpack_sbuffer lease_bytes;
static long seeded_batch;

/* The paused hosts, as of the last beat: sched points into reasons. */
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
	if (!front)
		msg_die(EX_IOERR, "cannot open '%s': %s", path, err);
	rec_build_init(&lease_rec);
	msgpack_sbuffer_init(&lease_bytes);
	return 0;
}

int
lease_active(void)
{
	return front != NULL;
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

/* A job of the frontier's follows a redirect to canon: the frontier
 * learns the target is done, so a crawl that finds it later does not
 * fetch it again (the input's record holds what it answered). */
void
lease_redirected(const char *canon, const char *host, const char *from)
{
	if (!front)
		return;
	check(fr_add(front, canon, host, host, 0, from), "add to");
	check(fr_done(front, canon), "update");
}

/* Input is exhausted: commit the last seeds and start leasing. */
void
lease_seeded(void)
{
	if (seeded_batch)
		fr_commit(front);
	seeded_batch = 0;
	seeding = 0;
}

/* fr_lease's gap: the interval this fetch keeps between starts to the
 * host of r, kept in the job for whoever owns the host next. */
static double
gap_of(void *arg, const fr_row *r)
{
	(void)arg;
	return host_interval(sched_host(r->host));
}

/* The job of leased row r. */
static job *
leased_job(const fr_row *r)
{
	/* The input record the job passes through: what sink needs to
	 * acknowledge the lease and to follow links. */
	rec_build_reset(&lease_rec);
	rec_put_int(&lease_rec, "depth", r->depth);
	rec_put_int(&lease_rec, "lease", r->lease);
	lease_bytes.size = 0;
	rec_build_finish(&lease_rec, NULL, NULL, &lease_bytes);
	job *j = job_new(strdup(r->url), lease_bytes.data, lease_bytes.size);
	sched_place(j, r->host);
	/* Each earlier lease made an attempt, or was lost with its fetch. */
	j->prior = r->lease - 1;
	return j;
}

/* fr_lease's accept: makes the job unless its host has enough waiting.
 * Frontier URLs are canonical already: no parsing here, this runs for
 * every candidate of every lease. */
static int
accept_row(void *arg, const fr_row *r)
{
	(void)arg;
	host *h = sched_host(r->host);
	/* A host just taken from another fetch goes on at its pace. */
	if (r->host_next > 0)
		h->next_start = fmax(h->next_start, tm_mono() + (r->host_next - tm_wall()));
	if (h->n_fresh >= LEASE_HOST_BACKLOG * h->per_host)
		return 0;
	sched_enqueue(leased_job(r));
	return 1;
}

/* fr_lease's exhausted: the URL's dead letter, at once. */
static void
exhausted(void *arg, const fr_row *r, const char *detail)
{
	(void)arg;
	job *j = leased_job(r);
	j->error = FR_EXHAUSTED;
	j->error_detail = strdup(detail);
	job_emit(j);
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
	double until = fmax(h->next_start, h->paused_until);
	check(fr_defer(front, j->url, wall + wait, h->name, until > mono ? wall + until - mono : 0),
	      "update");
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
		h->names = realloc(h->names, h->cap * sizeof *h->names);
		h->reasons = realloc(h->reasons, h->cap * sizeof *h->reasons);
		if (!h->names || !h->reasons)
			abort();
	}
	h->names[h->n] = strdup(host);
	h->reasons[h->n++] = strdup(reason);
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
	int n = 0;
	for (job *j; (j = sched_take_held(any)); n++) {
		check(fr_unlease(front, j->url), "update");
		job_drop(j);
	}
	if (n > 0)
		msg_note("%d unstarted URLs%s back to the queue", n, of_what);
}

/* Reads the paused hosts and the ones we hand back, and returns the
 * leases of their URLs that have not started. */
static void
refresh_holds(void)
{
	holds now = { 0 };
	check(fr_paused(front, collect, &now), "read");
	fr_leaving(front, collect_leaving, &now);
	sched_hold((const char *const *)now.names, (const char *const *)now.reasons, now.n);
	holds_free(&held);
	held = now;
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

/* The job is over for us: says what waits for paused hosts. */
static void
note_held(void)
{
	long long n = fr_held(front);
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

/* Only wakes the loop: the driver's next pass leases again. */
static void
on_poll(uv_timer_t *t)
{
	(void)t;
}

/* Leases what capacity allows; decides when the job is over. */
void
lease_want(void)
{
	if (!front || seeding || F.stopping || F.input_done)
		return;
	/* Refill in batches, once half the room is free: a write
	 * transaction for every freed slot would cost more than the
	 * fetches, and contend with the sink's acknowledgements. */
	long room = F.o.pending - F.alive;
	if (room <= 0 || (F.alive > 0 && room < (F.o.pending + 1) / 2) ||
	    uv_is_active((uv_handle_t *)&poll_timer))
		return;
	double now = tm_wall();
	check(fr_expire(front, now), "update");
	int n = fr_lease(front, (int)room, now, F.o.lease, (int)F.o.max_attempts, gap_of, accept_row,
			 exhausted, NULL);
	check(n, "lease from");
	if (n > 0)
		return;
	if (F.alive == 0 && fr_outstanding(front) == 0) {
		F.input_done = 1;
		note_held();
		return;
	}
	uv_timer_start(&poll_timer, on_poll, LEASE_POLL_MS, 0);
}

/* fr_yields's callback: pauses a host whose yield fell below the guard. */
static void
guard(void *arg, const char *host, double share)
{
	(void)arg;
	if (share >= F.o.min_yield)
		return;
	char why[128];
	snprintf(why, sizeof why, "yield %.0f%% < %.0f%% over the last %ld stored", share * 100,
		 F.o.min_yield * 100, F.o.yield_window);
	check(fr_pause(front, host, why, tm_wall()), "update");
	msg_warn("paused %s: %s (fetch --queue DB --resume %s puts it back)", host, why, host);
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

/* The heartbeat.  URLs it takes back are leased by the next pass. */
static void
on_beat(uv_timer_t *t)
{
	(void)t;
	note_reclaimed(fr_beat(front, tm_wall()), "update");
	if (F.o.min_yield > 0)
		check(fr_yields(front, (int)F.o.yield_window, guard, NULL), "read");
	refresh_holds();
}

int
lease_init_loop(void)
{
	if (!front)
		return 0;
	if (uv_timer_init(F.loop, &poll_timer) != 0 || uv_timer_init(F.loop, &beat_timer) != 0)
		return -1;
	note_reclaimed(fr_join(front, tm_wall()), "join");
	refresh_holds();
	uint64_t ms = (uint64_t)(FR_OWNER_BEAT * 1000);
	return uv_timer_start(&beat_timer, on_beat, ms, ms);
}

/* fr_queue_ages's callback: one more host into F.queue_ages. */
static void
add_age(void *arg, const char *host, double age)
{
	size_t *cap = arg;
	if (F.n_queue_ages == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		F.queue_ages = realloc(F.queue_ages, *cap * sizeof *F.queue_ages);
		if (!F.queue_ages)
			abort();
	}
	F.queue_ages[F.n_queue_ages].host = strdup(host);
	F.queue_ages[F.n_queue_ages++].age = age;
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

void
lease_queue_ages(void)
{
	if (!front)
		return;
	free_ages();
	size_t cap = 0;
	check(fr_queue_ages(front, tm_wall(), add_age, &cap), "read");
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
	fr_close(front);
	front = NULL;
	holds_free(&held);
	free_ages();
	rec_build_free(&lease_rec);
	msgpack_sbuffer_destroy(&lease_bytes);
}
