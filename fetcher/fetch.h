/* fetch — shared types of the fetcher's modules.
 *
 * The modules in five layers, top to bottom; a module calls only those
 * listed below it (tests/t-layers.sh fails on a call up the list):
 *
 * driver: moves work along, acts on every verdict
 *   main.c      options, setup, shutdown, exit status
 *   drive.c     the loop pass: the one place that moves work along, and
 *               acts on the policies' verdicts (drive_)
 * sources and reporters: where URLs come from, what is told of the run
 *   input.c     URL lines or records, read only as capacity frees (input_)
 *   warcin.c    --from-warc: WARC files' HTTP answers as records, read
 *               only as output takes them (warcin_)
 *   lease.c     --queue: seeding, URLs leased from the frontier (lease_)
 *   beat.c      --queue: the heartbeat: paused and handed-over hosts,
 *               leases of dead fetches, recrawls, the jar kept (beat_)
 *   guard.c     --min-yield: the yield guard's steps (guard_)
 *   jobctl.c    --report, --requeue-dead, --pause, --resume (jobctl_)
 *   qwrite.c    --queue: writes posted to the frontier: hand-backs,
 *               defers, redirect targets (qwrite_)
 *   progress.c  the status line on a terminal (progress_)
 *   sinkstats.c accepted/s for the status line (sinkstats_)
 *   stats.c     --stats FILE: counters as JSON (stats_)
 *   metrics.c   --metrics FILE: counters in Prometheus's format (metrics_)
 * policy: rules that decide; retry, redirect and robots are pure
 *   sched.c     the pump: slots, deadlines, what starts when (sched_)
 *   health.c    what a host's answers teach its pacing (health_; rules:
 *               lib/pace.c)
 *   robots.c    may a page start; what a robots.txt answer means (robots_;
 *               the file's rules: lib/robots.c)
 *   retry.c     what is retried, after how long, until when; which
 *               failures mean a host cannot be reached (retry_)
 *   redirect.c  a 3xx answer: follow, refuse, or final (redirect_)
 *   shard.c     --shard K/N: which inputs this fetch takes, by host (shard_)
 * services: one thing each, done when asked
 *   alert.c     --on-alert CMD: a command run when a rule trips (alert_)
 *   xfer.c      one attempt: easy handle options, callbacks, the
 *               private-address guard, error class (xfer_)
 *   req.c       what a request carries: headers, secrets, credentials,
 *               the cookie jar (req_)
 *   record.c    a job's one record, packed and written (record_)
 *   output.c    records out through a bounded non-blocking buffer (output_)
 *   dbq.c       the frontier, and the thread that runs its statements off
 *               the loop (dbq_)
 *   dns.c       host names to addresses, cached, off the loop (dns_)
 *   loop.c      libuv + libcurl multi-socket glue (loop_)
 * data: state and its invariants
 *   host.c      the host table, origins, queues, the ring of waiting
 *               hosts (host_; each host's pacing: lib/pace.c)
 *   policy.c    --policy per-host overrides (policy_)
 *   counters.c  what fetch has done, overall and per host (counters_)
 *   job.c       one input's job: new, its hop chain, free (job_)
 *   pool.c      spare easy handles (pool_)
 *
 * Event callbacks only change state, and drive.c, run once per loop
 * iteration, does the work.
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
#include "cookie.h"
#include "fetcherr.h"
#include "hdr.h"
#include "htab.h"
#include "num.h"
#include "pace.h"
#include "prom.h"
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
	int raw;                 /* --raw: keep each exchange as sent and received */
	struct curl_slist *warc_redact;  /* --warc-redact NAME: shown as *** in --raw */
	/* --from-warc (warcin.c) */
	int from_warc;           /* the FILEs are WARC files, read, not fetched */
	struct vre **include, **exclude;  /* --include, --exclude: URLs kept */
	int n_include, n_exclude;
	num_range *status;       /* --status: statuses kept; none: any */
	size_t n_status;
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
	int pace_by;             /* --pace-by: PACE_BY_* */
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
	long max_cookies;        /* --max-cookies: the jar's cookies in all */
	/* alerts (alert.c) */
	const char *on_alert;    /* --on-alert CMD, or NULL */
	double alert_every;      /* --alert-every: seconds between runs per host and rule */
	double alert_429;        /* --alert-429: share of 429s, 0 = off */
	double alert_lag;        /* --alert-lag: seconds of loop lag, 0 = off */
	double alert_grace;      /* --alert-grace: seconds commands get at exit */
} fetch_opts;

/* --pace-by: what one budget of pacing covers. */
enum { PACE_BY_HOST, PACE_BY_SITE, PACE_BY_IP };

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
	prom_hist durations;              /* requests' durations, all hosts (--metrics) */
	double started;                   /* monotonic */
} fetch_stats;

struct host;
struct origin;

/* The rules that run --on-alert's command (alert.c's table names them). */
enum alert_rule { ALERT_YIELD, ALERT_PAUSED, ALERT_BLOCKED, ALERT_BREAKER, ALERT_429, ALERT_LAG,
		  ALERT_N };

#define ALERT_429_WINDOW 20      /* answers the 429 share is taken over */

/* A host's alert state, written by alert.c only: when each rule last
 * ran the command, and its last answers, 1 bit a 429. */
struct host_alert {
	double last[ALERT_N];    /* monotonic; 0: never */
	unsigned answers;        /* the last ALERT_429_WINDOW, newest in bit 0 */
	int n_answers;           /* how many of those bits are answers, up to the window */
};

/* A growable byte buffer of an exchange. */
typedef struct rawbuf {
	char *p;
	size_t len, cap;
} rawbuf;

/* --raw: one exchange as sent and received, for an archive: the request
 * line and headers as sent (those libcurl adds included), the status
 * line and headers as received, and the payload as received (its
 * content coding kept, its chunked transfer coding undone at the end). */
typedef struct exchange {
	char *url;               /* the URL requested */
	double date;             /* unix s: when the request was sent */
	char ip[48];             /* the address answering (CURLINFO_PRIMARY_IP) */
	long http_version;       /* CURL_HTTP_VERSION_* of the answer */
	rawbuf req, head, payload;
	int chunked;             /* the payload's chunked coding was undone */
	int payload_cut;         /* it passed --max-body and was cut there */
} exchange;

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
	char *name;              /* the host name of the URL the next attempt requests */
	char *target;            /* the redirect target the next attempt requests, or NULL: url */
	hop *chain;              /* the redirects so far, n_chain of them */
	int n_chain;
	/* --raw: the exchange of the attempt in flight or last made, and
	 * those of the redirect hops before it (one a hop, n_chain of them) */
	exchange raw;
	exchange *hops_raw;
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
	int connected;           /* the last attempt connected (to the host or its proxy) */
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
	struct curl_slist *resolve;   /* the addresses it gives libcurl (dns.c) */
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
	int answered;            /* a request to it got an answer, or at least connected */
	/* It cannot be reached (retry_unreachable): every job of it ends
	 * with this word and detail, unsent; FETCHERR_NONE while it may. */
	enum fetcherr down;
	char *down_detail;
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

/* The flags retry.c's rules read (main.c fills it once). */
struct retry_conf {
	int retry_on[FETCH_MAX_RETRY_ON];   /* --retry-on */
	int n_retry_on;
	long retries;            /* --retries: after the first attempt, per hop */
	double backoff;          /* --backoff: the base of the exponential cap */
	double max_retry_after;  /* --max-retry-after: a longer wait ends the URL */
	double max_elapsed;      /* --max-elapsed: seconds per URL */
};

/* The flags redirect.c's rule reads (main.c fills it once). */
struct redirect_conf {
	long max_redirs;         /* --max-redirs */
	int scope;               /* --redirects: REDIR_* */
	const struct cidr *private_ranges;  /* --private-ranges */
	int allow_private;       /* --allow-private */
	int via_proxy;           /* --proxy: connections are the proxy's */
};

/* The flags robots.c's rules read (main.c fills it once). */
struct robots_conf {
	long retries;            /* --retries: failed fetches before "unreachable" */
	double backoff;          /* --backoff: the wait before asking again */
	const char *agent;       /* --robots-agent */
};

typedef struct fetch {
	fetch_opts o;
	/* the policies' flags, from o */
	struct {
		struct retry_conf retry;
		struct redirect_conf redirect;
		struct robots_conf robots;
	} conf;
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
} fetch;

extern fetch F;

/* ---- driver */

/* drive.c */
void drive_init(void);            /* runs a pass before each wait for events */

/* ---- sources and reporters */

/* input.c */
extern int input_failed_open;
int input_init(char **files, int n);
void input_want(void);            /* read more if capacity allows */
void input_close(void);

/* warcin.c */
extern int warcin_failed_open;    /* a file could not be opened or read */
/* --from-warc: reads files[0..n) ("-": stdin; none: stdin) as WARC. */
void warcin_init(char **files, int n);
/* The driver's pass: turns records into output until it is blocked, a
 * pipe has nothing more for now, or a pass's share was read; sets
 * F.input_done after the last file.  A malformed file is said, ends
 * (F.bad_input) and the next is read. */
void warcin_want(void);
/* Says what was read and skipped; frees. */
void warcin_close(void);

/* lease.c */
/* Sets up leasing, once the frontier is open (dbq_open); with --queue
 * only.  0, or -1. */
int lease_init(void);
/* Whether fetch runs with --queue. */
int lease_active(void);
/* Admits one input URL to the frontier (seeding). */
void lease_admit(const char *canon, const char *host);
/* Input is exhausted: commits the last seeds and starts leasing, from
 * the frontier's thread. */
void lease_seeded(void);
/* Posts a lease when capacity allows; its answer (dbq_collect) queues
 * the jobs. */
void lease_want(void);
void lease_interrupt(void);       /* stopping: waiting URLs back to pending */
void lease_close(void);

/* beat.c */
/* Joins the job as an owner: the recrawl, the leases of dead fetches
 * back, the job's jar, the paused hosts held; starts the heartbeat.
 * On the loop thread, before the frontier's thread starts.  0, or -1. */
int beat_init(void);
/* Posts the heartbeat when it is due and none is on its way. */
void beat_want(void);
/* Says that n URLs (n > 0) wait for the paused hosts, naming them. */
void beat_note_held(long long n);
/* The jar as the fetch ends, to the job; frees what the beat held. */
void beat_close(void);

/* guard.c */
/* A host the yield guard judged on the frontier's thread: below
 * --min-yield over a fresh window, or slowed and not below. */
typedef struct guard_judged {
	char *host;
	double share, blocked;   /* the window's accepted and blocked parts */
	int low;
} guard_judged;
/* The hosts one heartbeat judged. */
typedef struct guard_list {
	guard_judged *v;
	int n, cap;
} guard_list;
/* fr_yields's callback, on the frontier's thread (arg: a guard_list):
 * keeps a host of ours that is below --min-yield, or slowed. */
void guard_judge(void *arg, const char *host, double share, double blocked, int slowed);
/* The guard's next step for g: its rate halved, halved again, then the
 * host paused for every fetch on the job (a fresh window back at
 * --min-yield undoes one halving); each step stored, said, counted and
 * alerted, with the rule `blocked` too when most of the window's
 * rejections were validate's `blocked`.  Returns 1 when it paused the
 * host, with the reason in why (n bytes): the caller holds it at once.
 * Else 0. */
int guard_step(const guard_judged *g, char *why, size_t n);
void guard_list_free(guard_list *l);

/* jobctl.c */
/* --report (requeue 0) or --requeue-dead (1): prints the job's state,
 * closes the frontier; 0, or -1 on a failed read. */
int jobctl_report(int requeue);
/* --pause HOST (on) or --resume HOST: changes the job, closes the
 * frontier; returns 0. */
int jobctl_pause(const char *host, int on);

/* qwrite.c */
/* Posted writes: nothing waits for their answer, and they carry copies
 * of their strings (the jobs they came from are gone). */
struct qwrite;
/* A hand-back: leases of URLs that go back to pending, unstarted, in
 * one transaction. */
struct qwrite *qwrite_handback(void);
void qwrite_handback_add(struct qwrite *w, char *url);   /* takes url over */
/* Posts w, or frees it when it holds no URL. */
void qwrite_handback_post(struct qwrite *w);
/* With --queue: hands j back to the frontier, to be tried after wait
 * seconds (its host's hold goes too, for whoever leases its URLs
 * next), and drops it: 1.  Else 0. */
int qwrite_defer(job *j, double wait);
/* With --queue: the frontier learns that redirect target canon is done,
 * so a crawl that finds it later does not fetch it again (the input's
 * record holds what it answered).  Else a no-op. */
void qwrite_redirected(const char *canon, const char *host, const char *from);
/* Hands the leases of the waiting jobs of held hosts (of all hosts when
 * any) back unstarted, and says how many, of_what. */
void qwrite_unlease_waiting(int any, const char *of_what);

/* progress.c */
void progress_init(void);         /* starts the status line, if wanted */
void progress_close(void);        /* its last state, and a newline */

/* sinkstats.c */
/* Accepted records per second over about the last minute: sink's, from
 * the --sink-stats file (re-read only once it changed); else, with
 * --queue, the job's, from the frontier's count (read on the frontier's
 * thread every few seconds, never waited for); -1 while unknown. */
double sinkstats_accepted_rate(void);

/* stats.c */
void stats_init(void);            /* starts the --stats timer, if any */
/* The driver's pass: when the timer fired, posts a read of the queue
 * ages (--queue) and writes the file (with the ages read before). */
void stats_pass(void);
void stats_write(void);           /* writes --stats FILE now */
/* The last write, with the queue ages read at once (call it after
 * dbq_stop); stops the timers. */
void stats_close(void);

/* metrics.c */
void metrics_init(void);          /* writes --metrics FILE, starts its timer */
void metrics_pass(void);          /* rewrites the file when its timer fired */
void metrics_write(void);         /* rewrites it now */
void metrics_close(void);         /* the last write */

/* ---- policy */

/* sched.c */
/* A new job to its host's fresh list; one whose j->host is not yet set
 * is placed first, once its name resolves (a name that does not
 * resolve ends it, unsent, as dns). */
void sched_enqueue(job *j);
/* A job to its host's retry list, placed first as sched_enqueue's. */
void sched_retry(job *j);
/* The jobs whose names were resolved meanwhile (dns_done), placed. */
void sched_resolved(void);
/* The host that paces host name name when its address is known (or
 * not needed): for the frontier's and the yield guard's news of a
 * name.  NULL when pacing by address and the name is not resolved. */
host *sched_host_of(const char *name);
void sched_pump(void);            /* start whatever may start now */
void sched_started(host *h, double now);  /* a request of h takes a slot */
void sched_finished(host *h);     /* and gives it back */
void sched_interrupt_waiting(void);
/* Origin o of h cannot be reached (o->down): its waiting jobs end now
 * with o's word and detail, unsent. */
void sched_end_origin(host *h, origin *o);

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

/* robots.c */
/* May a page of url start at origin o of host h: go, fetch the
 * origin's robots.txt first, or refused by it. */
enum robots_gate { ROBOTS_GO, ROBOTS_FETCH, ROBOTS_REFUSED };
enum robots_gate robots_gate(const host *h, const origin *o, const char *url);
enum robots_kind {
	ROBOTS_RULES,            /* a 2xx: its rules (and Crawl-delay) */
	ROBOTS_NO_RULES,         /* a 4xx (not 429): everything allowed */
	ROBOTS_AGAIN,            /* disallow all for now, ask again after wait */
	ROBOTS_UNREACHABLE,      /* failed once more than --retries: disallow all */
	ROBOTS_PRIVATE,          /* a guarded redirect hop was refused: not an answer */
	ROBOTS_DOWN,             /* the origin cannot be reached (retry_unreachable):
				    its pages end with the request's word and detail */
};
struct robots_verdict {
	enum robots_kind kind;
	struct robots *rules;    /* RULES: parsed (the caller owns them) */
	double crawl_delay;      /* RULES: its Crawl-delay, 0 for none */
	double wait;             /* AGAIN: seconds */
};
/* The verdict on robots.txt job j's answer (answered: curl's result was
 * CURLE_OK), after fails earlier failures of its origin.  Only a site
 * that answered badly (5xx, 429, a timeout or reset on an open
 * connection: RFC 9309's unreachable) is asked again and then disallows
 * all; one that cannot be reached at all is DOWN at once. */
struct robots_verdict robots_answer(const struct robots_conf *c, const job *j, int answered,
				    int fails);

/* retry.c */
/* What to do with a job after an attempt, or when it waited too long. */
struct retry_verdict {
	int again;               /* 1: attempt again after wait seconds */
	double wait;
	enum fetcherr error;     /* else: the record's error word (NONE: its answer is final) */
	char detail[128];        /* else, when not "": its new error_detail */
};
/* Whether HTTP status is one of --retry-on's. */
int retry_status_listed(const struct retry_conf *c, long status);
/* Uniform in [0, 1): the jitter of backoffs and breaker pauses. */
double retry_unit_random(void);
/* A Retry-After header's value as seconds to wait from now (unix
 * seconds): delay-seconds, or an HTTP-date (curl_getdate's forms), 0
 * when that date has passed; -1 for none (NULL) or a value of neither
 * form. */
double retry_after_seconds(const char *value, double now);
/* The network word when j's attempt (no answer: answered 0) shows its
 * origin cannot be reached at all: the name or the proxy did not
 * resolve, the connection was refused or timed out before it was made,
 * TLS or the proxy refused it.  Else FETCHERR_NONE: an answer, or a
 * failure on a connection that was made (reset, a timeout reading). */
enum fetcherr retry_unreachable(const job *j, int answered);
/* The verdict on j's attempt, which got an answer (answered: curl's
 * result was CURLE_OK; j->status is its status) or failed with
 * j->error, and carried retry_after (seconds, < 0: none).  Again when
 * its status is listed or its error is a retried word, the server's
 * wait is within max_retry_after, the hop has attempts left (the first
 * hop counts earlier leases' too), and the retry can start (after
 * retry_after, else the backoff with jitter unit in [0, 1), and not
 * before its host is free) before j's deadline.  Else the final word:
 * retries_exhausted for a listed status, retry_after for a wait too
 * long, else the attempt's. */
struct retry_verdict retry_decide(const struct retry_conf *c, const job *j, int answered,
				  double retry_after, double now, double unit);
/* The verdict on j at its deadline: a URL that was tried keeps its
 * word (a detail says the deadline passed); one that never started
 * ends as `deadline`. */
struct retry_verdict retry_expired(const struct retry_conf *c, const job *j);
/* When j passes --max-elapsed: its deadline once it has started; before
 * that, the deadline it would get starting now (later while its host is
 * healthy, since then waiting costs it nothing). */
double retry_deadline(const struct retry_conf *c, const job *j, double now);

/* redirect.c */
/* Whether HTTP status is a redirect fetch follows (301, 302, 303, 307,
 * 308). */
int redirect_status(long status);
enum redirect_kind { REDIRECT_FINAL, REDIRECT_FOLLOW, REDIRECT_REFUSED };
typedef struct redirect_verdict {
	enum redirect_kind kind;
	char *target, *host;     /* FOLLOW: the canonical target, its host name */
	int guard;               /* FOLLOW: the hop may not connect to a private address */
	int from_public;         /* the chain began at a public address */
	enum fetcherr error;     /* REFUSED: the word */
	char *detail;            /* REFUSED: its error_detail */
} redirect_verdict;
/* The verdict on j's answer, its Location (NULL: none) and the address
 * it came from (ip, NULL: unknown): FINAL unless a redirect status with
 * a Location; REFUSED (bad_url, scheme, a loop or more than max_redirs
 * hops: redirects, out of scope: offsite_redirect); else FOLLOW, the
 * hop guarded when the chain began at an address outside
 * private_ranges, unless allow_private or via_proxy.  Its strings are
 * malloc'd: redirect_verdict_free. */
redirect_verdict redirect_next(const struct redirect_conf *c, const job *j, const char *location,
			       const char *ip);
void redirect_verdict_free(redirect_verdict *v);

/* shard.c */
int shard_parse(const char *s, long *k, long *n);
long shard_of(const char *host, long n);
int shard_takes(const char *host);  /* NULL host: an input not fetched */

/* ---- services */

/* alert.c */
/* The rule's word, as SLUICE_RULE has it ("yield", "paused", "blocked",
 * "breaker", "429", "lag"). */
const char *alert_word(enum alert_rule r);
/* Starts the loop-lag watch with --on-alert and --alert-lag. */
void alert_init(void);
/* Rule r tripped for h (NULL: fetch as a whole) at value: runs
 * --on-alert's command through sh -c, unless the rule ran for h less
 * than --alert-every ago (ALERT_PAUSED always runs), or too many commands still run (then the
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
/* Stops the lag watch; commands still running get --alert-grace
 * seconds to finish, then their process groups are ended (SIGTERM,
 * then SIGKILL).  After the loop has stopped. */
void alert_close(void);

/* xfer.c */
/* Starts one attempt of j: an easy handle into the multi.  Returns 0,
 * or -1 with j->error set when no handle could be made. */
int xfer_start(job *j);
/* Ends j's attempt, whose transfer finished with rc: takes it out of
 * the multi and sets j's status, error word and detail, and whether it
 * connected. */
void xfer_end(job *j, CURLcode rc);
size_t xfer_paused(void);         /* transfers paused on blocked output */
void xfer_unpause_all(void);      /* follow with loop_kick */
/* The error_detail of a hop refused as private_address (malloc'd). */
char *xfer_private_detail(const job *j);

/* req.c */
/* Header syntax, secrets and the origin rule: lib/hdr.h. */
/* The header list j's next attempt sends (malloc'd; NULL for none):
 * -H's, then --policy's for its target's host; the secret ones only
 * while the target is the input's origin, and never for robots.txt
 * (whose redirects libcurl follows). */
struct curl_slist *req_headers(const job *j);
/* Whether j's next attempt may carry credentials (--user's, or the
 * input URL's userinfo): it is no robots.txt request and its target is
 * the input's origin. */
int req_credentials(const job *j);
/* Sets on e the user and password of j's input URL, when it has them
 * and j's target is a redirect hop (whose URL has none of its own). */
void req_url_credentials(CURL *e, const job *j);
/* --cookies: makes the jar, bounded by --max-cookies, and reads FILE
 * into it when it exists (saying what it left out: lines refused, the
 * oldest past the caps); 0, or -1 with the reason in err. */
int req_cookies_open(const char *path, char *err, size_t errlen);
/* Sets on e the Cookie header of j's attempt: the jar's cookies for
 * its target (a no-op without --cookies; robots.txt gets none). */
void req_cookies_use(CURL *e, const job *j);
/* Stores the Set-Cookie value line (len bytes) of an answer to j's
 * target (a no-op without --cookies). */
void req_cookies_set(const job *j, const char *line, size_t len);
/* The jar's counts into c; 0, or -1 without --cookies. */
int req_cookies_counts(cookie_counts *c);
/* The jar as Netscape lines, oldest first (malloc'd, "" when empty;
 * NULL without --cookies), for the frontier. */
char *req_cookies_dump(void);
/* Adds Netscape lines (as req_cookies_dump writes them) to the jar as
 * its newest, saying what it left out. */
void req_cookies_load(const char *lines);
/* Writes the jar to --cookies FILE through FILE.tmp and a rename; 0, or
 * -1 (a warning said why).  A SIGINT or SIGTERM meanwhile ends fetch at
 * once with 128 + its number, FILE as it was. */
int req_cookies_save(void);
void req_free(void);          /* at exit: the jar, the secret names */

/* record.c */
/* Writes j's one record (the keys fetch owns, then the input record's
 * others), counts it and frees j. */
void record_emit(job *j);
/* Ends j with error word e and detail (malloc'd, taken over; NULL for
 * none): its record, as record_emit. */
void record_fail(job *j, enum fetcherr e, char *detail);

/* output.c */
void output_init(int fd, int json, size_t limit);
void output_record(void);         /* F.build finished into the buffer */
rec_out *output_rec(void);
int output_blocked(void);
unsigned long output_reopened(void);  /* times blocked went to open */
void output_drain(void);
int output_idle(void);
void output_close(void);

/* dbq.c */
/* Opens the frontier at path (an SQLite file or a postgresql:// URI),
 * or dies (exit 74) naming it, its password hidden.  With --cookies the
 * file (and its -wal and -shm) is made 0600: the job keeps the session. */
void dbq_open(const char *path);
/* The frontier (NULL outside --queue).  From dbq_start on, only a
 * task's run(), on the frontier's thread, may use it. */
struct fr *dbq_frontier(void);
/* Dies (exit 74) with the frontier's reason when a call of it failed
 * (rc < 0): "cannot WHAT the queue: why". */
void dbq_check(int rc, const char *what);
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
/* dbq_stop, then closes the frontier.  A no-op outside --queue. */
void dbq_close(void);

/* dns.c */
/* The address that paces j's next attempt, its host name j->name
 * resolved: 1 with *addr set (NULL when a proxy resolves: the name
 * alone paces); -1 when the name does not resolve, with the message in
 * *why (malloc'd); 0 when j is parked until the answer comes
 * (dns_done). */
int dns_place(job *j, const char **addr, char **why);
/* The address cached for name (current or not), or NULL. */
const char *dns_address(const char *name);
/* The next parked job whose name was answered, or NULL: place it again. */
job *dns_done(void);
/* A parked job (answered or not), taken out, or NULL: stopping. */
job *dns_take_waiting(void);
/* No lookup runs. */
int dns_idle(void);
/* The CURLOPT_RESOLVE list for j's attempt at url (malloc'd): --resolve's
 * lines, and the addresses fetch resolved for its name, as an entry
 * that times out. */
struct curl_slist *dns_resolve_list(const job *j, const char *url);
size_t dns_names(void);           /* names cached */
/* Frees the cache; lookups still running are cancelled (the loop's last
 * run answers them). */
void dns_close(void);

/* loop.c */
int loop_init(void);
void loop_add(job *j);            /* hands an easy handle to the multi */
void loop_remove(job *j);         /* takes it back */
job *loop_done(CURLcode *rc);     /* the next finished transfer, or NULL */
void loop_kick(void);             /* drives transfers that are due */
void loop_close(void);

/* ---- data */

/* host.c */
/* The host that paces requests to host name `name` at address addr
 * (NULL: unknown), created with the configured pacing and --policy:
 * its own, its site's, or its address's (--pace-by ip).  Creating one
 * above --max-hosts frees the idle ones first. */
host *host_get(const char *name, const char *addr);
/* The host at or after *i in the table, moving *i past it; NULL after
 * the last.  Start with *i = 0. */
host *host_next(size_t *i);

/* The origin of canonical URL u among h's, added when new. */
origin *host_origin(host *h, const char *u);
void host_reconfigure(void);      /* the flags and --policy, again, for every host */
/* Frees idle hosts above --max-hosts: before the counters are written,
 * so what --stats and --metrics show is bounded by the flag. */
void host_trim(void);
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
/* Unlinks a waiting job of h whose next attempt goes to origin o, or
 * NULL when none. */
job *host_take_origin(host *h, const origin *o);
/* A waiting job of a held host (of any host when any), or NULL. */
job *host_take_held(int any);
void host_free_all(void);

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

/* counters.c */
void counters_record(const job *j);   /* a record was written */
void counters_started(const job *j);  /* an attempt (or robots.txt) started */
void counters_finished(const job *j); /* it ended: xfer_end has run */
void counters_evicted(const host *h); /* h's counters go to "other" */
/* The yield guard halved h's rate (paused 0), or paused it (1). */
void counters_guard(host *h, int paused);
/* The latency histogram's bucket of ms: 8 per doubling from 1 ms. */
int counters_bucket(double ms);

/* job.c */
/* A new job for url (taken over; dies through xalloc_die when NULL, as
 * when out of memory) passing through input record in (copied; in_len
 * may be 0), counted in F.alive until it is dropped. */
job *job_new(char *url, const char *in, size_t in_len);
/* The job that fetches the robots.txt of h's origin o, at host name
 * name: no input, not in F.alive, no record. */
job *job_new_robots(host *h, origin *o, const char *name);
/* Adds a hop to j's redirect chain: url (copied) answered status; with
 * --raw its exchange (j->raw) goes with it. */
void job_add_hop(job *j, const char *url, long status);
/* Empties exchange x (keeping its buffers for the next attempt). */
void job_raw_clear(exchange *x);
void job_raw_free(exchange *x);
/* Sets the input's host name of j (copied): its record's `host`, and
 * the name its first attempt goes to. */
void job_set_host_name(job *j, const char *name);
/* target (malloc'd, taken over), at host name name (copied), is the URL
 * j's next attempt requests: its attempts at the hop start again, at a
 * host still to be placed. */
void job_set_target(job *j, char *target, const char *name);
/* The value of header name (lowercase) in j's last response, or NULL. */
const char *job_header(const job *j, const char *name);
/* Sets j's error word and detail (malloc'd, taken over; NULL: none). */
void job_set_error(job *j, enum fetcherr e, char *detail);
void job_drop(job *j);            /* ends j, counted in F.alive, without a record */
void job_free(job *j);

/* pool.c */
CURL *pool_take(void);            /* a spare easy handle, or NULL */
void pool_put(CURL *e);           /* e is spare: kept (at most -c) or freed */
void pool_free(void);             /* at exit, before curl_global_cleanup */

#endif
