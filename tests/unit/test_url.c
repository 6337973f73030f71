/* Unit tests of lib/url's url_shown: how a URL or a postgresql:// URI is
 * shown in records and messages, its passwords as ***. */
#include <stdlib.h>

#include "url.h"

#define CHECK_PROG "test_url"
#include "check.h"

int
main(void)
{
	static const struct { const char *in, *out; } cases[] = {
		/* nothing to hide: NULL, the URL is shown as it is */
		{ "http://example.com/a?b=c", NULL },
		{ "http://user@example.com/", NULL },
		{ "not a url", NULL },
		{ "http://example.com/p@th:x", NULL },
		{ "https://example.com/?password=x", NULL },   /* a web page's query is its identity */
		/* user:pass@ */
		{ "http://u:secret@example.com/a", "http://u:***@example.com/a" },
		{ "http://u:@example.com/", "http://u:***@example.com/" },
		{ "http://u:p@ss@example.com/", "http://u:***@example.com/" },
		{ "postgresql://sluice:pw@db:5432/crawl", "postgresql://sluice:***@db:5432/crawl" },
		/* libpq's password= parameter */
		{ "postgresql://db/crawl?password=pw", "postgresql://db/crawl?password=***" },
		{ "postgres://db/crawl?sslmode=require&password=pw&user=u",
		  "postgres://db/crawl?sslmode=require&password=***&user=u" },
		{ "POSTGRESQL://db/crawl?PASSWORD=pw", "POSTGRESQL://db/crawl?PASSWORD=***" },
		{ "postgresql://u:a@db/c?password=b", "postgresql://u:***@db/c?password=***" },
		{ "postgresql://db/c?mypassword=x", NULL },
		/* libpq's keyword form */
		{ "host=db password=hunter2", "host=db password=***" },
		{ "password = 'a \\' b' host=db", "password = *** host=db" },
		{ "host=db PASSWORD=x user=u password=y", "host=db PASSWORD=*** user=u password=***" },
		{ "host=db mypassword=x passwords=y", NULL },
		{ "host=db password=", "host=db password=***" },
		{ "pages.db", NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *s = url_shown(cases[i].in);
		check_str(cases[i].in, cases[i].out ? cases[i].out : "(null)", s ? s : "(null)");
		free(s);
	}
	return check_done();
}
