/* Unit tests of lib/chunked: RFC 9112 7.1's chunked coding undone in
 * place, whole, cut short and malformed. */
#include "chunked.h"

#include <stdlib.h>

#define CHECK_PROG "test_chunked"
#include "check.h"

/* Decodes s, returning the result as a string; *whole as decoded. */
static const char *
dec(const char *s, int *whole)
{
	static char buf[256];
	size_t n = strlen(s);
	memcpy(buf, s, n);
	buf[chunked_decode(buf, n, whole)] = '\0';
	return buf;
}

int
main(void)
{
	int whole;
	check_str("two chunks and the last", "hello, world", dec("5\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n", &whole));
	check_int("... whole", 1, whole);
	check_str("hex sizes, either case", "0123456789abcdef0123456789",
		  dec("1a\r\n0123456789abcdef0123456789\r\n0\r\n\r\n", &whole));
	check_str("1A too", "0123456789abcdef0123456789",
		  dec("1A\r\n0123456789abcdef0123456789\r\n0\r\n\r\n", &whole));
	check_str("chunk extensions dropped", "abc", dec("3;name=value\r\nabc\r\n0;x\r\n\r\n", &whole));
	check_str("trailers dropped", "abc", dec("3\r\nabc\r\n0\r\nExpires: never\r\n\r\n", &whole));
	check_int("... whole", 1, whole);
	check_str("bare LF line ends", "abcde", dec("3\nabc\n2\nde\n0\n\n", &whole));
	check_str("cut inside a chunk: what came", "hel", dec("5\r\nhel", &whole));
	check_int("... not whole", 0, whole);
	check_str("cut before the last chunk", "hello", dec("5\r\nhello\r\n", &whole));
	check_int("... not whole", 0, whole);
	check_str("a malformed size line: what came before", "abc", dec("3\r\nabc\r\nzz\r\nde\r\n0\r\n\r\n", &whole));
	check_int("... not whole", 0, whole);
	check_str("a size no chunk has: stops", "", dec("ffffffffffffffffff\r\nx\r\n", &whole));
	check_str("empty body: nothing", "", dec("", &whole));
	check_str("only the last chunk", "", dec("0\r\n\r\n", &whole));
	check_int("... whole", 1, whole);
	return check_done();
}
