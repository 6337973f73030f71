#!/bin/sh
# fetch: adaptive pacing (on by default), judged at the server: a host is
# paced to latency / --target-concurrency, a fast one is not held back,
# Retry-After holds the whole host and then the old pace goes on, a 503
# without one doubles the interval once and successes bring it back, no
# gap goes below -d, --max-delay caps it, --no-adapt keeps -d alone.
# run.sh: alone
. "$(dirname "$0")/lib.sh"

server_start
F() { "$BIN/fetch" --json --no-robots -q "$@"; }
# starts ADDR: request start times at ADDR, sorted
starts() { jq -sc --arg a "$1" '[.[] | select(.addr == $a and .path != "/robots.txt") | .t] | sort' "$LOG"; }
# median JSON-ARRAY
median() { echo "$1" | jq 'sort | .[length / 2 | floor]'; }

# ---- the default settles near latency / 2 on a 200 ms host, near zero
# gap on a fast one (both in one run)
run_set() { { urls "$U1/slow?ms=200&i=" 16; urls "$U2/page/1?x&i=" 16; } | F --stats "$T/set.stats" >"$T/set.json"; }
# The first 4 start at once (-p 4, nothing learnt yet); after them each
# start waits the learnt delay: latency / 2, the latency as fetch saw it
# (the records' time_ms: the body is tiny, so it is the time to the answer).
set_ok() {
	g=$(gaps 127.0.0.1 | jq -c '.[4:]')
	lat=$(jq -s '[.[] | select(.host == "127.0.0.1") | .time_ms / 1000] | sort | .[length / 2 | floor]' "$T/set.json")
	m=$(median "$g")
	if [ "$(echo "$g" | jq 'length == 11 and all(.[]; . >= 0.09)')" = true ] &&
	   holds "$lat * 0.45 <= $m && $m <= $lat * 0.7"; then
		echo ok
	else
		echo "latency $lat s, gaps $(ms "$g")"
	fi
}
r=$(twice run_set set_ok)
expect_eq "default: 32 records, all 200" "32 32" "$(records "$T/set.json") $(jq -s 'map(select(.status == 200)) | length' "$T/set.json")"
expect_eq "default on a 200 ms host: after the first 4, every gap >= 90 ms, their median 0.45-0.7 x the latency" ok "$r"
echo "#   200 ms host gaps ms: $(ms "$(gaps 127.0.0.1)")"
g2=$(gaps 127.0.0.2)
expect_eq "default on a fast host: median gap < 20 ms" true "$(median "$g2" | jq '. < 0.02')"
expect_eq "--stats: the 200 ms host's learnt_s is about 0.1 s, and it is its interval_s" true \
	"$(jq '.hosts["127.0.0.1"] | .learnt_s >= 0.095 and .learnt_s <= 0.2 and .interval_s == .learnt_s' "$T/set.stats")"
expect_eq "--stats: the fast host's learnt_s is near zero" true \
	"$(jq '.hosts["127.0.0.2"].learnt_s < 0.02' "$T/set.stats")"

# ---- --no-adapt: -d alone (0): the 200 ms host gets -p 4 at once, always
: >"$LOG"
urls "$U1/slow?ms=200&na&i=" 12 | F --no-adapt --stats "$T/na.stats" >"$T/na.json"
expect_eq "--no-adapt: 12 records; the 200 ms host had 4 in flight and gaps near zero (median < 50 ms)" "12 4 true" \
	"$(records "$T/na.json") $(jq -s 'map(.inflight) | max' "$LOG") $(median "$(gaps 127.0.0.1)" | jq '. < 0.05')"
expect_eq "--no-adapt: learnt_s stays 0" 0 "$(jq '.hosts["127.0.0.1"].learnt_s' "$T/na.stats")"

# ---- --target-concurrency 4: latency / 4
run_tc() { urls "$U1/slow?ms=200&tc&i=" 16 | F --target-concurrency 4 >"$T/tc.json"; }
tc_ok() {
	g=$(gaps 127.0.0.1 | jq -c '.[4:]')
	[ "$(echo "$g" | jq 'all(.[]; . >= 0.045)')" = true ] && [ "$(median "$g" | jq '. < 0.08')" = true ] &&
		echo ok || ms "$g"
}
expect_eq "--target-concurrency 4 on a 200 ms host: gaps >= 45 ms, median < 80 ms" ok "$(twice run_tc tc_ok)"

# ---- --max-delay caps the learnt delay
run_md() { urls "$U1/slow?ms=200&md&i=" 12 | F --target-concurrency 1 --max-delay 0.05 >"$T/md.json"; }
md_ok() {
	g=$(gaps 127.0.0.1 | jq -c '.[4:]')
	[ "$(median "$g" | jq '. >= 0.045 and . < 0.08')" = true ] && echo ok || ms "$g"
}
expect_eq "--target-concurrency 1 --max-delay 0.05 on a 200 ms host: median gap 45-80 ms, not 200" ok "$(twice run_md md_ok)"

# ---- Retry-After: 1 holds the whole host, then the old pace goes on
# The failing endpoints count per key: each run (twice may make two)
# takes a key of its own, or a second run would find them answering 200.
run=0
run_ra() {
	run=$((run + 1))
	{ urls "$U1/slow?ms=200&ra&i=" 7; echo "$U1/retry-after?key=ra$run&fail=1&s=1&ms=200"
	  urls "$U1/slow?ms=200&rb&i=" 9; } | F --backoff 0.1 >"$T/ra.json"
}
# Its answer came 200 ms after the 429 request reached the server; from
# then until 1 s later nothing may start (a request started before the
# answer came may reach the server just after: 100 ms of slack).
ra_ok() {
	s=$(starts 127.0.0.1)
	t=$(jq -s 'map(select(.path | test("key=ra"))) | min_by(.t) | .t' "$LOG")
	held=$(echo "$s" | jq --argjson t "$t" 'map(select(. >= $t + 0.3 and . < $t + 1.195)) | length')
	before=$(echo "$s" | jq -c --argjson t "$t" '[.[] | select(. <= $t)] | .[4:] | [range(1; length) as $i | .[$i] - .[$i - 1]]')
	after=$(echo "$s" | jq -c --argjson t "$t" '[.[] | select(. >= $t + 1.195)] | [range(1; length) as $i | .[$i] - .[$i - 1]]')
	# back at the old pace at once: the first gaps after the hold are
	# like those before (within 1.5x of their median), none below 90 ms
	if [ "$held" = 0 ] && [ "$(echo "$after" | jq --argjson m "$(median "$before")" \
		'length >= 8 and all(.[]; . >= 0.09) and all(.[0:4][]; . <= $m * 1.5)')" = true ]; then
		echo ok
	else
		echo "held-window starts $held, before $(ms "$before"), after $(ms "$after")"
	fi
}
r=$(twice run_ra ra_ok)
expect_eq "Retry-After 1: 17 records, all 200 at last" "17 17" "$(records "$T/ra.json") $(jq -s 'map(select(.status == 200)) | length' "$T/ra.json")"
expect_eq "Retry-After 1: no request to the host for 1 s after the 429's answer, then its old pace at once" ok "$r"
echo "#   gaps ms: $(ms "$(gaps 127.0.0.1)")"

# ---- a 503 without Retry-After doubles the interval once (here from
# -d 0.2 on a fast host), and successes average it back to the floor
run_fl() {
	run=$((run + 1))
	{ echo "$U2/page/1?f"; echo "$U2/flaky?key=fl$run&fail=1"; urls "$U2/page/1?f&i=" 6; } |
		F -d 0.2 -p 1 --backoff 0.01 >"$T/fl.json"
}
fl_ok() {
	g=$(gaps 127.0.0.2)
	[ "$(echo "$g" | jq 'length == 8 and all(.[]; . >= 0.195) and max >= 0.38')" = true ] && echo ok || ms "$g"
}
# The averaging back is pace_answer's arithmetic, proven in
# tests/unit/test_pace.c: here, once, that a 503 reaches the pacing and
# no gap goes below the floor (lower bounds, which load cannot break:
# the server stamps with the kernel's time of arrival).
: >"$LOG"; run_fl
expect_eq "503 without Retry-After at -d 0.2: a gap doubled (>= 380 ms), every gap >= 195 ms" ok "$(fl_ok)"
echo "#   gaps ms: $(ms "$(gaps 127.0.0.2)")"

# ---- from -d 0 on a fast host, a 429 without Retry-After still slows it
# (to 0.25 s), and successes average that back toward zero
run_z() { { echo "$U3/status/429?z"; urls "$U3/page/1?z&i=" 8; } | F -p 1 --retries 0 >"$T/z.json"; }
z_ok() {
	g=$(gaps 127.0.0.3)
	[ "$(echo "$g" | jq 'length == 8 and (.[0:2] | max) >= 0.245')" = true ] && echo ok || ms "$g"
}
# Shrinking back is test_pace's; here the 429 reaches the pacing: the
# start after the one the 429's answer found scheduled waits >= 245 ms.
: >"$LOG"; run_z
expect_eq "429 without Retry-After at -d 0: one of the next two gaps >= 245 ms" ok "$(z_ok)"
echo "#   gaps ms: $(ms "$(gaps 127.0.0.3)")"

# ---- -d is the floor: a 200 ms host (target 0.1 s) with a 429 with
# Retry-After and a 503 without never starts sooner than -d 0.3
run_fd() {
	run=$((run + 1))
	{ urls "$U1/slow?ms=200&d&i=" 4; echo "$U1/retry-after?key=rd$run&fail=1&s=1&ms=200"
	  urls "$U1/slow?ms=200&e&i=" 3; echo "$U1/flaky?key=fd$run&fail=1&ms=200"
	  urls "$U1/slow?ms=200&f&i=" 3; } | F -d 0.3 --backoff 0.01 >"$T/fd.json"
}
fd_ok() { g=$(gaps 127.0.0.1); [ "$(echo "$g" | jq 'length == 13 and all(.[]; . >= 0.295)')" = true ] && echo ok || ms "$g"; }
expect_eq "-d 0.3 with a 200 ms host, a 429 and a 503: 14 requests, every gap at the server >= 295 ms" ok "$(twice run_fd fd_ok)"
expect_eq "-d 0.3: 12 records, all 200" "12 12" "$(records "$T/fd.json") $(jq -s 'map(select(.status == 200)) | length' "$T/fd.json")"

# ---- a host paced by its latency is not struggling: a queue longer
# than --max-elapsed at latency / 2 is fetched whole (no deadline)
urls "$U3/slow?ms=200&me&i=" 30 | F --max-elapsed 2 >"$T/me.json"
expect_eq "30 URLs at 100 ms each with --max-elapsed 2: all 200, none ends deadline" "30 0" \
	"$(jq -s 'map(select(.status == 200)) | length' "$T/me.json") $(jq -s 'map(select(.error == "deadline")) | length' "$T/me.json")"

expect_usage_errors fetch "--target-concurrency 0" "--target-concurrency x" "--max-delay -1" "--max-delay x"

finish
