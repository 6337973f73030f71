/* Unit tests of lib/site: registrable domains by the Public Suffix List.
 * Prints `ok - test_site: HOST` or `not ok - ...` per host and exits 1
 * when any failed. */
#include "site.h"

#define CHECK_PROG "test_site"
#include "check.h"

int
main(void)
{
	static const char *const cases[][2] = {
		{ "a.example.co.uk", "example.co.uk" },
		{ "b.a.example.co.uk", "example.co.uk" },
		{ "a.co.uk", "a.co.uk" },             /* a site of its own, not co.uk's */
		{ "co.uk", "co.uk" },                 /* a public suffix: itself */
		{ "www.example.com", "example.com" },
		{ "a.github.io", "a.github.io" },     /* the list's private section */
		{ "xn--bcher-kva.example", "xn--bcher-kva.example" },
		{ "localhost", "localhost" },
		{ "127.0.0.1", "127.0.0.1" },         /* addresses are no domains */
		{ "10.0.0.1", "10.0.0.1" },
		{ "[::1]", "[::1]" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char name[128];
		snprintf(name, sizeof name, "%s is %s", cases[i][0], cases[i][1]);
		check_str(name, cases[i][1], site_of(cases[i][0]));
	}
	return check_done();
}
