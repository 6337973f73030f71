/* inlet — what fetch and render read: URL lines or records with a `url`
 * key, from the files named, one after the other, or stdin, on a libuv
 * loop, read only when asked.
 *
 * Nothing is read ahead of the program: inlet_next takes what is
 * buffered and reads only when that is used up, so a program that stops
 * asking (its --pending is full) leaves the rest where it is, and a
 * writer upstream feels the pipe fill.  A regular file is read directly;
 * a pipe or terminal is watched by the loop while the program waits for
 * it, and read when readable.  Each file's format is decided by its
 * first byte (rec_in_item).  What goes wrong with a file is said here
 * (lib/msg): one that cannot be opened or read is skipped, a malformed
 * stream ends the input.
 */
#ifndef SLUICE_INLET_H
#define SLUICE_INLET_H

#include <uv.h>

#include "rec.h"

typedef struct inlet {
	int failed_open;       /* a file could not be opened: exit 66 at the end */
	/* the rest is the inlet's own */
	uv_loop_t *loop;
	char **files;
	int nfiles, fi;
	size_t max_record;
	rec_in in;
	int open, fmt;
	int ended, malformed;  /* the input ended; a malformed stream ended it */
	uv_poll_t *poll;       /* the open file is a pipe or terminal */
	int polling;
} inlet;

/* Starts on files[0..n) ("-" is stdin; none: stdin alone), opening the
 * first now.  A record larger than max_record is malformed (rec_in). */
void inlet_init(inlet *l, uv_loop_t *loop, char **files, int n, size_t max_record);

/* The next input in *it, valid until the next call: REC_OK.  REC_NEED:
 * nothing is buffered and a pipe is watched, which wakes the loop when
 * it can be read: ask again on the loop's next pass.  REC_EOF: every
 * file was read; REC_ERR: a malformed stream ended the input.  Both
 * are final: every later call returns them again. */
int inlet_next(inlet *l, rec_item *it);

/* The program wants no more for now: the pipe is no longer watched, so
 * nothing is read until inlet_next is called again. */
void inlet_hold(inlet *l);

/* Closes the file being read; the input ends (REC_EOF).  The watch's
 * handle is closed on the loop: run it once more before closing that. */
void inlet_close(inlet *l);

#endif
