#include "msg.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *msg_prog = "sluice";

const msg_exit msg_exits[] = {
	{ 0, "done. Failed URLs are data (records with `error`), not a failure of the program",
	  "all" },
	{ EX_USAGE, "usage error: bad option or value; a one-line hint on stderr", "all" },
	{ EX_DATAERR, "malformed input stream; the message names the byte offset", "all" },
	{ EX_NOINPUT, "an input file could not be opened (fetch and render FILE..., fetch"
		      " `--policy`, parse `--html`)", "fetch, parse, render" },
	{ EX_SOFTWARE, "internal error (libcurl could not be initialized)", "fetch, render" },
	{ EX_OSERR, "system error: out of memory, or a pipe, process, thread or poll failed",
	  "all" },
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

void
msg_stdout_failed(int err)
{
	if (err == EPIPE)
		exit(0);
	msg_die(EX_IOERR, "cannot write standard output: %s", strerror(err));
}
