#include "owner.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Reads the first line of path into buf (without the newline); 0, or -1. */
static int
line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Sets *state and *start from /proc/PID/stat; 0, or -1 when the process
 * is gone or the file is unreadable.  The command name (field 2) may hold
 * spaces and parentheses, so fields are counted after its last ')'. */
static int
proc_stat(long pid, char *state, long long *start)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (line(path, buf, sizeof buf) != 0)
		return -1;
	char *p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c", state) != 1)
		return -1;
	/* Field 3 is the state; the start time is field 22. */
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -1;
	}
	return sscanf(p + 1, "%lld", start) == 1 ? 0 : -1;
}

void
own_self(own_id *o)
{
	memset(o, 0, sizeof *o);
	o->pid = (long)getpid();
	char state;
	if (proc_stat(o->pid, &state, &o->start) != 0)
		o->start = 0;
	char boot[64], ns[48];
	ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
	if (n <= 0 || line("/proc/sys/kernel/random/boot_id", boot, sizeof boot) != 0)
		return;
	ns[n] = 0;
	snprintf(o->ns, sizeof o->ns, "%s/%s", boot, ns);
}

int
own_alive(const own_id *o)
{
	own_id me;
	own_self(&me);
	if (!me.ns[0] || strcmp(me.ns, o->ns) != 0)
		return -1;
	if (kill((pid_t)o->pid, 0) != 0 && errno == ESRCH)
		return 0;
	char state;
	long long start;
	if (proc_stat(o->pid, &state, &start) != 0)
		return errno == ENOENT ? 0 : -1;
	/* A zombie has exited; another start time is another process. */
	return state != 'Z' && state != 'X' && start == o->start;
}
