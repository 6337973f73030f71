#!/bin/sh
# run.sh: alone
# fetch --queue keeps its loop free while leasing from a large frontier:
# the frontier's statements (leases, heartbeats, --stats' queue ages)
# run on their own thread.  On 200 000 pending URLs in SQLite, with
# them on the loop thread (before fetcher/dbq.c) a run gave p50 3 ms,
# p99 110-123 ms (the queue ages of the --stats write, every 5 s) and
# 2 900 records; off it p50 0.5 ms, p99 2 ms and 8 700 records.  The
# bound is generous for a loaded machine: the real
# number is scripts/bench-lag.sh's.
. "$(dirname "$0")/lib.sh"

server_start
J=$T/job.db
N=200000
# The schema, then the URLs straight into it: fetch would seed 200 000
# much slower than the statement below.
"$BIN/fetch" -q --queue "$J" --report >/dev/null
sqlite3 "$J" "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < $N)
	INSERT INTO frontier(url, host, scope, added_at, updated_at)
	SELECT 'http://127.0.0.' || (i % 3 + 1) || ':$PORT/ok?i=' || i, '127.0.0.' || (i % 3 + 1),
	       '127.0.0.' || (i % 3 + 1), 0, 0 FROM c"
expect_eq "the frontier holds $N pending URLs" $N \
	"$(q "$J" "SELECT count(*) FROM frontier WHERE state = 'pending'")"

# Six seconds of leasing and fetching: one --stats write (every 5 s)
# reads the queue ages meanwhile, a beat every second, leases as the
# fetches free room.  SIGTERM ends it; the last --stats has the lag.
"$BIN/fetch" -q --queue "$J" --no-robots -c 16 -p 4 --stats "$T/s.json" </dev/null >/dev/null &
pid=$!
wait_for 30 "the first --stats write" test -s "$T/s.json"
wait_for 30 "2000 requests at the server" lines_ge 2000 "$LOG"
kill -TERM $pid
wait $pid
expect_eq "fetch stopped by SIGTERM exits 143" 143 $?
expect_eq "fetch leased and fetched while the --stats write read the queue ages" true \
	"$(jq '.elapsed_s > 5 and .records > 1000' "$T/s.json")"
expect_eq "loop_lag_ms p99 < 50 ms while leasing from $N URLs" true \
	"$(jq '.loop_lag_ms.p99 < 50' "$T/s.json")"
echo "#   $(jq -c '[.elapsed_s, .records, .loop_lag_ms]' "$T/s.json")"
# fetch leaves the job on exit: its leases, emitted or not, go back.
expect_eq "nothing leased after fetch ended" 0 \
	"$(q "$J" "SELECT count(*) FROM frontier WHERE state = 'leased'")"

finish
