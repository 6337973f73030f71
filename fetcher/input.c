/* input — URL lines or msgpack records, read only as capacity frees.
 *
 * Jobs in memory never exceed --pending: input_want stops reading at the
 * bound and the driver calls it again on every loop pass, so a
 * million URLs on stdin cost what a thousand do.  The reading itself,
 * files or stdin, pipes watched by the loop, each file's format by its
 * first byte, is lib/inlet's, as render's.
 */
#include "fetch.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "inlet.h"
#include "opt.h"
#include "url.h"
#include "xalloc.h"

static inlet in;
static int reading;              /* in was started and has not ended */
int input_failed_open;

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

void
input_want(void)
{
	rec_item it;
	int rc = REC_OK;
	while (reading && !F.input_done && !F.stopping && F.alive < F.o.pending &&
	       (rc = inlet_next(&in, &it)) == REC_OK)
		/* A record without a string `url` ends as bad_url. */
		new_job(it.url ? it.url : "", it.url ? it.url_len : 0, it.raw, it.raw_len);
	input_failed_open = in.failed_open;
	if (rc == REC_NEED)
		return;   /* the pipe is watched: the loop wakes when it can be read */
	inlet_hold(&in);
	if (rc == REC_OK)
		return;
	reading = 0;
	if (rc == REC_ERR) {
		F.bad_input = 1;
		F.input_done = 1;
	} else if (lease_active()) {
		lease_seeded();
	} else {
		F.input_done = 1;
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
	if (F.o.sitemaps)
		seed_sitemaps();
	/* Resuming a queue from a terminal, or seeded by --sitemaps alone:
	 * there is nothing to read. */
	if (lease_active() && n == 0 && (isatty(0) || F.o.sitemaps)) {
		lease_seeded();
		return 0;
	}
	inlet_init(&in, F.loop, f, n, F.o.max_record);
	reading = 1;
	return 0;
}

void
input_close(void)
{
	inlet_close(&in);
	F.input_done = 1;
}
