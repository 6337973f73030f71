/* src — where input records come from: a msgpack stream on an fd, or
 * stored HTML files (--html) wrapped into fetch-shaped records.
 *
 * Both hand out each record as its packed bytes (what a worker is sent,
 * and what a pass-through record is written as, byte for byte) and as a
 * decoded map; both stay valid until the next src_next.
 */
#ifndef PARSE_SRC_H
#define PARSE_SRC_H

#include <msgpack.h>
#include <stddef.h>

#include "rec.h"

typedef struct src {
	int fd;              /* to poll before src_fill, or -1: never NEEDs */
	rec_in in;
	/* --html */
	char *const *files;
	int nfiles, next;
	const char *base;    /* --base: url and final_url of a lone file; with
				several, what their names resolve against */
	size_t max_record;
	msgpack_sbuffer rec;
	msgpack_zone zone;
	int file_errors;     /* files that could not be read */
	char err[256];       /* why REC_ERR: names the byte offset */
} src;

/* A stream source reading records from fd. */
int src_init_stream(src *s, int fd, size_t max_record);

/* A source of the HTML files files[0..n), with url file://ABSPATH, or,
 * when base (an http(s) URL) is not NULL, base for a lone file and each
 * file's name resolved against base for several. */
int src_init_files(src *s, char *const *files, int n, const char *base,
		   size_t max_record);
void src_free(src *s);

/* The next record, without blocking: REC_OK (sets *raw and *rawn and *o),
 * REC_NEED (poll s->fd, then src_fill), REC_EOF, or REC_ERR with s->err. */
int src_next(src *s, const char **raw, size_t *rawn, msgpack_object *o);

/* Reads once from s->fd.  0, or -1 with s->err set. */
int src_fill(src *s);

/* Waits for s->fd (letting signals in, see lib/stop.h) and reads once.
 * 0 when read (or at EOF), 1 when stop_now(), -1 with s->err set. */
int src_wait(src *s);


#endif
