#!/bin/sh
# fetch: retries (Retry-After in seconds and as an HTTP date, backoff with
# jitter, --retries, --max-retry-after), which statuses are final, the
# circuit breaker and 429/503 adaptation.  Times come from the server log.
# run.sh: alone
. "$(dirname "$0")/lib.sh"

server_start
F() { "$BIN/fetch" --json --no-robots -q "$@"; }
# rec FILE URL-REGEX JQ: JQ applied to the record whose url matches
rec() { jq -c "select(.url | test(\"$2\")) | $3" "$1"; }
# starts PATH-REGEX: start times of the matching requests, sorted
starts() { requests "$1" | jq -sc 'map(.t) | sort'; }
# retried_after NAME KEY S: checks that key=KEY was requested twice, the
# second at least S seconds after the first, and notes the gap
retried_after() {
	t=$(starts "key=$2")
	expect_eq "$1" true "$(echo "$t" | jq "length == 2 and .[1] - .[0] >= $3")"
	echo "#   $2 requests at +$(echo "$t" | jq '(.[1] - .[0]) * 1000 | floor') ms"
}

# ---- Retry-After: seconds (on .1) and an HTTP date (on .2), in one run
printf '%s\n' "$U1/retry-after?key=k1&fail=1&s=2" "$U2/retry-after-date?key=k2&fail=1&s=2" |
	F --backoff 0.1 >"$T/ra.json"
expect_eq "Retry-After: 2 records" 2 "$(records "$T/ra.json")"
expect_eq "Retry-After: 2 s: status 200, attempts 2, no error" '[200,2,null]' \
	"$(rec "$T/ra.json" 'k1' '[.status, .attempts, .error]')"
retried_after "Retry-After: 2 s: two requests, the second >= 2 s after the first" k1 2
expect_eq "Retry-After: HTTP date: status 200, attempts 2" '[200,2,null]' \
	"$(rec "$T/ra.json" 'k2' '[.status, .attempts, .error]')"
retried_after "Retry-After: HTTP date +2 s: two requests, the second >= 1 s after the first" k2 1

# ---- Retry-After holds the whole host: another URL there waits too
: >"$LOG"
printf '%s\n' "$U3/retry-after?key=k5&fail=1&s=1" "$U3/page/9" | F -d 0.2 --backoff 0.1 >"$T/rh.json"
expect_eq "Retry-After 1 on a host: the host's next URL starts >= 1 s after the 429" true \
	"$(jq -s '(map(select(.path | test("key=k5"))) | min_by(.t) | .t) as $a | map(select(.path == "/page/9")) | length == 1 and .[0].t - $a >= 0.99' "$LOG")"

# ---- a host waiting out a Retry-After holds no global slot (-c 1)
: >"$LOG"
{ echo "$U1/retry-after?key=k6&fail=1&s=1"; urls "$U2/page/" 5; } |
	F -c 1 --backoff 0.1 >"$T/gs.json"
expect_eq "-c 1: all five .2 URLs run while .1 waits out its Retry-After" true \
	"$(jq -s '(map(select(.path | test("key=k6"))) | map(.t) | sort) as $k | ($k | length) == 2 and
		(map(select(.addr == "127.0.0.2")) | length == 5 and all(.[]; .t < $k[1]))' "$LOG")"
expect_eq "-c 1: the Retry-After URL still ends 200 after 2 attempts" '[200,2]' \
	"$(jq -c 'select(.url | test("k6")) | [.status, .attempts]' "$T/gs.json")"

# ---- --max-elapsed gives a URL up
: >"$LOG"
t0=$(now)
echo "$U1/status/503?e=1" | F --retries 100 --backoff 0.2 --no-adapt --max-elapsed 1 >"$T/me.json"
t1=$(now)
expect_eq "--max-elapsed 1: error retries_exhausted, status 503, within 2 s" '["retries_exhausted",503] true' \
	"$(jq -c '[.error, .status]' "$T/me.json") $(holds "$t1 - $t0 < 2" && echo true || echo false)"
# fetch holds the deadline when it starts an attempt; the request's first
# byte reaches the server a moment later (curl's loop, a new connection),
# so the span may pass 1 s by that moment, never by a retry's backoff.
expect_eq "--max-elapsed 1: no request more than 1 s (and 20 ms) after the first" ok \
	"$(requests 'e=1' | jq -r -s 'map(.t) | sort | (.[-1] - .[0]) as $s | if $s <= 1.02 then "ok" else "span \($s) s" end')"

# ---- retried statuses, final statuses, exhausted retries
: >"$LOG"
# (Which statuses and words are retried is retry.c's rule, proven in
# test_retry; here the requests a live server sees.)
printf '%s\n' "$U1/flaky?key=f1&fail=2" "$U2/status/404" "$U3/status/503" |
	F --backoff 0.1 --retries 2 >"$T/st.json"
expect_eq "statuses: 3 records" 3 "$(records "$T/st.json")"
expect_eq "/flaky fail=2 (503): status 200, attempts 3, no error" '[200,3,null]' \
	"$(rec "$T/st.json" 'flaky' '[.status, .attempts, .error]')"
expect_eq "/flaky fail=2: exactly 3 requests" 3 "$(count 'key=f1')"
expect_eq "/status/404 is final: one request, status 404, attempts 1, no error" "[404,1,null] 1" \
	"$(rec "$T/st.json" "/status/404" '[.status, .attempts, .error]') $(count "^/status/404$")"
expect_eq "/status/503 --retries 2: error retries_exhausted, status 503, attempts 3" '["retries_exhausted",503,3]' \
	"$(rec "$T/st.json" '/status/503' '[.error, .status, .attempts]')"
expect_eq "/status/503 --retries 2: exactly 3 requests" 3 "$(count '^/status/503$')"
expect_eq "/status/503 retries_exhausted keeps the last response's body" true \
	"$(rec "$T/st.json" '/status/503' '.bytes > 0 and (.body | @base64d | test("Status 503"))')"

# ---- --retry-on replaces the retried statuses
: >"$LOG"
printf '%s\n' "$U1/status/503?x" "$U2/status/500?x" | F --backoff 0.1 --retries 1 --retry-on 500 >"$T/ro.json"
expect_eq "--retry-on 500: 503 is final (1 request), 500 retried (2)" '1 2' \
	"$(count '^/status/503') $(count '^/status/500')"

# ---- timeouts are retried
: >"$LOG"
echo "$U1/hang" | F -t 1 --retries 1 --backoff 0.1 >"$T/hang.json"
expect_eq "/hang -t 1 --retries 1: error timeout, attempts 2" '["timeout",2]' "$(jq -c '[.error, .attempts]' "$T/hang.json")"
expect_eq "/hang -t 1 --retries 1: exactly 2 requests" 2 "$(count '^/hang$')"

# ---- backoff has jitter: 20 URLs failing at once do not retry in step
: >"$LOG"
urls "$U3/status/503?j=" 20 |
	F --retries 1 --backoff 1 -p 20 --no-adapt --host-failures 1000 >"$T/jit.json"
expect_eq "jitter: 20 records, each retries_exhausted after 2 attempts" 20 \
	"$(jq -s 'map(select(.error == "retries_exhausted" and .attempts == 2)) | length' "$T/jit.json")"
d=$(jq -sc 'group_by(.path) | map(map(.t) | sort | select(length == 2) | .[1] - .[0])' "$LOG")
expect_eq "jitter: 20 URLs with two requests each" 20 "$(echo "$d" | jq length)"
expect_eq "jitter: retry delays within the first backoff cap (< 1.2 s)" true "$(echo "$d" | jq 'all(.[]; . < 1.2)')"
n=$(echo "$d" | jq '[.[] | . * 100 | round] | unique | length')
expect_eq "jitter: at least 5 distinct retry delays (10 ms resolution)" true "$([ "$n" -ge 5 ] && echo true || echo "false: $n distinct: $(ms "$d")")"

# ---- Retry-After longer than --max-retry-after ends the URL at once
: >"$LOG"
t0=$(now)
echo "$U1/retry-after?key=k3&fail=1&s=1000" | F >"$T/long.json"
t1=$(now)
expect_eq "Retry-After 1000 > --max-retry-after 300: error retry_after, status 429, attempts 1" '["retry_after",429,1]' \
	"$(jq -c '[.error, .status, .attempts]' "$T/long.json")"
expect_eq "Retry-After 1000: exactly one request" 1 "$(count 'key=k3')"
expect_eq "Retry-After 1000: the run ends in < 2 s" true "$(holds "$t1 - $t0 < 2" && echo true || echo false)"
: >"$LOG"
echo "$U1/retry-after?key=k4&fail=1&s=1" | F --max-retry-after 0.5 >"$T/long2.json"
expect_eq "--max-retry-after 0.5 and Retry-After 1: retry_after, one request" '"retry_after" 1' \
	"$(jq -c .error "$T/long2.json") $(count 'key=k4')"

# ---- circuit breaker: .2 fails, pauses ~2 s; .1 keeps its pace
{
	urls "$U2/status/503?b=" 4
	urls "$U1/page/" 26
} >"$T/cb.txt"
run_cb() { F -d 0.1 --retries 0 --no-adapt --host-failures 3 --host-pause 2 <"$T/cb.txt" >"$T/cb.json"; }
cb2='length == 3 and .[0] >= 0.095 and .[1] >= 0.095 and .[1] < 0.5 and .[2] >= 2 and .[2] < 3'
cb1='length == 25 and all(.[]; . >= 0.095 and . < 0.3)'
cb_ok() { [ "$(gaps 127.0.0.2 | jq "$cb2") $(gaps 127.0.0.1 | jq "$cb1")" = "true true" ] && echo true || echo "gaps .2 $(ms "$(gaps 127.0.0.2)") .1 $(ms "$(gaps 127.0.0.1)")"; }
twice run_cb cb_ok >/dev/null
expect_eq "breaker: 30 records" 30 "$(records "$T/cb.json")"
expect_eq "breaker: .2's URLs end retries_exhausted, status 503" 4 \
	"$(jq -s 'map(select(.host == "127.0.0.2" and .error == "retries_exhausted" and .status == 503)) | length' "$T/cb.json")"
g2=$(gaps 127.0.0.2)
expect_eq "breaker: .2 paced at 0.1 s until the 3rd failure, then silent for 2-3 s" true "$(echo "$g2" | jq "$cb2")"
echo "#   .2 gaps ms: $(ms "$g2")"
g1=$(gaps 127.0.0.1)
expect_eq "breaker: .1 keeps its 0.1 s gaps meanwhile (all 95-300 ms)" true "$(echo "$g1" | jq "$cb1")"
[ "$(echo "$g1" | jq "$cb1")" = true ] || echo "#   .1 gaps ms: $(ms "$g1")"

# ---- adaptation: 429s widen the host's interval; --no-adapt keeps -d
run_ad() { urls "$U1/status/429?a=" 5 | F -d 0.1 --retries 0 >"$T/ad.json"; }
ad_ok() {
	g=$(gaps 127.0.0.1)
	[ "$(echo "$g" | jq 'length == 4 and all(.[]; . >= 0.095) and all(range(1; length) as $i | .[$i] >= .[$i - 1] - 0.005; .) and .[-1] >= 0.4')" = true ] &&
		echo true || ms "$g"
}
expect_eq "adapt: 429s widen the interval: gaps never shrink, last >= 0.4 s" true "$(twice run_ad ad_ok)"
echo "#   429 gaps ms: $(ms "$(gaps 127.0.0.1)")"
run_na() { urls "$U1/status/429?n=" 5 | F -d 0.1 --retries 0 --no-adapt >"$T/na.json"; }
na_ok() {
	g=$(gaps 127.0.0.1)
	[ "$(echo "$g" | jq 'length == 4 and all(.[]; . >= 0.095 and . < 0.19)')" = true ] && echo true || ms "$g"
}
expect_eq "--no-adapt: 429s leave gaps at -d (95-190 ms)" true "$(twice run_na na_ok)"

finish
