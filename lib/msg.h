/* msg — the shared shape of every program's messages and exit codes.
 *
 * Messages follow `prog: what failed: why`, lowercase, no final period.
 * Exit codes are sysexits(3): 0 done, 64 usage (EX_USAGE), 65 malformed
 * input (EX_DATAERR), 66 an input file not read (EX_NOINPUT), 70
 * internal (EX_SOFTWARE), 71 system: out of memory, fork, pipe, thread,
 * poll (EX_OSERR), 73 an output file not created (EX_CANTCREAT), 74 I/O
 * error (EX_IOERR); 128+N died of signal N.  msg_exits is that set;
 * test_msg checks it against docs/records.md's "Exit status" table and
 * each man page's EXIT STATUS.
 *
 * The rule for a mistake in the command line, the same in every
 * program and checked before any work starts, so that a run that would
 * fail at its end (a --stats file in a missing directory, a cookie jar
 * that cannot be saved) never starts (docs/records.md, "Mistakes in the
 * command line"):
 *   - a bad option or value: 64 (msg_usage, opt_bad);
 *   - a file the program must read, for a flag or as input, that cannot
 *     be read: 66 (msg_need_input);
 *   - a file it will write that cannot be created (a missing or
 *     unwritable directory, an unwritable file): 73 (msg_need_output).
 */
#ifndef SLUICE_MSG_H
#define SLUICE_MSG_H

#include <sysexits.h>

/* One exit status: its code (128 for 128+N), the docs' meaning cell and
 * the programs that exit with it ("all" or a comma list). */
typedef struct msg_exit {
	int code;
	const char *meaning, *programs;
} msg_exit;

/* Every exit status of the four programs, ascending; code -1 ends it. */
extern const msg_exit msg_exits[];

extern const char *msg_prog;   /* program name, set by msg_init */
extern int msg_quiet;          /* -q: suppress notices, never errors */
extern int msg_status_line;    /* a status line is drawn: clear it first */

/* Sets the program name used as the prefix of every message and ignores
 * SIGPIPE, so a closed stdout surfaces as EPIPE that the caller can turn
 * into a quiet exit. */
void msg_init(const char *prog);

/* Prints `prog: ...` on stderr. */
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Like msg_warn, but silent under -q: progress and summaries. */
void msg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints `prog: ...` and exits with code. */
_Noreturn void msg_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A usage error: prints `prog: ...` and a one-line hint, exits 64. */
_Noreturn void msg_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The usage error for getopt's '?': names the offending argument in our
 * own message format.  Callers set opterr = 0 so getopt stays quiet. */
_Noreturn void msg_bad_option(char **argv);

/* Prints `name version` and the versions of the libraries the program
 * links (a NULL-terminated list of strings), then exits 0. */
_Noreturn void msg_version(const char *const *libs);

/* What msg_need_input wants at a path. */
enum msg_input {
	MSG_IN_FILE,    /* a file it reads now: not a directory */
	MSG_IN_DIR,     /* a directory it reads now (--capath) */
	MSG_IN_LATER,   /* a file another program writes while this one
			   runs (fetch --sink-stats): read when there; the
			   directory it will be made in must exist */
};

/* The input rule: exits 66 with `prog: --flag: cannot read 'path': why`
 * unless path is what kind wants and can be opened for reading.  flag
 * is the option's long name, without the dashes. */
void msg_need_input(const char *flag, const char *path, enum msg_input kind);

/* The output rule: exits 73 with `prog: --flag: cannot write 'path':
 * why` unless path could be written now: its directory exists and may
 * be written (the files are replaced through a temporary name beside
 * them), and path, when it exists, is no directory and may be written.
 * Creates nothing. */
void msg_need_output(const char *flag, const char *path);

/* For stdout failures: EPIPE (downstream quit) exits 0 quietly, anything
 * else dies with 74. */
_Noreturn void msg_stdout_failed(int err);

#endif
