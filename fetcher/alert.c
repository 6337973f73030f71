/* alert — --on-alert CMD: tell an operator when a source degrades.
 *
 * A rule that trips runs CMD through `sh -c`, with SLUICE_RULE (the
 * rule's word), SLUICE_HOST (empty for a rule of fetch as a whole),
 * SLUICE_VALUE (the number that tripped it) and SLUICE_MESSAGE (one
 * line saying so) in its environment, at most once per host per rule
 * per --alert-every.  The rules are one table below.
 *
 * The command is started with uv_spawn and reaped by its exit callback:
 * nothing waits for it, so a slow webhook never holds a transfer back.
 * Its stdin is /dev/null, its stdout and stderr fetch's stderr (fetch's
 * stdout is the record stream), and no other descriptor of fetch's
 * (sockets, libcurl's wakeup pair, the frontier) reaches it.  It runs in
 * a process group of its own, so nothing of it outlives fetch: at exit
 * it gets --alert-grace seconds, then its group is ended.  At most ALERT_MAX_RUNNING run at once;
 * an alert beyond them is dropped, counted and said: an alert storm
 * must not fork without bound.  The environment is fetch's reduced to
 * the few variables a shell command needs (ENV_KEEP): fetch's own may
 * carry credentials (a proxy URL with its password, a token), and a
 * webhook's URL belongs in CMD.  The values are host names and numbers,
 * never a URL, so no URL's password can reach the command.
 *
 * A host's state (struct host_alert) is written here only: when each
 * rule last ran for it, and its last answers for the 429 rule.  A host
 * evicted above --max-hosts forgets both. */
#include "fetch.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "msg.h"
#include "tm.h"
#include "xalloc.h"

#define ALERT_MAX_RUNNING 4
#define LAG_EVERY_MS 100        /* as --stats' loop_lag_ms */

extern char **environ;

/* The rules: the word the command sees and what trips it (docs/fetch.md,
 * "Alerts", lists the same). */
static const struct {
	const char *word;
	const char *meaning;
} rules[ALERT_N] = {
	[ALERT_YIELD] = { "yield", "the yield guard halved a host's rate" },
	[ALERT_PAUSED] = { "paused", "the yield guard paused a host" },
	[ALERT_BLOCKED] = { "blocked", "the yield guard acted on a host whose rejections are mostly blocked" },
	[ALERT_BREAKER] = { "breaker", "a host's circuit breaker opened" },
	[ALERT_429] = { "429", "a host's 429 share over its last 20 answers reached --alert-429" },
	[ALERT_LAG] = { "lag", "the event loop ran a timer --alert-lag late" },
};

/* Variables of fetch's environment the command keeps, by name or, ending
 * in '_', by prefix. */
static const char *const ENV_KEEP[] = {
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_", "TZ", "TMPDIR", NULL
};

static uv_process_t *child[ALERT_MAX_RUNNING];   /* those running */
static int running;
static unsigned long long n_run, n_dropped, n_failed;
static double last_global[ALERT_N];   /* the rules of fetch as a whole */
static uv_timer_t lag_timer;
static int lag_on;
static double lag_due, lag_seen;      /* ms: when due, the worst lag not yet told */

const char *
alert_word(enum alert_rule r)
{
	return rules[r].word;
}

static void
on_closed(uv_handle_t *h)
{
	free(h->data);
	free(h);
}

/* Forgets p among the children running. */
static void
untrack(uv_process_t *p)
{
	for (int i = 0; i < ALERT_MAX_RUNNING; i++)
		if (child[i] == p)
			child[i] = NULL;
	running--;
}

/* The command ended: reaped (libuv waits for it on SIGCHLD). */
static void
on_child_exit(uv_process_t *p, int64_t status, int signal)
{
	untrack(p);
	if (status != 0 || signal != 0) {
		n_failed++;
		if (signal)
			msg_warn("alert command %s: killed by signal %d", (const char *)p->data, signal);
		else
			msg_warn("alert command %s: exited %lld", (const char *)p->data, (long long)status);
	}
	uv_close((uv_handle_t *)p, on_closed);
}

static int
kept(const char *var)
{
	for (int i = 0; ENV_KEEP[i]; i++) {
		const char *k = ENV_KEEP[i];
		size_t n = strlen(k);
		if (strncmp(var, k, n) == 0 && (k[n - 1] == '_' || var[n] == '='))
			return 1;
	}
	return 0;
}

/* Runs the command for rule r; rule, host and value said as given. */
/* Marks every descriptor above stderr close-on-exec: libuv closes its
 * own in the child, libcurl's sockets and wakeup pair it does not. */
static void
cloexec_all(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		int fd = atoi(e->d_name);
		if (fd > 2 && fd != dirfd(d))
			fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
	}
	closedir(d);
}

static void
spawn(enum alert_rule r, const char *host, double value, const char *message)
{
	size_t n = 0, cap = 8;
	for (char **e = environ; *e; e++)
		cap++;
	char **env = xcalloc(cap, sizeof *env);
	for (char **e = environ; *e; e++)
		if (kept(*e))
			env[n++] = xstrdup(*e);
	char num[32];
	snprintf(num, sizeof num, "%g", value);
	env[n++] = xjoin("SLUICE_RULE", "=", rules[r].word);
	env[n++] = xjoin("SLUICE_HOST", "=", host);
	env[n++] = xjoin("SLUICE_VALUE", "=", num);
	env[n++] = xjoin("SLUICE_MESSAGE", "=", message);
	char *args[] = { "/bin/sh", "-c", (char *)F.o.on_alert, NULL };
	/* stdin ignored is /dev/null (libuv opens it for fds 0-2). */
	uv_stdio_container_t io[3] = {
		{ .flags = UV_IGNORE },
		{ .flags = UV_INHERIT_FD, .data.fd = 2 },
		{ .flags = UV_INHERIT_FD, .data.fd = 2 },
	};
	uv_process_options_t o = {
		.exit_cb = on_child_exit, .file = args[0], .args = args, .env = env,
		.stdio_count = 3, .stdio = io,
		.flags = UV_PROCESS_DETACHED,   /* its own process group (setsid) */
	};
	cloexec_all();
	uv_process_t *p = xcalloc(1, sizeof *p);
	char label[160];
	snprintf(label, sizeof label, "%s%s%s", rules[r].word, *host ? " for " : "", host);
	int rc = uv_spawn(F.loop, p, &o);
	for (size_t i = 0; i < n; i++)
		free(env[i]);
	free(env);
	if (rc != 0) {
		n_failed++;
		msg_warn("alert command %s: cannot start: %s", label, uv_strerror(rc));
		uv_close((uv_handle_t *)p, on_closed);   /* libuv's rule, even after a failure */
		return;
	}
	p->data = xstrdup(label);
	for (int i = 0; i < ALERT_MAX_RUNNING; i++)
		if (!child[i]) {
			child[i] = p;
			break;
		}
	running++;
	n_run++;
}

void
alert_fire(host *h, enum alert_rule r, double value, const char *message)
{
	if (!F.o.on_alert)
		return;
	double now = tm_mono(), *last = h ? &h->alert.last[r] : &last_global[r];
	/* A pause is the event an operator most needs, and comes once per
	 * host: never held back by --alert-every. */
	if (r != ALERT_PAUSED && *last > 0 && now - *last < F.o.alert_every)
		return;
	*last = now;
	const char *host = h ? h->name : "";
	if (running >= ALERT_MAX_RUNNING) {
		n_dropped++;
		msg_warn("alert %s%s%s dropped: %d alert commands still run", rules[r].word,
			 *host ? " for " : "", host, running);
		return;
	}
	msg_note("alert %s: %s", rules[r].word, message);
	spawn(r, host, value, message);
}

void
alert_answer(host *h, long status)
{
	if (!F.o.on_alert || F.o.alert_429 <= 0)
		return;
	struct host_alert *a = &h->alert;
	unsigned window = (1u << ALERT_429_WINDOW) - 1;
	a->answers = ((a->answers << 1) | (status == 429)) & window;
	if (a->n_answers < ALERT_429_WINDOW)
		a->n_answers++;
	if (a->n_answers < ALERT_429_WINDOW)
		return;
	int n429 = __builtin_popcount(a->answers);
	double share = (double)n429 / ALERT_429_WINDOW;
	if (share < F.o.alert_429)
		return;
	char m[256];
	snprintf(m, sizeof m, "%s: 429 to %d of its last %d answers (%.2f, --alert-429 %g)", h->name,
		 n429, ALERT_429_WINDOW, share, F.o.alert_429);
	alert_fire(h, ALERT_429, share, m);
}

void
alert_breaker(host *h)
{
	char m[256];
	snprintf(m, sizeof m, "%s: circuit breaker open after %ld failures in a row (trip %d)",
		 h->name, F.o.host_failures, h->pace.trips);
	alert_fire(h, ALERT_BREAKER, h->pace.trips, m);
}

/* As stats.c's on_lag: the loop's clock against when the timer was due. */
static void
on_lag(uv_timer_t *t)
{
	double now = (double)uv_hrtime() / 1e6;
	double lag = now > lag_due ? now - lag_due : 0;
	if (lag > F.o.alert_lag * 1000 && lag > lag_seen)
		lag_seen = lag;
	lag_due = (double)uv_now(t->loop) + LAG_EVERY_MS;
}

void
alert_init(void)
{
	if (!F.o.on_alert || F.o.alert_lag <= 0)
		return;
	uv_timer_init(F.loop, &lag_timer);
	uv_update_time(F.loop);
	uv_timer_start(&lag_timer, on_lag, LAG_EVERY_MS, LAG_EVERY_MS);
	lag_due = (double)uv_now(F.loop) + LAG_EVERY_MS;
	uv_unref((uv_handle_t *)&lag_timer);   /* never what keeps fetch running */
	lag_on = 1;
}

void
alert_drive(void)
{
	if (lag_seen <= 0)
		return;
	char m[128];
	snprintf(m, sizeof m, "event loop %.0f ms late (--alert-lag %g s)", lag_seen, F.o.alert_lag);
	alert_fire(NULL, ALERT_LAG, lag_seen / 1000, m);
	lag_seen = 0;
}

void
alert_counts(unsigned long long *run, unsigned long long *dropped, unsigned long long *failed)
{
	*run = n_run;
	*dropped = n_dropped;
	*failed = n_failed;
}

/* Waits until none of the children run or until deadline (monotonic),
 * reaping them itself: the loop has stopped. */
static void
reap_until(double deadline)
{
	while (running > 0) {
		for (int i = 0; i < ALERT_MAX_RUNNING; i++) {
			int st;
			if (child[i] && waitpid(child[i]->pid, &st, WNOHANG) != 0) {
				uv_process_t *p = child[i];
				untrack(p);
				uv_close((uv_handle_t *)p, on_closed);
			}
		}
		if (running == 0 || tm_mono() >= deadline)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
	}
}

/* Sends sig to the process group of every child still running. */
static void
signal_groups(int sig)
{
	for (int i = 0; i < ALERT_MAX_RUNNING; i++)
		if (child[i])
			kill(-child[i]->pid, sig);
}

void
alert_close(void)
{
	if (lag_on)
		uv_close((uv_handle_t *)&lag_timer, NULL);
	lag_on = 0;
	if (running == 0)
		return;
	reap_until(tm_mono() + F.o.alert_grace);
	if (running == 0)
		return;
	msg_warn("%d alert commands still run after --alert-grace %g s: ending them", running,
		 F.o.alert_grace);
	signal_groups(SIGTERM);
	reap_until(tm_mono() + 1);
	signal_groups(SIGKILL);
	reap_until(tm_mono() + 1);
	for (int i = 0; i < ALERT_MAX_RUNNING; i++)   /* not even SIGKILL: leave them */
		if (child[i]) {
			uv_close((uv_handle_t *)child[i], on_closed);
			untrack(child[i]);
		}
}
