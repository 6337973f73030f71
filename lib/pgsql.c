#include "pgsql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql.h"
#include "utf8.h"

int
pgsql_is_uri(const char *target)
{
	if (strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0)
		return 1;
	/* Keyword form: libpq refuses any word that is not its keyword, so
	 * "pages.db" or "a=b.db" is a file name. */
	if (!strchr(target, '='))
		return 0;
	char *err = NULL;
	PQconninfoOption *o = PQconninfoParse(target, &err);
	int ok = o != NULL;
	PQconninfoFree(o);
	PQfreemem(err);
	return ok;
}

static void
quiet(void *arg, const char *msg)
{
	(void)arg, (void)msg;
}

PGconn *
pgsql_connect(const char *uri, char *err, size_t errlen)
{
	PGconn *c = PQconnectdb(uri);
	if (PQstatus(c) != CONNECTION_OK) {
		pgsql_error(err, errlen, c ? PQerrorMessage(c) : "out of memory");
		PQfinish(c);
		return NULL;
	}
	PQsetNoticeProcessor(c, quiet, NULL);
	if (sql_sync() == SQL_SYNC_FULL &&
	    pgsql_exec(c, "SET synchronous_commit = on", err, errlen) != 0) {
		PQfinish(c);
		return NULL;
	}
	return c;
}

void
pgsql_error(char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%.*s", (int)strcspn(msg, "\n"), msg);
}

int
pgsql_prepare(PGconn *c, const char *name, const char *sql, char *err, size_t errlen)
{
	char *d = strdup(sql);
	for (char *q = d; q && (q = strchr(q, '?')); q++)
		*q = '$';
	PGresult *r = d ? PQprepare(c, name, d, 0, NULL) : NULL;
	free(d);
	int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
	if (!ok)
		pgsql_error(err, errlen, r ? PQresultErrorMessage(r) : PQerrorMessage(c));
	PQclear(r);
	return ok ? 0 : -1;
}

char *
pgsql_text(const char *s, size_t n)
{
	char *out = malloc(n * 3 + 1), *o = out;
	if (!out)
		return NULL;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t ok = utf8_valid(u + i, n - i);
		for (size_t k = 0; k < ok; k++)
			if (u[i + k])
				*o++ = (char)u[i + k];
			else
				memcpy(o, "\xEF\xBF\xBD", 3), o += 3;
		i += ok;
		if (i < n) {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			i += utf8_bad_len(u + i, n - i);
		}
	}
	*o = '\0';
	return out;
}

int
pgsql_exec(PGconn *c, const char *sql, char *err, size_t errlen)
{
	PGresult *r = PQexec(c, sql);
	ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	int ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
	if (!ok)
		pgsql_error(err, errlen, r ? PQresultErrorMessage(r) : PQerrorMessage(c));
	PQclear(r);
	return ok ? 0 : -1;
}
