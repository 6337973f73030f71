#!/bin/sh
# fetch --stats reports the event loop's lag (loop_lag_ms): how late a
# timer due every 100 ms runs.  Small on a quiet run; a stall of the whole
# process (SIGSTOP) shows up as its length.
. "$(dirname "$0")/lib.sh"

server_start
# 24 URLs of 100 ms, 4 at a time: about 0.6 s of loop
urls "$URL/slow?ms=100&i=" 24 | "$BIN/fetch" --no-robots -q -p 4 --stats "$T/s.json" >/dev/null
expect_eq "--stats has loop_lag_ms with p50, p99, max and samples" '["max","p50","p99","samples"]' \
	"$(jq -c '.loop_lag_ms | keys' "$T/s.json")"
expect_eq "loop_lag_ms: 0 <= p50 <= p99 <= max < 1000 ms on a small run" true \
	"$(jq '.loop_lag_ms | 0 <= .p50 and .p50 <= .p99 and .p99 <= .max and .max < 1000' "$T/s.json")"
expect_eq "loop_lag_ms: one sample per 100 ms of the run (within 2)" true \
	"$(jq '(.elapsed_s * 10) as $n | .loop_lag_ms.samples >= $n - 2 and .loop_lag_ms.samples <= $n + 1' "$T/s.json")"
echo "#   quiet run: $(jq -c '[.elapsed_s, .loop_lag_ms]' "$T/s.json")"

# A stall: the process stopped for 0.6 s while its transfers wait on the
# server.  The timer due in that time runs at least 0.5 s late.
: >"$LOG"
urls "$URL/slow?ms=100&i=" 24 | "$BIN/fetch" --no-robots -q -p 4 --stats "$T/stall.json" >/dev/null &
pid=$!
wait_for 10 "4 requests in flight at the server" lines_ge 4 "$LOG"
kill -STOP $pid
sleep 0.6     # the stall itself: its length is what --stats must show
kill -CONT $pid
wait $pid
expect_eq "a 0.6 s SIGSTOP: loop_lag_ms.max between 500 and 2000 ms, p50 still under 100" true \
	"$(jq '.loop_lag_ms | .max >= 500 and .max < 2000 and .p50 < 100' "$T/stall.json")"
echo "#   stalled run: $(jq -c .loop_lag_ms "$T/stall.json")"

finish
