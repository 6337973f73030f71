/* owner — who holds a lease: a process, named so that another process
 * can tell at once whether it still runs.
 *
 * A process is known by its pid, its start time (so a reused pid is not
 * mistaken for it) and the pid namespace it lives in (boot id + pid
 * namespace inode: pids mean nothing across boots, containers or
 * machines).  Within one namespace liveness is certain and immediate;
 * across namespaces only a heartbeat can tell, which is the frontier's
 * job.
 */
#ifndef SLUICE_OWNER_H
#define SLUICE_OWNER_H

typedef struct own_id {
	long pid;
	long long start;     /* clock ticks after boot, /proc/PID/stat field 22 */
	char ns[128];        /* "BOOT-ID/pid:[INODE]", or "" when unknown */
} own_id;

/* Describes the calling process.  Never fails: what cannot be read is
 * left empty, and then only heartbeats decide. */
void own_self(own_id *o);

/* 1 when the process o names runs (a zombie does not), 0 when it
 * certainly does not, -1 when this process cannot tell (another
 * namespace, or /proc unreadable). */
int own_alive(const own_id *o);

#endif
