#include "msg.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *msg_prog = "sluice";

const msg_exit msg_exits[] = {
	{ 0, "done. Failed URLs are data (records with `error`), not a failure of the program",
	  "all" },
	{ EX_USAGE, "usage error: bad option or value; a one-line hint on stderr", "all" },
	{ EX_DATAERR, "malformed input stream; the message names the byte offset", "all" },
	{ EX_NOINPUT, "an input file could not be read: a FILE operand (fetch, render, parse"
		      " `--html`) or a file a flag names (`--policy`, `--cacert`, `--rules`,"
		      " `-H @FILE`...)", "fetch, parse, render, validate" },
	{ EX_SOFTWARE, "internal error (libcurl could not be initialized)", "fetch, render" },
	{ EX_OSERR, "system error: out of memory, or a pipe, process, thread or poll failed",
	  "all" },
	{ EX_CANTCREAT, "an output file could not be created: a file a flag names (`--stats`,"
			" `--metrics`, `--cookies`, `--summary`) in a missing or unwritable"
			" directory, or unwritable itself", "fetch, render, sink, validate" },
	{ EX_IOERR, "I/O error (cannot write output, cannot open or write the database or"
		    " queue)", "all" },
	{ 128, "stopped by signal N (130 for SIGINT, 143 for SIGTERM) after writing (or"
	       " committing) what it had read; fetch writes a record for every URL it had"
	       " read", "all" },
	{ -1, NULL, NULL }
};
int msg_quiet;
int msg_status_line;

void
msg_init(const char *prog)
{
	msg_prog = prog;
	signal(SIGPIPE, SIG_IGN);
}

static void
vmsg(const char *fmt, va_list ap)
{
	/* One buffer and one write, so lines from parallel stages and
	 * workers do not interleave mid-line. */
	char line[1024];
	int n = snprintf(line, sizeof line, "%s%s: ", msg_status_line ? "\r\033[K" : "", msg_prog);
	vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
	strcat(line, "\n");
	fputs(line, stderr);
}

void
msg_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
msg_note(const char *fmt, ...)
{
	va_list ap;
	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void
msg_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(code);
}

void
msg_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", msg_prog);
	exit(EX_USAGE);
}

void
msg_bad_option(char **argv)
{
	msg_usage("unknown option or missing value in '%s'", optind > 0 ? argv[optind - 1] : "");
}

void
msg_version(const char *const *libs)
{
	printf("%s %s\n", msg_prog, SLUICE_VERSION);
	for (; libs && *libs; libs++)
		printf("  %s\n", *libs);
	if (fflush(stdout) != 0)
		msg_stdout_failed(errno);
	exit(0);
}

/* The directory path is in, into buf (n bytes): 0, or an errno. */
static int
dir_of(const char *path, char *buf, size_t n)
{
	if (strlen(path) >= n)
		return ENAMETOOLONG;
	strcpy(buf, path);
	/* dirname works in place, or returns "." or "/". */
	const char *d = dirname(buf);
	memmove(buf, d, strlen(d) + 1);
	return 0;
}

/* 0 when the directory dir may be searched and, with w, written; else
 * an errno. */
static int
dir_ok(const char *dir, int w)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return errno;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	return access(dir, w ? W_OK | X_OK : X_OK) == 0 ? 0 : errno;
}

void
msg_need_input(const char *flag, const char *path, enum msg_input kind)
{
	char dir[PATH_MAX];
	struct stat st;
	int err = 0;
	if (kind == MSG_IN_LATER && stat(path, &st) != 0 && errno == ENOENT) {
		err = dir_of(path, dir, sizeof dir);
		if (!err)
			err = dir_ok(dir, 0);
	} else {
		/* O_NONBLOCK: a FIFO without a writer must not hold the start. */
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			err = errno;
		else if (fstat(fd, &st) != 0)
			err = errno;
		else if (kind == MSG_IN_DIR && !S_ISDIR(st.st_mode))
			err = ENOTDIR;
		else if (kind != MSG_IN_DIR && S_ISDIR(st.st_mode))
			err = EISDIR;
		if (fd >= 0)
			close(fd);
	}
	if (err)
		msg_die(EX_NOINPUT, "--%s: cannot read '%s': %s", flag, path, strerror(err));
}

void
msg_need_output(const char *flag, const char *path)
{
	char dir[PATH_MAX];
	struct stat st;
	int err = 0;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			err = EISDIR;
		else if (access(path, W_OK) != 0)
			err = errno;
	} else if (errno != ENOENT) {
		err = errno;
	}
	if (!err)
		err = dir_of(path, dir, sizeof dir);
	if (!err)
		err = dir_ok(dir, 1);
	if (err)
		msg_die(EX_CANTCREAT, "--%s: cannot write '%s': %s", flag, path, strerror(err));
}

void
msg_stdout_failed(int err)
{
	if (err == EPIPE)
		exit(0);
	msg_die(EX_IOERR, "cannot write standard output: %s", strerror(err));
}
