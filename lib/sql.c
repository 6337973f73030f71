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
