/* fr_store — what the frontier asks of the database under it.
 *
 * frontier.c holds every statement (in the two dialects where they
 * differ) and all the logic; a store only runs statement k of that table
 * with typed arguments and hands back its rows.  Two stores: SQLite
 * (fr_sqlite.c, a file) and PostgreSQL (fr_pg.c, a libpq connection
 * URI).  A caller may run statements while it reads another's rows, up
 * to FR_STORE_DEPTH deep; each run's rows end with end, innermost first.
 */
#ifndef SLUICE_FR_STORE_H
#define SLUICE_FR_STORE_H

#include <libpq-fe.h>
#include <sqlite3.h>
#include <stddef.h>

/* An argument: text (NULL is SQL NULL), a double or an integer. */
typedef struct fr_arg {
	char t;   /* 's', 'd' or 'i' */
	const char *s;
	double d;
	long long i;
} fr_arg;

#define FA_S(x) ((fr_arg){ .t = 's', .s = (x) })
#define FA_D(x) ((fr_arg){ .t = 'd', .d = (x) })
#define FA_I(x) ((fr_arg){ .t = 'i', .i = (x) })

#define FR_STORE_DEPTH 4

typedef struct fr_store fr_store;

struct fr_store {
	/* Runs statement k with n arguments bound to ?1..?n; 0, or -1 with
	 * the reason in error.  Its rows, if any, are then read with row. */
	int (*run)(fr_store *s, int k, const fr_arg *a, int n);
	/* Moves to the next row of the last run: 1, 0 past the last, -1. */
	int (*row)(fr_store *s);
	/* Column c of the current row; text is NULL for SQL NULL. */
	const char *(*text)(fr_store *s, int c);
	double (*real)(fr_store *s, int c);
	long long (*integer)(fr_store *s, int c);
	/* Ends the innermost run's rows. */
	void (*end)(fr_store *s);
	/* Rows the last run inserted, updated or deleted. */
	long long (*changes)(fr_store *s);
	/* The last error's message. */
	const char *(*error)(fr_store *s);
	void (*close)(fr_store *s);
};

/* Statement k's text (frontier.c), in PostgreSQL's dialect when pg, and
 * how many there are.  Parameters are written ?1..?n in both. */
const char *fr_sql(int k, int pg);
extern const int fr_n_sql;
extern const char fr_schema_sqlite[], fr_schema_pg[];

/* Opens the SQLite frontier in path, or on db when not NULL (not closed
 * by close then).  NULL with a message in err. */
fr_store *fr_sqlite_open(const char *path, sqlite3 *db, char *err, size_t errlen);

/* Opens the frontier in the PostgreSQL database that the libpq
 * connection URI names, or on c when not NULL (not closed by close
 * then).  NULL with a message in err. */
fr_store *fr_pg_open(const char *uri, PGconn *c, char *err, size_t errlen);

#endif
