#include "fuzz.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int
fuzz_fd(const uint8_t *data, size_t n)
{
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return -1;
	for (size_t off = 0; off < n;) {
		ssize_t w = write(fd, data + off, n - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

void
fuzz_record(rec_build *b, msgpack_sbuffer *raw, msgpack_zone *z, msgpack_object *o)
{
	msgpack_sbuffer_init(raw);
	rec_build_finish(b, NULL, NULL, raw);
	msgpack_zone_init(z, 4096);
	size_t at = 0;
	if (msgpack_unpack(raw->data, raw->size, &at, z, o) != MSGPACK_UNPACK_SUCCESS)
		abort();
}
