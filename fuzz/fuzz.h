/* fuzz — the libFuzzer entry point every target defines, and helpers.
 *
 * Each fuzz/fuzz_NAME.c defines LLVMFuzzerTestOneInput for one parser of
 * outside input.  `make fuzz` links it with libFuzzer under ASan + UBSan;
 * `make` also links it with fuzz/replay.c into $(OUT)/tests/replay_NAME,
 * which runs the corpus and every past finding in `make test`. */
#ifndef SLUICE_FUZZ_H
#define SLUICE_FUZZ_H

#include <msgpack.h>
#include <stddef.h>
#include <stdint.h>

#include "rec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A file descriptor reading back data[0..n) from its start: a memfd, so
 * readers that take an fd or a path see the input as a file.  -1 when
 * memfds are not available. */
int fuzz_fd(const uint8_t *data, size_t n);

/* The record b builds, as a stage reads it: packed into raw and
 * unpacked into *o in zone z (both initialised here; the caller
 * destroys them).  Aborts when it does not unpack. */
void fuzz_record(rec_build *b, msgpack_sbuffer *raw, msgpack_zone *z, msgpack_object *o);

#endif
