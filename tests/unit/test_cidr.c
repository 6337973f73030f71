/* Unit tests of lib/cidr: parsing ranges and matching addresses of both
 * families, as text and as socket addresses.  Prints `ok - test_cidr:
 * NAME` or `not ok - ...` per check and exits 1 when any failed. */
#include "cidr.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#define CHECK_PROG "test_cidr"
#include "check.h"

int
main(void)
{
	char err[128];
	struct cidr *c = cidr_parse("127.0.0.0/8, 10.0.0.0/8,172.16.0.0/12,169.254.0.0/16,"
				    "fc00::/7,::1,192.168.1.7", err, sizeof err);
	check_true("the default-like list parses", c != NULL);
	static const struct { const char *ip; int in; } cases[] = {
		{ "127.0.0.1", 1 }, { "127.255.1.2", 1 }, { "128.0.0.1", 0 },
		{ "10.1.2.3", 1 }, { "11.0.0.1", 0 },
		{ "172.16.0.1", 1 }, { "172.31.255.255", 1 }, { "172.32.0.1", 0 }, { "172.15.255.255", 0 },
		{ "169.254.169.254", 1 }, { "169.255.0.1", 0 },
		{ "192.168.1.7", 1 }, { "192.168.1.8", 0 },      /* an address alone is /32 */
		{ "fd12::1", 1 }, { "fc00::", 1 }, { "fe00::1", 0 },
		{ "::1", 1 }, { "::2", 0 },
		{ "::ffff:127.0.0.1", 1 }, { "::ffff:8.8.8.8", 0 },  /* IPv4-mapped */
		{ "8.8.8.8", 0 }, { "2001:db8::1", 0 }, { "not an address", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char name[96];
		snprintf(name, sizeof name, "%s %s", cases[i].ip, cases[i].in ? "in" : "not in");
		check_true(name, cidr_has_text(c, cases[i].ip) == cases[i].in);
	}
	struct sockaddr_in v4 = { .sin_family = AF_INET };
	inet_pton(AF_INET, "169.254.169.254", &v4.sin_addr);
	check_true("sockaddr_in 169.254.169.254 in", cidr_has_addr(c, (struct sockaddr *)&v4));
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };
	inet_pton(AF_INET6, "::ffff:10.0.0.1", &v6.sin6_addr);
	check_true("sockaddr_in6 ::ffff:10.0.0.1 in", cidr_has_addr(c, (struct sockaddr *)&v6));
	inet_pton(AF_INET6, "2001:db8::1", &v6.sin6_addr);
	check_true("sockaddr_in6 2001:db8::1 not in", !cidr_has_addr(c, (struct sockaddr *)&v6));
	cidr_free(c);

	struct cidr *one = cidr_parse("127.0.0.3/32", err, sizeof err);
	check_true("127.0.0.3/32: .3 in, .1 not", one && cidr_has_text(one, "127.0.0.3") &&
	      !cidr_has_text(one, "127.0.0.1"));
	cidr_free(one);
	static const char *const bad[] = { "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x",
					   "nonsense", "10.0.0.0/8,300.1.1.1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char name[96];
		snprintf(name, sizeof name, "'%s' refused with a reason", bad[i]);
		struct cidr *b = cidr_parse(bad[i], err, sizeof err);
		check_true(name, !b && strstr(err, "is not an address") != NULL);
	}
	return check_done();
}
