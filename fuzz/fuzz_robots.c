/* robots.txt parse + match + Sitemap lines: the first line of the input is the path to
 * decide, the rest the file. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "robots.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *d = (const char *)data;
	const char *nl = memchr(d, '\n', size);
	size_t plen = nl ? (size_t)(nl - d) : 0;
	char *path = malloc(plen + 2);
	path[0] = '/';
	memcpy(path + 1, d, plen);
	path[plen + 1] = '\0';
	size_t off = nl ? plen + 1 : 0;
	double delay;
	struct robots *r = robots_parse(d + off, size - off, "sluice", &delay);
	robots_allowed(r, path);
	robots_allowed(r, "/");
	const char *const *sm;
	size_t ns = robots_sitemaps(r, &sm);
	for (size_t i = 0; i < ns; i++)
		if (strlen(sm[i]) > ROBOTS_MAX_SITEMAP_URL)
			abort();
	robots_free(r);
	free(path);
	return 0;
}
