#!/bin/sh
# bench-cluster.sh — workers on one PostgreSQL frontier, beside SQLite.
#
#   scripts/bench-cluster.sh [URLS] [HOSTS]
#
# A private nginx serves the PostgreSQL manual on 127.0.0.1 .. 127.0.0.HOSTS
# (default 50), and a throwaway PostgreSQL server (scripts/pg-tmp) holds
# the job.  URLS (default 20000) manual pages spread over the hosts are
# the job's seeds.  For 1, 2 and 4 workers, each `fetch --queue JOB |
# sink --queue JOB own.db`, the acknowledged URLs per second, with the
# default flags (no pacing) and at -d 0.05 (each host's request starts,
# from nginx's log, checked against the interval); then the same on an
# SQLite frontier with one worker.  Then a job whose server answers in
# 100 ms (tests/server.py's /slow on 20 addresses) with -c 32: one
# worker's concurrency is the limit there, as on real sites, so more
# workers mean more throughput.  Last, the lease query's time on a
# frontier of 1 000 000 pending URLs in each store.  BIN picks the
# binaries.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${BIN:=$here/../bin}"
urls=${1:-20000} hosts=${2:-50}
say() { echo "# $*" >&2; }
die() { echo "bench-cluster: $*" >&2; exit 1; }
docs=/usr/share/doc/postgresql-doc-15/html
[ -d "$docs" ] || die "no $docs: make deps-bench installs postgresql-doc-15"
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-cluster.XXXXXX")
chmod 755 "$dir"
pgdir=$dir/pg
slowpid=
cleanup() {
	nginx_down
	[ -z "$slowpid" ] || kill "$slowpid" 2>/dev/null || true
	"$here/pg-tmp" stop "$pgdir" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
. "$here/bench/nginx.sh"
NGINX_ADDRS=$hosts NGINX_LOG=$dir/access.log nginx_up "$dir" "$docs" /index.html
pg=$("$here/pg-tmp" start "$pgdir")

# The seeds: the manual's pages, round-robin over the hosts.
ls "$docs" | grep '\.html$' >"$dir/pages"
awk -v n="$urls" -v h="$hosts" -v p="$port" '{ page[NR] = $0 } END {
	for (i = 0; i < n; i++)
		printf "http://127.0.0.%d:%d/%s?i=%d\n", i % h + 1, p, page[i % NR + 1], i }' \
	"$dir/pages" >"$dir/seeds"

# newjob NAME: a fresh PostgreSQL database; prints its URI
newjob() {
	psql -X -q "$pg" -c "CREATE DATABASE $1" >/dev/null
	echo "$pg" | sed "s|:///postgres?|:///$1?|"
}

# run JOB WORKERS FETCH-ARGS...: WORKERS pipelines on JOB, reading the
# seeds $seeds ($n of them), until it is done; prints "seconds acks/s"
seeds=$dir/seeds n=$urls
run() {
	j=$1 w=$2; shift 2
	: >"$dir/access.log"
	t0=$(date +%s.%N)
	i=1
	pids=
	while [ $i -le "$w" ]; do
		# Every worker reads the seeds, as docs/scale.md's recipe
		# does: the first admits them, the others find them known.
		"$BIN/fetch" -q --queue "$j" "$@" "$seeds" | "$BIN/sink" -q --queue "$j" "$dir/w$i.db" &
		pids="$pids $!"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	wait $pids
	t1=$(date +%s.%N)
	rm -f "$dir"/w*.db*
	awk -v n="$n" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f %.0f\n", b - a, n / (b - a) }'
}

# mingap: the smallest gap between the starts of two requests to one host
# in nginx's log (its end time less its duration, to the millisecond), ms
mingap() {
	awk '$4 != "/robots.txt" { printf "%s %.3f\n", $1, $2 - $3 }' "$dir/access.log" |
		sort -k1,1 -k2,2n | awk '{
		if ($1 == a && (m == "" || $2 - t < m)) m = $2 - t; a = $1; t = $2 }
		END { printf "%.0f", m * 1000 }'
}

echo "| frontier | workers | flags | URLs | seconds | acknowledged URLs/s | min gap per host |"
echo "|---|---|---|---|---|---|---|"
for w in 1 2 4; do
	set -- $(run "$(newjob "fast$w")" "$w")
	echo "| PostgreSQL | $w | defaults | $urls | $1 | $2 | - |"
done
for w in 1 2 4; do
	set -- $(run "$(newjob "paced$w")" "$w" -d 0.05)
	echo "| PostgreSQL | $w | -d 0.05 | $urls | $1 | $2 | $(mingap) ms |"
done
set -- $(run "$dir/job.db" 1)
echo "| SQLite | 1 | defaults | $urls | $1 | $2 | - |"
rm -f "$dir"/job.db*
set -- $(run "$dir/job.db" 1 -d 0.05)
echo "| SQLite | 1 | -d 0.05 | $urls | $1 | $2 | $(mingap) ms |"

# Latency-bound: 4000 URLs on 20 hosts answering in 100 ms, -c 32.
python3 "$here/../tests/server.py" --port-file "$dir/slow.port" \
	$(i=1; while [ $i -le 20 ]; do echo "--addr 127.0.0.$i"; i=$((i + 1)); done) \
	>"$dir/slow.out" 2>&1 &
slowpid=$!
i=0
while [ ! -s "$dir/slow.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
sp=$(cat "$dir/slow.port")
awk -v p="$sp" 'BEGIN { for (i = 0; i < 4000; i++)
	printf "http://127.0.0.%d:%d/slow?ms=100&i=%d\n", i % 20 + 1, p, i }' >"$dir/slow.seeds"
seeds=$dir/slow.seeds n=4000
for w in 1 2 4; do
	set -- $(run "$(newjob "slow$w")" "$w" -c 32 --no-robots)
	echo "| PostgreSQL | $w | -c 32, 100 ms answers | 4000 | $1 | $2 | - |"
done
kill "$slowpid"
slowpid=

# The lease query (lib/frontier.c, S_CANDIDATES) on 1 000 000 pending URLs
# over the hosts, as fetch runs it with --pending 1024: 4096 candidates.
echo
echo "| frontier | pending URLs | lease query (ms, median of 5) | heartbeat's host count (ms) |"
echo "|---|---|---|---|"
big=$(newjob big)
"$BIN/fetch" -q --queue "$big" --report </dev/null >/dev/null   # the schema
psql -X -q "$big" -c "INSERT INTO frontier(url, host, scope, added_at, updated_at)
	SELECT 'http://h' || (g % $hosts) || '.example/' || g, 'h' || (g % $hosts) || '.example',
	       'h' || (g % $hosts) || '.example', 0, 0 FROM generate_series(1, 1000000) g; ANALYZE"
q="SELECT id, url, host, depth, attempts FROM frontier WHERE state = 'pending' AND next_at <= 1e10
	AND host NOT IN (SELECT host FROM frontier_host WHERE paused = 1 OR owner != 1)
	ORDER BY next_at, id LIMIT 4096"
# ... and the heartbeat's count of hosts with work (S_SHARE, pending part).
share="WITH RECURSIVE p(host) AS (SELECT min(host) FROM frontier WHERE state = 'pending' UNION ALL
	SELECT (SELECT min(host) FROM frontier WHERE state = 'pending' AND host > p.host)
	FROM p WHERE p.host IS NOT NULL) SELECT count(host) FROM p"
# pgtime SQL: its execution time in PostgreSQL, ms, median of 5
pgtime() {
	for i in 1 2 3 4 5; do
		psql -X -At "$big" -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | jq '.[0]["Execution Time"]'
	done | sort -n | sed -n 3p
}
echo "| PostgreSQL | 1000000 | $(pgtime "$q FOR UPDATE OF frontier SKIP LOCKED") | $(pgtime "$share") |"
"$BIN/fetch" -q --queue "$dir/big.db" --report </dev/null >/dev/null
sqlite3 "$dir/big.db" "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1000000)
	INSERT INTO frontier(url, host, scope, added_at, updated_at)
	SELECT 'http://h' || (n % $hosts) || '.example/' || n, 'h' || (n % $hosts) || '.example',
	       'h' || (n % $hosts) || '.example', 0, 0 FROM g; ANALYZE"
# litetime SQL: its time in a sqlite3 process, ms, median of 5
litetime() {
	for i in 1 2 3 4 5; do
		t0=$(date +%s.%N)
		sqlite3 "$dir/big.db" "$1" >/dev/null
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", (b - a) * 1000 }'
	done | sort -n | sed -n 3p
}
echo "| SQLite (sqlite3 process included) | 1000000 | $(litetime "$q") | $(litetime "$share") |"
