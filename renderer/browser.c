/* browser — the one Chromium child, spoken to over the DevTools pipe.
 *
 * Chromium started with --remote-debugging-pipe reads commands on fd 3
 * and writes answers and events on fd 4, each a JSON text ended by a NUL
 * byte: no port is opened, so nothing else on the machine can drive it.
 * The binary is run directly (Debian's /usr/bin/chromium is a shell
 * script adding flags of its own), in a session of its own so a terminal's
 * ^C reaches render alone, which then ends the pages in flight and the
 * browser in that order.  If render is killed outright, Chromium reads
 * EOF on fd 3 and quits by itself; the atexit handler kills the group and
 * removes the profile in every other way out.
 *
 * Answers are routed by id: a ring of CMD_RING entries keeps each
 * command's tab, the page generation it was sent for and a tag; an answer
 * whose entry was reused (a command that never came back) is dropped.
 */
#include "render.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msg.h"
#include "opt.h"
#include "smaps.h"
#include "xalloc.h"
#include "tm.h"
#include "url.h"

#define CMD_RING 4096
#define B_VERSION 1
#define B_DOWNLOADS 2
#define B_PING 3

typedef struct cmd {
	long id;
	int slot;
	unsigned gen;
	int tag;
	int browser;       /* to the browser itself, not a tab's session */
	double sent;       /* tm_mono */
} cmd;

static cmd cmds[CMD_RING];
static long next_id = 1;
static uv_process_t proc;
static uv_pipe_t to_b, from_b;
static int running, ready, pipes_open, restarts;
static uid_t as_uid = (uid_t)-1;   /* --browser-user's, when render runs as root */
static gid_t as_gid;
static pid_t child_pid;
static char profile[64];
static char *inbuf;
static size_t in_len, in_cap, scanned;
static double started_at;
static int trace;                  /* RENDER_TRACE set: messages on stderr */
static uv_timer_t watchdog;
static uv_async_t kick;
static int watching, hung, quitting;
static uv_timer_t quit_timer;      /* a recycled browser's time to quit */
static browser_cb cb;              /* what browser_start registered */
static int proc_closing;           /* the exited child's handle not yet closed */
static double last_sent;           /* of a browser-level command */
enum { START_TIMEOUT = 60 };       /* seconds Chromium may take to start */
enum { QUIT_TIMEOUT = 3 };         /* seconds a recycled one may take to quit */

/* Everything a scraper never needs, measured (docs/render.md): each
 * costs CPU per page or a request to Google.  --disable-features is one
 * list: Chromium keeps only the last --disable-features it is given.
 * WebUIOmniboxPopup and WebUIOmniboxAimPopup: Chromium 156 otherwise
 * starts two WebUI renderers (chrome://omnibox-popup.top-chrome) for
 * every browser context, that is for every page. */
static const char *const chrome_flags[] = {
	"--headless", "--remote-debugging-pipe", "--no-first-run",
	"--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
	"--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio",
	"--disable-breakpad", "--hide-scrollbars", "--metrics-recording-only",
	"--password-store=basic", "--use-mock-keychain", "--disable-renderer-backgrounding",
	"--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
	"--disable-ipc-flooding-protection", "--disable-hang-monitor",
	"--disable-client-side-phishing-detection", "--disable-domain-reliability", "--no-pings",
	"--deny-permission-prompts", "--disable-gpu", "--disable-notifications",
	"--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup,"
	"Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,"
	"InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater,"
	"AutofillServerCommunication,BackForwardCache,HttpsUpgrades,LensOverlay,"
	"GlobalMediaControls,PaintHolding",
	NULL
};

int
browser_ready(void)
{
	return ready;
}

int
browser_started(void)
{
	return child_pid > 0 || proc_closing;
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void
remove_profile(void)
{
	if (profile[0]) {
		nftw(profile, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		profile[0] = 0;
	}
}

static void
on_closed(uv_handle_t *h)
{
	(void)h;
}

static void on_watchdog(uv_timer_t *t);
static void kill_strays(void);

static void
close_pipes(void)
{
	if (!pipes_open)
		return;
	pipes_open = 0;
	uv_close((uv_handle_t *)&to_b, on_closed);
	uv_close((uv_handle_t *)&from_b, on_closed);
}

static void
on_kick(uv_async_t *a)
{
	(void)a;   /* the loop woke: sched's check runs next */
}

/* The handle is free for the next Chromium: the loop is woken (it may
 * sleep in poll with nothing else due), so sched's check runs and starts
 * it for the pages handed back. */
static void
on_proc_closed(uv_handle_t *h)
{
	(void)h;
	proc_closing = 0;
	if (!uv_is_closing((uv_handle_t *)&kick))
		uv_async_send(&kick);
}

static void
on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
	(void)status, (void)sig;
	uv_close((uv_handle_t *)p, on_proc_closed);
	proc_closing = 1;
	/* The zygote and renderers share its group: none outlives it. */
	kill(-child_pid, SIGKILL);
	kill_strays();
	child_pid = 0;
	running = ready = 0;
	close_pipes();
	in_len = scanned = 0;
	remove_profile();
	if (watching) {
		uv_timer_stop(&watchdog);
		watching = 0;
	}
	uv_timer_stop(&quit_timer);
	/* Its unanswered commands never will be: the next one starts clean. */
	memset(cmds, 0, sizeof cmds);
	cb.lost(quitting ? BROWSER_RECYCLED : hung ? BROWSER_HUNG : BROWSER_EXITED);
	hung = quitting = 0;
}

static void
dispatch(json_t *m)
{
	json_t *id = json_object_get(m, "id");
	if (json_is_integer(id)) {
		long i = (long)json_integer_value(id);
		cmd *c = &cmds[i % CMD_RING];
		if (c->id != i)
			return;
		c->id = 0;
		json_t *err = json_object_get(m, "error");
		json_t *res = json_object_get(m, "result");
		if (c->slot < 0) {
			if (c->tag == B_VERSION && !err) {
				ready = 1;
				restarts = 0;
			}
			return;
		}
		cb.reply(c->slot, c->gen, c->tag, res, err);
		return;
	}
	const char *method = json_string_value(json_object_get(m, "method"));
	const char *sid = json_string_value(json_object_get(m, "sessionId"));
	if (method && sid)
		cb.event(sid, method, json_object_get(m, "params"));
}

static void
on_alloc(uv_handle_t *h, size_t want, uv_buf_t *buf)
{
	(void)h, (void)want;
	if (in_cap - in_len < 65536) {
		/* A DOM or a screenshot as base64 JSON: a bit over 4/3 of
		 * --max-record, which bounds the records they become. */
		size_t limit = R.o.max_record / 3 * 4 + ((size_t)1 << 20);
		size_t cap = in_cap ? in_cap * 2 : 1 << 20;
		if (cap > limit + 65536)
			cap = limit + 65536;
		if (cap <= in_cap) {
			*buf = uv_buf_init(NULL, 0);
			return;
		}
		char *n = realloc(inbuf, cap);
		if (!n)
			xalloc_die();
		inbuf = n;
		in_cap = cap;
	}
	*buf = uv_buf_init(inbuf + in_len, (unsigned)(in_cap - in_len));
}

/* Keys whose values may hold a secret: -H's values, cookies, a login's
 * form.  RENDER_TRACE shows them as ***. */
static const char *const secret_keys[] = {
	"headers", "requestHeaders", "cookies", "associatedCookies", "postData",
	"postDataEntries", "headersText", "requestHeadersText", NULL
};

/* Replaces the values of secret_keys in J, at any depth, and a URL's
 * password. */
static void
redact(json_t *j)
{
	const char *k;
	json_t *v;
	size_t i;
	if (json_is_string(j)) {
		char *shown = strchr(json_string_value(j), '@') ? url_shown(json_string_value(j)) : NULL;
		if (shown)
			json_string_set(j, shown);
		free(shown);
	} else if (json_is_object(j)) {
		json_object_foreach(j, k, v) {
			int secret = 0;
			for (const char *const *s = secret_keys; *s && !secret; s++)
				secret = strcmp(k, *s) == 0;
			if (secret)
				json_object_set_new(j, k, json_string("***"));
			else
				redact(v);
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			redact(v);
	}
}

/* RENDER_TRACE: one message on stderr, secrets redacted, cut at 1000
 * bytes (a DOM or a screenshot would be megabytes). */
static void
trace_print(char dir, json_t *m)
{
	if (!m) {
		fprintf(stderr, "%c (not JSON)\n", dir);
		return;
	}
	json_t *c = json_deep_copy(m);
	redact(c);
	char *text = json_dumps(c, JSON_COMPACT);
	json_decref(c);
	fprintf(stderr, "%c %.1000s\n", dir, text ? text : "");
	free(text);
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	(void)s;
	if (n == UV_ENOBUFS) {
		msg_warn("chromium sent a message larger than --max-record allows, restarting it");
		kill(-child_pid, SIGKILL);
		return;
	}
	if (n < 0) {
		close_pipes();   /* EOF: the exit callback follows */
		return;
	}
	(void)buf;
	in_len += (size_t)n;
	size_t start = 0;
	for (size_t i = scanned; i < in_len; i++) {
		if (inbuf[i] != 0)
			continue;
		json_error_t je;
		json_t *m = json_loadb(inbuf + start, i - start, 0, &je);
		if (trace)
			trace_print('<', m);
		if (m) {
			dispatch(m);
			json_decref(m);
		}
		start = i + 1;
		if (!pipes_open)
			return;
	}
	memmove(inbuf, inbuf + start, in_len - start);
	in_len -= start;
	scanned = in_len;
}

typedef struct wreq {
	uv_write_t req;
	char *data;
} wreq;

static void
on_written(uv_write_t *w, int status)
{
	(void)status;   /* a dead pipe shows as EOF on the other one */
	wreq *r = (wreq *)w;
	free(r->data);
	free(r);
}

long
browser_send(int slot, unsigned gen, int tag, const char *sid, const char *method,
	     json_t *params)
{
	if (!pipes_open) {
		json_decref(params);
		return 0;
	}
	long id = next_id++;
	json_t *m = json_pack("{s:I, s:s}", "id", (json_int_t)id, "method", method);
	if (params)
		json_object_set_new(m, "params", params);
	if (sid)
		json_object_set_new(m, "sessionId", json_string(sid));
	char *text = json_dumps(m, JSON_COMPACT);
	if (trace)
		trace_print('>', m);
	json_decref(m);
	wreq *r = malloc(sizeof *r);
	if (!text || !r)
		xalloc_die();
	r->data = text;
	uv_buf_t b = uv_buf_init(text, (unsigned)strlen(text) + 1);   /* with its NUL */
	cmd *c = &cmds[id % CMD_RING];
	*c = (cmd){ id, slot, gen, tag, sid == NULL, tm_mono() };
	if (!sid)
		last_sent = c->sent;
	if (uv_write(&r->req, (uv_stream_t *)&to_b, &b, 1, on_written) != 0) {
		free(text);
		free(r);
		c->id = 0;
		return 0;
	}
	return id;
}

/* A browser that answers nothing is hung, not gone: no exit, no EOF.
 * Its own commands (not a tab's: a page's script may hold those) are
 * answered at once by a live one, so one unanswered for
 * --browser-timeout means it is hung; with none in flight for a third of
 * that, one is sent (Browser.getVersion) to ask.  Then it is killed, and
 * on_exit_cb hands the pages in flight back for one more try. */
static void
on_watchdog(uv_timer_t *t)
{
	(void)t;
	if (!pipes_open || hung)
		return;
	double now = tm_mono(), oldest = now;
	for (int i = 0; i < CMD_RING; i++)
		if (cmds[i].id && cmds[i].browser && cmds[i].sent < oldest)
			oldest = cmds[i].sent;
	/* Starting (no answer to Browser.getVersion yet) is allowed longer:
	 * on a loaded machine it was seen to take 7 s. */
	double limit = ready ? R.o.browser_timeout : fmax(R.o.browser_timeout, START_TIMEOUT);
	if (now - oldest > limit) {
		msg_warn("chromium did not answer for %.0f s, restarting it", now - oldest);
		hung = 1;
		kill(-child_pid, SIGKILL);
		return;
	}
	if (oldest == now && now - last_sent > R.o.browser_timeout / 3)
		browser_send(-1, 0, B_PING, NULL, "Browser.getVersion", NULL);
}

/* The directory Chromium's profile goes in: $TMPDIR or /tmp. */
static const char *
tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	return tmp && *tmp ? tmp : "/tmp";
}

/* Whether the user Chromium runs as may make the namespaces its sandbox
 * is built of (a user, PID and network namespace), tried in a child
 * that becomes that user: 0, or the errno of unshare, or -1 when tmp
 * (the profile's parent) is not reachable by that user. */
static int
userns_errno(void)
{
	pid_t pid = fork();
	if (pid < 0)
		msg_die(EX_OSERR, "cannot fork: %s", strerror(errno));
	if (pid == 0) {
		if (as_uid != (uid_t)-1 &&
		    (setgroups(0, NULL) != 0 || setgid(as_gid) != 0 || setuid(as_uid) != 0))
			_exit(255);
		if (access(tmp_dir(), X_OK) != 0)
			_exit(254);
		_exit(unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET) == 0 ? 0 : errno & 0xff);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			msg_die(EX_OSERR, "cannot wait for a child: %s", strerror(errno));
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 255;
	if (rc == 255)
		msg_die(EX_OSERR, "cannot become user %s: check --browser-user", R.o.browser_user);
	return rc == 254 ? -1 : rc;
}

void
browser_check(void)
{
	if (geteuid() == 0) {
		struct passwd *pw = getpwnam(R.o.browser_user);
		if (!pw || pw->pw_uid == 0)
			opt_bad("browser-user", R.o.browser_user, "a user other than root");
		as_uid = pw->pw_uid;
		as_gid = pw->pw_gid;
	}
	int e = userns_errno();
	if (e < 0)
		msg_die(EX_CANTCREAT, "%s: not reachable by user %s, who needs chromium's profile "
			"there: set TMPDIR to a directory it can reach", tmp_dir(),
			as_uid != (uid_t)-1 ? R.o.browser_user : "render's");
	if (R.o.no_sandbox) {
		msg_warn("chromium's sandbox is off (--no-sandbox): a page that exploits its "
			 "renderer runs with the rights of user %s",
			 as_uid != (uid_t)-1 ? R.o.browser_user : "render's");
		return;
	}
	if (e == 0)
		return;
	/* Without user namespaces Chromium takes the setuid helper beside
	 * its binary (Debian's chromium-sandbox package). */
	char bin[PATH_MAX], helper[PATH_MAX + 32];
	struct stat st;
	snprintf(bin, sizeof bin, "%s", R.o.chromium);
	snprintf(helper, sizeof helper, "%s/chrome-sandbox", dirname(bin));
	if (stat(helper, &st) == 0 && st.st_uid == 0 && (st.st_mode & S_ISUID) && (st.st_mode & S_IXOTH))
		return;
	msg_die(EX_OSERR, "cannot sandbox chromium: user namespaces are not available to user %s "
		"(unshare: %s; see sysctl user.max_user_namespaces and "
		"kernel.unprivileged_userns_clone) and the setuid helper %s is not installed "
		"(chromium-sandbox); --no-sandbox runs chromium without its sandbox",
		as_uid != (uid_t)-1 ? R.o.browser_user : "render's", strerror(e), helper);
}

static void
at_exit(void)
{
	browser_stop();
}

extern char **environ;

/* render's environment for Chromium as another user: HOME, TMPDIR (its
 * profile lock's socket) and the XDG directories the profile, which
 * that user owns: root's are not its to write. */
static char **
child_env(void)
{
	static const char *const names[] = { "HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME" };
	enum { N = sizeof names / sizeof names[0] };
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = xcalloc(n + N + 1, sizeof *env), **e = env;
	for (size_t i = 0; i < n; i++) {
		int ours = 0;
		for (int k = 0; k < N && !ours; k++)
			ours = strncmp(environ[i], names[k], strlen(names[k])) == 0 &&
			       environ[i][strlen(names[k])] == '=';
		if (!ours)
			*e++ = xstrdup(environ[i]);
	}
	for (int i = 0; i < N; i++) {
		if (asprintf(e, "%s=%s", names[i], profile) < 0)
			xalloc_die();
		e++;
	}
	return env;
}

static void
env_free(char **env)
{
	for (char **e = env; e && *e; e++)
		free(*e);
	free(env);
}

int
browser_start(const browser_cb *callbacks)
{
	static int registered;
	if (!registered) {
		trace = getenv("RENDER_TRACE") != NULL;
		atexit(at_exit);
		registered = 1;
	}
	/* A browser that keeps dying at once will not start. */
	if (started_at > 0 && tm_mono() - started_at < 5 && ++restarts > 3)
		msg_die(EX_OSERR, "chromium exits at once: run %s by hand to see why "
			"(--browser-log shows its messages)", R.o.chromium);
	cb = *callbacks;
	snprintf(profile, sizeof profile, "%.40s/render-profile.XXXXXX", tmp_dir());
	if (!mkdtemp(profile) || (as_uid != (uid_t)-1 && chown(profile, as_uid, as_gid) != 0)) {
		msg_warn("cannot make a profile directory: %s", strerror(errno));
		remove_profile();
		profile[0] = 0;
		return -1;
	}
	int to[2], from[2];
	if (pipe2(to, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(from, O_CLOEXEC) != 0) {
		close(to[0]), close(to[1]);
		return -1;
	}
	char udd[128], size[64];
	snprintf(udd, sizeof udd, "--user-data-dir=%s", profile);
	snprintf(size, sizeof size, "--window-size=%ld,%ld", R.o.vw, R.o.vh);
	const char *args[64];
	int n = 0;
	args[n++] = R.o.chromium;
	for (int i = 0; chrome_flags[i]; i++)
		args[n++] = chrome_flags[i];
	args[n++] = udd;
	args[n++] = size;
	if (R.o.no_sandbox)
		args[n++] = "--no-sandbox";
	args[n++] = "about:blank";
	args[n] = NULL;

	/* fds 3 and 4 of the child: libuv dup2s them there, which clears
	 * their close-on-exec flag (and clears it in place when a pipe is
	 * already fd 3 or 4). */
	uv_stdio_container_t io[5];
	io[0].flags = UV_IGNORE;
	io[1].flags = UV_IGNORE;
	io[2].flags = R.o.browser_log ? UV_INHERIT_FD : UV_IGNORE;
	io[2].data.fd = 2;
	io[3].flags = UV_INHERIT_FD;
	io[3].data.fd = to[0];
	io[4].flags = UV_INHERIT_FD;
	io[4].data.fd = from[1];
	uv_process_options_t po = {
		.exit_cb = on_exit_cb, .file = R.o.chromium, .args = (char **)args,
		.stdio = io, .stdio_count = 5, .flags = UV_PROCESS_DETACHED,
	};
	/* As root, Chromium runs as --browser-user (libuv drops the
	 * supplementary groups too). */
	char **env = NULL;
	if (as_uid != (uid_t)-1) {
		po.flags |= UV_PROCESS_SETUID | UV_PROCESS_SETGID;
		po.uid = as_uid;
		po.gid = as_gid;
		po.env = env = child_env();
	}
	int rc = uv_spawn(R.loop, &proc, &po);
	env_free(env);
	close(to[0]);
	close(from[1]);
	if (rc != 0) {
		close(to[1]), close(from[0]);
		msg_warn("cannot start %s: %s", R.o.chromium, uv_strerror(rc));
		remove_profile();
		return -1;
	}
	child_pid = proc.pid;
	running = 1;
	started_at = tm_mono();
	uv_pipe_init(R.loop, &to_b, 0);
	uv_pipe_init(R.loop, &from_b, 0);
	uv_pipe_open(&to_b, to[1]);
	uv_pipe_open(&from_b, from[0]);
	pipes_open = 1;
	uv_read_start((uv_stream_t *)&from_b, on_alloc, on_read);
	browser_send(-1, 0, B_DOWNLOADS, NULL, "Browser.setDownloadBehavior",
		     json_pack("{s:s}", "behavior", "deny"));
	browser_send(-1, 0, B_VERSION, NULL, "Browser.getVersion", NULL);
	if (!watchdog.loop) {
		uv_timer_init(R.loop, &watchdog);
		uv_unref((uv_handle_t *)&watchdog);   /* it holds no work of its own */
		uv_async_init(R.loop, &kick, on_kick);
		uv_unref((uv_handle_t *)&kick);
		uv_timer_init(R.loop, &quit_timer);
		uv_unref((uv_handle_t *)&quit_timer);
	}
	uint64_t every = (uint64_t)(R.o.browser_timeout * 1000 / 6) + 1;
	uv_timer_start(&watchdog, on_watchdog, every, every);
	watching = 1;
	return 0;
}

static void
on_quit_timer(uv_timer_t *t)
{
	(void)t;
	if (child_pid > 0)
		kill(-child_pid, SIGKILL);
}

void
browser_recycle(void)
{
	if (child_pid <= 0 || quitting)
		return;
	quitting = 1;
	ready = 0;
	close_pipes();
	if (watching) {
		uv_timer_stop(&watchdog);
		watching = 0;
	}
	uv_timer_start(&quit_timer, on_quit_timer, QUIT_TIMEOUT * 1000, 0);
}

/* Reads /proc/PID/stat: its session and resident pages; 0 or -1. */
static int
proc_stat(const char *pid, long *session, long *rss)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* After the command's closing parenthesis (it may hold spaces):
	 * state, ppid, pgrp, session, ..., rss is the 22nd field on. */
	char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	long f[22];
	int k = 0;
	for (char *tok = strtok(p + 1, " "); tok && k < 22; tok = strtok(NULL, " "))
		f[k++] = strtol(tok, NULL, 10);
	if (k < 22)
		return -1;
	*session = f[3];
	*rss = f[21];
	return 0;
}

/* Process pid's command line, its NULs as spaces, into buf: 0 or -1. */
static int
proc_cmdline(const char *pid, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (ssize_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	return 0;
}

/* Kills what is left of the browser outside its session: the two
 * chrome_crashpad_handler daemons it starts, which leave it for init,
 * found by the profile their command names. */
static void
kill_strays(void)
{
	DIR *d = opendir("/proc");
	if (!d || !profile[0]) {
		if (d)
			closedir(d);
		return;
	}
	static char buf[16384];
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    proc_cmdline(e->d_name, buf, sizeof buf) == 0 && strstr(buf, profile))
			kill((pid_t)strtol(e->d_name, NULL, 10), SIGKILL);
	closedir(d);
}

int
browser_memory(browser_mem *m)
{
	*m = (browser_mem){ 0 };
	if (child_pid <= 0 || !ready)
		return -1;
	DIR *d = opendir("/proc");
	if (!d)
		return -1;
	long page = sysconf(_SC_PAGESIZE);
	for (struct dirent *e; (e = readdir(d));) {
		long session, rss;
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || proc_stat(e->d_name, &session, &rss) != 0 ||
		    session != child_pid)
			continue;
		size_t bytes;
		if (smaps_pid_pss(strtol(e->d_name, NULL, 10), &bytes) != 0)
			bytes = (size_t)rss * (size_t)page;
		m->pss += bytes;
		m->procs++;
		char cmd[4096];
		if (bytes > m->renderer_pss && proc_cmdline(e->d_name, cmd, sizeof cmd) == 0 &&
		    strstr(cmd, " --type=renderer")) {
			m->renderer_pss = bytes;
			m->renderer = (int)strtol(e->d_name, NULL, 10);
		}
	}
	closedir(d);
	return 0;
}

void
browser_kill(int pid)
{
	long session, rss;
	char name[32];
	snprintf(name, sizeof name, "%d", pid);
	/* Only a process of this browser's session: the pid may have been
	 * reused since it was read. */
	if (child_pid > 0 && proc_stat(name, &session, &rss) == 0 && session == child_pid)
		kill(pid, SIGKILL);
}

void
browser_stop(void)
{
	if (watching) {
		uv_timer_stop(&watchdog);
		watching = 0;
	}
	if (child_pid > 0) {
		/* Closing fd 3 asks Chromium to quit; the group is killed
		 * after up to 3 s in case it does not.  A clean exit also
		 * reaps its processes, so their CPU time shows in render's. */
		close_pipes();
		for (int i = 0; i < 150 && child_pid > 0; i++) {
			if (waitpid(child_pid, NULL, WNOHANG) == child_pid)
				break;
			usleep(20000);
		}
		kill(-child_pid, SIGKILL);
		kill_strays();
		child_pid = 0;
	}
	remove_profile();
	free(inbuf);
	inbuf = NULL;
	in_len = in_cap = scanned = 0;
}
