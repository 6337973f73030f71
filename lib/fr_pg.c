/* fr_pg — the frontier's store in a PostgreSQL database, through libpq.
 *
 * Statements with arguments are prepared on first use and sent with
 * text parameters, whose types the server infers from the statement;
 * those without are sent as they are, so one text may hold two commands
 * (a BEGIN and its advisory lock).  Results arrive whole, so a row is an
 * index into a result.
 */
#include "fr_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgsql.h"
#include "utf8.h"

typedef struct {
	fr_store base;
	PGconn *c;
	int own_c;                /* we connected, we disconnect */
	/* The results whose rows are being read, innermost last (a caller
	 * may run statements while it reads another's rows). */
	PGresult *res[FR_STORE_DEPTH];
	int row[FR_STORE_DEPTH];  /* current row of each */
	int depth;
	long long changes;
	unsigned char *prepared;  /* per statement */
	char err[512];
} pg;

static void
set_error(pg *p, const char *msg)
{
	pgsql_error(p->err, sizeof p->err, msg);
}

/* Prepares statement k, once per connection. */
static int
prepare(pg *p, int k)
{
	if (p->prepared[k])
		return 0;
	char name[16];
	snprintf(name, sizeof name, "s%d", k);
	if (pgsql_prepare(p->c, name, fr_sql(k, 1), p->err, sizeof p->err) != 0)
		return -1;
	p->prepared[k] = 1;
	return 0;
}

static void
pg_end(fr_store *s)
{
	pg *p = (pg *)s;
	if (p->depth > 0)
		PQclear(p->res[--p->depth]);
}

static int
pg_run(fr_store *s, int k, const fr_arg *a, int n)
{
	pg *p = (pg *)s;
	PGresult *r;
	if (p->depth == FR_STORE_DEPTH) {
		set_error(p, "statements nested too deep");
		return -1;
	}
	if (n == 0) {
		r = PQexec(p->c, fr_sql(k, 1));
	} else {
		if (n > 16) {
			set_error(p, "too many arguments");
			return -1;
		}
		if (prepare(p, k) != 0)
			return -1;
		char buf[16][32], name[16], *text[16] = { 0 };
		const char *v[16];
		for (int i = 0; i < n; i++)
			switch (a[i].t) {
			case 's':
				/* A reason from a record may hold bytes that
				 * PostgreSQL's text refuses; URLs and hosts,
				 * canonical, go as they are. */
				v[i] = a[i].s;
				if (a[i].s && utf8_valid((const unsigned char *)a[i].s, strlen(a[i].s)) !=
						      strlen(a[i].s))
					v[i] = text[i] = pgsql_text(a[i].s, strlen(a[i].s));
				break;
			case 'd': snprintf(buf[i], sizeof buf[i], "%.17g", a[i].d); v[i] = buf[i]; break;
			default: snprintf(buf[i], sizeof buf[i], "%lld", a[i].i); v[i] = buf[i]; break;
			}
		snprintf(name, sizeof name, "s%d", k);
		r = PQexecPrepared(p->c, name, n, v, NULL, NULL, 0);
		for (int i = 0; i < n; i++)
			free(text[i]);
	}
	ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		set_error(p, r ? PQresultErrorMessage(r) : PQerrorMessage(p->c));
		PQclear(r);
		return -1;
	}
	p->changes = atoll(PQcmdTuples(r));
	p->res[p->depth] = r;
	p->row[p->depth++] = -1;
	return 0;
}

static int
pg_row(fr_store *s)
{
	pg *p = (pg *)s;
	return p->depth && ++p->row[p->depth - 1] < PQntuples(p->res[p->depth - 1]);
}

static const char *
pg_text(fr_store *s, int c)
{
	pg *p = (pg *)s;
	PGresult *r = p->res[p->depth - 1];
	int row = p->row[p->depth - 1];
	return PQgetisnull(r, row, c) ? NULL : PQgetvalue(r, row, c);
}

static double
pg_real(fr_store *s, int c)
{
	const char *v = pg_text(s, c);
	return v ? strtod(v, NULL) : 0;
}

static long long
pg_integer(fr_store *s, int c)
{
	const char *v = pg_text(s, c);
	return v ? strtoll(v, NULL, 10) : 0;
}

static long long
pg_changes(fr_store *s)
{
	return ((pg *)s)->changes;
}

static const char *
pg_error(fr_store *s)
{
	return ((pg *)s)->err;
}

static void
pg_close(fr_store *s)
{
	pg *p = (pg *)s;
	while (p->depth)
		pg_end(s);
	if (p->own_c)
		PQfinish(p->c);
	free(p->prepared);
	free(p);
}

fr_store *
fr_pg_open(const char *uri, PGconn *c, char *err, size_t errlen)
{
	pg *p = calloc(1, sizeof *p);
	unsigned char *prepared = calloc((size_t)fr_n_sql, 1);
	if (!p || !prepared) {
		free(p);
		free(prepared);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->base = (fr_store){ pg_run, pg_row, pg_text, pg_real, pg_integer,
			      pg_end, pg_changes, pg_error, pg_close };
	p->prepared = prepared;
	p->own_c = !c;
	p->c = c ? c : pgsql_connect(uri, err, errlen);
	if (!p->c || pgsql_exec(p->c, fr_schema_pg, err, errlen) != 0) {
		pg_close(&p->base);
		return NULL;
	}
	return &p->base;
}
