/* smaps — a process's proportional memory (smaps.h). */
#include "smaps.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
smaps_pss(const char *s, size_t n, size_t *bytes)
{
	const char *end = s + n;
	for (const char *l = s; l < end;) {
		const char *nl = memchr(l, '\n', (size_t)(end - l));
		const char *le = nl ? nl : end;
		/* "Pss:" itself, not Pss_Anon: and its kin */
		if (le - l > 4 && memcmp(l, "Pss:", 4) == 0) {
			const char *p = l + 4;
			while (p < le && *p == ' ')
				p++;
			size_t kb = 0;
			int digits = 0;
			for (; p < le && *p >= '0' && *p <= '9'; p++, digits++)
				kb = kb * 10 + (size_t)(*p - '0');
			if (!digits || le - p != 3 || memcmp(p, " kB", 3) != 0)
				return -1;
			*bytes = kb * 1024;
			return 0;
		}
		l = le + 1;
	}
	return -1;
}

int
smaps_pid_pss(long pid, size_t *bytes)
{
	char path[64], buf[2048];
	snprintf(path, sizeof path, "/proc/%ld/smaps_rollup", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Pss: is the second line: the first read holds it. */
	ssize_t n = read(fd, buf, sizeof buf);
	close(fd);
	return n > 0 ? smaps_pss(buf, (size_t)n, bytes) : -1;
}
