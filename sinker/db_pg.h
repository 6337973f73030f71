/* db_pg — sink's PostgreSQL target (see db.h, which dispatches here
 * for a postgresql:// TARGET). */
#ifndef SINK_DB_PG_H
#define SINK_DB_PG_H

#include <libpq-fe.h>
#include <msgpack.h>
#include <stddef.h>

#include "db.h"

typedef struct pgdb pgdb;

/* Connects to uri, creates the schema, prepares the statements (flags as
 * sdb_open's).  NULL with the reason in err. */
pgdb *pgdb_open(const char *uri, int flags, char *err, size_t errlen);
/* As sdb_put, sdb_commit, sdb_errmsg, sdb_close. */
int pgdb_put(pgdb *db, const msgpack_object *rec, double stored_at);
int pgdb_commit(pgdb *db);
const char *pgdb_errmsg(pgdb *db);
void pgdb_close(pgdb *db);
/* The connection, for sink --queue on the same database. */
PGconn *pgdb_conn(pgdb *db);

#endif
