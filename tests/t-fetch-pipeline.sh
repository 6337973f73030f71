#!/bin/sh
# The documented pipeline with default flags on a real corpus (the
# PostgreSQL 15 manual, postgresql-doc-15 from `make test`), a consumer reading at a fixed
# rate, and replies that stop inside or blow up their headers.  Bounds
# are generous limits against a hang, never timing assertions.
. "$(dirname "$0")/lib.sh"

PG=/usr/share/doc/postgresql-doc-15/html
# rate BYTES_PER_S: copies stdin to stdout no faster than that
rate() {
	python3 -c '
import sys, time
r = float(sys.argv[1]); n = 0; t0 = time.monotonic()
while True:
    b = sys.stdin.buffer.read(65536)
    if not b:
        break
    sys.stdout.buffer.write(b); n += len(b)
    d = n / r - (time.monotonic() - t0)
    if d > 0:
        time.sleep(d)
' "$1"
}

server_start --root "$PG"
if [ -d "$PG" ]; then
	(cd "$PG" && ls -- *.html) | sed "s|^|$URL/|" >"$T/urls"
	n=$(wc -l <"$T/urls" | tr -d ' ')
	# ---- fetch | parse | validate | sink, defaults, every stage's status
	( "$BIN/fetch" -q <"$T/urls"; echo $? >"$T/rc.f" ) |
	( "$BIN/parse"; echo $? >"$T/rc.p" ) |
	( "$BIN/validate" -q; echo $? >"$T/rc.v" ) |
	( timeout 300 "$BIN/sink" "$T/pages.db" 2>/dev/null; echo $? >"$T/rc.s" )
	expect_eq "corpus pipeline: every stage exits 0" "0 0 0 0" \
		"$(cat "$T/rc.f" "$T/rc.p" "$T/rc.v" "$T/rc.s" | tr '\n' ' ' | sed 's/ $//')"
	expect_eq "corpus pipeline: one row per page ($n), all 200 and accepted" "$n|$n|$n|$n" \
		"$(q "$T/pages.db" 'select count(*), count(distinct url), sum(status = 200), sum(accepted) from pages')"
	expect_eq "corpus pipeline: titles are the pages' own" \
		"SELECT|CREATE TABLE" \
		"$(q "$T/pages.db" "select group_concat(title, '|') from (select title from pages where url in ('$URL/sql-select.html', '$URL/sql-createtable.html') order by url desc)")"
	expect_eq "corpus pipeline: the server saw each page once" "$n" "$(count '[.]html$')"

	# ---- a consumer at a fixed rate gets every record, none a dead letter
	for r in 4000000:$n 1000000:200; do
		bps=${r%:*} k=${r#*:}
		head -n "$k" "$T/urls" >"$T/some"
		"$BIN/fetch" -q <"$T/some" | rate "$bps" | timeout 120 "$BIN/sink" - >"$T/rate.json" 2>/dev/null
		expect_eq "reader at $bps B/s: $k records, $k distinct URLs, all 200, no error" "$k $k $k 0" \
			"$(jq -s '"\(length) \(map(.url) | unique | length) \(map(select(.status == 200)) | length) \(map(select(.error)) | length)"' -r "$T/rate.json")"
	done
else
	echo "ok - $NAME: corpus tests # skip $PG missing (make deps-test installs postgresql-doc-15)"
fi

# ---- replies that end inside the headers or send a giant header line
F() { : >"$LOG"; echo "$URL/$1" | "$BIN/fetch" --json -q --no-robots --retries 0 -t 10 >"$T/one.json"; }
F status-only
expect_eq "status line then close: error reset, no body, one request" '["reset",false] 1' \
	"$(jq -c '[.error, has("body")]' "$T/one.json") $(count '^/status-only$')"
F 'hugeheader?mb=10'
expect_eq "a 10 MB header line: error too_large, the detail names the header" '["too_large",true]' \
	"$(jq -c '[.error, (.error_detail | test("header"))]' "$T/one.json")"
# A block of 400 header lines of 1 KiB passes libcurl's 300 KiB: not a
# reset to retry, but too_large at once (default retries).
: >"$LOG"
echo "$URL/hugeheader?lines=400" | "$BIN/fetch" --json -q --no-robots >"$T/one.json"
expect_eq "a 400 KiB header block: too_large, saying so, one request (not retried)" \
	'["too_large","response headers larger than libcurl accepts (300 KiB)",1] 1' \
	"$(jq -c '[.error, .error_detail, .attempts]' "$T/one.json") $(count '^/hugeheader')"

finish
