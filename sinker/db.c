#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "cols.h"
#include "db_pg.h"
#include "msg.h"
#include "pgsql.h"
#include "rec.h"
#include "sql.h"
#include "xalloc.h"

/* The tables; the indexes on columns that later versions added follow
 * in INDEXES, made once sql_add_columns has added them to an old file. */
#define TABLES \
	"CREATE TABLE IF NOT EXISTS pages (\n" \
	"  url        TEXT PRIMARY KEY,\n" \
	"  final_url  TEXT,\n" \
	"  host       TEXT,\n" \
	"  status     INTEGER,\n" \
	"  error      TEXT,\n" \
	"  accepted   INTEGER,   -- 1, 0, or NULL when not validated\n" \
	"  reason     TEXT,\n" \
	"  title      TEXT,\n" \
	"  fetched_at REAL,      -- unix seconds\n" \
	"  parser     TEXT,\n" \
	"  stored_at  REAL NOT NULL,\n" \
	"  record     TEXT NOT NULL,  -- every other key, as JSON\n" \
	"  body       BLOB,      -- only with --body\n" \
	"  etag          TEXT,   -- the response's validators, for a recrawl\n" \
	"  last_modified TEXT,\n" \
	"  last_checked  REAL,   -- when sink last stored a record of the URL\n" \
	"  last_error    TEXT,   -- why that record failed (error, or status N)\n" \
	"  content_hash  TEXT,   -- parse --main's fingerprints (docs/records.md)\n" \
	"  simhash       TEXT,\n" \
	"  dup_of        TEXT,   -- the url of the page this one copies, or NULL\n" \
	"  sim0 INTEGER, sim1 INTEGER, sim2 INTEGER, sim3 INTEGER,  -- simhash's 16-bit bands\n" \
	"  screenshot    BLOB,   -- render --screenshot's PNG\n" \
	"  pdf           BLOB,   -- render --pdf's PDF\n" \
	"  author        TEXT,   -- parse's metadata (docs/records.md)\n" \
	"  published     TEXT,   -- ISO 8601, as parse wrote it\n" \
	"  modified      TEXT,\n" \
	"  site_name     TEXT,\n" \
	"  lang          TEXT,\n" \
	"  description   TEXT,\n" \
	"  image         TEXT,\n" \
	"  keywords      TEXT,   -- a JSON array of strings\n" \
	"  page_kind     TEXT\n" \
	");\n" \
	"CREATE INDEX IF NOT EXISTS pages_host ON pages(host);\n" \
	"CREATE TABLE IF NOT EXISTS links (\n" \
	"  src TEXT NOT NULL,   -- pages.url\n" \
	"  dst TEXT NOT NULL,\n" \
	"  PRIMARY KEY (src, dst)\n" \
	") WITHOUT ROWID;\n"
/* Each band of the simhash indexed: dup_of's lookup (cols_dups). */
#define INDEXES \
	"CREATE INDEX IF NOT EXISTS pages_sim0 ON pages(sim0);\n" \
	"CREATE INDEX IF NOT EXISTS pages_sim1 ON pages(sim1);\n" \
	"CREATE INDEX IF NOT EXISTS pages_sim2 ON pages(sim2);\n" \
	"CREATE INDEX IF NOT EXISTS pages_sim3 ON pages(sim3);\n"

const char sdb_schema[] = TABLES INDEXES;

struct sdb {
	pgdb *pg;                /* a PostgreSQL target: everything goes there */
	sqlite3 *h;
	int flags, in_txn;
	sqlite3_stmt *begin, *commit, *upsert, *keep, *del_links, *ins_link, *dups;
	cols_rest rest;          /* scratch: `record` */
};

/* Prepares sql once for the whole run (PERSISTENT: kept off the
 * lookaside allocator, as it lives as long as the connection). */
static int
prepare(sdb *db, const char *sql, sqlite3_stmt **st)
{
	return sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
}

sdb *
sdb_open(const char *path, int flags, char *err, size_t errlen)
{
	sdb *db = calloc(1, sizeof *db);
	if (!db) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	db->flags = flags;
	if (pgsql_is_uri(path)) {
		if (!(db->pg = pgdb_open(path, flags, err, errlen))) {
			free(db);
			return NULL;
		}
		return db;
	}
	/* The columns later versions added, for files made before them. */
	sql_column added[COLS_ADDED_N];
	for (size_t i = 0; i < COLS_ADDED_N; i++)
		added[i] = (sql_column){ "pages", cols_added[i].name, cols_added[i].sqlite };
	db->h = sql_open(path, TABLES, err, errlen);
	if (!db->h || sql_add_columns(db->h, added, COLS_ADDED_N) != 0 ||
	    sql_exec(db->h, INDEXES) != SQLITE_OK) {
		if (db->h)
			snprintf(err, errlen, "%s", sqlite3_errmsg(db->h));
		sdb_close(db);
		return NULL;
	}
	/* The simhash bands are four indexes of random keys: each page
	 * touches a random leaf of each, so a small cache rereads them from
	 * the file at every page.  32 MiB holds them for about a million
	 * pages; SQLite's default is 2 MiB. */
	sqlite3_exec(db->h, "PRAGMA cache_size = -32768", NULL, NULL, NULL);
	char sql[COLS_UPSERT_MAX];
	cols_upsert(sql, sizeof sql, flags & SDB_BODY);
	if (prepare(db, "BEGIN IMMEDIATE", &db->begin) != SQLITE_OK ||
	    prepare(db, "COMMIT", &db->commit) != SQLITE_OK ||
	    prepare(db, sql, &db->upsert) != SQLITE_OK ||
	    prepare(db, cols_keep, &db->keep) != SQLITE_OK ||
	    prepare(db, cols_dups, &db->dups) != SQLITE_OK ||
	    prepare(db, "DELETE FROM links WHERE src = ?1", &db->del_links) != SQLITE_OK ||
	    prepare(db, "INSERT OR IGNORE INTO links (src, dst) VALUES (?1, ?2)",
		    &db->ins_link) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db->h));
		sdb_close(db);
		return NULL;
	}
	return db;
}

/* Binds a record value by its type, so odd input (a string status, a
 * nested title) is stored as given rather than rejected. */
static int
bind_obj(sqlite3_stmt *st, int i, const msgpack_object *o, msgpack_sbuffer *tmp)
{
	if (!o)
		return sqlite3_bind_null(st, i);
	switch (o->type) {
	case MSGPACK_OBJECT_NIL:
		return sqlite3_bind_null(st, i);
	case MSGPACK_OBJECT_BOOLEAN:
		return sqlite3_bind_int(st, i, o->via.boolean);
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		return sqlite3_bind_int64(st, i, o->via.u64 > INT64_MAX ? INT64_MAX
					  : (sqlite3_int64)o->via.u64);
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		return sqlite3_bind_int64(st, i, o->via.i64);
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		return sqlite3_bind_double(st, i, o->via.f64);
	case MSGPACK_OBJECT_STR:
		return sqlite3_bind_text(st, i, o->via.str.ptr, (int)o->via.str.size,
					 SQLITE_STATIC);
	case MSGPACK_OBJECT_BIN:
		return sqlite3_bind_blob(st, i, o->via.bin.ptr, (int)o->via.bin.size,
					 SQLITE_STATIC);
	default:
		tmp->size = 0;
		rec_json(o, tmp);
		return sqlite3_bind_text(st, i, tmp->data, (int)tmp->size, SQLITE_TRANSIENT);
	}
}

/* Runs st to completion and resets it for the next use.  0, or -1
 * with the reason in sqlite3_errmsg. */
static int
step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

/* Replaces the links of page url with the strings in links (an
 * array; anything else means none).  Duplicates collapse on the
 * primary key.  0, or -1 on a database error. */
static int
put_links(sdb *db, const msgpack_object *url, const msgpack_object *links)
{
	sqlite3_bind_text(db->del_links, 1, url->via.str.ptr, (int)url->via.str.size,
			  SQLITE_STATIC);
	if (step(db->del_links) < 0)
		return -1;
	if (!links || links->type != MSGPACK_OBJECT_ARRAY)
		return 0;
	sqlite3_bind_text(db->ins_link, 1, url->via.str.ptr, (int)url->via.str.size,
			  SQLITE_STATIC);
	for (uint32_t i = 0; i < links->via.array.size; i++) {
		const msgpack_object *l = &links->via.array.ptr[i];
		if (l->type != MSGPACK_OBJECT_STR || l->via.str.size == 0)
			continue;
		sqlite3_bind_text(db->ins_link, 2, l->via.str.ptr, (int)l->via.str.size,
				  SQLITE_STATIC);
		if (step(db->ins_link) < 0)
			return -1;
	}
	return 0;
}

char *
sdb_dup_lookup(sqlite3_stmt *q, const msgpack_object *rec, const msgpack_object *url,
	       uint64_t h, int *rc)
{
	const char *hash = NULL;
	size_t hn = 0;
	rec_str(rec, "content_hash", &hash, &hn);
	for (int i = 0; i < 4; i++)
		sqlite3_bind_int(q, i + 1, cols_band(h, i));
	sqlite3_bind_text(q, 5, url->via.str.ptr, (int)url->via.str.size, SQLITE_STATIC);
	char *found = NULL;
	double found_t = 0;
	int st;
	while ((st = sqlite3_step(q)) == SQLITE_ROW) {
		const char *u = (const char *)sqlite3_column_text(q, 0);
		double t = sqlite3_column_double(q, 3);
		if (u && cols_earlier(t, u, found_t, found) &&
		    cols_is_dup(hash, hn, h, (const char *)sqlite3_column_text(q, 1),
				(const char *)sqlite3_column_text(q, 2))) {
			free(found);
			found = xstrdup(u);
			found_t = t;
		}
	}
	if (st != SQLITE_DONE) {
		free(found);
		found = NULL;
		*rc = -1;
	}
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	return found;
}

/* Binds screenshot or pdf (a bin or a str) as a BLOB at i. */
static void
bind_blob(sqlite3_stmt *st, int i, const msgpack_object *rec, const char *key)
{
	const msgpack_object *v = rec_get(rec, key);
	if (v && v->type == MSGPACK_OBJECT_BIN)
		sqlite3_bind_blob(st, i, v->via.bin.size ? v->via.bin.ptr : "", (int)v->via.bin.size,
				  SQLITE_STATIC);
	else if (v && v->type == MSGPACK_OBJECT_STR)
		sqlite3_bind_blob(st, i, v->via.str.size ? v->via.str.ptr : "", (int)v->via.str.size,
				  SQLITE_STATIC);
}

int
sdb_put(sdb *db, const msgpack_object *rec, double stored_at)
{
	if (db->pg)
		return pgdb_put(db->pg, rec, stored_at);
	const msgpack_object *url = rec_get(rec, "url");
	if (!url || url->type != MSGPACK_OBJECT_STR || url->via.str.size == 0)
		return SDB_SKIPPED;
	if (!db->in_txn) {
		if (step(db->begin) < 0)
			return -1;
		db->in_txn = 1;
	}
	char why[256];   /* validate's reasons are as long */
	enum cols_kind kind = cols_kind(rec, why, sizeof why);
	msgpack_sbuffer tmp;
	msgpack_sbuffer_init(&tmp);
	if (sdb_keeps(db->flags, kind)) {
		sqlite3_stmt *k = db->keep;
		bind_obj(k, 1, url, &tmp);
		sqlite3_bind_double(k, 2, stored_at);
		if (*why)
			sqlite3_bind_text(k, 3, why, -1, SQLITE_STATIC);
		if (kind == COLS_UNCHANGED) {
			bind_obj(k, 4, cols_header(rec, "etag"), &tmp);
			bind_obj(k, 5, cols_header(rec, "last-modified"), &tmp);
		}
		sqlite3_bind_int(k, 6, kind == COLS_UNCHANGED);
		int rc = step(k);
		sqlite3_clear_bindings(k);
		if (rc < 0 || sqlite3_changes(db->h) > 0) {
			msgpack_sbuffer_destroy(&tmp);
			return rc < 0 ? -1 : sdb_kept(kind);
		}
	}
	sqlite3_stmt *st = db->upsert;
	for (size_t i = 0; i < COLS_N; i++)
		bind_obj(st, (int)i + 1, rec_get(rec, cols_names[i]), &tmp);
	sqlite3_bind_double(st, COLS_P_STORED_AT, stored_at);
	cols_rest_json(&db->rest, rec, db->flags & SDB_LINKS, 0);
	sqlite3_bind_text(st, COLS_P_RECORD, db->rest.json.data ? db->rest.json.data : "{}",
			  (int)db->rest.json.size, SQLITE_STATIC);
	bind_obj(st, COLS_P_ETAG, cols_header(rec, "etag"), &tmp);
	bind_obj(st, COLS_P_LAST_MODIFIED, cols_header(rec, "last-modified"), &tmp);
	if (*why)
		sqlite3_bind_text(st, COLS_P_LAST_ERROR, why, -1, SQLITE_STATIC);
	int rc = 0;
	uint64_t h;
	char *dup = NULL;
	bind_obj(st, COLS_P_CONTENT_HASH, rec_get(rec, "content_hash"), &tmp);
	bind_obj(st, COLS_P_SIMHASH, rec_get(rec, "simhash"), &tmp);
	if (cols_simhash(rec, &h)) {
		dup = sdb_dup_lookup(db->dups, rec, url, h, &rc);
		for (int i = 0; i < 4; i++)
			sqlite3_bind_int(st, COLS_P_SIM0 + i, cols_band(h, i));
	}
	if (dup)
		sqlite3_bind_text(st, COLS_P_DUP_OF, dup, -1, SQLITE_STATIC);
	bind_blob(st, COLS_P_SCREENSHOT, rec, "screenshot");
	bind_blob(st, COLS_P_PDF, rec, "pdf");
	if (db->flags & SDB_BODY) {
		const msgpack_object *b = rec_get(rec, "body");
		if (b && b->type == MSGPACK_OBJECT_STR)
			sqlite3_bind_blob(st, COLS_P_BODY, b->via.str.ptr, (int)b->via.str.size,
					  SQLITE_STATIC);
		else
			bind_obj(st, COLS_P_BODY, b, &tmp);
	}
	if (rc == 0)
		rc = step(st);
	free(dup);
	sqlite3_clear_bindings(st);
	msgpack_sbuffer_destroy(&tmp);
	if (rc == 0 && (db->flags & SDB_LINKS))
		rc = put_links(db, url, rec_get(rec, "links"));
	return rc;
}

int
sdb_keeps(int flags, enum cols_kind kind)
{
	return kind == COLS_UNCHANGED || kind == COLS_FAILED ||
	       (kind == COLS_REJECTED && !(flags & SDB_REPLACE_REJECTED));
}

int
sdb_kept(enum cols_kind kind)
{
	return kind == COLS_UNCHANGED ? SDB_UNCHANGED : kind == COLS_REJECTED ? SDB_KEPT_REJECTED
									     : SDB_KEPT;
}

int
sdb_commit(sdb *db)
{
	if (db->pg)
		return pgdb_commit(db->pg);
	if (!db->in_txn)
		return 0;
	if (step(db->commit) < 0)
		return -1;
	db->in_txn = 0;
	return 0;
}

sqlite3 *
sdb_handle(sdb *db)
{
	return db->h;
}

PGconn *
sdb_pg(sdb *db)
{
	return db->pg ? pgdb_conn(db->pg) : NULL;
}

const char *
sdb_errmsg(sdb *db)
{
	return db->pg ? pgdb_errmsg(db->pg) : sqlite3_errmsg(db->h);
}

void
sdb_close(sdb *db)
{
	if (!db)
		return;
	pgdb_close(db->pg);
	sqlite3_finalize(db->begin);
	sqlite3_finalize(db->commit);
	sqlite3_finalize(db->upsert);
	sqlite3_finalize(db->keep);
	sqlite3_finalize(db->del_links);
	sqlite3_finalize(db->ins_link);
	sqlite3_finalize(db->dups);
	sqlite3_close(db->h);   /* rolls back an uncommitted transaction */
	cols_rest_free(&db->rest);
	free(db);
}

const char *
sdb_version(void)
{
	static char v[40];
	snprintf(v, sizeof v, "sqlite %s", sqlite3_libversion());
	return v;
}
