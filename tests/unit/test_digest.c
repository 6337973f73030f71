/* Unit tests of lib/digest: RFC 4648's base32 vectors, and the labels
 * WARC and WACZ write, against values other tools print (sha1sum and
 * sha256sum of the same bytes; the empty payload's digest as every
 * WARC of Common Crawl carries it). */
#include "digest.h"

#define CHECK_PROG "test_digest"
#include "check.h"

static const char *
b32(const char *s)
{
	static char out[64];
	digest_base32((const unsigned char *)s, strlen(s), out);
	return out;
}

int
main(void)
{
	/* RFC 4648, section 10. */
	check_str("base32 of nothing", "", b32(""));
	check_str("base32 f", "MY======", b32("f"));
	check_str("base32 fo", "MZXQ====", b32("fo"));
	check_str("base32 foo", "MZXW6===", b32("foo"));
	check_str("base32 foob", "MZXW6YQ=", b32("foob"));
	check_str("base32 fooba", "MZXW6YTB", b32("fooba"));
	check_str("base32 foobar", "MZXW6YTBOI======", b32("foobar"));

	char out[DIGEST_LABEL_SIZE];
	digest_of(DIGEST_SHA1, "", 0, out);
	check_str("sha1 of the empty payload, as WARCs carry it", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", out);
	/* printf abc | sha1sum: a9993e364706816aba3e25717850c26c9cd0d89d */
	digest_of(DIGEST_SHA1, "abc", 3, out);
	check_str("sha1 of abc in base32", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5", out);
	digest_of(DIGEST_SHA256, "abc", 3, out);
	check_str("sha256 of abc in hex",
		  "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", out);

	digest *d = digest_new(DIGEST_SHA1);
	digest_update(d, "a", 1);
	digest_update(d, "bc", 2);
	digest_final(d, out);
	check_str("in parts, the same", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5", out);
	digest_final(d, out);
	check_str("final starts again, empty", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", out);
	digest_free(d);
	return check_done();
}
