/* site — registrable domains by libpsl. */
#include "site.h"

#include <libpsl.h>
#include <stddef.h>

const char *
site_of(const char *host)
{
	/* One list for the process: loading it costs a file read. */
	static const psl_ctx_t *psl;
	if (!psl && !(psl = psl_latest(NULL)))
		psl = psl_builtin();
	const char *d = psl ? psl_registrable_domain(psl, host) : NULL;
	return d ? d : host;
}
