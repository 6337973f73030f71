/* fetch — shared types of the fetcher's modules.
 *
 *   main.c    options, setup, exit status
 *   drive.c   the loop pass: the one place that moves work along (drive_)
 *   input.c   URL lines or records, read only as capacity frees (input_)
 *   shard.c   --shard K/N: which inputs this fetch takes, by host (shard_)
 *   lease.c   --queue: URLs leased from the frontier (lease_)
 *   dbq.c     the thread that runs the frontier's statements off the loop (dbq_)
 *   sched.c   the pump: slots, deadlines, decides what starts when (sched_)
 *   health.c  what a host's answers teach its pacing: adaptation, breaker,
 *             sick clock (health_; rules: lib/pace.c)
 *   retry.c   what is retried, after how long, until when (retry_)
 *   redirect.c  a 3xx answer: the next hop, through the scheduler (redirect_)
 *   robots.c  the job that fetches robots.txt (robots_; rules: lib/robots.c)
 *   host.c    the host table, origins, queues, the ring of waiting hosts;
 *             each host's pacing state (host_; rules: lib/pace.c)
 *   req.c     what a request carries: headers, secrets, credentials, the
 *             cookie jar (req_; xfer.c calls it per attempt, policy.c
 *             checks header lines with it)
 *   policy.c  --policy per-host overrides (policy_)
 *   xfer.c    one attempt: easy handle options, callbacks, error class (xfer_)
 *   job.c     one input's life: new, its one record, free (job_)
 *   loop.c    libuv + libcurl multi-socket glue (loop_)
 *   output.c  records out through a bounded non-blocking buffer (output_)
 *   stats.c   --stats FILE: counters as JSON (stats_)
 *   metrics.c --metrics FILE: counters in Prometheus's text format (metrics_)
 *   sinkstats.c  accepted/s for the status line: sink's --stats FILE, or
 *             the frontier's count in --queue mode (sinkstats_)
 *   alert.c   --on-alert CMD: a command run when a rule trips (alert_)
 *   progress.c  the status line on a terminal (progress_)
 *
 * Calls go down this list, never up: event callbacks only change state,
 * and drive.c, run once per loop iteration, does the work.
 *
 * One job is one input URL from its first read to its one output record.
 * Ownership: a job is in exactly one place at a time: a host's fresh list, a
 * host's retry list, in flight (owns an easy handle), or freed after its
 * record was emitted.
 */
#ifndef SLUICE_FETCH_H
#define SLUICE_FETCH_H

#include <curl/curl.h>
#include <stddef.h>
#include <uv.h>

#include "cidr.h"
#include "fetcherr.h"
#include "hdr.h"
#include "htab.h"
#include "pace.h"
#include "rec.h"
#include "robots.h"

#define FETCH_MAX_RETRY_ON 32

typedef struct fetch_opts {
	long concurrency;        /* -c: requests in flight, all hosts */
	long per_host;           /* -p: requests in flight per host */
	double delay;            /* -d: min seconds between starts per host */
	double rate;             /* --rate: starts/s per host, 0 = unlimited */
	double burst;            /* --burst: token bucket depth */
	double timeout;          /* -t: per attempt */
	double connect_timeout;
	long low_speed_limit;    /* bytes/s below which ... */
	long low_speed_time;     /* ... for this many seconds aborts */
	long max_redirs;
	size_t max_body;
	const char *user_agent;
	const char *robots_agent; /* --robots-agent: token robots.txt groups match */
	int robots;
	long retries;
	int retry_on[FETCH_MAX_RETRY_ON];
	int n_retry_on;
	double max_elapsed;
	double max_retry_after;
	double backoff;
	int adapt;               /* --no-adapt clears it */
	double target_concurrency; /* --target-concurrency: learnt delay = latency / it */
	double max_delay;        /* --max-delay: the learnt delay's cap */
	long host_failures;
	double host_pause;
	long pending;            /* jobs held in memory, read ahead of starts */
	size_t out_buffer;       /* output bytes buffered before we pause */
	size_t max_record;
	int json;
	const char *queue;       /* --queue DB, or NULL */
	double lease;            /* --queue: seconds a leased URL is ours */
	long max_attempts;       /* --queue: leases per URL before it is dead */
	double min_yield;        /* --min-yield: pause hosts below it, 0 = off */
	long yield_window;       /* --yield-window: over this many stored */
	double recrawl;          /* --recrawl: seconds; < 0 off */
	long max_hosts;          /* host states kept before idle ones go */
	const char *stats;       /* --stats FILE */
	const char *metrics;     /* --metrics FILE */
	const char *sink_stats;  /* --sink-stats FILE: sink's --stats */
	int progress;            /* status line: 1 on, 0 off, -1 on a terminal */
	long shard_k, shard_n;   /* --shard K/N; shard_n 0 = off */
	int redirects;           /* --redirects: REDIR_* */
	int pace_by_site;        /* --pace-by site */
	int allow_private;       /* --allow-private */
	struct cidr *private_ranges;  /* --private-ranges */
	struct curl_slist *resolve;   /* --resolve HOST:PORT:ADDR, as curl's */
	/* what requests carry (req.c) */
	struct curl_slist *headers;   /* -H lines, @FILEs read */
	struct curl_slist *sitemaps;  /* --sitemaps HOST: robots.txt seeds */
	char *userpwd;           /* --user USER:PASS, or NULL */
	char *proxy_userpwd;     /* --proxy-user USER:PASS, or NULL */
	int netrc;               /* --netrc or --netrc-file */
	const char *netrc_file;
	const char *proxy, *noproxy;  /* --proxy URL, --noproxy LIST */
	const char *cacert, *capath;
	int insecure;            /* --insecure: no TLS verification */
	long http_version;       /* CURL_HTTP_VERSION_* */
	const char *cookies;     /* --cookies FILE: the jar */
	/* alerts (alert.c) */
	const char *on_alert;    /* --on-alert CMD, or NULL */
	double alert_every;      /* --alert-every: seconds between runs per host and rule */
	double alert_429;        /* --alert-429: share of 429s, 0 = off */
	double alert_lag;        /* --alert-lag: seconds of loop lag, 0 = off */
} fetch_opts;

/* --redirects: how far a redirect may take a URL from its input's host. */
enum { REDIR_ANY, REDIR_SAME_SITE, REDIR_SAME_HOST };

#define HSTAT_CODES 16           /* distinct statuses kept per host */
#define HSTAT_BUCKETS 128        /* latency: 8 per doubling from 1 ms to 65 s */

/* One host's counters for --stats: fixed size, whatever the traffic. */
typedef struct host_stats {
	unsigned long long records, starts, requests, retries, bytes;
	struct { int code; unsigned long long n; } status[HSTAT_CODES];  /* code 0: others */
	unsigned long long errors[FETCHERR_COUNT];   /* by enum fetcherr */
	unsigned long long latency[HSTAT_BUCKETS];
	unsigned long long yield_halved, yield_paused;  /* the yield guard's steps */
} host_stats;

typedef struct fetch_stats {
	unsigned long long records, requests, bytes;
	unsigned long long by_class[6];   /* records by status: none, 1xx..5xx */
	unsigned long long errors[FETCHERR_COUNT];   /* by enum fetcherr */
	unsigned long long hosts_seen, hosts_evicted;
	unsigned long long throttled;     /* 429 answers */
	unsigned long long not_modified;  /* records of unchanged pages (job_not_modified) */
	host_stats other;                 /* the evicted hosts, folded */
	double started;                   /* monotonic */
} fetch_stats;

struct host;
struct origin;

/* The rules that run --on-alert's command (alert.c's table names them). */
enum alert_rule { ALERT_YIELD, ALERT_BREAKER, ALERT_429, ALERT_LAG, ALERT_N };

#define ALERT_429_WINDOW 20      /* answers the 429 share is taken over */

/* A host's alert state, written by alert.c only: when each rule last
 * ran the command, and its last answers, 1 bit a 429. */
struct host_alert {
	double last[ALERT_N];    /* monotonic; 0: never */
	unsigned answers;        /* the last ALERT_429_WINDOW, newest in bit 0 */
	int n_answers;           /* how many of those bits are answers, up to the window */
};

/* A redirect answered on the way to a job's final URL. */
typedef struct hop {
	char *url;               /* the URL requested */
	long status;             /* its 3xx */
} hop;

typedef struct job {
	struct job *next;
	struct host *host;       /* whose pacing the next attempt waits for */
	char *url;               /* canonical URL (the input as given when not fetched) */
	char *hname;             /* url's host name, for the record; NULL when not fetched */
	char *target;            /* the redirect target the next attempt requests, or NULL: url */
	hop *chain;              /* the redirects so far, n_chain of them */
	int n_chain;
	int hop_attempts;        /* attempts at the current target, for retries */
	int from_public;         /* the chain began at an address not private */
	int guard;               /* may not connect to --private-ranges */
	int refused_private;     /* a connection to a private address was refused */
	struct origin *origin;   /* of a robots.txt job: whose rules it fetches */
	char *in;                /* input record (msgpack) to pass through */
	size_t in_len;
	CURL *easy;              /* set while in flight */
	struct job *fprev;       /* the in-flight list, for aborts */
	int attempts;
	int prior;               /* attempts in earlier leases of its URL (--queue) */
	int is_robots;           /* internal robots.txt request, no record */
	int paused;              /* write callback returned PAUSE */
	int too_large;
	int hdrs_end;            /* the blank line ending the headers came */
	double queued_sick;      /* its host's sick clock when it was queued */
	double deadline;         /* monotonic, set at attempt 1: --max-elapsed */
	double start;            /* monotonic, of this attempt */
	double not_before;       /* monotonic, earliest next attempt */
	long status;             /* last HTTP status, 0 when none */
	enum fetcherr error;     /* FETCHERR_NONE (0) when none */
	char *error_detail;
	char *body;
	size_t body_len, body_cap;
	char *hdrs;              /* "name\0value\0" pairs of the last response */
	size_t hdrs_len, hdrs_cap;
	/* --queue: the validators of the page stored for url (a recrawl),
	 * sent as If-None-Match and If-Modified-Since; NULL when none */
	char *etag, *last_modified;
	int conditional;         /* the last attempt sent them */
	struct curl_slist *req_hdrs;  /* the headers this attempt sends (req.c) */
	char errbuf[CURL_ERROR_SIZE];
} job;

/* Whether j's answer is its conditional request's 304: the page stored
 * for it has not changed (its record says not_modified, without body). */
static inline int
job_not_modified(const job *j)
{
	return j->status == 304 && j->conditional && !j->error;
}

/* The URL j's next attempt requests: its redirect target, or its own. */
static inline const char *
job_target(const job *j)
{
	return j->target ? j->target : j->url;
}

/* One origin (scheme://host[:port]) of a host: robots.txt is per origin
 * (RFC 9309), pacing per host or site. */
typedef struct origin {
	struct origin *next;
	char *key;               /* scheme://host[:port] */
	int robots_state;        /* ROBOTS_* */
	int robots_fails;        /* unanswered robots.txt fetches */
	struct robots *robots;
	int private;             /* a guarded connection found it private */
} origin;

/* The unit of pacing: a host name, or a site (--pace-by site, or a
 * site= line of --policy), whatever its schemes and ports. */
typedef struct host {
	struct host *wnext, *wprev;  /* ring of hosts with jobs waiting */
	int waiting;             /* in that ring */
	const char *name;        /* host name or site: its key in F.hosts, for policy and stats */
	origin *origins;         /* those seen, each with its robots.txt */
	int robots_loading;      /* robots.txt requests in flight: nothing starts */
	job *fresh, *fresh_tail; /* never attempted, FIFO */
	int n_fresh;             /* jobs in fresh */
	job *retry;              /* waiting to retry, sorted by not_before */
	int active;              /* requests in flight, robots included */
	long per_host;
	/* when it may start: configured and learnt intervals, token bucket,
	 * breaker, sick clock (monotonic times); fed by health.c */
	struct pace pace;
	int use_robots;          /* robots.txt is obeyed */
	/* pausing by hand: no start while either is set */
	int policy_hold;         /* pause=on in --policy */
	const char *queue_hold;  /* the frontier's reason (owned by lease.c) */
	host_stats st;
	struct host_alert alert; /* owned by alert.c */
} host;

/* Why h is paused by hand (the frontier's reason, or "policy" for
 * pause=on), or NULL when it is not: no request to it starts meanwhile. */
static inline const char *
host_hold(const host *h)
{
	return h->queue_hold ? h->queue_hold : h->policy_hold ? "policy" : NULL;
}

enum { ROBOTS_NONE, ROBOTS_LOADING, ROBOTS_READY };

typedef struct fetch {
	fetch_opts o;
	uv_loop_t *loop;
	CURLM *multi;
	uv_timer_t curl_timer;   /* curl's own timeouts */
	uv_timer_t sched_timer;  /* the next host that may start */
	uv_signal_t sig_int, sig_term, sig_hup;
	/* jobs */
	long alive;              /* jobs read and not yet emitted */
	long inflight;           /* easy handles in the multi */
	job *flying;             /* those jobs, linked by next/fprev */
	/* hosts */
	htab hosts;              /* pacing key -> host (host.c) */
	host *ring;              /* hosts with waiting jobs */
	size_t n_ring;
	double expire_at;        /* monotonic: the earliest waiting job's deadline */
	/* state */
	int stopping;            /* a signal arrived: start nothing new */
	int interrupts;
	int reloads;             /* SIGHUPs: re-read --policy */
	const char *policy_path;
	int bad_input;           /* malformed input: exit 65 at the end */
	int input_done;
	struct policy *policy;
	rec_build build;
	fetch_stats stats;
	int stats_due;           /* the --stats timer fired: drive writes it */
	/* --queue: the frontier's queue age per host, as of the last write,
	 * sorted by host (lease.c fills it, stats.c reads it) */
	struct queue_age { char *host; double age; } *queue_ages;
	size_t n_queue_ages;
} fetch;

extern fetch F;

/* drive.c */
void drive_init(void);            /* runs a pass before each wait for events */

/* input.c */
extern int input_failed_open;
int input_init(char **files, int n);
void input_want(void);            /* read more if capacity allows */
void input_close(void);

/* shard.c */
int shard_parse(const char *s, long *k, long *n);
long shard_of(const char *host, long n);
int shard_takes(const char *host);  /* NULL host: an input not fetched */

/* lease.c */
int lease_open(const char *path);
int lease_init_loop(void);
int lease_active(void);
/* The frontier (NULL outside --queue), for a task of another module:
 * only the task's run(), on the frontier's thread, may use it. */
struct fr *lease_frontier(void);
void lease_admit(const char *canon, const char *host);
void lease_seeded(void);
/* Marks a redirect target done in the frontier (queue mode only). */
void lease_redirected(const char *canon, const char *host, const char *from);
/* Takes the frontier's answers (dbq_collect), then posts the heartbeat
 * when due and a lease when capacity allows. */
void lease_want(void);
/* Nothing posted to the frontier is unanswered: the loop may end. */
int lease_idle(void);
/* The loop has ended: joins the frontier's thread (dbq_stop); what
 * follows runs on the caller's thread. */
void lease_end_loop(void);
/* With --queue, hands j, to retry after wait seconds, back to the
 * frontier (its host's hold too) and drops it: 1.  Else 0. */
int lease_defer(job *j, double wait);
void lease_interrupt(void);       /* stopping: waiting URLs back to pending */
/* F.queue_ages from the frontier: at once when no thread runs, else
 * when the answer is collected (what is written meanwhile uses the
 * ages before).  One read at a time. */
void lease_queue_ages(void);
int lease_report(int requeue);
int lease_pause(const char *host, int on);
void lease_close(void);

/* dbq.c */
/* A unit of work for the frontier's thread, embedded in a larger struct
 * that carries its arguments and answer. */
typedef struct dbq_task {
	struct dbq_task *next;
	void (*run)(struct dbq_task *t);   /* on the DB thread: the statements */
	void (*done)(struct dbq_task *t);  /* on the loop thread: the answer; frees t */
} dbq_task;
/* Starts the thread (on the loop thread, F.loop set).  From then on
 * only tasks touch the frontier.  0, or -1. */
int dbq_start(void);
/* Queues t: the tasks run one at a time in the order posted, and their
 * done() in the same order, from dbq_collect.  Without a thread (not
 * started, or stopped) t runs and is answered at once. */
void dbq_post(dbq_task *t);
void dbq_collect(void);           /* done() of every finished task, in order */
int dbq_idle(void);               /* every task posted has been answered */
/* Runs what is queued, joins the thread and answers the rest.  A no-op
 * without a thread. */
void dbq_stop(void);

/* sched.c */
void sched_enqueue(job *j);       /* a new job to its host's fresh list */
void sched_retry(job *j);         /* a job to its host's retry list */
void sched_pump(void);            /* start whatever may start now */
void sched_started(host *h, double now);  /* a request of h takes a slot */
void sched_finished(host *h);     /* and gives it back */
void sched_interrupt_waiting(void);

/* health.c */
/* Updates j's host from the attempt's outcome (rc, and the Retry-After
 * it carried, < 0 for none): its answer teaches the start interval
 * (pace_answer, unless --no-adapt), a run of transient failures trips
 * the circuit breaker (pace_outcome), and the sick clock starts or
 * stops. */
void health_feedback(job *j, CURLcode rc, double retry_after);
/* The flags lib/pace's rules read, for its other callers (the yield
 * guard's pace_brake). */
struct pace_conf health_conf(void);

/* retry.c */
int retry_status_listed(int status);
/* Uniform in [0, 1): the jitter of backoffs and breaker pauses. */
double retry_unit_random(void);
int retry_decide(job *j, CURLcode rc, double retry_after, double *wait);
void retry_queued(job *j, double now);
double retry_deadline(const job *j, double now);
void retry_expired(job *j);

/* redirect.c */
/* Takes j's answer when it is a redirect (301, 302, 303, 307 or 308 with
 * a Location): sends j to wait its turn at the target's host, or emits
 * j's record when the hop is refused (loop, --max-redirs, scheme, bad
 * URL, --redirects).  Returns 0 when the answer is j's final one. */
int redirect_follow(job *j);
/* Packs j's redirect chain as the record's `redirects`, if any. */
void redirect_pack(const job *j);
/* CURLOPT_OPENSOCKETFUNCTION and the check of a reused connection: a
 * redirect from a public address may not reach a private one. */
curl_socket_t redirect_open_socket(void *userp, curlsocktype purpose, struct curl_sockaddr *a);
int redirect_private_ip(job *j, const char *ip);
/* An error_detail (malloc'd): why, after "redirect to TO: " when the
 * refusal is of a redirect target (to not NULL). */
char *redirect_detail(const char *to, const char *why);
/* The error_detail of a hop refused as private_address (malloc'd). */
char *redirect_private_detail(const job *j);
void redirect_free(job *j);

/* robots.c */
job *robots_job(host *h, origin *o);
void robots_done(job *j, CURLcode rc);

/* host.c */
/* The host that paces requests to host name `name` (created with the
 * configured pacing and --policy): its own, or its site's.  Creating
 * one above --max-hosts frees the idle ones first. */
host *host_get(const char *name);
/* The host at or after *i in the table, moving *i past it; NULL after
 * the last.  Start with *i = 0. */
host *host_next(size_t *i);
/* Sets j's host name (copied) and the host that paces it. */
void host_place(job *j, const char *name);
/* The origin of canonical URL u among h's, added when new. */
origin *host_origin(host *h, const char *u);
void host_reconfigure(void);      /* the flags and --policy, again, for every host */
/* Sets each host's queue_hold to the reason of its name among the n
 * paused names (NULL when not among them). */
void host_set_holds(const char *const *names, const char *const *reasons, int n);
/* The ring of hosts with jobs waiting (F.ring): h joins it (a no-op
 * when in), leaves it, or leaves it when nothing of it waits. */
void host_ring_add(host *h);
void host_ring_del(host *h);
void host_settle(host *h);
/* j to the tail of its host's fresh list, or by not_before into its
 * retry list; its host joins the ring. */
void host_queue_fresh(job *j);
void host_queue_retry(job *j);
/* Unlinks and returns the job *p: p is &h->fresh (fresh jobs leave
 * from the head), &h->retry, or the next of a job in h->retry. */
job *host_unlink(host *h, job **p);
/* Puts j, just unlinked from a head, back there. */
void host_untake(host *h, job *j);
/* Unlinks a waiting job of h, a retry first, or NULL when none. */
job *host_pop(host *h);
/* A waiting job of a held host (of any host when any), or NULL. */
job *host_take_held(int any);
void host_free_all(void);

/* req.c */
/* Header syntax, secrets and the origin rule: lib/hdr.h. */
/* The header list j's next attempt sends (malloc'd; NULL for none):
 * -H's, then --policy's for its target's host; the secret ones only
 * while the target is the input's origin, and never for robots.txt
 * (whose redirects libcurl follows). */
struct curl_slist *req_headers(const job *j);
/* Whether j's next attempt may carry --user's credentials: its target
 * is the input's origin. */
int req_credentials(const job *j);
/* --cookies: loads the jar into the share every transfer uses; 0, or
 * -1 with the reason in err. */
int req_cookies_open(const char *path, char *err, size_t errlen);
/* Sets the cookie engine on easy handle e (a no-op without --cookies). */
void req_cookies_use(CURL *e);
/* Before curl_easy_reset(e): what req_cookies_use set that reset
 * would lose without freeing. */
void req_cookies_reset(CURL *e);
/* The jar as Netscape lines (malloc'd, "" when empty; NULL without
 * --cookies), for the frontier. */
char *req_cookies_dump(void);
/* Adds Netscape lines (as req_cookies_dump writes them) to the jar. */
void req_cookies_load(const char *lines);
/* Writes the jar to --cookies FILE; 0, or -1 (a warning said why). */
int req_cookies_save(void);
void req_free(void);          /* at exit: the share, the secret names */

/* policy.c */
int policy_load(const char *path, struct policy **out, char *err, size_t errlen);
void policy_apply(const struct policy *p, host *h);
/* Whether p has a site= line for site: its hosts are paced as one. */
int policy_has_site(const struct policy *p, const char *site);
long policy_max_per_host(const struct policy *p, long dflt);
/* Calls each(line, arg) for every header= line of p whose pattern
 * covers host name host, in the file's order. */
void policy_headers(const struct policy *p, const char *host,
		    void (*each)(const char *line, void *arg), void *arg);
void policy_free(struct policy *p);

/* xfer.c */
int xfer_start(job *j);
double xfer_end(job *j, CURLcode rc);
size_t xfer_paused(void);         /* transfers paused on blocked output */
void xfer_unpause_all(void);      /* follow with loop_kick */
void xfer_release(CURL *e);       /* an easy handle back to the spares */
void xfer_free_spares(void);      /* at exit, before curl_global_cleanup */

/* job.c */
/* A new job for url (taken over; dies through xalloc_die when NULL, as
 * when out of memory)
 * passing through input record in (copied; in_len may be 0), counted in
 * F.alive until job_emit. */
job *job_new(char *url, const char *in, size_t in_len);
void job_emit(job *j);            /* writes j's one record, frees j */
void job_free(job *j);
void job_drop(job *j);            /* ends j without a record (lease handed back) */

/* loop.c */
int loop_init(void);
void loop_add(job *j);            /* hands an easy handle to the multi */
void loop_remove(job *j);         /* takes it back */
job *loop_done(CURLcode *rc);     /* the next finished transfer, or NULL */
void loop_kick(void);             /* drives transfers that are due */
void loop_close(void);

/* output.c */
void output_init(int fd, int json, size_t limit);
void output_record(void);         /* F.build finished into the buffer */
rec_out *output_rec(void);
int output_blocked(void);
unsigned long output_reopened(void);  /* times blocked went to open */
void output_drain(void);
int output_idle(void);
void output_close(void);

/* stats.c */
void stats_init(void);            /* starts the --stats timer, if any */
void stats_record(const job *j);  /* a record was emitted */
void stats_started(const job *j); /* an attempt (or robots.txt) started */
void stats_finished(const job *j);/* it ended: xfer_end has run */
void stats_evicted(const host *h);/* h's counters go to "other" */
void stats_guard(host *h, int paused); /* the yield guard halved h's rate, or paused it */
void stats_write(void);           /* writes --stats FILE now */
void stats_close(void);

/* metrics.c */
void metrics_init(void);          /* writes --metrics FILE, starts its timer */
void metrics_request(double seconds);  /* a request took this long */
void metrics_pass(void);          /* rewrites the file when its timer fired */
void metrics_write(void);         /* rewrites it now */
void metrics_close(void);         /* the last write */

/* sinkstats.c */
/* Accepted records per second over about the last minute: sink's, from
 * the --sink-stats file (re-read only once it changed); else, with
 * --queue, the job's, from the frontier's count (read on the frontier's
 * thread every few seconds, never waited for); -1 while unknown. */
double sinkstats_accepted_rate(void);
/* alert.c */
/* The rule's word, as SLUICE_RULE has it ("yield", "breaker", "429",
 * "lag"). */
const char *alert_word(enum alert_rule r);
/* Starts the loop-lag watch with --on-alert and --alert-lag. */
void alert_init(void);
/* Rule r tripped for h (NULL: fetch as a whole) at value: runs
 * --on-alert's command through sh -c, unless the rule ran for h less
 * than --alert-every ago, or too many commands still run (then the
 * alert is dropped, counted and said).  message is the one line the
 * command gets as SLUICE_MESSAGE: no URL, no secret.  A no-op without
 * --on-alert. */
void alert_fire(host *h, enum alert_rule r, double value, const char *message);
/* One answer of h (HTTP status): the 429 rule over its last
 * ALERT_429_WINDOW answers. */
void alert_answer(host *h, long status);
/* The breaker paused h just now (its pace.trips-th trip in a row). */
void alert_breaker(host *h);
/* The driver's pass: what the lag watch saw. */
void alert_drive(void);
/* Commands run, dropped (too many running) and failed (exit not 0,
 * or not started), for --stats. */
void alert_counts(unsigned long long *run, unsigned long long *dropped,
		  unsigned long long *failed);
/* Stops the lag watch; commands still running are left to finish. */
void alert_close(void);

/* progress.c */
void progress_init(void);         /* starts the status line, if wanted */
void progress_close(void);        /* its last state, and a newline */

#endif
