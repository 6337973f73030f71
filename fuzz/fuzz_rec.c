/* The record reader and JSON rendering: the input is a record stream,
 * read as every stage reads one, each record rendered as JSON, which must
 * stay within docs/records.md's bound of 8 bytes per record byte. */
#include "fuzz.h"

#include <stdlib.h>
#include <unistd.h>

#include "rec.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_fd(data, size);
	if (fd < 0)
		return 0;
	rec_in r;
	if (rec_in_init(&r, fd, 1 << 20) == 0) {
		msgpack_object o;
		msgpack_sbuffer out;
		msgpack_sbuffer_init(&out);
		while (rec_in_next(&r, &o) == REC_OK) {
			const char *raw;
			size_t n;
			rec_in_raw(&r, &raw, &n);
			out.size = 0;
			rec_json(&o, &out);
			if (out.size > 8 * n + 1)
				abort();   /* JSON out of proportion to the record */
			rec_get(&o, "url");
			rec_path(&o, "fields.price");
		}
		msgpack_sbuffer_destroy(&out);
		rec_in_free(&r);
	}
	close(fd);
	return 0;
}
