#!/bin/sh
# bench-lag.sh — fetch's event-loop lag while leasing from a large
# PostgreSQL frontier (issue 23, item 5).
#
#   scripts/bench-lag.sh [SECONDS] [HOSTS]
#
# A throwaway PostgreSQL server (scripts/pg-tmp) holds a job of
# 1 000 000 pending URLs over HOSTS (default 50) addresses 127.0.0.N,
# where a private nginx serves the PostgreSQL manual's index page.
# `fetch --queue JOB --no-robots -c 64 -p 4 --stats` leases and fetches
# for SECONDS (default 20), then SIGTERM ends it; the table row is its
# last --stats: loop_lag_ms p50, p99 and max (how late a timer due every
# 100 ms ran), and the records fetched.  No sink acknowledges: the
# leases, heartbeats and --stats queue ages are the frontier's load.
# BIN picks the binary, so an older build can be measured beside.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${BIN:=$here/../bin}"
secs=${1:-20} hosts=${2:-50}
say() { echo "# $*" >&2; }
die() { echo "bench-lag: $*" >&2; exit 1; }
docs=/usr/share/doc/postgresql-doc-15/html
[ -d "$docs" ] || die "no $docs: make deps-bench installs postgresql-doc-15"
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-lag.XXXXXX")
chmod 755 "$dir"
pgdir=$dir/pg
cleanup() {
	nginx_down
	"$here/pg-tmp" stop "$pgdir" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
. "$here/bench/nginx.sh"
NGINX_ADDRS=$hosts nginx_up "$dir" "$docs" /index.html
pg=$("$here/pg-tmp" start "$pgdir")

"$BIN/fetch" -q --queue "$pg" --report </dev/null >/dev/null   # the schema
t0=$(date +%s.%N)
psql -X -q "$pg" -c "INSERT INTO frontier(url, host, scope, added_at, updated_at)
	SELECT 'http://127.0.0.' || (g % $hosts + 1) || ':$port/index.html?i=' || g,
	       '127.0.0.' || (g % $hosts + 1), '127.0.0.' || (g % $hosts + 1), 0, 0
	FROM generate_series(1, 1000000) g; ANALYZE"
say "1000000 URLs in the frontier in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

"$BIN/fetch" -q --queue "$pg" --no-robots -c 64 -p 4 --stats "$dir/s.json" </dev/null >/dev/null &
pid=$!
sleep "$secs"
kill -TERM $pid
t1=$(date +%s.%N)
wait $pid || true
say "fetch ended $(awk -v a="$t1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s after SIGTERM"
echo "| fetch | pending URLs | seconds | records | loop lag p50 (ms) | p99 (ms) | max (ms) | samples |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
jq -r --arg bin "$BIN" '"| \($bin) | 1000000 | \(.elapsed_s) | \(.records) | \(.loop_lag_ms.p50) | \(.loop_lag_ms.p99) | \(.loop_lag_ms.max) | \(.loop_lag_ms.samples) |"' "$dir/s.json"
