#!/bin/sh
# bench-sink.sh — how fast sink stores small parse-shaped records.
#
#   scripts/bench-sink.sh [N] [SINK-ARGS...]
#
# Generates N (default 200000) records like parse's output (url, host,
# status, ctype, title, a few links, short text, fields, parser) into a
# file once, then times `sink out.db` reading it and prints records/s.
# Also times `sink out.jsonl` for comparison.  BIN picks the binaries
# (default: bin/ next to this script).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${BIN:=$here/../bin}"
n=${1:-200000}
[ $# -gt 0 ] && shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-sink.XXXXXX")
trap 'rm -rf "$dir"' EXIT

python3 - "$n" "$here/../tests" >"$dir/in.mp" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from mkrec import pack
n = int(sys.argv[1])
out = bytearray()
w = sys.stdout.buffer
for i in range(n):
    host = "h%d.example" % (i % 50)
    pack({
        "url": "http://%s/page/%d" % (host, i),
        "final_url": "http://%s/page/%d" % (host, i),
        "host": host, "status": 200, "ctype": "text/html; charset=utf-8",
        "bytes": 1500 + i % 700, "fetched_at": 1764680000.0 + i / 1000,
        "time_ms": 12, "attempts": 1,
        "title": "Page %d" % i,
        "links": ["http://%s/page/%d" % (host, i + k) for k in (1, 2, 3)],
        "lang": "en", "text": "Some short text of page %d." % i,
        "fields": {"price": "%d.99" % (i % 100)},
        "parser": "sluice-parse 0.1.0 gumbo 0.10.1", "parse_ms": 0.4,
        "accepted": True,
    }, out)
    if len(out) > 1 << 20:
        w.write(out)
        out.clear()
w.write(out)
PY

size=$(wc -c <"$dir/in.mp")
run() {
	target=$1; shift
	t0=$(date +%s.%N)
	"$BIN/sink" -q "$@" "$target" <"$dir/in.mp"
	t1=$(date +%s.%N)
	awk -v n="$n" -v a="$t0" -v b="$t1" -v t="$(basename "$target")" -v args="$*" \
	    'BEGIN { s = b - a; printf "sink %s%s: %d records in %.3f s = %.0f records/s\n",
	             (args != "" ? args " " : ""), t, n, s, n / s }'
}
echo "input: $n records, $size bytes"
run "$dir/out.db" "$@"
rows=$(sqlite3 "$dir/out.db" 'select count(*) from pages')
echo "rows: $rows"
run "$dir/out.db" "$@"
echo "(second run: same input again, every record an upsert of an existing row)"
run "$dir/out.db" --links "$@"
run "$dir/out.jsonl"
