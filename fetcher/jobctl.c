/* jobctl — the commands that show or change a job and exit, before
 * anything is fetched: --report and --requeue-dead print its state (by
 * state and host, the dead letters), --pause and --resume change which
 * hosts every fetch on the job may start. */
#include "fetch.h"

#include <stdio.h>

#include "frontier.h"
#include "msg.h"
#include "tm.h"

int
jobctl_pause(const char *host, int on)
{
	fr *front = dbq_frontier();
	double now = tm_wall();
	int rc = on ? fr_pause(front, host, "paused by hand", now) : fr_resume(front, host, now);
	dbq_check(rc, "update");
	if (on)
		msg_note("paused %s: fetches on the job stop starting it within 2 s", host);
	else
		msg_note(rc ? "resumed %s" : "%s was not paused", host);
	dbq_close();
	return 0;
}

int
jobctl_report(int requeue)
{
	fr *front = dbq_frontier();
	if (requeue) {
		int n = fr_requeue_dead(front);
		dbq_check(n, "requeue in");
		msg_note("%d dead URLs back to pending", n);
	}
	int rc = fr_report(front, tm_wall(), stdout);
	dbq_close();
	return rc;
}
