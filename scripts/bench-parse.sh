#!/bin/sh
# bench-parse — parse's throughput against raw gumbo, on the PostgreSQL 15
# HTML manual (Debian package postgresql-doc-15).
#
#   scripts/bench-parse.sh [BIN_DIR]       (default: ./bin)
#
# Builds one file of fetch-shaped records (url, final_url, status 200,
# ctype text/html, body bin) from every page of the manual, compiles
# scripts/bench/rawgumbo.c (parse + walk + free, nothing else), then times
# rawgumbo, `parse -j0` (in-process), `parse -j1` and `parse -j2` over the
# same bytes, `parse -j0 --main` and `parse -j0 --main --markdown`, best
# of $RUNS (default 3) wall-clock runs each, and prints MB/s and the
# ratios.  Output goes to /dev/null as msgpack.  Targets: parse -j1 >=
# 0.85x raw gumbo; -j2 >= 1.7x -j1 on two or more cores; --main and
# --main --markdown cost at most 1.3x plain parse.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
bin=${1:-$root/bin}
docs=${PGDOCS:-/usr/share/doc/postgresql-doc-15/html}
runs=${RUNS:-3}
[ -d "$docs" ] || { echo "bench-parse: $docs missing: apt-get install postgresql-doc-15" >&2; exit 69; }
[ -x "$bin/parse" ] || { echo "bench-parse: $bin/parse missing: run make" >&2; exit 69; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-parse.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The records: one JSON line per page through the tests' msgpack encoder.
for f in "$docs"/*.html; do
	b=$(basename "$f")
	printf '{"url":"https://www.postgresql.org/docs/15/%s","final_url":"https://www.postgresql.org/docs/15/%s","status":200,"ctype":"text/html","body":{"$file":"%s"}}\n' "$b" "$b" "$f"
done | python3 "$root/tests/mkrec.py" >"$work/records.mp"
pages=$(ls "$docs"/*.html | wc -l)
bytes=$(cat "$docs"/*.html | wc -c)

cc -O2 -o "$work/rawgumbo" "$here/bench/rawgumbo.c" $(pkg-config --cflags --libs gumbo msgpack)

# secs CMD...: the wall time of one run over the records, in seconds.
secs() {
	s=$(date +%s.%N)
	"$@" <"$work/records.mp" >/dev/null
	e=$(date +%s.%N)
	awk "BEGIN { printf \"%.4f\", $e - $s }"
}

# min A B: the smaller, A when B is empty.
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a < b) ? a : b }'; }

# Rounds interleave the four commands, so a burst of load from elsewhere
# on the machine hits all of them alike; each keeps its best round.
raw= j0= j1= j2= jm= jmd=
i=0
while [ $i -lt "$runs" ]; do
	raw=$(min "$(secs "$work/rawgumbo" "$work/records.mp")" "$raw")
	j0=$(min "$(secs "$bin/parse" -j0)" "$j0")
	j1=$(min "$(secs "$bin/parse" -j1)" "$j1")
	j2=$(min "$(secs "$bin/parse" -j2)" "$j2")
	jm=$(min "$(secs "$bin/parse" -j0 --main)" "$jm")
	jmd=$(min "$(secs "$bin/parse" -j0 --main --markdown)" "$jmd")
	i=$((i + 1))
done

awk -v pages="$pages" -v bytes="$bytes" -v raw="$raw" -v j0="$j0" -v j1="$j1" -v j2="$j2" -v jm="$jm" -v jmd="$jmd" \
    -v cpus="$(nproc)" -v runs="$runs" 'BEGIN {
	mb = bytes / 1e6
	printf "corpus: %d pages, %.1f MB (PostgreSQL 15 manual), %d CPUs, best of %d\n", pages, mb, cpus, runs
	printf "%-12s %8.3f s %8.1f MB/s\n", "raw gumbo", raw, mb / raw
	printf "%-12s %8.3f s %8.1f MB/s\n", "parse -j0", j0, mb / j0
	printf "%-12s %8.3f s %8.1f MB/s\n", "parse -j1", j1, mb / j1
	printf "%-12s %8.3f s %8.1f MB/s\n", "parse -j2", j2, mb / j2
	printf "%-12s %8.3f s %8.1f MB/s\n", "-j0 --main", jm, mb / jm
	printf "%-12s %8.3f s %8.1f MB/s\n", "--main --md", jmd, mb / jmd
	printf "parse -j1 / raw gumbo: %.2fx (target >= 0.85)\n", raw / j1
	printf "parse -j0 / raw gumbo: %.2fx\n", raw / j0
	printf "parse -j2 / parse -j1: %.2fx (target >= 1.7 on 2 cores)\n", j1 / j2
	printf "parse -j0 --main / parse -j0: %.2fx time (target <= 1.3)\n", jm / j0
	printf "parse -j0 --main --markdown / parse -j0: %.2fx time (target <= 1.3)\n", jmd / j0
}'
