/* WARC reading (lib/warc.c: plain, gzip per record or whole; header
 * blocks, Content-Length, digests, WARC-Date), the HTTP answer a block
 * holds, its chunks and content coding (lib/chunked.c, lib/decode.c):
 * the input is a WARC file.  Each block must be as long as its record
 * says, and records must come in file order. */
#include "fuzz.h"

#include <stdlib.h>
#include <unistd.h>

#include "chunked.h"
#include "decode.h"
#include "warc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_fd(data, size);
	if (fd < 0)
		return 0;
	warc_reader *r = warc_open(fd, 1 << 16);
	warc_http h = { 0 };
	decoder d = { 0 };
	warc_record rec;
	uint64_t last = 0;
	for (int rc, i = 0; (rc = warc_next(r, &rec)) == WARC_OK; i++) {
		if (i && rec.offset <= last)
			abort();
		last = rec.offset;
		warc_date(warc_get(&rec, "WARC-Date"));
		if (!rec.block)
			continue;
		warc_digest_check(warc_get(&rec, "WARC-Block-Digest"), rec.block, rec.length);
		if (warc_http_parse(&h, rec.block, rec.length) != 0)
			continue;
		if (h.body < rec.block || h.body + h.body_len != rec.block + rec.length)
			abort();
		warc_digest_check(warc_get(&rec, "WARC-Payload-Digest"), h.body, h.body_len);
		int whole;
		size_t n = chunked_decode(h.body, h.body_len, &whole);
		const char *ce = warc_http_header(&h, "content-encoding"), *out;
		size_t out_len;
		if (ce && decode_body(&d, ce, h.body, n, 1 << 20, whole, &out, &out_len) == DECODE_OK &&
		    out_len > 1 << 20)
			abort();
	}
	warc_http_free(&h);
	decode_free(&d);
	warc_close(r);
	close(fd);
	return 0;
}
