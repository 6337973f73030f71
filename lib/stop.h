/* stop — how a filter stage (validate, sink) reads input so that signals
 * and deadlines can always interrupt the wait, and how it stops.
 *
 * rec_in_next blocks in read() and retries on EINTR, so a signal during
 * a quiet pipe would never reach the final flush or commit.  Instead
 * SIGINT and SIGTERM stay blocked while the stage works and are unblocked
 * only inside ppoll(), atomically: no window loses one.
 *
 * What a signal means:
 *   SIGTERM        targeted (a supervisor, kill): stop now, after
 *                  flushing or committing what was read;
 *   SIGINT         Ctrl-C reaches every stage of the pipeline at once:
 *                  keep reading until end of input, because upstream is
 *                  flushing its last records (fetch writes one for every
 *                  URL it read) and they must not be lost;
 *   second SIGINT  stop now.
 * Either way the stage ends by dying of the signal (stop_reraise), so
 * the shell sees the pipeline was interrupted.
 */
#ifndef SLUICE_STOP_H
#define SLUICE_STOP_H

#include <signal.h>

#include "rec.h"

/* The last SIGINT or SIGTERM received, or 0. */
extern volatile sig_atomic_t stop_signal;

/* Installs the handlers (without SA_RESTART) and blocks both signals
 * outside the waits below.  Call once, before reading. */
void stop_signals(void);

/* Whether the stage must stop now (SIGTERM, or SIGINT twice). */
int stop_now(void);

enum { STOP_DATA, STOP_EOF, STOP_TIMEOUT, STOP_SIGNAL, STOP_ERROR };

/* Waits up to timeout_ms (forever when negative) for input, then reads
 * once into r.  STOP_DATA: bytes were read (maybe none); STOP_EOF: end of
 * input; STOP_TIMEOUT: nothing came in time; STOP_SIGNAL: stop_now();
 * STOP_ERROR: errno says why. */
int stop_fill(rec_in *r, long timeout_ms);

/* rec_in_next for filters: flushes out (when not NULL) before waiting, so
 * records never sit in a buffer while the stage is idle (a crawl waits
 * on them), and returns STOP_SIGNAL as REC_STOPPED; a failed read is
 * REC_IOERR, a malformed stream REC_ERR, each with r->err. */
enum { REC_STOPPED = -3 };
int stop_next(rec_in *r, msgpack_object *o, rec_out *out);

/* Re-delivers the signal with its default action, so the parent sees
 * the stage die of it.  Call after flushing everything. */
_Noreturn void stop_reraise(void);

#endif
