#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

void
xalloc_die(void)
{
	msg_die(EX_OSERR, "out of memory");
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		xalloc_die();
	return p;
}

char *
xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		xalloc_die();
	return d;
}

char *
xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);
	if (!d)
		xalloc_die();
	return d;
}

char *
xjoin(const char *a, const char *sep, const char *b)
{
	size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
	char *s = xmalloc(n);
	snprintf(s, n, "%s%s%s", a, sep, b);
	return s;
}
