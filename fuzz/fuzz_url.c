/* URL canonicalization: any bytes as one input URL; a fetched URL's
 * canonical form must canonicalize, to itself. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "url.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	url_parts u, again;
	const char *why;
	if (url_canon((const char *)data, size, &u, &why) != 0)
		return 0;
	url_origin_len(u.canon);
	/* Only fetched URLs need one name: they key the frontier.  It must
	 * parse again, to itself. */
	if (url_fetchable(u.scheme)) {
		if (url_canon(u.canon, strlen(u.canon), &again, &why) != 0)
			abort();   /* a canonical name that is no URL */
		if (strcmp(u.canon, again.canon) != 0)
			abort();   /* canonical form is not stable */
		url_parts_free(&again);
	}
	url_parts_free(&u);
	return 0;
}
