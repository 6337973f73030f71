/* input — URL lines or msgpack records, read only as capacity frees.
 *
 * Jobs in memory never exceed --pending: input_want stops reading at the
 * bound and the driver calls it again on every loop pass, so a
 * million URLs on stdin cost what a thousand do.  A pipe or terminal is
 * watched by the loop and read when readable; a regular file is read
 * directly.  The format is decided per file by its first byte: a msgpack
 * map, else text lines (blank lines and # comments skipped).
 */
#include "fetch.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "opt.h"
#include "url.h"
#include "xalloc.h"

static char **files;
static int nfiles, fi = -1;
static rec_in in;
static int in_open, fmt, pollable;
static uv_poll_t *poll_r;
static int polling;
int input_failed_open;

static void
on_poll_closed(uv_handle_t *h)
{
	free(h);
}

static void
close_current(void)
{
	if (!in_open)
		return;
	if (poll_r) {
		uv_close((uv_handle_t *)poll_r, on_poll_closed);
		poll_r = NULL;
	}
	polling = 0;
	if (in.fd > 0)
		close(in.fd);
	rec_in_free(&in);
	in_open = 0;
}

/* Opens the next input (stdin when no files were named); sets
 * F.input_done after the last. */
static void
next_file(void)
{
	close_current();
	for (;;) {
		fi++;
		if (fi >= (nfiles ? nfiles : 1)) {
			if (lease_active())
				lease_seeded();
			else
				F.input_done = 1;
			return;
		}
		const char *name = nfiles ? files[fi] : "-";
		int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			msg_warn("cannot open '%s': %s", name, strerror(errno));
			input_failed_open = 1;
			continue;
		}
		rec_in_init(&in, fd, F.o.max_record);
		in_open = 1;
		fmt = 0;
		struct stat st;
		pollable = fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
		if (pollable) {
			poll_r = malloc(sizeof *poll_r);
			if (!poll_r || uv_poll_init(F.loop, poll_r, fd) != 0) {
				free(poll_r);
				poll_r = NULL;
				pollable = 0;   /* e.g. /dev/null: read it directly */
			}
		}
		return;
	}
}

/* The URL as the input gave it, surrounding whitespace dropped: what the
 * record of a URL that is not fetched carries, so the user finds their
 * own text (libcurl's canonical form of file:/// is "file://(nil)"). */
static char *
as_given(const char *s, size_t n)
{
	s = url_trim(s, &n);
	return strndup(s, n);
}

/* Whether text t starts with a scheme (RFC 3986: a letter, then letters,
 * digits, "+", "-" or ".", then ":") other than http and https: mailto:
 * or data: are refused schemes even where libcurl finds no URL. */
static int
other_scheme(const char *t)
{
	size_t k = 0;
	if (!isalpha((unsigned char)t[0]))
		return 0;
	while (isalnum((unsigned char)t[k]) || t[k] == '+' || t[k] == '-' || t[k] == '.')
		k++;
	return t[k] == ':' && !(k == 4 && strncasecmp(t, "http", 4) == 0) &&
	       !(k == 5 && strncasecmp(t, "https", 5) == 0);
}

/* Makes a job of one URL (s, n bytes) with its input record (raw, may
 * be empty) and hands it to the scheduler, or emits its error record at
 * once when the URL cannot be fetched.  An input outside --shard is
 * dropped here without a trace: another fetch gives it its one record. */
static void
new_job(const char *s, size_t n, const char *rec, size_t rec_len)
{
	url_parts u;
	const char *why;
	int bad = url_canon(s, n, &u, &why) != 0;
	int unfetched = bad || !url_fetchable(u.scheme);
	if (!shard_takes(unfetched ? NULL : u.host)) {
		url_parts_free(&u);   /* zeroed when url_canon failed */
		return;
	}
	if (unfetched) {
		job *j = job_new(as_given(s, n), rec, rec_len);
		int scheme = !bad || other_scheme(j->url);
		j->error = scheme ? FETCHERR_SCHEME : FETCHERR_BAD_URL;
		j->error_detail = strdup(scheme ? "only http and https are fetched" : why);
		record_emit(j);
		url_parts_free(&u);   /* zeroed when url_canon failed */
		return;
	}
	if (lease_active()) {
		/* Seeding: the frontier holds it; a lease brings it back. */
		lease_admit(u.canon, u.host);
	} else {
		job *j = job_new(u.canon, rec, rec_len);
		u.canon = NULL;
		job_set_host_name(j, u.host);
		sched_enqueue(j);
	}
	url_parts_free(&u);
}

/* Takes one input item from what is buffered: REC_OK, REC_NEED, REC_EOF
 * or REC_ERR. */
static int
take_one(void)
{
	rec_item it;
	int rc = rec_in_item(&in, &fmt, &it);
	if (rc != REC_OK)
		return rc;
	/* A record without a string `url` ends as bad_url. */
	new_job(it.url ? it.url : "", it.url ? it.url_len : 0, it.raw, it.raw_len);
	return REC_OK;
}

static void
on_readable(uv_poll_t *p, int status, int events)
{
	(void)p, (void)events;
	if (status < 0 || rec_in_fill(&in) < 0) {
		if (status >= 0 && errno == EAGAIN)
			return;
		msg_warn("cannot read input: %s", status < 0 ? uv_strerror(status) : strerror(errno));
		next_file();
	}
}

void
input_want(void)
{
	while (!F.input_done && !F.stopping && F.alive < F.o.pending && (in_open || fi < 0)) {
		int rc = take_one();
		if (rc == REC_OK)
			continue;
		if (rc == REC_EOF) {
			next_file();
		} else if (rc == REC_ERR) {
			msg_warn("%s", in.err);
			F.bad_input = 1;
			close_current();
			F.input_done = 1;
		} else if (pollable) {
			if (!polling) {
				uv_poll_start(poll_r, UV_READABLE, on_readable);
				polling = 1;
			}
			return;
		} else if (rec_in_fill(&in) < 0) {
			msg_warn("cannot read input: %s", strerror(errno));
			next_file();
		}
	}
	if (polling) {
		uv_poll_stop(poll_r);
		polling = 0;
	}
}

/* --sitemaps: admits each HOST's robots.txt as a seed (parse turns its
 * Sitemap: lines into links).  A HOST with a scheme is an origin; a bare
 * one is https.  A HOST that is no URL's host is a usage error. */
static void
seed_sitemaps(void)
{
	for (const struct curl_slist *l = F.o.sitemaps; l; l = l->next) {
		const char *h = l->data;
		size_t n = strlen(h) + sizeof "https:///robots.txt";
		char *u = xmalloc(n);
		snprintf(u, n, "%s%s/robots.txt", strstr(h, "://") ? "" : "https://", h);
		url_parts p;
		const char *why;
		if (url_canon(u, strlen(u), &p, &why) != 0 || !url_fetchable(p.scheme) ||
		    strcmp(p.canon + url_origin_len(p.canon), "/robots.txt") != 0)
			opt_bad("sitemaps", h, "a host or an origin");
		lease_admit(p.canon, p.host);
		url_parts_free(&p);
		free(u);
	}
}

int
input_init(char **f, int n)
{
	files = f;
	nfiles = n;
	if (F.o.sitemaps)
		seed_sitemaps();
	/* Resuming a queue from a terminal, or seeded by --sitemaps alone:
	 * there is nothing to read. */
	if (lease_active() && n == 0 && (isatty(0) || F.o.sitemaps)) {
		fi = 0;
		lease_seeded();
		return 0;
	}
	next_file();
	return 0;
}

void
input_close(void)
{
	close_current();
	F.input_done = 1;
}
