/* Unit tests of lib/wurl: an in-tree subset of the WHATWG URL standard's
 * cases (web-platform-tests' urltestdata.json, which scripts/conform-url
 * runs in full when a copy is at hand).  Each expected href is what the
 * standard's basic URL parser and serializer give, less the fragment. */
#include "wurl.h"

#define CHECK_PROG "test_wurl"
#include "check.h"

/* The href wurl_parse gives s against base (NULL: none), "FAIL" or
 * "OTHER"; buf holds it. */
static const char *
parse(const char *s, const char *base, char *buf, size_t size)
{
	wurl b, u;
	const char *why = NULL;
	if (base && wurl_parse(base, strlen(base), NULL, &b, &why) != WURL_OK)
		return "bad base";
	int rc = wurl_parse(s, strlen(s), base ? &b : NULL, &u, &why);
	if (base)
		wurl_free(&b);
	if (rc == WURL_OK) {
		snprintf(buf, size, "%s", u.href);
		int cut = u.len == strlen(u.href) && u.host <= u.host_end && u.host_end <= u.path &&
			  u.path <= u.query && u.query <= u.len;
		wurl_free(&u);
		return cut ? buf : "bad offsets";
	}
	if (!why || !*why)
		return "no reason";
	return rc == WURL_OTHER ? "OTHER" : "FAIL";
}

int
main(void)
{
	static const char B[] = "http://example.org/foo/bar";
	static const struct { const char *in, *base, *href; } cases[] = {
		/* Scheme and host case; an empty path is "/". */
		{ "HTTP://EXAMPLE.COM", NULL, "http://example.com/" },
		{ "  http://example.com/a\tb\nc  ", NULL, "http://example.com/abc" },
		/* Relative references. */
		{ "baz", B, "http://example.org/foo/baz" },
		{ "../baz", B, "http://example.org/baz" },
		{ "../../../baz", B, "http://example.org/baz" },
		{ "/baz?q", B, "http://example.org/baz?q" },
		{ "?q", B, "http://example.org/foo/bar?q" },
		{ "", B, "http://example.org/foo/bar" },
		{ "#frag", B, "http://example.org/foo/bar" },
		{ "./", "http://example.org/foo/bar?q", "http://example.org/foo/" },
		{ "?x", "http://example.org/foo/bar?q", "http://example.org/foo/bar?x" },
		{ "baz", NULL, "FAIL" },                       /* no base */
		/* Scheme-relative, and the special schemes' oddities. */
		{ "//other.net/x", B, "http://other.net/x" },
		{ "//other.net/x", "https://example.org/", "https://other.net/x" },
		{ "http:foo.com", B, "http://example.org/foo/foo.com" },
		{ "https:foo.com", B, "https://foo.com/" },
		{ "http:///example.com/", NULL, "http://example.com/" },
		{ "\\\\server\\file", B, "http://server/file" },
		{ "http:\\\\www.google.com\\foo", NULL, "http://www.google.com/foo" },
		/* Dot segments, %2e among them. */
		{ "http://example.com/a/./b/../c", NULL, "http://example.com/a/c" },
		{ "http://example.com/foo/%2e%2E/bar", NULL, "http://example.com/bar" },
		{ "http://example.com/foo/%2e", NULL, "http://example.com/foo/" },
		{ "http://example.com/foo/%2e%2", NULL, "http://example.com/foo/%2e%2" },
		{ "http://example.com/foo/bar//..", NULL, "http://example.com/foo/bar/" },
		{ "http://example.com/foo/bar//../..", NULL, "http://example.com/foo/" },
		{ "http://example.com/..", NULL, "http://example.com/" },
		/* IPv4: decimal, octal, hex, short, and percent-encoded. */
		{ "http://3232235521/", NULL, "http://192.168.0.1/" },
		{ "http://0300.0250.0.1/", NULL, "http://192.168.0.1/" },
		{ "http://0x7f.1/", NULL, "http://127.0.0.1/" },
		{ "http://192.168.1/", NULL, "http://192.168.0.1/" },
		{ "http://%30%78%63%30%2e%30%32%35%30.01", NULL, "http://192.168.0.1/" },
		{ "http://192.168.0.257", NULL, "FAIL" },
		{ "http://0x100000000/", NULL, "FAIL" },
		{ "http://1.2.3.4.5", NULL, "FAIL" },
		{ "http://foo.09", NULL, "FAIL" },
		/* IPv6: the first longest run of two or more zeros compressed. */
		{ "http://[0:0:0:0:0:0:0:1]", NULL, "http://[::1]/" },
		{ "http://[1:0::]", NULL, "http://[1::]/" },
		{ "http://[2001:DB8:0:0:1:0:0:1]", NULL, "http://[2001:db8::1:0:0:1]/" },
		{ "http://[1:2:3:4:5:6:0:8]", NULL, "http://[1:2:3:4:5:6:0:8]/" },
		{ "http://[::ffff:192.168.0.1]", NULL, "http://[::ffff:c0a8:1]/" },
		{ "http://[::1", NULL, "FAIL" },
		{ "http://[1::2::3]", NULL, "FAIL" },
		/* Ports: the default dropped, others kept, bad ones failed. */
		{ "http://example.com:80/", NULL, "http://example.com/" },
		{ "http://example.com:0080/", NULL, "http://example.com/" },
		{ "https://example.com:443/", NULL, "https://example.com/" },
		{ "http://example.com:443/", NULL, "http://example.com:443/" },
		{ "http://example.com:/", NULL, "http://example.com/" },
		{ "http://example.com:65535", NULL, "http://example.com:65535/" },
		{ "http://example.com:65536", NULL, "FAIL" },
		{ "http://example.com:8a/", NULL, "FAIL" },
		{ "http://[::1]:x/", NULL, "FAIL" },
		/* Percent-encode sets: path, special query, userinfo. */
		{ "http://example.com/a b\"<>`{}|", NULL, "http://example.com/a%20b%22%3C%3E%60%7B%7D|" },
		{ "http://example.com/?a b\"'<>`", NULL, "http://example.com/?a%20b%22%27%3C%3E`" },
		{ "http://example.com/\xc3\xa9?\xc3\xa9", NULL, "http://example.com/%C3%A9?%C3%A9" },
		{ "http://example.com/%41%zz", NULL, "http://example.com/%41%zz" },
		{ "http://us er:p@ss@example.com/", NULL, "http://us%20er:p%40ss@example.com/" },
		{ "http://a;b:c=d@example.com/", NULL, "http://a%3Bb:c%3Dd@example.com/" },
		{ "http://user:@example.com/", NULL, "http://user@example.com/" },
		{ "http://:@example.com/", NULL, "http://example.com/" },
		/* Hosts: IDNA (UTS #46 non-transitional) to punycode. */
		{ "http://B\xc3\xbc" "cher.example/", NULL, "http://xn--bcher-kva.example/" },
		{ "http://fa\xc3\x9f.de/", NULL, "http://xn--fa-hia.de/" },
		{ "http://\xef\xbc\xa5\xef\xbc\xb8.com/", NULL, "http://ex.com/" },  /* full-width */
		{ "http://%41.com/", NULL, "http://a.com/" },
		{ "http://example.com./", NULL, "http://example.com./" },
		{ "http://exa mple.com/", NULL, "FAIL" },
		{ "http://a<b/", NULL, "FAIL" },
		{ "http://ex%00ample/", NULL, "FAIL" },
		{ "http://", NULL, "FAIL" },
		{ "http://user@/", NULL, "FAIL" },
		{ "http://\xff.com/", NULL, "FAIL" },                              /* not UTF-8 */
		/* Other schemes are the caller's. */
		{ "javascript:alert(1)", B, "OTHER" },
		{ "mailto:a@b.c", NULL, "OTHER" },
		{ "ftp://example.com/", B, "OTHER" },
	};
	char buf[256];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char name[256];
		snprintf(name, sizeof name, "'%s'%s%s", cases[i].in, cases[i].base ? " against " : "",
			 cases[i].base ? cases[i].base : "");
		for (char *c = name; *c; c++)                   /* one line each */
			if ((unsigned char)*c < 0x20)
				*c = '?';
		check_str(name, cases[i].href, parse(cases[i].in, cases[i].base, buf, sizeof buf));
	}

	/* The offsets cut the href into its parts. */
	wurl u;
	const char *why;
	static const char s[] = "http://u@example.com:8080/p?q#f";
	if (check_int("parse for offsets", WURL_OK, wurl_parse(s, sizeof s - 1, NULL, &u, &why))) {
		check_str("offsets: href", "http://u@example.com:8080/p?q", u.href);
		check_int("offsets: len", 29, (long long)u.len);
		check_int("offsets: host", 9, (long long)u.host);
		check_int("offsets: host_end", 20, (long long)u.host_end);
		check_int("offsets: path", 25, (long long)u.path);
		check_int("offsets: query", 27, (long long)u.query);
		wurl_free(&u);
	}
	static const char t[] = "https://[::1]/";
	if (check_int("parse without query", WURL_OK, wurl_parse(t, sizeof t - 1, NULL, &u, &why))) {
		check_int("no query: query is len", (long long)u.len, (long long)u.query);
		check_int("IPv6 host starts at its '['", 8, (long long)u.host);
		check_int("IPv6 host ends after its ']'", 13, (long long)u.host_end);
		wurl_free(&u);
	}
	/* On failure *u is untouched and *why says why. */
	u = (wurl){ .href = "sentinel" };
	why = NULL;
	check_int("bad port fails", WURL_FAIL, wurl_parse("http://a:99999/", 15, NULL, &u, &why));
	check_str("*u untouched on failure", "sentinel", u.href);
	check_true("a reason on failure", why && *why);
	return check_done();
}
