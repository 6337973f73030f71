/* validate's rules file parser: the input is a rules file. */
#include "fuzz.h"

#include <stdio.h>
#include <unistd.h>

#include "rules.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_fd(data, size);
	if (fd < 0)
		return 0;
	char path[64], err[512];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	vrules rs;
	vrules_init(&rs);
	if (vrules_load(&rs, path, err, sizeof err) == 0) {
		const vsection *s[8];
		vrules_for_host(&rs, "a.example.org", 13, s, 8);
	}
	vrules_free(&rs);
	close(fd);
	return 0;
}
