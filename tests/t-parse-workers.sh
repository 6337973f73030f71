#!/bin/sh
# parse: the record stream and the -j worker pool — malformed input,
# same records with any -j, a crashing or killed worker, a huge page.
. "${TESTS:-$(dirname "$0")}/lib.sh"
F=$TESTS/fixtures/parse
P=$BIN/parse

# A mixed stream: every fixture page under distinct URLs, plus non-HTML
# and dead-letter records, 3 rounds.
for round in 1 2 3; do
	for f in "$F"/*.html; do
		b=$(basename "$f" .html)
		printf '{"url":"http://example.com/%s/%s","ctype":"text/html","round":%s,"body":{"$file":"%s"}}\n' "$round" "$b" "$round" "$f"
	done
	printf '{"url":"http://example.com/%s/png","ctype":"image/png","body":{"$latin1":"\\u0089PNG"}}\n' "$round"
	printf '{"url":"http://example.com/%s/dead","error":"dns","status":0}\n' "$round"
done | mkrec >"$T/mixed.mp"
n_in=$(( $(ls "$F"/*.html | wc -l) * 3 + 6 ))

# Sorted: what is compared is the set of records, not their order.
"$P" -j1 --json <"$T/mixed.mp" | canon | sort >"$T/j1"
"$P" -j4 --json <"$T/mixed.mp" | canon | sort >"$T/j4"
"$P" -j0 --json <"$T/mixed.mp" | canon | sort >"$T/j0"
expect_eq "every record comes out once" "$n_in" "$(records "$T/j1")"
expect_cmd "-j1 and -j4 give the same set of records" cmp "$T/j1" "$T/j4"
expect_cmd "-j0 (in-process) gives the same set too" cmp "$T/j1" "$T/j0"
expect_eq "-j1 keeps input order" "$(jq -r .url "$T/j1" | head -0; "$P" -j0 --json <"$T/mixed.mp" | jq -r .url)" \
	"$("$P" -j1 --json <"$T/mixed.mp" | jq -r .url)"

# ---- malformed input -------------------------------------------------------
size=$(wc -c <"$T/mixed.mp" | tr -d ' ')
{ cat "$T/mixed.mp"; printf '\301garbage'; } >"$T/bad.mp"
for j in 0 1 4; do
	"$P" -j$j --json <"$T/bad.mp" >"$T/bad.out" 2>"$T/bad.err"
	expect_eq "-j$j: malformed stream exits 65" 65 "$?"
	expect_eq "-j$j: every good record before it is written" "$n_in" "$(records "$T/bad.out")"
	expect_eq "-j$j: message names the offset" "parse: malformed record at byte $size: invalid msgpack byte" "$(cat "$T/bad.err")"
done
head -c $((size - 3)) "$T/mixed.mp" | "$P" --json >"$T/trunc.out" 2>"$T/trunc.err"
expect_eq "truncated stream exits 65" 65 "$?"
expect_match "truncated stream message" "^parse: malformed record at byte [0-9]+: truncated record$" "$(cat "$T/trunc.err")"
head -c 100000 /dev/urandom | "$P" >/dev/null 2>"$T/rand.err"
expect_eq "random bytes exit 65" 65 "$?"
expect_match "random bytes: message names the byte offset" "^parse: malformed record at byte [0-9]+" "$(cat "$T/rand.err")"
printf '\223\001\002\003' | "$P" >/dev/null 2>"$T/arr.err"
expect_eq "a non-map record exits 65" "65 parse: malformed record at byte 0: not a map" "$? $(cat "$T/arr.err")"
"$P" </dev/null >"$T/empty.out"
expect_eq "empty input: exit 0, no output" "0 0" "$? $(wc -c <"$T/empty.out" | tr -d ' ')"

# ---- a worker that crashes ----------------------------------------------------
SLUICE_PARSE_CRASH_ON=/2/links "$P" -j2 --json <"$T/mixed.mp" >"$T/crash.out" 2>"$T/crash.err"
expect_eq "crash: exit 0" 0 "$?"
expect_eq "crash: every record still comes out once" "$n_in" "$(records "$T/crash.out")"
expect_eq "crash: only the record it died on has parse_error" \
	"http://example.com/2/links worker killed by signal 6" \
	"$(jq -r 'select(.parse_error) | "\(.url) \(.parse_error)"' "$T/crash.out")"
expect_eq "crash: that record is its input plus parse_error (body kept)" \
	"$(wc -c <"$F/links.html" | tr -d ' ') 2 null" \
	"$(jq -r 'select(.parse_error) | "\(.body | @base64d | length) \(.round) \(.title)"' "$T/crash.out")"
expect_match "crash: stderr names the URL" "^parse: http://example.com/2/links: worker killed by signal 6$" "$(cat "$T/crash.err")"
jq -c 'select(.parse_error | not) | del(.parse_ms)' "$T/crash.out" | sort >"$T/crash.rest"
grep -v '"url":"http://example.com/2/links"' "$T/j1" >"$T/j1.rest"
expect_cmd "crash: the other records are parsed normally" cmp "$T/crash.rest" "$T/j1.rest"
SLUICE_PARSE_CRASH_ON=example.com "$P" -j3 --json <"$T/mixed.mp" >"$T/all.out" 2>/dev/null
expect_eq "crash on every record: each comes out with parse_error" "$n_in" \
	"$(jq -r 'select(.parse_error == "worker killed by signal 6") | .url' "$T/all.out" | wc -l | tr -d ' ')"

# ---- a worker killed from outside ------------------------------------------
mkfifo "$T/fifo"
"$P" -j2 --json <"$T/fifo" >"$T/kill.out" 2>"$T/kill.err" &
pid=$!
exec 3>"$T/fifo"
wait_for 20 "parse's workers to start" pgrep -P $pid
victim=$(pgrep -P $pid | head -1)
kill -9 "$victim"
wait_for 20 "parse to report the killed worker" grep -q 'worker killed by signal 9' "$T/kill.err"
cat "$T/mixed.mp" >&3
exec 3>&-
wait $pid
expect_eq "killed worker: exit 0" 0 "$?"
expect_eq "killed worker: replaced, every record parsed" "$n_in 0" \
	"$(records "$T/kill.out") $(jq -r 'select(.parse_error)' "$T/kill.out" | wc -l | tr -d ' ')"
expect_match "killed worker: reported" "^parse: worker killed by signal 9 \\(pid $victim" "$(cat "$T/kill.err")"

# ---- signals (lib/stop.h rules) ------------------------------------------
# sig_run SIGNAL...: starts parse -j2 on a fifo, writes the first half of
# the stream, waits for the records in it, sends each SIGNAL once the one
# before was delivered, writes the rest, closes; sets rc.
half=$(( $(wc -c <"$T/mixed.mp") / 2 ))
# how many whole records the first half holds
k=$(head -c "$half" "$T/mixed.mp" | "$P" -j2 --json 2>/dev/null | wc -l | tr -d ' ')
sig_run() {
	rm -f "$T/sfifo"
	mkfifo "$T/sfifo"
	"$P" -j2 --json <"$T/sfifo" >"$T/sig.out" 2>"$T/sig.err" &
	spid=$!
	exec 4>"$T/sfifo"
	head -c "$half" "$T/mixed.mp" >&4
	wait_for 20 "parse to write the $k records of the first half" lines_ge "$k" "$T/sig.out"
	for sig in "$@"; do
		kill -s "$sig" "$spid"
		wait_for 10 "parse to take SIG$sig" no_signal_pending "$spid"
	done
	tail -c +$((half + 1)) "$T/mixed.mp" >&4 2>/dev/null
	exec 4>&-
	wait "$spid"
	rc=$?
}
sig_run TERM
expect_eq "SIGTERM: stops reading, flushes, dies of the signal (143)" 143 "$rc"
n=$(records "$T/sig.out")
expect_eq "SIGTERM: the records read before it are written" 1 "$([ "$n" -gt 0 ] && [ "$n" -lt "$n_in" ] && echo 1)"
sig_run INT
expect_eq "one SIGINT: reads to the end (upstream is flushing), then 130" "130 $n_in" \
	"$rc $(records "$T/sig.out")"
sig_run INT INT
n=$(records "$T/sig.out")
expect_eq "two SIGINTs: stop now with 130, records read so far written" "130 1" \
	"$rc $([ "$n" -gt 0 ] && [ "$n" -lt "$n_in" ] && echo 1)"

# ---- a huge page ---------------------------------------------------------------
python3 - "$T/huge.html" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("<html><head><title>Huge</title></head><body>\n")
    size, i = 0, 0
    while size < 20 * 1024 * 1024:
        s = '<div class="row"><p>Row %d &amp; <a href="/item/%d">item</a></p></div>\n' % (i, i % 5000)
        f.write(s)
        size += len(s)
        i += 1
    f.write("</body></html>\n")
PY
printf '{"url":"http://example.com/huge","ctype":"text/html","body":{"$file":"%s"}}\n' "$T/huge.html" | mkrec >"$T/huge.mp"
"$P" -j1 --json <"$T/huge.mp" | jq -c '{title, n: (.links | length), last: .links[-1], t: (.text | length > 3000000), tail: (.text[-20:])}' >"$T/huge.out"
expect_eq "huge page (20 MB) parses" \
	'{"title":"Huge","n":5000,"last":"http://example.com/item/4999","t":true,"tail":"(.*)"}' \
	"$(sed 's/"tail":"[^"]*"/"tail":"(.*)"/' "$T/huge.out")"
expect_match "huge page text ends with the last row" '"tail":".*[0-9]+ & item"' "$(cat "$T/huge.out")"

finish
