#!/bin/sh
# bench-adapt.sh — adaptive pacing against the politeness floor, on issue
# 23's workload: 1330 URLs over 221 loopback hosts (50-300 ms latency;
# 1 host x 30 URLs, 20 x 15, 200 x 5), 57 paths answering 429 with
# Retry-After: 1 once and 9 answering 503 once (scripts/bench/adapt.py
# builds it and computes the floor).
#
#   [BIN=dir] scripts/bench-adapt.sh
#
# Starts tests/server.py on 127.0.2.1-221 (one free port), then runs
# fetch -c 64 -p 1 -d 0.5 --no-robots over the list: by default, with
# --no-adapt, and by default over the list without faults.  For each run:
# wall clock, its ratio to the floor, and from the server's request log
# the least gap between two starts on one host, the gaps below 0.5 s (and
# below 0.495 s: the server stamps a request a little late now and then), and
# the 429s after which the host was not held 1 s.  Prints a markdown
# table on stdout (progress goes to stderr).  About a minute.
#
# Environment: BIN (./bin, else bin/ next to this script), KEEP=1 to keep
# the temp dir.  Needs python3 and awk.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${BIN:-}" ]; then
	if [ -x ./bin/fetch ]; then BIN=./bin; else BIN=$here/../bin; fi
fi
FETCH=$BIN/fetch
ADAPT="python3 $here/bench/adapt.py"
FLAGS="-q -c 64 -p 1 -d 0.5 --no-robots"

die() { echo "bench-adapt: $*" >&2; exit 1; }
say() { echo "bench-adapt: $*" >&2; }

[ -x "$FETCH" ] || die "$FETCH: not executable (make bin/fetch)"
command -v python3 >/dev/null 2>&1 || die "python3: not found"

dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-adapt.XXXXXX")
srvpid=
cleanup() {
	if [ -n "$srvpid" ]; then
		kill "$srvpid" 2>/dev/null || true
		wait "$srvpid" 2>/dev/null || true
	fi
	if [ "${KEEP:-0}" = 1 ]; then say "kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- the test server on the workload's 221 addresses -------------------------
say "starting the test server on 221 addresses"
# shellcheck disable=SC2046  # one --addr per address
python3 "$here/../tests/server.py" --port-file "$dir/port" --log "$dir/log" \
    $($ADAPT addrs | sed 's/^/--addr /') >"$dir/server.out" 2>&1 &
srvpid=$!
i=0
while [ ! -s "$dir/port" ]; do
	i=$((i + 1))
	[ $i -le 200 ] && kill -0 "$srvpid" 2>/dev/null || { cat "$dir/server.out" >&2; die "the test server did not start"; }
	sleep 0.05
done
port=$(cat "$dir/port")
floor=$($ADAPT floor)
floor_clean=$($ADAPT floor clean)
say "floor $floor s (without faults $floor_clean s)"

now() { date +%s.%N; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
rows=
# run LABEL TAG CLEAN FLOOR FETCH-FLAGS...: one run over a fresh list
# (TAG makes its fault counters new at the server), one table row
run() {
	label=$1 tag=$2 clean=$3 fl=$4
	shift 4
	$ADAPT urls "$port" "$tag" $clean >"$dir/urls.txt"
	: >"$dir/log"
	t0=$(now)
	# shellcheck disable=SC2086
	"$FETCH" $FLAGS "$@" <"$dir/urls.txt" >"$dir/out.mp" || die "$label: fetch exited $?"
	t1=$(now)
	s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	c=$($ADAPT check "$dir/log")
	say "$label: $s s; $c"
	j() { echo "$c" | python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])"; }
	rows="$rows| $label | $s s | $(ratio "$s" "$fl")× | $(j requests) | $(j min_gap_ms) ms | $(j gaps_below_interval) ($(j gaps_below_jitter)) | $(j retry_after_broken) of $(j retry_after_429s) |
"
}

run "default (adaptive)" a "" "$floor"
run "--no-adapt" n "" "$floor" --no-adapt
run "default, no faults" c clean "$floor_clean"

cat <<EOF
Issue 23's workload: 1330 URLs over 221 loopback hosts of tests/server.py
(50-300 ms latency each; 1 host × 30 URLs, 20 × 15, 200 × 5), 57 URLs
answering 429 with \`Retry-After: 1\` once and 9 answering 503 once,
\`fetch -c 64 -p 1 -d 0.5 --no-robots\`.  Politeness floor (every start on
a host ≥ 0.5 s after the last, one at a time, the host held 1 s after a
429's answer): $floor s with the faults, $floor_clean s without.

| run | wall | × floor | requests | least start gap on a host | gaps < 0.5 s (< 0.495 s) | 429s not held 1 s host-wide |
|---|---|---|---|---|---|---|
${rows%?}
EOF
