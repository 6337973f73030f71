/* site — registrable domains by libpsl. */
#include "site.h"

#include <arpa/inet.h>
#include <libpsl.h>
#include <stddef.h>

/* One list for the process: loading it costs a file read. */
static const psl_ctx_t *
list(void)
{
	static const psl_ctx_t *psl;
	if (!psl && !(psl = psl_latest(NULL)))
		psl = psl_builtin();
	return psl;
}

const char *
site_of(const char *host)
{
	/* An IPv4 address is no domain: the list's implicit "*" rule would
	 * make 127.0.0.1 and 10.0.0.1 one site, "0.1".  (IPv6 hosts come
	 * bracketed, which libpsl leaves alone.) */
	struct in_addr a;
	if (inet_pton(AF_INET, host, &a) == 1)
		return host;
	const psl_ctx_t *psl = list();
	const char *d = psl ? psl_registrable_domain(psl, host) : NULL;
	return d ? d : host;
}

int
site_is_public_suffix(const char *domain)
{
	const psl_ctx_t *psl = list();
	return psl && psl_is_public_suffix(psl, domain);
}
