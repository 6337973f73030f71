#include "cookiefile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"

void
cookiefile_say(const char *from, const cookie_loaded *r, long max_total)
{
	if (r->bad)
		msg_warn("%s: %lu lines skipped: malformed, holding control bytes or for a public suffix",
			 from, r->bad);
	if (r->evicted)
		msg_note("%s: kept the newest %lu of its %lu cookies (--max-cookies %ld, %d a site)", from,
			 r->cookies - r->bad - r->evicted, r->cookies - r->bad, max_total, COOKIE_SITE_MAX);
}

int
cookiefile_load(cookie_jar *j, const char *path, long max_total, double now, char *err,
		size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f && errno == ENOENT)
		return 0;
	cookie_loaded r;
	if (!f || cookie_load(j, f, now, &r) != 0) {
		snprintf(err, errlen, "cannot read cookie jar '%s': %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	char from[4200];
	snprintf(from, sizeof from, "cookie jar '%s'", path);
	cookiefile_say(from, &r, max_total);
	return 0;
}

/* The file a save writes first, for on_save_signal. */
static char save_tmp[4096];

static void
on_save_signal(int sig)
{
	unlink(save_tmp);
	_exit(128 + sig);
}

int
cookiefile_save(const cookie_jar *j, const char *path, const char *prog, double now)
{
	/* The jar is bounded by its caps, so is the time; a stuck file
	 * system is not, hence the signals. */
	snprintf(save_tmp, sizeof save_tmp, "%s.tmp", path);
	struct sigaction stop = { .sa_handler = on_save_signal }, old_int, old_term;
	sigemptyset(&stop.sa_mask);
	sigaction(SIGINT, &stop, &old_int);
	sigaction(SIGTERM, &stop, &old_term);
	int rc = -1;
	FILE *f = NULL;
	int fd = open(save_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && (f = fdopen(fd, "w"))) {
		fprintf(f, "# Netscape HTTP Cookie File\n# written by sluice %s\n\n", prog);
		rc = cookie_save(j, f, now) == 0 && fflush(f) == 0 && fsync(fd) == 0 ? 0 : -1;
		if (fclose(f) != 0)
			rc = -1;
	} else if (fd >= 0)
		close(fd);
	if (rc == 0 && rename(save_tmp, path) != 0)
		rc = -1;
	if (rc != 0) {
		msg_warn("cannot write cookie jar '%s': %s", path, strerror(errno));
		unlink(save_tmp);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}
