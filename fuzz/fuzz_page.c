/* Charset detection + page extraction: the first line is the record's
 * Content-Type, the rest its body, through the code parse runs for every
 * HTML record: once with --markdown (of the body), once with --main
 * --markdown (of the main content). */
#include "fuzz.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "page.h"
#include "rec.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static page *p, *pm;
	static page_opts opts = { .markdown = 1 }, mopts = { .main = 1, .markdown = 1 };
	static rec_out out;
	static int devnull = -1;
	if (!p) {
		p = page_new(&opts);
		pm = page_new(&mopts);
		devnull = open("/dev/null", O_WRONLY);
		rec_out_init(&out, devnull, 0);
	}
	const char *d = (const char *)data;
	const char *nl = memchr(d, '\n', size);
	size_t clen = nl ? (size_t)(nl - d) : 0;
	size_t off = nl ? clen + 1 : 0;
	rec_build b;
	rec_build_init(&b);
	rec_put_str(&b, "url", "http://example.org/a/b.html");
	rec_put_strn(&b, "ctype", d, clen);
	rec_put_int(&b, "status", 200);
	rec_put_bin(&b, "body", d + off, size - off);
	msgpack_sbuffer raw;
	msgpack_zone z;
	msgpack_object in;
	fuzz_record(&b, &raw, &z, &in);
	page_process(p, raw.data, raw.size, &in, &out);
	page_process(pm, raw.data, raw.size, &in, &out);
	rec_out_flush(&out);
	msgpack_zone_destroy(&z);
	msgpack_sbuffer_destroy(&raw);
	rec_build_free(&b);
	return 0;
}
