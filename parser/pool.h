/* pool — parse records in N forked worker processes.
 *
 * The parent only moves bytes: it reads records from the source, hands
 * each one's packed bytes to a worker with credit, and copies the
 * workers' finished records to stdout as they arrive.  A worker holds at
 * most POOL_CREDIT records (sent, or being sent, and not yet answered),
 * so the parent's memory is bounded by N * POOL_CREDIT records and, when
 * every worker is busy, the parent stops reading: the pipe from fetch
 * fills and fetch slows down.
 *
 * Output order is completion order, not input order: a small page is
 * not held up behind a large one on another worker.  Each worker answers
 * in the order it was sent, so records sent to one worker keep their
 * relative order.
 *
 * A worker that dies (signal, abort, exit) is reported on stderr with
 * the URL of the record it was parsing; that record is written as its
 * input plus `parse_error`, the ones it had not started go to another
 * worker, and a new worker takes its place.
 *
 * With a time limit, a worker still parsing one record after that many
 * seconds is killed the same way, and that record's `parse_error` is
 * "timeout".  The limit needs workers: -j0 has nothing to kill.
 */
#ifndef PARSE_POOL_H
#define PARSE_POOL_H

#include "page.h"
#include "rec.h"
#include "src.h"

#define POOL_CREDIT 4

/* The test hook: a worker that is handed a record whose url contains
 * the value of this variable calls abort(), so the tests can see a
 * worker die.  Read once at worker start; unset in normal use. */
#define POOL_CRASH_ENV "SLUICE_PARSE_CRASH_ON"

/* Runs n workers until s is exhausted, writing every output record to
 * out; a record parsed for more than max_time seconds (0: no limit) is
 * written as its input plus parse_error "timeout".  When stop_now()
 * (lib/stop.h: SIGTERM, or a second SIGINT) the parent stops reading
 * and finishes what the workers hold.  Needs
 * stop_signals() first: signals are only let in while it sleeps.
 * Returns 0, or EX_DATAERR after flushing when the input stream was
 * malformed (message printed).  Exits on a failed stdout. */
int pool_run(int n, const page_opts *opts, double max_time, src *s, rec_out *out);

/* The same loop in this process: no workers, no crash isolation, no
 * time limit. */
int pool_run_inline(const page_opts *opts, src *s, rec_out *out);

#endif
