/* Unit tests of lib/rec: reading, building, writing and JSON rendering of
 * the record stream.  Prints `ok - test_rec: NAME` or `not ok - test_rec:
 * NAME` per check and exits 1 when any failed.
 *
 * Streams reach rec_in through real pipes: a forked child writes the bytes
 * (so streams larger than the pipe buffer work) and the parent reads. */
#include "rec.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int failed;

static void
check(const char *name, int cond, const char *fmt, ...)
{
	printf("%sok - test_rec: %s\n", cond ? "" : "not ", name);
	if (!cond) {
		failed++;
		if (fmt) {
			va_list ap;
			va_start(ap, fmt);
			printf("#   ");
			vprintf(fmt, ap);
			printf("\n");
			va_end(ap);
		}
	}
	fflush(stdout);
}

/* ---- helpers -------------------------------------------------------- */

static pid_t child;

static void
write_all(int fd, const void *p, size_t n)
{
	const char *s = p;
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			_exit(1);
		s += w, n -= (size_t)w;
	}
}

/* A read fd that yields exactly p[0..n) then end of file. */
static int
feed(const void *p, size_t n)
{
	int fds[2];
	if (pipe(fds) < 0) {
		perror("pipe");
		exit(2);
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("fork");
		exit(2);
	}
	if (child == 0) {
		close(fds[0]);
		write_all(fds[1], p, n);
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

/* Ends a feed: closes fd and reaps the writer. */
static void
unfeed(int fd)
{
	close(fd);
	if (child > 0)
		waitpid(child, NULL, 0);
	child = 0;
}

static void
pk_str(msgpack_packer *pk, const char *s)
{
	msgpack_pack_str(pk, strlen(s));
	msgpack_pack_str_body(pk, s, strlen(s));
}

/* Reads every record of a stream; returns the number of REC_OK before
 * the final code, which goes to *last. */
static int
drain(rec_in *r, int *last)
{
	msgpack_object o;
	int n = 0, rc;
	while ((rc = rec_in_next(r, &o)) == REC_OK)
		n++;
	*last = rc;
	return n;
}

/* The record reading of p[0..n) ends with, after *good records. */
static int
read_stream(const void *p, size_t n, size_t max, int *good, char *err, size_t errlen,
	    uint64_t *offset)
{
	int fd = feed(p, n);
	rec_in r;
	rec_in_init(&r, fd, max);
	int rc;
	*good = drain(&r, &rc);
	snprintf(err, errlen, "%s", r.err);
	if (offset)
		*offset = r.offset;
	rec_in_free(&r);
	unfeed(fd);
	return rc;
}

/* ---- reading ------------------------------------------------------------ */

static void
test_round_trip(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		exit(2);
	rec_build b;
	rec_build_init(&b);
	rec_put_str(&b, "url", "http://example.com/");
	rec_put_strn(&b, "nul", "a\0b", 3);
	static const unsigned char bin[] = { 0, 1, 2, 0xff, 0x80 };
	rec_put_bin(&b, "body", bin, sizeof bin);
	rec_put_int(&b, "status", 200);
	rec_put_int(&b, "neg", -1234567890123LL);
	rec_put_int(&b, "big", INT64_MAX);
	rec_put_double(&b, "fetched_at", 1700000000.25);
	rec_put_double(&b, "ratio", -3.75);
	rec_put_bool(&b, "yes", 1);
	rec_put_bool(&b, "no", 0);
	msgpack_pack_nil(rec_key(&b, "nothing"));
	msgpack_packer *pk = rec_key(&b, "fields");
	msgpack_pack_map(pk, 2);
	pk_str(pk, "price");
	msgpack_pack_double(pk, 9.5);
	pk_str(pk, "name");
	pk_str(pk, "widget");
	pk = rec_key(&b, "links");
	msgpack_pack_array(pk, 2);
	pk_str(pk, "http://a/");
	pk_str(pk, "http://b/");
	rec_put_str(&b, "empty", "");

	rec_out o;
	rec_out_init(&o, fds[1], 0);
	int wrc = rec_out_build(&o, &b, NULL, NULL);
	size_t bytes = o.buf.size;
	wrc |= rec_out_flush(&o);
	check("round trip: write", wrc == 0 && o.buf.size == 0, NULL);
	rec_out_free(&o);
	close(fds[1]);

	rec_in r;
	rec_in_init(&r, fds[0], 0);
	msgpack_object m;
	int rc = rec_in_next(&r, &m);
	check("round trip: read", rc == REC_OK, "rc %d err %s", rc, r.err);
	if (rc == REC_OK) {
		const char *s;
		size_t n;
		int64_t i;
		double d;
		check("round trip: 14 keys", m.via.map.size == 14, "size %u", m.via.map.size);
		check("round trip: str", rec_str(&m, "url", &s, &n) && n == 19 &&
		      memcmp(s, "http://example.com/", n) == 0, NULL);
		check("round trip: str with nul", rec_str(&m, "nul", &s, &n) && n == 3 &&
		      memcmp(s, "a\0b", 3) == 0, NULL);
		const msgpack_object *v = rec_get(&m, "body");
		check("round trip: bin", v && v->type == MSGPACK_OBJECT_BIN &&
		      v->via.bin.size == sizeof bin && memcmp(v->via.bin.ptr, bin, sizeof bin) == 0, NULL);
		check("round trip: rec_str reads bin", rec_str(&m, "body", &s, &n) && n == sizeof bin, NULL);
		check("round trip: int", rec_int(&m, "status", &i) && i == 200, NULL);
		check("round trip: negative int", rec_int(&m, "neg", &i) && i == -1234567890123LL, NULL);
		check("round trip: int64 max", rec_int(&m, "big", &i) && i == INT64_MAX, NULL);
		check("round trip: double", rec_double(&m, "fetched_at", &d) && d == 1700000000.25, NULL);
		check("round trip: int as double", rec_double(&m, "status", &d) && d == 200.0, NULL);
		check("round trip: double as int truncates", rec_int(&m, "ratio", &i) && i == -3, NULL);
		check("round trip: int of a map is absent", rec_int(&m, "fields", &i) == 0, NULL);
		v = rec_get(&m, "yes");
		check("round trip: true", v && v->type == MSGPACK_OBJECT_BOOLEAN && v->via.boolean, NULL);
		v = rec_get(&m, "no");
		check("round trip: false", v && v->type == MSGPACK_OBJECT_BOOLEAN && !v->via.boolean, NULL);
		v = rec_get(&m, "nothing");
		check("round trip: nil", v && v->type == MSGPACK_OBJECT_NIL, NULL);
		v = rec_path(&m, "fields.price");
		check("round trip: nested map by path", v && v->type == MSGPACK_OBJECT_FLOAT64 &&
		      v->via.f64 == 9.5, NULL);
		check("round trip: rec_eq on nested", rec_eq(rec_path(&m, "fields.name"), "widget"), NULL);
		check("round trip: missing path", rec_path(&m, "fields.nope") == NULL &&
		      rec_path(&m, "url.x") == NULL, NULL);
		v = rec_get(&m, "links");
		check("round trip: array", v && v->type == MSGPACK_OBJECT_ARRAY && v->via.array.size == 2 &&
		      rec_eq(&v->via.array.ptr[1], "http://b/"), NULL);
		char *dup = rec_strdup(&m, "url");
		check("round trip: strdup", dup && strcmp(dup, "http://example.com/") == 0, NULL);
		free(dup);
		check("round trip: strdup of a non-string", rec_strdup(&m, "status") == NULL, NULL);
		check("round trip: wrong type", !rec_str(&m, "status", &s, &n) && !rec_int(&m, "url", &i), NULL);
		check("round trip: empty values", rec_empty(rec_get(&m, "empty")) && rec_empty(rec_get(&m, "no")) &&
		      rec_empty(rec_get(&m, "nothing")) && rec_empty(rec_get(&m, "absent")) &&
		      !rec_empty(rec_get(&m, "status")) && !rec_empty(rec_get(&m, "links")), NULL);
		check("round trip: offset counts the record", r.offset == bytes, "offset %llu, wrote %zu",
		      (unsigned long long)r.offset, bytes);
	}
	rc = rec_in_next(&r, &m);
	check("round trip: then a clean end", rc == REC_EOF, "rc %d", rc);
	rec_in_free(&r);
	close(fds[0]);
	rec_build_free(&b);
}

/* 3000 records of ~300 bytes: crosses rec_out's 64 KiB flushes and
 * rec_in's 64 KiB reads, so records straddle reads. */
static void
test_back_to_back(void)
{
	enum { N = 3000 };
	int fds[2];
	if (pipe(fds) < 0)
		exit(2);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		rec_build b;
		rec_out o;
		rec_build_init(&b);
		rec_out_init(&o, fds[1], 0);
		char pad[300];
		for (int i = 0; i < N; i++) {
			rec_build_reset(&b);
			rec_put_int(&b, "i", i);
			memset(pad, 'a' + i % 26, sizeof pad);
			rec_put_strn(&b, "pad", pad, (size_t)(i % 300));
			if (rec_out_build(&o, &b, NULL, NULL) < 0)
				_exit(1);
		}
		_exit(rec_out_flush(&o) < 0);
	}
	close(fds[1]);
	rec_in r;
	rec_in_init(&r, fds[0], 0);
	msgpack_object m;
	int n = 0, inorder = 1, rc;
	while ((rc = rec_in_next(&r, &m)) == REC_OK) {
		int64_t i;
		const char *s;
		size_t len;
		if (!rec_int(&m, "i", &i) || i != n || !rec_str(&m, "pad", &s, &len) ||
		    len != (size_t)(n % 300) || (len && s[len - 1] != 'a' + n % 26))
			inorder = 0;
		n++;
	}
	check("back to back: every record", n == N, "read %d", n);
	check("back to back: in order, intact", inorder, NULL);
	check("back to back: clean end", rc == REC_EOF, "rc %d err %s", rc, r.err);
	rec_in_free(&r);
	close(fds[0]);
	int st;
	waitpid(pid, &st, 0);
	check("back to back: writer ok", WIFEXITED(st) && WEXITSTATUS(st) == 0, NULL);
}

static void
pack_small(msgpack_packer *pk, int i)
{
	msgpack_pack_map(pk, 2);
	pk_str(pk, "i");
	msgpack_pack_int(pk, i);
	pk_str(pk, "s");
	pk_str(pk, "some text here");
}

static void
test_truncated(void)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	for (int i = 0; i < 3; i++)
		pack_small(&pk, i);
	size_t good = sb.size;
	pack_small(&pk, 3);
	size_t cut = good + (sb.size - good) / 2;
	int n;
	char err[200], want[64];
	uint64_t off;
	int rc = read_stream(sb.data, cut, 0, &n, err, sizeof err, &off);
	check("truncated: good records first", n == 3, "got %d", n);
	check("truncated: REC_ERR", rc == REC_ERR, "rc %d", rc);
	check("truncated: says truncated", strstr(err, "truncated") != NULL, "err: %s", err);
	snprintf(want, sizeof want, "at byte %zu:", good);
	check("truncated: names the offset", strstr(err, want) != NULL, "err: %s, want %s", err, want);
	check("truncated: offset stops at the bad record", off == good, "offset %llu", (unsigned long long)off);

	/* Cut inside a header: a str8 length byte missing. */
	sb.size = good;
	msgpack_pack_map(&pk, 1);
	sb.data[sb.size++] = (char)0xd9;
	rc = read_stream(sb.data, sb.size, 0, &n, err, sizeof err, NULL);
	check("truncated: inside a header", n == 3 && rc == REC_ERR && strstr(err, "truncated"), "n %d rc %d err %s", n, rc, err);

	/* Empty input is a clean end, not an error. */
	rc = read_stream("", 0, 0, &n, err, sizeof err, NULL);
	check("empty stream: clean end", rc == REC_EOF && n == 0, "rc %d", rc);
	msgpack_sbuffer_destroy(&sb);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
test_random(void)
{
	enum { N = 100000 };
	unsigned char *p = malloc(N);
	for (size_t i = 0; i < N; i++)
		p[i] = (unsigned char)xorshift();
	int n;
	char err[200];
	int rc = read_stream(p, N, 0, &n, err, sizeof err, NULL);
	check("random bytes: REC_ERR", rc == REC_ERR, "rc %d after %d records", rc, n);
	check("random bytes: err names a byte", strstr(err, "at byte ") != NULL, "err: %s", err);

	/* Random bytes after a valid map start, many seeds: never a crash,
	 * always one of the documented outcomes. */
	int bad = 0;
	for (int seed = 0; seed < 200; seed++) {
		size_t len = 1 + xorshift() % 4096;
		for (size_t i = 0; i < len; i++)
			p[i] = (unsigned char)xorshift();
		p[0] = (unsigned char)(0x80 | (xorshift() & 0x0f));
		if (seed % 3 == 0)
			p[0] = 0xde;
		rc = read_stream(p, len, 1 << 16, &n, err, sizeof err, NULL);
		if (rc != REC_ERR && rc != REC_EOF)
			bad++;
		if (rc == REC_ERR && strncmp(err, "malformed record at byte ", 25) != 0)
			bad++;
	}
	check("random map-like streams: clean errors", bad == 0, "%d bad", bad);
	free(p);
}

static void
test_huge_claim(void)
{
	/* map32 claiming 4e9 pairs, followed by 8 KiB of small pairs. */
	size_t n = 5 + 8192;
	unsigned char *p = malloc(n);
	p[0] = 0xdf;
	p[1] = 0xee, p[2] = 0x6b, p[3] = 0x28, p[4] = 0x00;
	memset(p + 5, 0x01, n - 5);
	int good;
	char err[200];
	int rc = read_stream(p, n, 1024, &good, err, sizeof err, NULL);
	check("map32 of 4e9 entries: REC_ERR", rc == REC_ERR && good == 0, "rc %d", rc);
	check("map32 of 4e9 entries: larger than", strstr(err, "larger than 1024") != NULL, "err: %s", err);

	/* The same claim in a short stream: truncated, not an allocation. */
	rc = read_stream(p, 64, 1024, &good, err, sizeof err, NULL);
	check("map32 claim in a short stream: truncated", rc == REC_ERR && strstr(err, "truncated"), "err: %s", err);

	/* str32 claiming 4 GiB inside a map. */
	unsigned char s[] = { 0x81, 0xa1, 'k', 0xdb, 0xff, 0xff, 0xff, 0xff, 'x', 'x' };
	rc = read_stream(s, sizeof s, 1024, &good, err, sizeof err, NULL);
	check("str32 of 4 GiB: REC_ERR", rc == REC_ERR, "rc %d", rc);

	/* A complete record just over the limit. */
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 1);
	pk_str(&pk, "k");
	msgpack_pack_str(&pk, 2000);
	char body[2000];
	memset(body, 'y', sizeof body);
	msgpack_pack_str_body(&pk, body, sizeof body);
	rc = read_stream(sb.data, sb.size, 1024, &good, err, sizeof err, NULL);
	check("complete record over max_record: larger than", rc == REC_ERR &&
	      strstr(err, "larger than 1024"), "err: %s", err);
	rc = read_stream(sb.data, sb.size, sb.size, &good, err, sizeof err, NULL);
	check("record of exactly max_record: accepted", rc == REC_EOF && good == 1, "rc %d err %s", rc, err);
	msgpack_sbuffer_destroy(&sb);
	free(p);
}

/* Records of every header kind, fed one byte per read: the scan resumes
 * mid-header and mid-string and still returns each record whole, with
 * its bytes unchanged. */
static void
test_resume(void)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	char big[70000];
	memset(big, 'z', sizeof big);
	size_t ends[4];
	msgpack_pack_map(&pk, 3);
	pk_str(&pk, "s8"), msgpack_pack_str(&pk, 200), msgpack_pack_str_body(&pk, big, 200);
	pk_str(&pk, "b16"), msgpack_pack_bin(&pk, 1000), msgpack_pack_bin_body(&pk, big, 1000);
	pk_str(&pk, "a"), msgpack_pack_array(&pk, 20);
	for (int i = 0; i < 20; i++)
		msgpack_pack_int64(&pk, (int64_t)i << (i * 3 % 60));
	ends[0] = sb.size;
	msgpack_pack_map(&pk, 2);
	pk_str(&pk, "s32"), msgpack_pack_str(&pk, sizeof big), msgpack_pack_str_body(&pk, big, sizeof big);
	pk_str(&pk, "m"), msgpack_pack_map(&pk, 17);
	for (int i = 0; i < 17; i++)
		msgpack_pack_int(&pk, i), msgpack_pack_double(&pk, i / 4.0);
	ends[1] = sb.size;
	msgpack_pack_map(&pk, 1);
	pk_str(&pk, "e"), msgpack_pack_ext(&pk, 300, 7), msgpack_pack_ext_body(&pk, big, 300);
	ends[2] = sb.size;
	msgpack_pack_map(&pk, 0);
	ends[3] = sb.size;

	int fds[2];
	if (pipe(fds) < 0)
		exit(2);
	rec_in r;
	rec_in_init(&r, fds[0], 0);
	int got = 0, same = 1, rc = REC_NEED;
	size_t start = 0;
	for (size_t i = 0; i <= sb.size && rc != REC_ERR; i++) {
		if (i == sb.size)
			close(fds[1]);
		else
			write_all(fds[1], sb.data + i, 1);
		if (rec_in_fill(&r) < 0)
			break;
		msgpack_object o;
		while ((rc = rec_in_parse(&r, &o)) == REC_OK) {
			const char *raw;
			size_t n;
			rec_in_raw(&r, &raw, &n);
			same &= got < 4 && start + n == ends[got] &&
				memcmp(raw, sb.data + start, n) == 0 && i + 1 == ends[got];
			start += n;
			got++;
		}
	}
	check("one byte per read: every record whole, as soon as complete", got == 4 && same &&
	      rc == REC_EOF, "got %d same %d rc %d err %s", got, same, rc, r.err);
	rec_in_free(&r);
	close(fds[0]);
	msgpack_sbuffer_destroy(&sb);
}

/* A record of exactly REC_MIN_ELEMENTS elements passes; one more element
 * is refused by count, naming the record's offset. */
static void
test_elements(void)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	/* {"a": [0 x n]}: 3 elements plus n */
	msgpack_pack_map(&pk, 1), pk_str(&pk, "a"), msgpack_pack_array(&pk, REC_MIN_ELEMENTS - 3);
	for (int i = 0; i < REC_MIN_ELEMENTS - 3; i++)
		msgpack_pack_int(&pk, 0);
	size_t first = sb.size;
	msgpack_pack_map(&pk, 1), pk_str(&pk, "a"), msgpack_pack_array(&pk, REC_MIN_ELEMENTS - 2);
	for (int i = 0; i < REC_MIN_ELEMENTS - 2; i++)
		msgpack_pack_int(&pk, 0);
	int good;
	char err[200], want[100];
	int rc = read_stream(sb.data, sb.size, 1 << 20, &good, err, sizeof err, NULL);
	snprintf(want, sizeof want, "malformed record at byte %zu: more than %d elements",
		 first, REC_MIN_ELEMENTS);
	check("elements: the limit passes, one more is refused", good == 1 && rc == REC_ERR &&
	      strcmp(err, want) == 0, "good %d rc %d err %s", good, rc, err);
	/* With max_record 16 MiB the limit is 1 Mi elements: both pass. */
	rc = read_stream(sb.data, sb.size, 16 << 20, &good, err, sizeof err, NULL);
	check("elements: the limit grows with max_record", good == 2 && rc == REC_EOF,
	      "good %d rc %d err %s", good, rc, err);
	msgpack_sbuffer_destroy(&sb);
}

/* depth nested maps {"a":{"a":...nil}} */
static size_t
nested(unsigned char *p, int depth)
{
	size_t n = 0;
	for (int i = 0; i < depth; i++)
		p[n++] = 0x81, p[n++] = 0xa1, p[n++] = 'a';
	p[n++] = 0xc0;
	return n;
}

static void
test_nesting(void)
{
	unsigned char p[4096];
	int good;
	char err[200];
	size_t n = nested(p, REC_MAX_DEPTH);
	int rc = read_stream(p, n, 0, &good, err, sizeof err, NULL);
	check("nesting at REC_MAX_DEPTH: accepted", rc == REC_EOF && good == 1, "rc %d err %s", rc, err);
	n = nested(p, REC_MAX_DEPTH + 1);
	rc = read_stream(p, n, 0, &good, err, sizeof err, NULL);
	check("nesting past REC_MAX_DEPTH: REC_ERR nested", rc == REC_ERR && strstr(err, "nested"), "rc %d err %s", rc, err);
	/* A map of 1000 nested arrays, incomplete: refused before the end. */
	p[0] = 0x81, p[1] = 0xa1, p[2] = 'a';
	memset(p + 3, 0x91, 1000);
	rc = read_stream(p, 1003, 0, &good, err, sizeof err, NULL);
	check("deep arrays: REC_ERR nested", rc == REC_ERR && strstr(err, "nested"), "rc %d err %s", rc, err);
}

static void
test_not_map(void)
{
	static const struct {
		const char *name;
		unsigned char b[4];
		size_t n;
	} cases[] = {
		{ "not a map: fixint", { 0x01 }, 1 },
		{ "not a map: array", { 0x92, 0x01, 0x02 }, 3 },
		{ "not a map: string", { 0xa2, 'h', 'i' }, 3 },
		{ "not a map: nil", { 0xc0 }, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int good;
		char err[200];
		int rc = read_stream(cases[i].b, cases[i].n, 0, &good, err, sizeof err, NULL);
		check(cases[i].name, rc == REC_ERR && strstr(err, "not a map") &&
		      strstr(err, "at byte 0:"), "rc %d err %s", rc, err);
	}
	/* After a good record, the offset names the bad one. */
	unsigned char p[] = { 0x80, 0x81, 0xa1, 'k', 0x05, 0x07 };
	int good;
	char err[200];
	int rc = read_stream(p, sizeof p, 0, &good, err, sizeof err, NULL);
	check("not a map: after good records, at its offset", rc == REC_ERR && good == 2 &&
	      strstr(err, "at byte 5: not a map"), "good %d err %s", good, err);
	unsigned char c1[] = { 0x81, 0xa1, 'k', 0xc1 };
	rc = read_stream(c1, sizeof c1, 0, &good, err, sizeof err, NULL);
	check("0xc1 is invalid", rc == REC_ERR && strstr(err, "invalid"), "err %s", err);
}

/* ---- building ------------------------------------------------------------ */

/* Decodes the single map in sb into *o (zone z). */
static int
decode(const msgpack_sbuffer *sb, msgpack_zone *z, msgpack_object *o)
{
	size_t off = 0;
	return msgpack_unpack(sb->data, sb->size, &off, z, o) == MSGPACK_UNPACK_SUCCESS &&
	       off == sb->size && o->type == MSGPACK_OBJECT_MAP;
}

static int
key_count(const msgpack_object *m, const char *key)
{
	int n = 0;
	for (uint32_t i = 0; i < m->via.map.size; i++)
		n += rec_eq(&m->via.map.ptr[i].key, key);
	return n;
}

static void
test_pass_through(void)
{
	/* The input record. */
	msgpack_sbuffer in;
	msgpack_packer pk;
	msgpack_sbuffer_init(&in);
	msgpack_packer_init(&pk, &in, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 6);
	pk_str(&pk, "url"), pk_str(&pk, "http://x/");
	pk_str(&pk, "title"), pk_str(&pk, "old");
	pk_str(&pk, "body"), msgpack_pack_bin(&pk, 2), msgpack_pack_bin_body(&pk, "hi", 2);
	pk_str(&pk, "job"), msgpack_pack_int(&pk, 7);
	pk_str(&pk, "tags"), msgpack_pack_array(&pk, 2), pk_str(&pk, "a"), pk_str(&pk, "b");
	msgpack_pack_int(&pk, 42), pk_str(&pk, "non-string key");
	msgpack_zone zi;
	msgpack_zone_init(&zi, 1024);
	msgpack_object im;
	if (!decode(&in, &zi, &im)) {
		check("pass-through: input decodes", 0, NULL);
		return;
	}

	rec_build b;
	memset(&b, 0, sizeof b);
	rec_build_init(&b);
	rec_put_str(&b, "title", "new");
	rec_put_int(&b, "status", 200);
	check("pass-through: rec_has_key", rec_has_key(&b, "title") && rec_has_key(&b, "status") &&
	      !rec_has_key(&b, "url"), NULL);
	static const char *const drop[] = { "body", NULL };
	msgpack_sbuffer out;
	msgpack_sbuffer_init(&out);
	rec_build_finish(&b, &im, drop, &out);
	msgpack_zone z;
	msgpack_zone_init(&z, 1024);
	msgpack_object m;
	if (decode(&out, &z, &m)) {
		check("pass-through: exact key count", m.via.map.size == 6, "size %u", m.via.map.size);
		check("pass-through: put keys come first", rec_eq(&m.via.map.ptr[0].key, "title") &&
		      rec_eq(&m.via.map.ptr[1].key, "status"), NULL);
		check("pass-through: put replaces", key_count(&m, "title") == 1 &&
		      rec_eq(rec_get(&m, "title"), "new"), NULL);
		check("pass-through: dropped key gone", rec_get(&m, "body") == NULL, NULL);
		int64_t job;
		const msgpack_object *tags = rec_get(&m, "tags");
		check("pass-through: unknown keys kept", rec_eq(rec_get(&m, "url"), "http://x/") &&
		      rec_int(&m, "job", &job) && job == 7 && tags && tags->type == MSGPACK_OBJECT_ARRAY &&
		      tags->via.array.size == 2 && rec_eq(&tags->via.array.ptr[1], "b"), NULL);
		int found = 0;
		for (uint32_t i = 0; i < m.via.map.size; i++)
			found |= m.via.map.ptr[i].key.type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
				 m.via.map.ptr[i].key.via.u64 == 42;
		check("pass-through: non-string key kept", found, NULL);
	} else {
		check("pass-through: output decodes", 0, NULL);
	}

	/* No input: just the put keys. */
	out.size = 0;
	rec_build_finish(&b, NULL, NULL, &out);
	msgpack_zone_clear(&z);
	check("pass-through: NULL input", decode(&out, &z, &m) && m.via.map.size == 2, NULL);

	/* Nothing put after a reset: every input key passes, including those
	 * the previous record put. */
	rec_build_reset(&b);
	out.size = 0;
	rec_build_finish(&b, &im, NULL, &out);
	msgpack_zone_clear(&z);
	int okd = decode(&out, &z, &m);
	check("pass-through: nothing put keeps every input key", okd && m.via.map.size == 6 &&
	      rec_eq(rec_get(&m, "title"), "old") && rec_get(&m, "status") == NULL,
	      "size %u, title %s", okd ? m.via.map.size : 0,
	      okd && rec_get(&m, "title") ? "present" : "missing");

	/* Drop only, nothing put. */
	out.size = 0;
	rec_build_finish(&b, &im, drop, &out);
	msgpack_zone_clear(&z);
	okd = decode(&out, &z, &m);
	check("pass-through: drop with nothing put", okd && m.via.map.size == 5 &&
	      rec_get(&m, "body") == NULL && rec_eq(rec_get(&m, "title"), "old"),
	      "size %u", okd ? m.via.map.size : 0);

	/* rec_out_build in JSON mode through a pipe. */
	int fds[2];
	if (pipe(fds) < 0)
		exit(2);
	rec_build_reset(&b);
	rec_put_str(&b, "title", "new");
	rec_out o;
	rec_out_init(&o, fds[1], 1);
	int wrc = rec_out_build(&o, &b, &im, drop);
	wrc |= rec_out_build(&o, &b, NULL, NULL);
	/* The same again from the input's bytes, and from none. */
	wrc |= rec_out_pass(&o, &b, in.data, in.size, drop);
	wrc |= rec_out_pass(&o, &b, NULL, 0, drop);
	wrc |= rec_out_flush(&o);
	rec_out_free(&o);
	close(fds[1]);
	char buf[1024];
	ssize_t n = read(fds[0], buf, sizeof buf - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = 0;
	const char *want = "{\"title\":\"new\",\"url\":\"http://x/\",\"job\":7,\"tags\":[\"a\",\"b\"],"
			   "\"42\":\"non-string key\"}\n{\"title\":\"new\"}\n";
	size_t half = strlen(want);
	check("rec_out json lines", wrc == 0 && strncmp(buf, want, half) == 0, "got: %s", buf);
	check("rec_out_pass: the input's bytes pass through as rec_out_build's object",
	      strlen(buf) >= half && strcmp(buf + half, want) == 0, "got: %s", buf);

	rec_build_free(&b);
	msgpack_zone_destroy(&z);
	msgpack_zone_destroy(&zi);
	msgpack_sbuffer_destroy(&out);
	msgpack_sbuffer_destroy(&in);
}

/* ---- lines ----------------------------------------------------------------- */

/* rec_in_line with blocking fills. */
static int
next_line(rec_in *r, const char **line, size_t *len)
{
	for (;;) {
		int rc = rec_in_line(r, line, len);
		if (rc != REC_NEED)
			return rc;
		if (rec_in_fill(r) < 0)
			return REC_ERR;
	}
}

static void
test_lines(void)
{
	static const char text[] = "http://a/\r\nhttp://b/\n\n  spaced  \r\nlast";
	int fd = feed(text, sizeof text - 1);
	rec_in r;
	rec_in_init(&r, fd, 0);
	const char *want[] = { "http://a/", "http://b/", "", "  spaced  ", "last" };
	int good = 1, got = 0, rc;
	const char *line;
	size_t len;
	while ((rc = next_line(&r, &line, &len)) == REC_OK) {
		if (got >= 5 || len != strlen(want[got]) || memcmp(line, want[got], len) != 0) {
			good = 0;
			printf("#   line %d: '%.*s'\n", got, (int)len, line);
		}
		got++;
	}
	check("lines: CRLF, LF, empty, last without newline", good && got == 5, "got %d lines", got);
	check("lines: clean end", rc == REC_EOF, "rc %d", rc);
	check("lines: offset at the end", r.offset == sizeof text - 1, "offset %llu",
	      (unsigned long long)r.offset);
	rec_in_free(&r);
	unfeed(fd);

	/* A line of exactly REC_MAX_LINE bytes passes; one byte more fails. */
	size_t n = 2 * (size_t)REC_MAX_LINE + 64;
	char *p = malloc(n);
	memset(p, 'x', n);
	p[0] = 'a', p[1] = '\n';
	p[2 + REC_MAX_LINE] = '\n';
	fd = feed(p, n);
	rec_in_init(&r, fd, 0);
	rc = next_line(&r, &line, &len);
	int rc2 = next_line(&r, &line, &len);
	check("lines: REC_MAX_LINE bytes is fine", rc == REC_OK && rc2 == REC_OK && len == REC_MAX_LINE,
	      "rc %d %d len %zu", rc, rc2, len);
	rc = next_line(&r, &line, &len);
	check("lines: overlong line is REC_ERR", rc == REC_ERR && strstr(r.err, "longer than"),
	      "rc %d err %s", rc, r.err);
	char at[64];
	snprintf(at, sizeof at, "at byte %d ", 3 + REC_MAX_LINE);
	check("lines: overlong line names its offset", strstr(r.err, at) != NULL, "err %s", r.err);
	rec_in_free(&r);
	unfeed(fd);
	free(p);

	/* peek tells records from lines. */
	unsigned char mp[] = { 0x80 };
	fd = feed(mp, 1);
	rec_in_init(&r, fd, 0);
	rec_in_fill(&r);
	check("peek: a map start", rec_is_map_start(rec_in_peek(&r)) && !rec_is_map_start('h') &&
	      rec_is_map_start(0xde) && rec_is_map_start(0xdf) && !rec_is_map_start(0x90), NULL);
	rec_in_free(&r);
	unfeed(fd);
}

/* ---- JSON ----------------------------------------------------------------- */

static int
json_is(const char *name, const msgpack_sbuffer *packed, const char *want)
{
	msgpack_zone z;
	msgpack_object o;
	msgpack_zone_init(&z, 1024);
	size_t off = 0;
	int ok = msgpack_unpack(packed->data, packed->size, &off, &z, &o) == MSGPACK_UNPACK_SUCCESS;
	msgpack_sbuffer out;
	msgpack_sbuffer_init(&out);
	if (ok)
		rec_json(&o, &out);
	ok = ok && out.size == strlen(want) && memcmp(out.data, want, out.size) == 0;
	check(name, ok, "want %s got %.*s", want, (int)out.size, out.data ? out.data : "");
	msgpack_sbuffer_destroy(&out);
	msgpack_zone_destroy(&z);
	return ok;
}

/* Packs s as a str, or a bin when bin, and checks its JSON is want. */
static void
json_case(const char *name, int bin, const char *s, size_t n, const char *want)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	if (bin) {
		msgpack_pack_bin(&pk, n);
		msgpack_pack_bin_body(&pk, s, n);
	} else {
		msgpack_pack_str(&pk, n);
		msgpack_pack_str_body(&pk, s, n);
	}
	json_is(name, &sb, want);
	msgpack_sbuffer_destroy(&sb);
}

#define S(x) x, sizeof x - 1

static void
test_json(void)
{
	json_case("json: plain", 0, S("hello"), "\"hello\"");
	json_case("json: quote and backslash", 0, S("a\"b\\c"), "\"a\\\"b\\\\c\"");
	json_case("json: newline tab cr", 0, S("a\nb\tc\rd"), "\"a\\nb\\tc\\rd\"");
	json_case("json: control chars as \\u00XX", 0, S("\x01\x1f\b\f"), "\"\\u0001\\u001f\\u0008\\u000c\"");
	json_case("json: nul byte", 0, S("a\0b"), "\"a\\u0000b\"");
	json_case("json: DEL and slash pass", 0, S("\x7f/"), "\"\x7f/\"");
	json_case("json: valid utf-8 kept", 0, S("caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80"),
		      "\"caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80\"");
	json_case("json: invalid byte to U+FFFD", 0, S("a\xff" "b"), "\"a\xef\xbf\xbd" "b\"");
	json_case("json: lone continuation", 0, S("\x80"), "\"\xef\xbf\xbd\"");
	json_case("json: overlong", 0, S("\xc0\x80"), "\"\xef\xbf\xbd\xef\xbf\xbd\"");
	json_case("json: surrogate", 0, S("\xed\xa0\x80"),
		      "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	json_case("json: truncated sequence at end", 0, S("x\xe6\x97"),
		      "\"x\xef\xbf\xbd\xef\xbf\xbd\"");
	json_case("json: above U+10FFFF", 0, S("\xf4\x90\x80\x80"),
		      "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	json_case("json: empty string", 0, S(""), "\"\"");
	json_case("json: bin base64, padding 2", 1, S("\x00\x01\x02\x03"), "\"AAECAw==\"");
	json_case("json: bin base64, no padding", 1, S("foobar"), "\"Zm9vYmFy\"");
	json_case("json: bin base64, padding 1", 1, S("fo"), "\"Zm8=\"");
	json_case("json: bin base64, high bytes", 1, S("\xff\xfe\xfd"), "\"//79\"");
	json_case("json: empty bin", 1, S(""), "\"\"");

	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_array(&pk, 8);
	msgpack_pack_double(&pk, NAN);
	msgpack_pack_double(&pk, INFINITY);
	msgpack_pack_double(&pk, -INFINITY);
	msgpack_pack_double(&pk, 1.5);
	msgpack_pack_float(&pk, 0.25f);
	msgpack_pack_int64(&pk, -42);
	msgpack_pack_uint64(&pk, UINT64_MAX);
	msgpack_pack_nil(&pk);
	json_is("json: numbers, NaN and infinities as null", &sb,
		"[null,null,null,1.5,0.25,-42,18446744073709551615,null]");

	sb.size = 0;
	msgpack_pack_map(&pk, 4);
	pk_str(&pk, "a");
	msgpack_pack_array(&pk, 3);
	msgpack_pack_int(&pk, 1);
	msgpack_pack_true(&pk);
	msgpack_pack_map(&pk, 1);
	pk_str(&pk, "b\"q");
	msgpack_pack_false(&pk);
	pk_str(&pk, "e");
	msgpack_pack_map(&pk, 0);
	msgpack_pack_int(&pk, -3);
	msgpack_pack_array(&pk, 0);
	msgpack_pack_true(&pk);
	pk_str(&pk, "t");
	json_is("json: nested map and array, non-string keys", &sb,
		"{\"a\":[1,true,{\"b\\\"q\":false}],\"e\":{},\"-3\":[],\"true\":\"t\"}");

	sb.size = 0;
	msgpack_pack_map(&pk, 1);
	msgpack_pack_bin(&pk, 2);
	msgpack_pack_bin_body(&pk, "\x00\xff", 2);
	msgpack_pack_int(&pk, 1);
	json_is("json: bin key stringified", &sb, "{\"\\\"AP8=\\\"\":1}");

	/* {{{"\"": nil}: nil}: 1}: the key's text is rendered once, with
	 * the nested map key left unquoted, and escaped once. */
	sb.size = 0;
	msgpack_pack_map(&pk, 1);
	msgpack_pack_map(&pk, 1);
	msgpack_pack_map(&pk, 1);
	pk_str(&pk, "\"");
	msgpack_pack_nil(&pk);
	msgpack_pack_nil(&pk);
	msgpack_pack_int(&pk, 1);
	json_is("json: nested non-string keys escaped once", &sb,
		"{\"{{\\\"\\\\\\\"\\\":null}:null}\":1}");

	sb.size = 0;
	msgpack_pack_ext(&pk, 1, 5);
	msgpack_pack_ext_body(&pk, "\x01", 1);
	json_is("json: ext is null", &sb, "null");
	msgpack_sbuffer_destroy(&sb);
}

/* rec_not_modified of a map {not_modified: nm (1, 0, or -1 for a
 * string "true", -2 absent), status: status (-1 absent)}. */
static int
not_modified_of(int nm, int status)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, (nm != -2) + (status >= 0));
	if (nm != -2) {
		msgpack_pack_str_with_body(&pk, "not_modified", 12);
		if (nm == -1)
			msgpack_pack_str_with_body(&pk, "true", 4);
		else if (nm)
			msgpack_pack_true(&pk);
		else
			msgpack_pack_false(&pk);
	}
	if (status >= 0) {
		msgpack_pack_str_with_body(&pk, "status", 6);
		msgpack_pack_int(&pk, status);
	}
	msgpack_zone z;
	msgpack_zone_init(&z, 256);
	msgpack_object o;
	size_t off = 0;
	msgpack_unpack(sb.data, sb.size, &off, &z, &o);
	int r = rec_not_modified(&o);
	msgpack_zone_destroy(&z);
	msgpack_sbuffer_destroy(&sb);
	return r;
}

static void
test_not_modified(void)
{
	check("not_modified: true with status 304", not_modified_of(1, 304) == 1, NULL);
	check("not_modified: false, a string, or absent is not", !not_modified_of(0, 304) &&
	      !not_modified_of(-1, 304) && !not_modified_of(-2, 304), NULL);
	check("not_modified: true with another status, or none, is not",
	      !not_modified_of(1, 200) && !not_modified_of(1, -1), NULL);
}

/* A read that fails (a directory: EISDIR) is REC_IOERR, told apart from
 * a malformed stream without reading the message. */
static void
test_read_error(void)
{
	int fd = open(".", O_RDONLY);
	rec_in r;
	rec_in_init(&r, fd, 0);
	msgpack_object m;
	int rc = rec_in_next(&r, &m);
	check("read error: REC_IOERR", rc == REC_IOERR, "rc %d", rc);
	check("read error: the message names the offset",
	      strcmp(r.err, "read error at byte 0: Is a directory") == 0, "err %s", r.err);
	rec_in_free(&r);
	close(fd);
}

int
main(void)
{
	test_round_trip();
	test_back_to_back();
	test_truncated();
	test_random();
	test_huge_claim();
	test_resume();
	test_elements();
	test_nesting();
	test_not_map();
	test_pass_through();
	test_lines();
	test_json();
	test_not_modified();
	test_read_error();
	return failed ? 1 : 0;
}
