/* wacz — the `sink FILE.wacz` target: WACZ 1.1.1, a ZIP that
 * ReplayWeb.page opens as it is (docs/archive.md, "WACZ").
 *
 * While sink runs, the records go to a WARC series (warc.h) in a
 * staging directory beside the target, FILE.wacz.staging/, with the
 * accepted pages for pages/pages.jsonl; a commit makes them durable
 * there, so --queue acknowledges what a crash would not lose.  At the
 * end the package is built: the WARCs under archive/ (stored, not
 * deflated, so a reader can seek), their indexes merged into
 * indexes/index.cdxj, pages/pages.jsonl, datapackage.json with each
 * file's size and sha256, and datapackage-digest.json; libzip writes
 * it to a temporary file renamed over the target.  A WACZ that is
 * there already keeps its WARCs, index lines and pages, and gains this
 * run's; a staging directory a killed sink left is taken in too.
 */
#ifndef SINK_WACZ_H
#define SINK_WACZ_H

#include <msgpack.h>
#include <stddef.h>

#include "warc.h"

typedef struct swacz swacz;

/* Opens the staging directory of target (made if missing) and its WARC
 * series; c's path is ignored.  Returns the handle, or NULL with the
 * reason in err. */
swacz *swacz_open(const char *target, const swarc_conf *c, char *err, size_t errlen);

/* swarc_put, and a line of pages/pages.jsonl for an accepted page: no
 * error, a 2xx status, accepted not false, HTML, not a sitemap. */
int swacz_put(swacz *z, const msgpack_object *rec);

/* swarc_commit, and the pages put since the last one.  0, or -1. */
int swacz_commit(swacz *z);

/* As swarc_errmsg, for the package and its WARC series. */
const char *swacz_errmsg(const swacz *z);

/* As swarc_count, for the package's WARC series. */
swarc_counts swacz_count(const swacz *z);

/* Commits, builds the package over the target and removes the staging
 * directory, then frees z.  0, or -1 with the reason in err (the
 * staging directory is then left, for a rerun to take in). */
int swacz_close(swacz *z, char *err, size_t errlen);

#endif
