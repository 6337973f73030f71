#include "db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "msg.h"
#include "rec.h"
#include "sql.h"

const char sdb_schema[] =
	"CREATE TABLE IF NOT EXISTS pages (\n"
	"  url        TEXT PRIMARY KEY,\n"
	"  final_url  TEXT,\n"
	"  host       TEXT,\n"
	"  status     INTEGER,\n"
	"  error      TEXT,\n"
	"  accepted   INTEGER,   -- 1, 0, or NULL when not validated\n"
	"  reason     TEXT,\n"
	"  title      TEXT,\n"
	"  fetched_at REAL,      -- unix seconds\n"
	"  parser     TEXT,\n"
	"  stored_at  REAL NOT NULL,\n"
	"  record     TEXT NOT NULL,  -- every other key, as JSON\n"
	"  body       BLOB       -- only with --body\n"
	");\n"
	"CREATE INDEX IF NOT EXISTS pages_host ON pages(host);\n"
	"CREATE TABLE IF NOT EXISTS links (\n"
	"  src TEXT NOT NULL,   -- pages.url\n"
	"  dst TEXT NOT NULL,\n"
	"  PRIMARY KEY (src, dst)\n"
	") WITHOUT ROWID;\n";

/* The record keys that have their own column, in bind order (?2..?11
 * after url); `record` holds every other key except body (and links
 * when they go to their own table). */
static const char *const columns[] = {
	"url", "final_url", "host", "status", "error", "accepted", "reason",
	"title", "fetched_at", "parser",
};
#define NCOLS (sizeof columns / sizeof columns[0])

#define UPSERT_HEAD \
	"INSERT INTO pages (url, final_url, host, status, error, accepted, reason," \
	" title, fetched_at, parser, stored_at, record%s)" \
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12%s)" \
	" ON CONFLICT(url) DO UPDATE SET final_url = excluded.final_url," \
	" host = excluded.host, status = excluded.status, error = excluded.error," \
	" accepted = excluded.accepted, reason = excluded.reason," \
	" title = excluded.title, fetched_at = excluded.fetched_at," \
	" parser = excluded.parser, stored_at = excluded.stored_at," \
	" record = excluded.record%s"

struct sdb {
	sqlite3 *h;
	int flags, in_txn;
	sqlite3_stmt *begin, *commit, *upsert, *del_links, *ins_link;
	msgpack_object_kv *kv;   /* scratch: the keys that go to `record` */
	size_t kvcap;
	msgpack_sbuffer json;    /* scratch: `record` as JSON */
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
	msgpack_sbuffer_init(&db->json);
	db->h = sql_open(path, sdb_schema, err, errlen);
	if (!db->h) {
		sdb_close(db);
		return NULL;
	}
	char sql[1400];
	snprintf(sql, sizeof sql, UPSERT_HEAD,
		 flags & SDB_BODY ? ", body" : "", flags & SDB_BODY ? ", ?13" : "",
		 flags & SDB_BODY ? ", body = excluded.body" : "");
	if (prepare(db, "BEGIN IMMEDIATE", &db->begin) != SQLITE_OK ||
	    prepare(db, "COMMIT", &db->commit) != SQLITE_OK ||
	    prepare(db, sql, &db->upsert) != SQLITE_OK ||
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

/* Whether key k is stored outside the `record` JSON. */
static int
own_column(const msgpack_object *k, int flags)
{
	for (size_t i = 0; i < NCOLS; i++)
		if (rec_eq(k, columns[i]))
			return 1;
	return rec_eq(k, "body") || ((flags & SDB_LINKS) && rec_eq(k, "links"));
}

/* Renders the keys without a column of their own as a JSON object into
 * db->json, by pointing a map object at the kept pairs: no copy of the
 * values, no re-packing. */
static void
rest_json(sdb *db, const msgpack_object *rec)
{
	uint32_t n = rec->via.map.size;
	if (n > db->kvcap) {
		free(db->kv);
		db->kvcap = n;
		if (!(db->kv = malloc(n * sizeof *db->kv)))
			msg_die(EX_OSERR, "out of memory");
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!own_column(&rec->via.map.ptr[i].key, db->flags))
			db->kv[k++] = rec->via.map.ptr[i];
	msgpack_object rest = { .type = MSGPACK_OBJECT_MAP };
	rest.via.map.size = k;
	rest.via.map.ptr = db->kv;
	db->json.size = 0;
	rec_json(&rest, &db->json);
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

int
sdb_put(sdb *db, const msgpack_object *rec, double stored_at)
{
	const msgpack_object *url = rec_get(rec, "url");
	if (!url || url->type != MSGPACK_OBJECT_STR || url->via.str.size == 0)
		return 1;
	if (!db->in_txn) {
		if (step(db->begin) < 0)
			return -1;
		db->in_txn = 1;
	}
	msgpack_sbuffer tmp;
	msgpack_sbuffer_init(&tmp);
	sqlite3_stmt *st = db->upsert;
	for (size_t i = 0; i < NCOLS; i++)
		bind_obj(st, (int)i + 1, rec_get(rec, columns[i]), &tmp);
	sqlite3_bind_double(st, 11, stored_at);
	rest_json(db, rec);
	sqlite3_bind_text(st, 12, db->json.data ? db->json.data : "{}",
			  (int)db->json.size, SQLITE_STATIC);
	if (db->flags & SDB_BODY) {
		const msgpack_object *b = rec_get(rec, "body");
		if (b && b->type == MSGPACK_OBJECT_STR)
			sqlite3_bind_blob(st, 13, b->via.str.ptr, (int)b->via.str.size,
					  SQLITE_STATIC);
		else
			bind_obj(st, 13, b, &tmp);
	}
	int rc = step(st);
	sqlite3_clear_bindings(st);
	msgpack_sbuffer_destroy(&tmp);
	if (rc == 0 && (db->flags & SDB_LINKS))
		rc = put_links(db, url, rec_get(rec, "links"));
	return rc;
}

int
sdb_commit(sdb *db)
{
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

const char *
sdb_errmsg(sdb *db)
{
	return sqlite3_errmsg(db->h);
}

void
sdb_close(sdb *db)
{
	if (!db)
		return;
	sqlite3_finalize(db->begin);
	sqlite3_finalize(db->commit);
	sqlite3_finalize(db->upsert);
	sqlite3_finalize(db->del_links);
	sqlite3_finalize(db->ins_link);
	sqlite3_close(db->h);   /* rolls back an uncommitted transaction */
	free(db->kv);
	msgpack_sbuffer_destroy(&db->json);
	free(db);
}

const char *
sdb_version(void)
{
	static char v[40];
	snprintf(v, sizeof v, "sqlite %s", sqlite3_libversion());
	return v;
}
