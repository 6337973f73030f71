/* cookiefile — a cookie jar (lib/cookie) kept in a file between runs,
 * as fetch and render --cookies keep it: read once at start, written
 * back at exit.
 *
 * The file is the Netscape format curl and wget read.  A save writes it
 * aside and renames it over the old one, 0600 (it holds sessions), so a
 * crash or a signal during the save leaves the old jar whole. */
#ifndef SLUICE_COOKIEFILE_H
#define SLUICE_COOKIEFILE_H

#include <stddef.h>

#include "cookie.h"

/* Reads the jar at path into j at time now.  A missing file is an empty
 * jar (the save creates it).  Says once (lib/msg) what the file left
 * out: malformed lines skipped, and cookies past j's caps, max_total
 * being the --max-cookies that set them.  0, or -1 with "cannot read
 * cookie jar 'path': why" in err. */
int cookiefile_load(cookie_jar *j, const char *path, long max_total, double now, char *err,
		    size_t errlen);

/* Says what a load (from: "cookie jar 'x'", "the job's cookie jar")
 * left out, as cookiefile_load does. */
void cookiefile_say(const char *from, const cookie_loaded *r, long max_total);

/* Writes j's unexpired cookies at time now over path, "# written by
 * sluice prog" on top.  A SIGINT or SIGTERM meanwhile removes the aside
 * file and exits 128+N at once (a first signal has had its orderly stop
 * by then).  0, or -1 after a warning naming the file. */
int cookiefile_save(const cookie_jar *j, const char *path, const char *prog, double now);

#endif
