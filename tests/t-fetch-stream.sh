#!/bin/sh
# fetch as a stream stage: backpressure from a stalled consumer, memory
# flat in the input size, streaming input, SIGTERM, a closed stdout,
# malformed msgpack input.
. "$(dirname "$0")/lib.sh"

server_start
F() { "$BIN/fetch" --json --no-robots -q "$@"; }
lt() { holds "$1 < $2" && echo true || echo "false ($1)"; }
# slow_ge N: N requests for /slow in the log (grep: a poll under load
# must be quick, and jq is not)
slow_ge() { [ "$(grep -c '"path": "/slow' "$LOG")" -ge "$1" ]; }
# term OUT N [LIST]: runs fetch -p 3 on LIST ($T/sig.txt) into OUT in the
# background and, once 3 of its URLs are in flight at the server, sends it N
# SIGTERMs, each once the one before was delivered (two pending at once
# would be one); sets $rc (its exit status), $tk (the time of the last
# signal) and $td (when it ended)
term() {
	out=$1
	"$BIN/fetch" --json -q -p 3 <"${3:-$T/sig.txt}" >"$out" 2>"$T/sig.err" &
	fp=$!
	wait_for 20 "3 transfers in flight" slow_ge 3
	s=0
	while [ $s -lt "$2" ]; do
		wait_for 10 "fetch to take the signal before" no_signal_pending $fp
		tk=$(now)
		kill -TERM $fp
		s=$((s + 1))
	done
	wait $fp
	rc=$?
	td=$(now)
}

# ---- flat memory: 20 000 and 200 000 URLs to a refused port.  The big
# run goes in the background while the other tests run.  The circuit
# breaker is off (--host-failures 1000000): it would pause the host.
# Under ASan freed memory sits in a quarantine of 256 MB that the big run
# fills and the small one does not; a small one measures the program.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"
cp=$(closed_port)
urls "http://127.0.0.1:$cp/u" 20000 >"$T/u20k"
urls "http://127.0.0.1:$cp/u" 200000 >"$T/u200k"
( /usr/bin/time -f %M -o "$T/rss200k" "$BIN/fetch" --json --no-robots -q --retries 0 --host-failures 1000000 \
	<"$T/u200k" | awk '/"error":"connect"/ { c++ } END { print NR, c + 0 }' >"$T/n200k" ) &
BIGPID=$!

# ---- backpressure: a consumer that stalls for 4 s
urls "$URL/big?bytes=200000&i=" 200 >"$T/big.txt"
: >"$LOG"
# Both sleeps are the test: a consumer that reads nothing for 4 s, and
# the 2 s of it after which no more than the allowed requests may be seen.
( F --buffer 1K -c 4 <"$T/big.txt"; echo $? >"$T/bp.rc" ) | ( sleep 4; cat >"$T/bp.json" ) &
bp=$!
sleep 2
n=$(records "$LOG")
expect_eq "backpressure: after 2 s of a stalled consumer the server saw at most -c 4 + 2 requests" true \
	"$([ "$n" -le 6 ] && echo true || echo "false ($n requests)")"
wait $bp
expect_eq "backpressure: everything completes once the consumer reads: exit 0, 200 records of 200000 bytes" "0 200 200" \
	"$(cat "$T/bp.rc") $(records "$T/bp.json") $(jq -s 'map(select(.status == 200 and .bytes == 200000)) | length' "$T/bp.json")"
expect_eq "backpressure: each URL requested once" 200 "$(jq -s 'map(.path) | unique | length' "$LOG")"

# ---- streaming input: the first URL is fetched before the input ends
: >"$LOG"
printf '{"url": "%s/page/%d"}\n' "$URL" 1 "$URL" 2 "$URL" 3 >"$T/slow.jsonl"
mkrec --delay 0.5 "$T/slow.jsonl" | F >"$T/slow.json"
expect_eq "streaming input: 3 records" 3 "$(records "$T/slow.json")"
# The producer writes a record every 0.5 s: streaming, page/1 is asked for
# about 1 s before page/3 exists; reading to EOF first, both at once.
spread=$(jq -s '(map(select(.path == "/page/3")) | .[0].t) - (map(select(.path == "/page/1")) | .[0].t)' "$LOG")
expect_eq "streaming input: page/1 requested before the producer wrote page/3 (> 0.7 s earlier)" true \
	"$(lt 0.7 "$spread")"

# ---- SIGTERM: in-flight transfers finish, waiting URLs end as interrupted
: >"$LOG"
urls "$URL/slow?ms=1500&s=" 10 >"$T/sig.txt"
term "$T/sig.json" 1
expect_eq "SIGTERM: exit status 143" 143 "$rc"
expect_eq "SIGTERM: every input URL has exactly one record" "$(sort "$T/sig.txt" | paste -sd' ' -)" \
	"$(jq -r .url "$T/sig.json" | sort | paste -sd' ' -)"
expect_eq "SIGTERM: each record is a 200 or error interrupted" 10 \
	"$(jq -s 'map(select((.status == 200 and (has("error") | not)) or .error == "interrupted")) | length' "$T/sig.json")"
ok200=$(jq -s 'map(select(.status == 200)) | length' "$T/sig.json")
expect_eq "SIGTERM: the 3 in flight finished (200), the 7 waiting are interrupted" "3 7" \
	"$ok200 $(jq -s 'map(select(.error == "interrupted")) | length' "$T/sig.json")"
expect_eq "SIGTERM: no request started after the signal" 0 \
	"$(jq -s --argjson k "$tk" 'map(select(.path != "/robots.txt" and .t > $k)) | length' "$LOG")"
expect_eq "SIGTERM: ended when the in-flight transfers did (< 2 s after the signal)" true "$(lt "$(echo "$td - $tk" | bc)" 2)"
# a second signal aborts what is in flight
: >"$LOG"
# 5 s answers: the second signal must find them in flight, however late
# a loaded machine lets this script send it; aborted, they cost nothing.
sed 's/ms=1500/ms=5000/' "$T/sig.txt" >"$T/sig2.txt"
term "$T/sig2.json" 2 "$T/sig2.txt"
expect_eq "two SIGTERMs: exit 143, 10 records, all interrupted" "143 10 10" \
	"$rc $(records "$T/sig2.json") $(jq -s 'map(select(.error == "interrupted")) | length' "$T/sig2.json")"
expect_eq "two SIGTERMs: in-flight ones say so" 3 \
	"$(jq -s 'map(select(.error_detail | test("in flight"))) | length' "$T/sig2.json")"
expect_eq "two SIGTERMs: ends at once (< 0.5 s after the second)" true "$(lt "$(echo "$td - $tk" | bc)" 0.5)"

# ---- a closed stdout ends fetch quietly and promptly
urls "$URL/slow?ms=300&h=" 40 >"$T/head.txt"
t0=$(now)
( "$BIN/fetch" --json --no-robots -c 4 -p 4 <"$T/head.txt" 2>"$T/head.err"; echo $? >"$T/head.rc" ) | head -c 1 >/dev/null
t1=$(now)
expect_eq "closed stdout: nothing on stderr" "" "$(cat "$T/head.err")"
expect_eq "closed stdout: fetch returns promptly (< 2 s, the whole list takes 3 s)" true "$(lt "$(echo "$t1 - $t0" | bc)" 2)"
echo "#   fetch exit status with a closed stdout: $(cat "$T/head.rc")"

# ---- malformed msgpack after good records: exit 65, good ones fetched
: >"$LOG"
printf '{"url": "%s/page/1", "n": 1}\n{"url": "%s/page/2", "n": 2}\n' "$URL" "$URL" >"$T/good.jsonl"
mkrec "$T/good.jsonl" >"$T/good.mp"
off=$(wc -c <"$T/good.mp" | tr -d ' ')
{ cat "$T/good.mp"; printf '\301'; mkrec "$T/good.jsonl"; } >"$T/bad.mp"
F <"$T/bad.mp" >"$T/bad.json" 2>"$T/bad.err"
rc=$?
expect_eq "malformed msgpack: exit 65" 65 "$rc"
expect_eq "malformed msgpack: the two good records before it fetched (200)" "1 200|2 200" \
	"$(jq -r '"\(.n) \(.status)"' "$T/bad.json" | sort | paste -sd'|' -)"
expect_eq "malformed msgpack: nothing after it was fetched" 2 "$(records "$LOG")"
expect_match "malformed msgpack: message 'fetch: ...' names the byte offset $off" "^fetch: .*[^0-9]$off([^0-9]|\$)" \
	"$(cat "$T/bad.err")"
# a record cut short at the end of the input
{ cat "$T/good.mp"; head -c 5 "$T/good.mp"; } >"$T/cut.mp"
F <"$T/cut.mp" >"$T/cut.json" 2>"$T/cut.err"
expect_eq "truncated last record: exit 65, the two good ones fetched" "65 2" "$? $(records "$T/cut.json")"
expect_match "truncated last record: message names the byte offset $off" "[^0-9]$off([^0-9]|\$)" "$(cat "$T/cut.err")"

# a record over --max-record
python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from mkrec import pack; sys.stdout.buffer.write(pack({"url": sys.argv[2], "pad": "x" * 300}))' \
	"$TESTS" "$URL/ok" >"$T/huge.mp"
F --max-record 100 <"$T/huge.mp" >"$T/huge.json" 2>"$T/huge.err"
expect_eq "record over --max-record: exit 65, no record, nothing requested" "65 0" "$? $(records "$T/huge.json")"
expect_match "record over --max-record: message names byte 0" '^fetch: .*byte 0' "$(cat "$T/huge.err")"

# ---- flat memory: the small run, then compare with the big one
/usr/bin/time -f %M -o "$T/rss20k" "$BIN/fetch" --json --no-robots -q --retries 0 --host-failures 1000000 \
	<"$T/u20k" | awk '/"error":"connect"/ { c++ } END { print NR, c + 0 }' >"$T/n20k"
wait $BIGPID
s=$(tail -n 1 "$T/rss20k")
b=$(tail -n 1 "$T/rss200k")
echo "#   max RSS: 20000 URLs $s KB, 200000 URLs $b KB"
expect_eq "20 000 and 200 000 refused URLs: one record each, every one error connect" "20000 20000 200000 200000" \
	"$(cat "$T/n20k") $(cat "$T/n200k")"
expect_eq "flat memory: max RSS for 200 000 URLs within 1.3x (or +5 MB) of 20 000" true \
	"$([ $((b * 10)) -le $((s * 13)) ] || [ $((b - s)) -le 5120 ] && echo true || echo "false ($s KB vs $b KB)")"

finish
