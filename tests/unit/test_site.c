/* Unit tests of lib/site: registrable domains by the Public Suffix List.
 * Prints `ok - test_site: HOST` or `not ok - ...` per host and exits 1
 * when any failed. */
#include "site.h"

#include <stdio.h>
#include <string.h>

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
	int failed = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = site_of(cases[i][0]);
		int ok = strcmp(got, cases[i][1]) == 0;
		printf("%sok - test_site: %s is %s\n", ok ? "" : "not ", cases[i][0], cases[i][1]);
		if (!ok) {
			printf("#   got %s\n", got);
			failed++;
		}
	}
	return failed != 0;
}
