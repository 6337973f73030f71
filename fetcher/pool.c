/* pool — easy handles of finished transfers, kept to spare an
 * allocation per attempt; at most -c of them.  xfer.c resets and sets
 * up a handle it takes from here. */
#include "fetch.h"

#include <stdlib.h>

static CURL **spare;
static long n_spare;

CURL *
pool_take(void)
{
	return n_spare ? spare[--n_spare] : NULL;
}

void
pool_put(CURL *e)
{
	if (!spare)
		spare = malloc((size_t)F.o.concurrency * sizeof *spare);
	if (spare && n_spare < F.o.concurrency)
		spare[n_spare++] = e;
	else
		curl_easy_cleanup(e);
}

void
pool_free(void)
{
	while (n_spare)
		curl_easy_cleanup(spare[--n_spare]);
	free(spare);
	spare = NULL;
}
