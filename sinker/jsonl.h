/* jsonl — the JSON lines targets: a file opened for append, or stdout.
 * Each record becomes one line of JSON exactly as rec_json renders it
 * (bin values such as body become base64 strings).  Lines are buffered
 * and written at each batch boundary, so a reader tailing the file sees
 * whole lines in batch-sized steps. */
#ifndef SINK_JSONL_H
#define SINK_JSONL_H

#include <msgpack.h>

#include "rec.h"

/* A rec_out in JSON mode, with lines put straight from the decoded
 * record (no re-packing) and written by rec_out_flush. */
typedef struct sjl {
	rec_out out;
} sjl;

/* Opens path for append (creating it, mode 0666 less umask), or uses
 * stdout when path is "-".  0, or -1 with errno. */
int sjl_open(sjl *j, const char *path);

/* Appends rec as one JSON line; writes when the buffer passes 1 MiB.
 * 0, or -1 with errno when a write failed. */
int sjl_put(sjl *j, const msgpack_object *rec);

/* Writes everything buffered.  0, or -1 with errno; on failure a file
 * is truncated back to the end of the last whole line written before,
 * and the unwritten lines are dropped, so the file never keeps a partial
 * line and a later append starts on a line of its own. */
int sjl_flush(sjl *j);

/* Frees the buffer and closes the file (not stdout).  0, or -1 with
 * errno when close reported a delayed write error. */
int sjl_close(sjl *j);

#endif
