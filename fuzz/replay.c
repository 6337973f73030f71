/* replay FILE...: runs a fuzz target's entry point once per file, as
 * libFuzzer would, without libFuzzer: `make test` replays the seed corpus
 * and every past finding (fuzz/regress/) with the normal or the
 * sanitizer build.  Exits 0 when every input ran; a defect crashes or
 * trips a sanitizer. */
#include "fuzz.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			fprintf(stderr, "replay: cannot open '%s': %s\n", argv[i], strerror(errno));
			return 66;
		}
		size_t cap = 1 << 16, n = 0;
		uint8_t *buf = malloc(cap);
		for (size_t r; buf && (r = fread(buf + n, 1, cap - n, f)) > 0;) {
			n += r;
			if (n == cap)
				buf = realloc(buf, cap *= 2);
		}
		fclose(f);
		if (!buf)
			return 70;
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	return 0;
}
