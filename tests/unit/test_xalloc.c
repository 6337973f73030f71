/* Unit tests of lib/xalloc: an allocation that cannot be met ends the
 * program with `PROG: out of memory` and status 71, for each x*
 * function; one that can is returned whole. */
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msg.h"

#define CHECK_PROG "test_xalloc"
#include "check.h"

/* Under ASan (make SAN=1) a huge request would be reported as an error
 * rather than returned as NULL; the test wants the NULL. */
const char *__asan_default_options(void) __attribute__((used));
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/* A size no allocator meets; volatile so the compiler cannot see it. */
static volatile size_t huge = SIZE_MAX / 2;

/* Runs try(kind) in a child with stderr on a pipe; checks its exit
 * status and what it printed. */
static void
dies(const char *what, int kind)
{
	int fd[2];
	if (!check_true("pipe", pipe(fd) == 0))
		return;
	fflush(stdout);   /* the child's exit must not print our lines again */
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		msg_init("prog");
		char *p = NULL;
		switch (kind) {
		case 0: p = xmalloc(huge); break;
		case 1: p = xcalloc(huge, 4); break;
		case 2: p = xrealloc(NULL, huge); break;
		case 3: xalloc_die();
		}
		free(p);
		_exit(0);
	}
	close(fd[1]);
	char buf[1024];
	size_t len = 0;
	ssize_t n;
	while (len < sizeof buf - 1 && (n = read(fd[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)n;
	close(fd[0]);
	buf[len] = '\0';
	/* The last line: ASan warns of the failed allocation before it. */
	char *last = buf;
	for (char *p = buf; *p; p++)
		if (*p == '\n' && p[1])
			last = p + 1;
	int st = 0;
	waitpid(pid, &st, 0);
	char name[128];
	snprintf(name, sizeof name, "%s: exit status", what);
	check_int(name, 71, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	snprintf(name, sizeof name, "%s: message", what);
	check_str(name, "prog: out of memory\n", last);
}

int
main(void)
{
	dies("xmalloc", 0);
	dies("xcalloc", 1);
	dies("xrealloc", 2);
	dies("xalloc_die", 3);

	char *s = xstrndup("abcdef", 3);
	check_str("xstrndup copies n bytes", "abc", s);
	free(s);
	s = xstrdup("sluice");
	check_str("xstrdup copies", "sluice", s);
	free(s);
	s = xjoin("dir", "/", "file");
	check_str("xjoin puts the separator between", "dir/file", s);
	free(s);
	s = xjoin("", "=", "");
	check_str("xjoin of empty strings is the separator", "=", s);
	free(s);
	char *z = xmalloc(0);
	check_true("xmalloc(0) is not NULL", z != NULL);
	free(z);
	int *c = xcalloc(4, sizeof *c);
	check_true("xcalloc zeroes", c[0] == 0 && c[3] == 0);
	c = xrealloc(c, 8 * sizeof *c);
	check_int("xrealloc keeps the contents", 0, c[3]);
	free(c);
	return check_done();
}
