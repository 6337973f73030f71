#!/bin/sh
# fetch: pacing and concurrency measured at the server: -d, --rate and
# --burst, -p, -c, several hosts in parallel, --policy.
# run.sh: alone
. "$(dirname "$0")/lib.sh"

server_start
F() { "$BIN/fetch" --json --no-robots -q "$@"; }
# min_gap_ok ADDR MIN: "ok" when every gap at ADDR is >= MIN, else the gaps
min_gap_ok() { g=$(gaps "$1"); if [ "$(echo "$g" | jq --argjson m "$2" 'all(.[]; . >= $m)')" = true ]; then echo ok; else ms "$g"; fi; }

# ---- -d: minimum interval between starts on one host
run_d() { urls "$U1/page/1?i=" 6 | F -d 0.2 >"$T/d.json"; }
gap1_200() { min_gap_ok 127.0.0.1 0.195; }
r=$(twice run_d gap1_200)
expect_eq "-d 0.2: 6 records, all 200" "6 6" "$(records "$T/d.json") $(jq -s 'map(select(.status == 200)) | length' "$T/d.json")"
expect_eq "-d 0.2: 6 requests" 6 "$(count '^/page/1')"
expect_eq "-d 0.2: every gap at the server >= 195 ms" ok "$r"

# -d holds at the server even when responses are slower than the delay
# (each request is sent when fetch starts it, not queued behind another)
run_d2() { urls "$U1/slow?ms=400&i=" 3 | F -d 0.2 >"$T/d2.json"; }
r=$(twice run_d2 gap1_200)
expect_eq "-d 0.2 with 400 ms responses: 3 records" 3 "$(records "$T/d2.json")"
expect_eq "-d 0.2 with 400 ms responses: every gap at the server >= 195 ms" ok "$r"

# ---- --rate 5 --burst 1: one start per 0.2 s
run_r() { urls "$U1/page/2?i=" 6 | F --rate 5 --burst 1 >"$T/r.json"; }
r=$(twice run_r gap1_200)
expect_eq "--rate 5 --burst 1: 6 records" 6 "$(records "$T/r.json")"
expect_eq "--rate 5 --burst 1: every gap >= 195 ms" ok "$r"

# ---- --rate 5 --burst 3: three back to back, then one per 0.2 s
run_b() { urls "$U1/page/3?i=" 7 | F --rate 5 --burst 3 -p 8 >"$T/b.json"; }
burst_ok() {
	g=$(gaps 127.0.0.1)
	[ "$(echo "$g" | jq 'length == 6 and .[0] < 0.1 and .[1] < 0.1 and all(.[2:][]; . >= 0.195)')" = true ] && echo ok || ms "$g"
}
r=$(twice run_b burst_ok)
expect_eq "--burst 3: 7 records" 7 "$(records "$T/b.json")"
expect_eq "--burst 3: the first three back to back (gaps < 100 ms), the rest paced (gaps >= 195 ms)" ok "$r"

# ---- -p 2: at most two requests in flight on one host
: >"$LOG"
urls "$U1/slow?ms=300&i=" 6 | F -p 2 -c 10 >"$T/p.json"
expect_eq "-p 2: 6 records, all 200" "6 6" "$(records "$T/p.json") $(jq -s 'map(select(.status == 200)) | length' "$T/p.json")"
expect_eq "-p 2: the server never had more than 2 in flight, and had 2" 2 \
	"$(jq -s 'map(.inflight) | max' "$LOG")"
expect_eq "-p 2: at most 2 connections open" true "$(jq -s 'map(.conns) | max <= 2' "$LOG")"
expect_eq "-p 2: keep-alive: the 6 requests on at most 2 connections" true "$(jq -s 'map(.conn) | unique | length <= 2' "$LOG")"

# ---- -c 3 over three hosts, -p 2: three in flight in all
: >"$LOG"
for u in "$U1" "$U2" "$U3"; do urls "$u/slow?ms=300&i=" 4; done | F -p 2 -c 3 >"$T/c.json"
expect_eq "-c 3: 12 records, all 200" "12 12" "$(records "$T/c.json") $(jq -s 'map(select(.status == 200)) | length' "$T/c.json")"
expect_eq "-c 3 -p 2: no host above 2 in flight" true "$(jq -s 'map(.inflight) | max <= 2' "$LOG")"
# Each request is in flight for at least 300 ms after it is logged, so
# counting the requests started in the 300 ms up to each start is a lower
# bound of the requests in flight then: it must never exceed -c.
glob=$(jq -s '[.[].t] | sort | . as $t | [ .[] as $s | [ $t[] | select(. <= $s and . > $s - 0.3) ] | length ] | max' "$LOG")
expect_eq "-c 3: at most 3 requests in flight over all hosts (and 3 reached)" 3 "$glob"

# ---- three hosts in parallel, each paced
for u in "$U1" "$U2" "$U3"; do urls "$u/page/4?i=" 10; done >"$T/30.txt"
run_30() { t0=$(now); F -d 0.2 <"$T/30.txt" >"$T/30.json"; since "$t0" >"$T/30.el"; }
gaps3() { echo "$(min_gap_ok 127.0.0.1 0.195) $(min_gap_ok 127.0.0.2 0.195) $(min_gap_ok 127.0.0.3 0.195)"; }
r=$(twice run_30 gaps3)
el=$(cat "$T/30.el")
expect_eq "3 hosts x 10 URLs: 30 records" 30 "$(records "$T/30.json")"
expect_eq "3 hosts x 10 URLs at -d 0.2: done in < 3.5 s (serial: 6 s)" true \
	"$(holds "$el < 3.5" && echo true || echo "false ($el s)")"
echo "#   elapsed: $el s"
expect_eq "3 hosts: each host's gaps >= 195 ms" "ok ok ok" "$r"

# ---- a host waiting out its interval holds no global slot
: >"$LOG"
printf '127.0.0.2 delay=0.5\n' >"$T/slowhost"
{ urls "$U2/page/5?i=" 2; urls "$U1/page/6?i=" 6; } | F -c 1 --policy "$T/slowhost" >"$T/w.json"
expect_eq "-c 1: the delayed host's wait lets the other host run: all of .1 before .2's 2nd request" true \
	"$(jq -s '([.[] | select(.addr == "127.0.0.2") | .t] | sort | .[1]) as $second |
		[.[] | select(.addr == "127.0.0.1") | .t] | length == 6 and all(.[]; . < $second)' "$LOG")"

# ---- --policy: one host's overrides
printf '# host settings\n127.0.0.2 delay=0.3 per_host=1\n' >"$T/policy"
run_pol() { { urls "$U2/slow?ms=50&i=" 4; urls "$U1/slow?ms=200&i=" 4; } | F --policy "$T/policy" >"$T/pol.json"; }
gap2_300() { min_gap_ok 127.0.0.2 0.295; }
r=$(twice run_pol gap2_300)
expect_eq "--policy: 8 records" 8 "$(records "$T/pol.json")"
expect_eq "--policy: 127.0.0.2 gaps >= 295 ms" ok "$r"
expect_eq "--policy: 127.0.0.2 one in flight at a time" 1 \
	"$(jq -s '[.[] | select(.addr == "127.0.0.2") | .inflight] | max' "$LOG")"
expect_eq "--policy: 127.0.0.1 keeps the defaults (-d 0, -p 4): 4 in flight at once" 4 \
	"$(jq -s '[.[] | select(.addr == "127.0.0.1") | .inflight] | max' "$LOG")"
printf '127.0.0.2 nonsense=1\n' >"$T/badpolicy"
echo "$U1/ok" | "$BIN/fetch" --json --no-robots --policy "$T/badpolicy" >"$T/bp.out" 2>"$T/bp.err"
expect_eq "--policy with a bad setting: exit 64, no records" "64 0" "$? $(wc -c <"$T/bp.out" | tr -d ' ')"
expect_match "--policy bad setting: message names file and line" "^fetch: .*badpolicy:1" "$(cat "$T/bp.err")"

finish
