/* cidr — sets of address ranges ("10.0.0.0/8,fc00::/7"): which
 * addresses fetch --private-ranges calls private.  IPv4 addresses are
 * kept as IPv4-mapped IPv6 ones, so one comparison serves both families
 * and "::ffff:127.0.0.1" is the loopback address it is.
 */
#ifndef SLUICE_CIDR_H
#define SLUICE_CIDR_H

#include <stddef.h>
#include <sys/socket.h>

struct cidr;

/* fetch's and render's --private-ranges by default: loopback, "this
 * network" (0.0.0.0 connects to the machine itself), RFC 1918, shared
 * address space (some clouds' metadata), link-local (169.254.169.254 is
 * most clouds' metadata service), unique-local and link-local IPv6. */
#define CIDR_PRIVATE "127.0.0.0/8,0.0.0.0/8,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16," \
	"100.64.0.0/10,169.254.0.0/16,::1/128,::/128,fc00::/7,fe80::/10"

/* Parses a list of ranges separated by commas or spaces: ADDR/PREFIX,
 * or an address alone for just that address.  Returns NULL, with a
 * reason in err, when an entry is not a range. */
struct cidr *cidr_parse(const char *list, char *err, size_t errlen);

/* Whether address a (struct sockaddr_in or sockaddr_in6; other families
 * never are), or the text address ip, is in one of the ranges. */
int cidr_has_addr(const struct cidr *c, const struct sockaddr *a);
int cidr_has_text(const struct cidr *c, const char *ip);

void cidr_free(struct cidr *c);

#endif
