/* warc — the `sink FILE.warc` and `FILE.warc.gz` targets: WARC 1.1
 * (ISO 28500:2017) from the exchanges of `fetch --raw` (docs/archive.md,
 * "Writing").
 *
 * A file starts with a warcinfo record; then each exchange of a record
 * becomes a response (or revisit) record and a request record
 * concurrent to it, and the record's last exchange gets a metadata
 * record (outlinks, timing, the hop chain).  render's DOM, screenshot
 * and PDF become resource records.  A .warc.gz is gzip'd a record a
 * member, so a reader can seek to any record by its offset.
 *
 * Records go to the file as they are put; the series moves to the next
 * file (NAME-00001.warc.gz, ...) before a record that would take the
 * file past max_size, so no record is ever split.  Each file's CDXJ
 * index, NAME.cdxj, gets the lines of the records committed (in input
 * order), and is rewritten sorted when the file is done: at rotation
 * and at close.  Memory: the index lines of the current file (bounded by
 * max_size) and the payload digests remembered for revisits (at most
 * dedup_max).
 */
#ifndef SINK_WARC_H
#define SINK_WARC_H

#include <msgpack.h>
#include <stddef.h>

typedef struct swarc swarc;

/* What swarc_put returns beside SDB_STORED and SDB_SKIPPED (db.h). */
enum {
	SWARC_DEAD = 100,   /* a dead letter: an error and no exchanges, nothing written */
	SWARC_NOT_RAW,      /* neither exchanges (fetch --raw) nor render's outputs */
};

typedef struct swarc_conf {
	const char *path;      /* the series' first file: NAME.warc or NAME.warc.gz */
	size_t max_size;       /* --warc-max-size */
	long dedup_max;        /* payload digests remembered; 0: no identical-payload revisits */
	const char *info;      /* the warcinfo's own fields, "name: value\r\n" each */
} swarc_conf;

/* Opens the series at c->path: that file itself, or when it exists the
 * first NAME-NNNNN of the series that does not, so a rerun never
 * rewrites a file.  Returns the handle, or NULL with the reason in
 * err. */
swarc *swarc_open(const swarc_conf *c, char *err, size_t errlen);

/* Writes rec's records.  Returns SDB_STORED, SDB_SKIPPED (no url),
 * SWARC_DEAD or SWARC_NOT_RAW (neither writes anything), or -1 on a
 * write error (swarc_errmsg says why; the file is cut back to its last
 * whole record). */
int swarc_put(swarc *w, const msgpack_object *rec);

/* Makes every record put so far durable as --sync says (written, and
 * with --sync full on the disk), and appends their index lines.  0, or
 * -1. */
int swarc_commit(swarc *w);

/* Commits, rewrites the last file's index sorted, and frees w.  0, or
 * -1 with the reason in err. */
int swarc_close(swarc *w, char *err, size_t errlen);

/* Why the last call that failed failed: a message w owns, valid until
 * the next call; "" before any failure. */
const char *swarc_errmsg(const swarc *w);

/* The counts of the closing note. */
typedef struct swarc_counts {
	unsigned long long records;   /* WARC records written, warcinfo included */
	unsigned long long files;     /* files of the series written */
	unsigned long long revisits;  /* identical-payload revisits */
	unsigned long long saved;     /* payload bytes those did not write again */
	unsigned long long not_modified;  /* server-not-modified revisits */
	unsigned long long dead;      /* dead letters, not written */
} swarc_counts;

/* The counts so far, for the closing note. */
swarc_counts swarc_count(const swarc *w);

/* The CDXJ key of url u[0..n) into out, as pywb and ReplayWeb.page
 * look it up: for http(s), "www." (and wwwN.) dropped, lowercased, the
 * host's labels reversed and joined by ',', ":port" when not the
 * default, ')', the path ('/' when empty) and the query's arguments
 * sorted; any other URL as it is.  out has room for n + 2 bytes. */
void swarc_surt(const char *u, size_t n, char *out);

/* Sorts the lines of file path (a CDXJ index) in byte order, through a
 * temporary file and a rename.  0, or -1 with errno. */
int swarc_sort_index(const char *path);

#endif
