#include "sql.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static int sync_mode = SQL_SYNC_NORMAL;

int
sql_sync(void)
{
	return sync_mode;
}

int
sql_sync_arg(const char *arg)
{
	if (strcmp(arg, "full") != 0 && strcmp(arg, "normal") != 0)
		return -1;
	sync_mode = strcmp(arg, "full") == 0 ? SQL_SYNC_FULL : SQL_SYNC_NORMAL;
	return 0;
}

int
sql_exec(sqlite3 *db, const char *sql)
{
	int rc;
	for (int waited = 0;; waited += 10) {
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited >= SQL_BUSY_MS)
			return rc;
		nanosleep(&(struct timespec){ 0, 10 * 1000000L }, NULL);
	}
}

sqlite3 *
sql_open(const char *path, const char *schema, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
	    sqlite3_busy_timeout(db, SQL_BUSY_MS) != SQLITE_OK ||
	    sql_exec(db, "PRAGMA journal_mode=WAL") != SQLITE_OK ||
	    sql_exec(db, sync_mode == SQL_SYNC_FULL ? "PRAGMA synchronous=FULL"
						      : "PRAGMA synchronous=NORMAL") != SQLITE_OK ||
	    (schema && sql_exec(db, schema) != SQLITE_OK)) {
		snprintf(err, errlen, "%s", db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	return db;
}

/* Whether table has column. */
static int
has_column(sqlite3 *db, const char *table, const char *column)
{
	char q[128];
	snprintf(q, sizeof q, "SELECT %s FROM %s LIMIT 0", column, table);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, q, -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_finalize(s);
	return 1;
}

int
sql_add_columns(sqlite3 *db, const sql_column *c, size_t n)
{
	size_t missing = 0;
	for (size_t i = 0; i < n; i++)
		missing += !has_column(db, c[i].table, c[i].name);
	if (missing == 0)
		return 0;
	if (sql_exec(db, "BEGIN IMMEDIATE") != SQLITE_OK)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char q[160];
		snprintf(q, sizeof q, "ALTER TABLE %s ADD COLUMN %s %s", c[i].table, c[i].name,
			 c[i].type);
		if (!has_column(db, c[i].table, c[i].name) && sql_exec(db, q) != SQLITE_OK) {
			sql_exec(db, "ROLLBACK");
			return -1;
		}
	}
	return sql_exec(db, "COMMIT") == SQLITE_OK ? 0 : -1;
}
