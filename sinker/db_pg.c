/* db_pg — sink's PostgreSQL target: the same `pages` (and `links`) as
 * the SQLite one, upserts in batched transactions, on a connection that
 * sink --queue shares when the frontier is the same database.
 *
 * PostgreSQL's columns are typed and its text holds neither NUL nor
 * invalid UTF-8: a value that does not fit its column stays in `record`
 * (cols_fits), and text is stored with such bytes as U+FFFD. */
#include "db_pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cols.h"
#include "pgsql.h"
#include "rec.h"

/* The schema run at open: SCHEMA_HEAD, the columns of cols_added a
 * table made before them lacks added, SCHEMA_TAIL. */
#define SCHEMA_HEAD \
	"BEGIN;\n" \
	"SELECT pg_advisory_xact_lock(7368);\n" \
	"CREATE TABLE IF NOT EXISTS pages (\n" \
	"  url        text PRIMARY KEY,\n" \
	"  final_url  text,\n" \
	"  host       text,\n" \
	"  status     integer,\n" \
	"  error      text,\n" \
	"  accepted   integer,\n" \
	"  reason     text,\n" \
	"  title      text,\n" \
	"  fetched_at double precision,\n" \
	"  parser     text,\n" \
	"  stored_at  double precision NOT NULL,\n" \
	"  record     text NOT NULL,\n" \
	"  body       bytea\n" \
	");\n"
/* Looked up first, since ALTER TABLE locks the table even when it adds
 * nothing, and every sink of a shared job opens it. */
#define SCHEMA_ADD_HEAD "DO $$ DECLARE c text[]; BEGIN FOREACH c SLICE 1 IN ARRAY ARRAY["
#define SCHEMA_ADD_TAIL "] LOOP\n" \
	"  IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()\n" \
	"      AND table_name = 'pages' AND column_name = c[1]) THEN\n" \
	"    EXECUTE format('ALTER TABLE pages ADD COLUMN %I %s', c[1], c[2]);\n" \
	"  END IF; END LOOP; END $$;\n"
/* The indexes, each band of the simhash's among them (dup_of's lookup,
 * cols_dups), and links. */
#define SCHEMA_TAIL \
	"CREATE INDEX IF NOT EXISTS pages_host ON pages(host);\n" \
	"CREATE INDEX IF NOT EXISTS pages_sim0 ON pages(sim0);\n" \
	"CREATE INDEX IF NOT EXISTS pages_sim1 ON pages(sim1);\n" \
	"CREATE INDEX IF NOT EXISTS pages_sim2 ON pages(sim2);\n" \
	"CREATE INDEX IF NOT EXISTS pages_sim3 ON pages(sim3);\n" \
	"CREATE TABLE IF NOT EXISTS links (\n" \
	"  src text NOT NULL,\n" \
	"  dst text NOT NULL,\n" \
	"  PRIMARY KEY (src, dst)\n" \
	");\n" \
	"COMMIT;\n"

struct pgdb {
	PGconn *c;
	int flags, in_txn;
	cols_rest rest;
	char err[512];
};

enum { P_UPSERT, P_KEEP, P_DEL_LINKS, P_INS_LINK, P_DUPS };

/* The most parameters a statement takes: the upsert's (cols_upsert). */
#define MAXP COLS_P_BODY

/* Runs prepared statement k with n text parameters (bit i of bin marks
 * parameter i, from 0, sent as bytes); the rows it changed, or -1 with
 * the reason in db->err. */
static int
exec(pgdb *db, int k, int n, const char *const *v, const int *len, uint64_t bin)
{
	int fmt[MAXP] = { 0 };
	for (int i = 0; i < n; i++)
		fmt[i] = bin >> i & 1;
	char name[8];
	snprintf(name, sizeof name, "p%d", k);
	PGresult *r = PQexecPrepared(db->c, name, n, v, len, fmt, 0);
	int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok)
		pgsql_error(db->err, sizeof db->err, r ? PQresultErrorMessage(r) : PQerrorMessage(db->c));
	int changed = ok ? atoi(PQcmdTuples(r)) : -1;
	PQclear(r);
	return changed;
}

static int
prepare(pgdb *db, int k, const char *sql)
{
	char name[8];
	snprintf(name, sizeof name, "p%d", k);
	return pgsql_prepare(db->c, name, sql, db->err, sizeof db->err);
}

pgdb *
pgdb_open(const char *uri, int flags, char *err, size_t errlen)
{
	pgdb *db = calloc(1, sizeof *db);
	if (!db) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	db->flags = flags;
	char schema[4096], sql[COLS_UPSERT_MAX];
	size_t at = (size_t)snprintf(schema, sizeof schema, "%s", SCHEMA_HEAD SCHEMA_ADD_HEAD);
	for (size_t i = 0; i < COLS_ADDED_N; i++)
		at += (size_t)snprintf(schema + at, sizeof schema - at, "%s['%s','%s']", i ? "," : "",
				       cols_added[i].name, cols_added[i].pg);
	snprintf(schema + at, sizeof schema - at, "%s", SCHEMA_ADD_TAIL SCHEMA_TAIL);
	if (!(db->c = pgsql_connect(uri, err, errlen)) ||
	    pgsql_exec(db->c, schema, err, errlen) != 0)
		goto fail;
	cols_upsert(sql, sizeof sql, flags & SDB_BODY);
	if (prepare(db, P_UPSERT, sql) != 0 || prepare(db, P_KEEP, cols_keep) != 0 ||
	    prepare(db, P_DUPS, cols_dups) != 0 ||
	    prepare(db, P_DEL_LINKS, "DELETE FROM links WHERE src = ?1") != 0 ||
	    prepare(db, P_INS_LINK, "INSERT INTO links (src, dst) VALUES (?1, ?2)"
				    " ON CONFLICT DO NOTHING") != 0) {
		snprintf(err, errlen, "%s", db->err);
		goto fail;
	}
	return db;
fail:
	pgdb_close(db);
	return NULL;
}

/* Value v of column i as a text parameter, malloc'd; NULL for SQL NULL
 * (none, nil, or not of the column's type).  An array (keywords) as
 * JSON; a bare date as its midnight UTC, not the server's zone's. */
static char *
text_of(size_t i, const msgpack_object *v)
{
	if (!v || v->type == MSGPACK_OBJECT_NIL || !cols_fits(i, v))
		return NULL;
	char buf[32], *t;
	msgpack_sbuffer json;
	switch (v->type) {
	case MSGPACK_OBJECT_STR:
		if ((i == COLS_PUBLISHED || i == COLS_MODIFIED) && v->via.str.size == 10) {
			snprintf(buf, sizeof buf, "%.10sT00:00:00Z", v->via.str.ptr);
			return strdup(buf);
		}
		return pgsql_text(v->via.str.ptr, v->via.str.size);
	case MSGPACK_OBJECT_ARRAY:
		msgpack_sbuffer_init(&json);
		rec_json(v, &json);
		t = pgsql_text(json.data, json.size);
		msgpack_sbuffer_destroy(&json);
		return t;
	case MSGPACK_OBJECT_BOOLEAN:
		return strdup(v->via.boolean ? "1" : "0");
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)v->via.u64);
		return strdup(buf);
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		snprintf(buf, sizeof buf, "%lld", (long long)v->via.i64);
		return strdup(buf);
	default:
		snprintf(buf, sizeof buf, "%.17g", v->via.f64);
		return strdup(buf);
	}
}

/* Replaces the links of page url (a text parameter) with the strings in
 * links.  0, or -1. */
static int
put_links(pgdb *db, const char *url, const msgpack_object *links)
{
	const char *v[2] = { url, NULL };
	if (exec(db, P_DEL_LINKS, 1, v, NULL, 0) < 0)
		return -1;
	if (!links || links->type != MSGPACK_OBJECT_ARRAY)
		return 0;
	int rc = 0;
	for (uint32_t i = 0; rc == 0 && i < links->via.array.size; i++) {
		const msgpack_object *l = &links->via.array.ptr[i];
		if (l->type != MSGPACK_OBJECT_STR || l->via.str.size == 0)
			continue;
		char *dst = pgsql_text(l->via.str.ptr, l->via.str.size);
		v[1] = dst;
		rc = dst && exec(db, P_INS_LINK, 2, v, NULL, 0) >= 0 ? 0 : -1;
		free(dst);
	}
	return rc;
}

/* The url of the page rec copies (cols_dups), malloc'd, or NULL: none.
 * u is rec's url as a text parameter; -1 in *rc on a database error. */
static char *
dup_of(pgdb *db, const msgpack_object *rec, const char *u, uint64_t h, int *rc)
{
	const char *hash = NULL;
	size_t hn = 0;
	rec_str(rec, "content_hash", &hash, &hn);
	char band[4][8];
	const char *v[5] = { band[0], band[1], band[2], band[3], u };
	for (int i = 0; i < 4; i++)
		snprintf(band[i], sizeof band[i], "%d", cols_band(h, i));
	char name[8];
	snprintf(name, sizeof name, "p%d", P_DUPS);
	PGresult *r = PQexecPrepared(db->c, name, 5, v, NULL, NULL, 0);
	char *found = NULL;
	if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
		pgsql_error(db->err, sizeof db->err, r ? PQresultErrorMessage(r) : PQerrorMessage(db->c));
		*rc = -1;
	} else {
		double found_t = 0;
		for (int i = 0; i < PQntuples(r); i++) {
			const char *u = PQgetvalue(r, i, 0);
			double t = atof(PQgetvalue(r, i, 3));
			if (cols_earlier(t, u, found_t, found) &&
			    cols_is_dup(hash, hn, h, PQgetisnull(r, i, 1) ? NULL : PQgetvalue(r, i, 1),
					PQgetisnull(r, i, 2) ? NULL : PQgetvalue(r, i, 2))) {
				free(found);
				found = strdup(u);
				found_t = t;
			}
		}
	}
	PQclear(r);
	return found;
}

/* Points *v and *len at rec's key (a bin or a str) as bytes; NULL when
 * absent or of another type. */
static void
bytes_of(const msgpack_object *rec, const char *key, const char **v, int *len)
{
	const msgpack_object *b = rec_get(rec, key);
	*v = NULL;
	if (b && b->type == MSGPACK_OBJECT_STR) {
		*v = b->via.str.size ? b->via.str.ptr : "";
		*len = (int)b->via.str.size;
	} else if (b && b->type == MSGPACK_OBJECT_BIN) {
		*v = b->via.bin.size ? b->via.bin.ptr : "";
		*len = (int)b->via.bin.size;
	}
}

int
pgdb_put(pgdb *db, const msgpack_object *rec, double stored_at)
{
	const msgpack_object *url = rec_get(rec, "url");
	if (!url || url->type != MSGPACK_OBJECT_STR || url->via.str.size == 0)
		return SDB_SKIPPED;
	if (!db->in_txn) {
		if (pgsql_exec(db->c, "BEGIN", db->err, sizeof db->err) != 0)
			return -1;
		db->in_txn = 1;
	}
	char why[256], stored[32];   /* why: validate's reasons are as long */
	enum cols_kind kind = cols_kind(rec, why, sizeof why);
	snprintf(stored, sizeof stored, "%.17g", stored_at);
	/* The validators, as text_of takes text (index 4 is error's, a
	 * text column). */
	char *etag = text_of(4, cols_header(rec, "etag"));
	char *lm = text_of(4, cols_header(rec, "last-modified"));
	if (sdb_keeps(db->flags, kind)) {
		char *u = text_of(0, url);
		const char *kv[6] = { u, stored, *why ? why : NULL,
				      kind == COLS_UNCHANGED ? etag : NULL,
				      kind == COLS_UNCHANGED ? lm : NULL,
				      kind == COLS_UNCHANGED ? "1" : "0" };
		int changed = u ? exec(db, P_KEEP, 6, kv, NULL, 0) : -1;
		free(u);
		if (changed != 0) {
			free(etag);
			free(lm);
			return changed < 0 ? -1 : sdb_kept(kind);
		}
	}
	char *v[COLS_N] = { 0 };
	int len[MAXP] = { 0 }, n = COLS_P_BODY - 1, rc = 0;
	for (size_t i = 0; i < COLS_N; i++)
		v[i] = text_of(i, rec_get(rec, cols_names[i]));
	cols_rest_json(&db->rest, rec, db->flags & SDB_LINKS, 1);
	msgpack_sbuffer_write(&db->rest.json, "", 1);   /* a C string */
	/* vals[P(k)]: parameter ?k. */
#define P(k) ((k) - 1)
	const char *vals[MAXP] = { 0 };
	for (int i = 0; i < COLS_N; i++)
		vals[i] = v[i];
	vals[P(COLS_P_STORED_AT)] = stored;
	vals[P(COLS_P_RECORD)] = db->rest.json.data;
	vals[P(COLS_P_ETAG)] = etag;
	vals[P(COLS_P_LAST_MODIFIED)] = lm;
	vals[P(COLS_P_LAST_ERROR)] = *why ? why : NULL;
	/* The fingerprints: strings, as text_of takes them (index 4). */
	char *hash = text_of(4, rec_get(rec, "content_hash"));
	char *sim = text_of(4, rec_get(rec, "simhash"));
	char *dup = NULL, band[4][8];
	uint64_t h;
	vals[P(COLS_P_CONTENT_HASH)] = hash;
	vals[P(COLS_P_SIMHASH)] = sim;
	if (v[0] && cols_simhash(rec, &h)) {
		dup = dup_of(db, rec, v[0], h, &rc);
		for (int i = 0; i < 4; i++) {
			snprintf(band[i], sizeof band[i], "%d", cols_band(h, i));
			vals[P(COLS_P_SIM0) + i] = band[i];
		}
	}
	vals[P(COLS_P_DUP_OF)] = dup;
	/* The binary outputs and the body as they came, bytes and all. */
	bytes_of(rec, "screenshot", &vals[P(COLS_P_SCREENSHOT)], &len[P(COLS_P_SCREENSHOT)]);
	bytes_of(rec, "pdf", &vals[P(COLS_P_PDF)], &len[P(COLS_P_PDF)]);
	uint64_t bin = 1ull << P(COLS_P_SCREENSHOT) | 1ull << P(COLS_P_PDF);
	if (db->flags & SDB_BODY) {
		bytes_of(rec, "body", &vals[P(COLS_P_BODY)], &len[P(COLS_P_BODY)]);
		bin |= 1ull << P(COLS_P_BODY);
		n = COLS_P_BODY;
	}
#undef P
	if (!v[0])
		rc = -1;   /* out of memory: the url is a string */
	if (rc == 0)
		rc = exec(db, P_UPSERT, n, vals, len, bin) < 0 ? -1 : 0;
	if (rc == 0 && (db->flags & SDB_LINKS))
		rc = put_links(db, v[0], rec_get(rec, "links"));
	for (size_t i = 0; i < COLS_N; i++)
		free(v[i]);
	free(etag);
	free(lm);
	free(hash);
	free(sim);
	free(dup);
	return rc;
}

int
pgdb_commit(pgdb *db)
{
	if (!db->in_txn)
		return 0;
	db->in_txn = 0;
	return pgsql_exec(db->c, "COMMIT", db->err, sizeof db->err);
}

PGconn *
pgdb_conn(pgdb *db)
{
	return db->c;
}

const char *
pgdb_errmsg(pgdb *db)
{
	return db->err;
}

void
pgdb_close(pgdb *db)
{
	if (!db)
		return;
	PQfinish(db->c);   /* rolls back an uncommitted transaction */
	cols_rest_free(&db->rest);
	free(db);
}
