#!/bin/sh
# render's binary outputs (screenshot, pdf: msgpack bin) stored by sink
# as BLOB / bytea columns, byte for byte, and not in the record JSON;
# written back out as files the way docs/sink.md shows.
. "${TESTS:-$(dirname "$0")}/lib.sh"
# Bytes of every value, NUL and 0xff included, as a PNG and a PDF start.
python3 -c "import sys; sys.stdout.buffer.write(b'\x89PNG\r\n\x1a\n' + bytes(range(256)) + b'\x00end')" >"$T/shot.png"
python3 -c "import sys; sys.stdout.buffer.write(b'%PDF-1.4\n' + bytes(range(255, -1, -1)) + b'\n%%EOF\n')" >"$T/page.pdf"
cd "$T" || exit 1
mkrec >"$T/in.mp" <<'JSON'
{"url":"http://a.test/1","status":200,"title":"One","screenshot":{"$file":"shot.png"},"pdf":{"$file":"page.pdf"},"rendered":{"ms":12.5}}
{"url":"http://a.test/2","status":200,"title":"Two"}
JSON
md5() { md5sum "$1" | cut -d' ' -f1; }

"$BIN/sink" -q "$T/p.db" <"$T/in.mp"
expect_eq "sqlite: the screenshot's bytes, exactly" "$(od -An -tx1 "$T/shot.png" | tr -d ' \n' | tr a-f A-F)" \
	"$(sqlite3 "$T/p.db" "select hex(screenshot) from pages where url = 'http://a.test/1'")"
expect_eq "sqlite: the pdf's bytes, exactly" "$(od -An -tx1 "$T/page.pdf" | tr -d ' \n' | tr a-f A-F)" \
	"$(sqlite3 "$T/p.db" "select hex(pdf) from pages where url = 'http://a.test/1'")"
expect_eq "sqlite: BLOB columns, not text" "blob|blob" \
	"$(sqlite3 "$T/p.db" "select typeof(screenshot), typeof(pdf) from pages where url = 'http://a.test/1'")"
expect_eq "sqlite: not in record (its other keys are)" '{"rendered":{"ms":12.5}}' \
	"$(sqlite3 "$T/p.db" "select record from pages where url = 'http://a.test/1'")"
expect_eq "sqlite: NULL for a record without them" "null|null" \
	"$(sqlite3 "$T/p.db" "select typeof(screenshot), typeof(pdf) from pages where url = 'http://a.test/2'")"
sqlite3 "$T/p.db" "select writefile('$T/out.png', screenshot) from pages where url = 'http://a.test/1'" >/dev/null
expect_eq "sqlite: writefile() gives the file back" "$(md5 "$T/shot.png")" "$(md5 "$T/out.png")"

pg_start
"$BIN/sink" -q "$PG" <"$T/in.mp"
expect_eq "postgresql: bytea columns with the exact bytes" "$(md5 "$T/shot.png")|$(md5 "$T/page.pdf")" \
	"$(pq "$PG" "select md5(screenshot), md5(pdf) from pages where url = 'http://a.test/1'")"
expect_eq "postgresql: not in record" '{"rendered":{"ms":12.5}}' \
	"$(pq "$PG" "select record from pages where url = 'http://a.test/1'")"
pq "$PG" "select encode(pdf, 'base64') from pages where url = 'http://a.test/1'" | base64 -d >"$T/out.pdf"
expect_eq "postgresql: encode(..., 'base64') | base64 -d gives the file back" \
	"$(md5 "$T/page.pdf")" "$(md5 "$T/out.pdf")"
finish
