/* dir — the `sink DIR/` target: a dataset on disk, one Markdown file per
 * accepted page (docs/sink.md, "A folder of Markdown").
 *
 * Each page becomes DIR/HOST/PATH.md, named from its url (dir_name), with
 * a YAML front matter (url, title, parse's page metadata, fetched_at,
 * content_hash, dup_of) and the record's `markdown`, else `main_text`,
 * else `text` as its body; a record's `screenshot` and `pdf` go next to
 * it as .png and .pdf.  Every file is written to a temporary name and
 * renamed over the old one, so a reader (or a crash) sees the old file
 * or the new, never a part.  The directories are walked with
 * openat(O_NOFOLLOW): a symlink planted in DIR is refused, not followed
 * out of it.
 *
 * dup_of needs the pages stored before, in this run and earlier ones:
 * they are kept in DIR/.sluice.db, a small SQLite index (url, the
 * fingerprints and their bands, as the database targets keep them),
 * committed in the caller's batches like a database target.
 */
#ifndef SINK_DIR_H
#define SINK_DIR_H

#include <msgpack.h>
#include <stddef.h>

typedef struct sdir sdir;

/* Opens DIR (path, ending in '/'), making it if missing (its parent must
 * exist), and its index.  Returns the handle, or NULL with the reason in
 * err. */
sdir *sdir_open(const char *path, char *err, size_t errlen);

/* Writes rec's files and notes it in the index (in a transaction the
 * caller commits).  Returns SDB_STORED (also for robots.txt and
 * sitemaps, rec_sitemap, which write nothing); SDB_SKIPPED without a
 * `url` string; SDB_UNCHANGED for a not_modified record and SDB_KEPT for
 * a failed or rejected one (neither writes anything: an earlier file
 * stays); -1 on an error (sdir_errmsg says why). */
int sdir_put(sdir *d, const msgpack_object *rec, double stored_at);

/* Commits the index's open transaction.  0, or -1. */
int sdir_commit(sdir *d);

const char *sdir_errmsg(sdir *d);

/* Rolls back anything uncommitted and closes. */
void sdir_close(sdir *d);

/* The file name for url u[0..n), relative to DIR and without its
 * extension, into out: HOST/SEG/.../LAST, each part made safe (bytes
 * outside [A-Za-z0-9._~%+=,@-] as '_', a leading '.' prefixed with '_',
 * an empty one '_'), a path ending in '/' gets "index", a query string
 * "@" and 16 hex digits of its hash, a part over 100 bytes is cut to 80
 * and its hash added, and a name over 1000 bytes or 32 parts becomes
 * HOST/_long/HASH; a url without "://" is _other/HASH.  A directory part ending in ".md", ".png" or ".pdf"
 * gets "_", so no directory takes a file's name.  Never absolute, never
 * a ".." part. */
void sdir_name(const char *u, size_t n, char *out, size_t outlen);

#endif
