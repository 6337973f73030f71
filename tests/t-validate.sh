#!/bin/sh
# validate: each rule, the rules file and host sections, soft errors and
# JavaScript shells, --drop, the summary, pass-through, malformed input.
. "$(dirname "$0")/lib.sh"
F=$TESTS/fixtures/validate
mkrec "$F/pages.jsonl" >"$T/pages.mp"

# verdicts RULE-ARGS...: one `url accepted reason` line per output record
verdicts() {
	"$BIN/validate" -q --json "$@" <"$T/pages.mp" |
		jq -r '"\(.url | sub("http://"; "")) \(.accepted) \(.reason // "-")"'
}

expect_eq "default rules: status 2xx, text/html, non-empty title, no page that refuses us" \
"a.test/ok true -
a.test/slow false fetch_error timeout
a.test/down false status 503
a.test/logo.png false ctype image/png
b.test/empty false missing title
b.test/blocked false blocked access denied
b.test/app true -
b.test/again true -" "$(verdicts)"

expect_eq "--status takes ranges and lists" "true true" \
	"$(verdicts --status 200-299,500-503 | awk '/down|ok /{printf "%s%s", s, $2; s=" "}')"
expect_eq "--status accepts a class like 5xx" "a.test/down true -" \
	"$(verdicts --status 5xx | grep down)"
expect_eq "--status any disables the check" "a.test/down true -" \
	"$(verdicts --status any | grep down)"
expect_eq "--ctype is a case-insensitive prefix and a list" \
"a.test/ok false ctype text/html; charset=utf-8
a.test/logo.png false missing title
b.test/empty false ctype TEXT/HTML" \
	"$(verdicts --ctype IMAGE/,text/plain | grep -E 'ok|logo|empty')"
expect_eq "--require replaces the non-empty title default" "b.test/empty true -" \
	"$(verdicts --require text | grep empty)"
expect_eq "--require reaches fields with a dotted path" \
"a.test/ok true -
a.test/down false missing fields.price" \
	"$(verdicts --require fields.price --status any | grep -E 'ok|down')"
expect_eq "--require fields.price rejects a page without it" "b.test/empty false missing fields.price" \
	"$(verdicts --require fields.price | grep empty)"
expect_eq "--require is repeatable and checked in order" "b.test/blocked false missing fields.price" \
	"$(verdicts --refusals off --require title --require fields.price | grep blocked)"
expect_eq "--marker must match the title or the text" \
"a.test/ok true -
b.test/blocked false blocked access denied
b.test/app false no_marker /Price/
b.test/again true -" \
	"$(verdicts --marker Price | grep -E 'ok|blocked|app|again')"
expect_eq "--marker matches the title too" "b.test/app true -" \
	"$(verdicts --marker '^App$' | grep app)"
# The signature table (t-validate-blocked) names that page first; off,
# the page is left to the user's own patterns.
expect_eq "soft error: --reject catches a 200 Access Denied page" \
	"b.test/blocked false rejected /Access Denied/" \
	"$(verdicts --refusals off --reject 'Access Denied' | grep blocked)"
expect_eq "--reject is repeatable and matches text" "b.test/again false rejected /shipping/" \
	"$(verdicts --reject nomatch --reject shipping | grep again)"
expect_eq "--reject with (?i) is case-insensitive" "b.test/blocked false rejected /(?i)access denied/" \
	"$(verdicts --refusals off --reject '(?i)access denied' | grep blocked)"
expect_eq "JavaScript shell: --min-text counts characters, not bytes" \
	"b.test/app false js_shell 8 chars" "$(verdicts --min-text 9 | grep app)"
expect_eq "--min-text at the exact length passes" "b.test/app true -" \
	"$(verdicts --min-text 8 | grep app)"
expect_eq "a dead letter is a fetch_error even when other rules fail" \
	"a.test/slow false fetch_error timeout" \
	"$(verdicts --require nothing --min-text 100 | grep slow)"
expect_eq "re-validating replaces accepted and drops the old reason" \
	'{"accepted":true,"reason":null}' \
	"$("$BIN/validate" -q --json <"$T/pages.mp" | jq -c 'select(.url | endswith("again")) | {accepted, reason}')"
echo '{"url":"u","host":"h","status":404,"accepted":true,"reason":"old"}' | mkrec >"$T/old.mp"
expect_eq "re-validating a rejected record replaces its reason" \
	'{"accepted":false,"reason":"status 404"}' \
	"$("$BIN/validate" -q --json <"$T/old.mp" | jq -c '{accepted, reason}')"
expect_eq "every input key passes through, bin as base64" \
	'{"job":"j1","body":"PGh0bWw+","price":"10","keys":10}' \
	"$("$BIN/validate" -q --json <"$T/pages.mp" | head -1 | jq -c '{job, body, price: .fields.price, keys: (keys | length)}')"
expect_eq "msgpack out when stdout is not a terminal, and it round-trips" \
	"$("$BIN/validate" -q --json <"$T/pages.mp")" \
	"$("$BIN/validate" -q <"$T/pages.mp" | "$BIN/validate" -q --json)"

# --drop
expect_eq "--drop keeps only accepted records" \
	"a.test/ok b.test/app b.test/again" \
	"$("$BIN/validate" -q --json --drop <"$T/pages.mp" | jq -r '.url | sub("http://"; "")' | tr '\n' ' ' | sed 's/ $//')"

# the rules file, with a host section
expect_eq "--rules: global rules and [host b.test] rules" \
"a.test/ok true -
a.test/slow false fetch_error timeout
a.test/down false status 503
a.test/logo.png false ctype image/png
b.test/empty false missing title
b.test/blocked false blocked access denied
b.test/app false js_shell 8 chars
b.test/again true -" "$(verdicts --rules "$F/rules.txt")"
cat >"$T/scalar.txt" <<'R'
[host a.test]
status 200-299,503
R
expect_eq "a host section's status replaces the global one for that host only" \
	"a.test/down true -" "$(verdicts --rules "$T/scalar.txt" | grep down)"
cat >"$T/wild.txt" <<'R'
[host *.test]
reject Widget
[global]
reject Unavailable
R
expect_eq "[host *.test] matches subdomains; [global] goes back" \
"a.test/ok false rejected /Widget/
a.test/down false status 503" "$(verdicts --rules "$T/wild.txt" | grep -E 'ok|down')"
printf '[host *.a.test]\nreject Widget\n[host A.TEST]\nreject stock\n' >"$T/bare.txt"
expect_eq "[host *.a.test] covers a.test itself; host names ignore case" \
	"a.test/ok false rejected /Widget/|b.test/blocked true -" \
	"$(verdicts --refusals off --rules "$T/bare.txt" | grep -E '/ok|blocked' | paste -sd'|' -)"
printf '[host A.TEST]\nreject stock\n' >"$T/case.txt"
expect_eq "[host A.TEST] matches host a.test" "a.test/ok false rejected /stock/" \
	"$(verdicts --rules "$T/case.txt" | grep /ok)"
expect_eq "[global] rules apply to every host" "a.test/down false rejected /Unavailable/" \
	"$(verdicts --rules "$T/wild.txt" --status any | grep down)"
echo '{"url":"x","status":200,"ctype":"text/html","title":"Widget"}' | mkrec >"$T/nohost.mp"
expect_eq "a record without host gets only the global rules" '{"accepted":true}' \
	"$("$BIN/validate" -q --json --rules "$T/wild.txt" <"$T/nohost.mp" | jq -c '{accepted}')"

# the summary
"$BIN/validate" --rules "$F/rules.txt" --summary "$T/sum.json" <"$T/pages.mp" >/dev/null 2>"$T/err"
expect_eq "--summary JSON: per host raw, accepted, rejected by reason, yield" \
'{"hosts":{"a.test":{"raw":4,"accepted":1,"rejected":3,"reasons":{"fetch_error":1,"status":1,"ctype":1},"yield":0.25},"b.test":{"raw":4,"accepted":1,"rejected":3,"reasons":{"blocked":1,"js_shell":1,"missing":1},"yield":0.25}},"total":{"raw":8,"accepted":2,"rejected":6,"reasons":{"fetch_error":1,"blocked":1,"status":1,"ctype":1,"js_shell":1,"missing":1},"yield":0.25}}' \
	"$(cat "$T/sum.json")"
expect_eq "summary on stderr" \
"validate: a.test: 4 raw, 1 accepted, 3 rejected (fetch_error 1, status 1, ctype 1), yield 25.0%
validate: b.test: 4 raw, 1 accepted, 3 rejected (blocked 1, js_shell 1, missing 1), yield 25.0%
validate: total: 8 raw, 2 accepted, 6 rejected (fetch_error 1, blocked 1, status 1, ctype 1, js_shell 1, missing 1), yield 25.0%" \
	"$(cat "$T/err")"
"$BIN/validate" -q --drop --summary "$T/sum2.json" <"$T/nohost.mp" >/dev/null 2>"$T/err"
expect_eq "-q silences the summary; --drop still counts; no host is (none)" \
	'|{"hosts":{"(none)":{"raw":1,"accepted":1,"rejected":0,"reasons":{},"yield":1}},"total":{"raw":1,"accepted":1,"rejected":0,"reasons":{},"yield":1}}' \
	"$(cat "$T/err")|$(cat "$T/sum2.json")"
"$BIN/validate" -q --summary "$T/sum3.json" </dev/null >/dev/null
expect_eq "empty input: zero summary" \
	'{"hosts":{},"total":{"raw":0,"accepted":0,"rejected":0,"reasons":{},"yield":0}}' "$(cat "$T/sum3.json")"

# usage errors
"$BIN/validate" --marker 'a(b' </dev/null >/dev/null 2>"$T/err"; rc=$?
expect_eq "a bad regex exits 64 naming the offset" \
	"64 validate: --marker: bad regex 'a(b' at offset 3: missing closing parenthesis" \
	"$rc $(head -1 "$T/err")"
"$BIN/validate" --rules "$F/bad-rule.txt" </dev/null >/dev/null 2>"$T/err"; rc=$?
expect_eq "a bad rule exits 64 naming file and line" \
	"64 validate: bad rules file: $F/bad-rule.txt:3: unknown rule 'requir'" "$rc $(head -1 "$T/err")"
"$BIN/validate" --rules "$F/bad-regex.txt" </dev/null >/dev/null 2>"$T/err"; rc=$?
expect_eq "a bad regex in a rules file exits 64 with line and offset" \
	"64 validate: bad rules file: $F/bad-regex.txt:2: bad regex '(unclosed' at offset 9: missing closing parenthesis" \
	"$rc $(head -1 "$T/err")"
"$BIN/validate" --rules "$T/missing.txt" </dev/null >/dev/null 2>&1
expect_eq "an unreadable rules file exits 66" 66 $?
# A failed read (stdin a directory) is an I/O error, not malformed input.
"$BIN/validate" -q <"$T" >/dev/null 2>"$T/err"
expect_eq "a failed read of stdin exits 74 naming the offset" \
	"74 validate: read error at byte 0: Is a directory" "$? $(cat "$T/err")"
expect_usage_errors validate "--status 299-200" "--status abc" "--min-text -1" "--max-record 0" "--bogus" "extra"
"$BIN/validate" --help >"$T/out"
expect_eq "--help prints the synopsis" "0 usage: validate [OPTION...] < records > records" "$? $(head -1 "$T/out")"
expect_eq "--help lists each option with its default" \
	"      --status RANGE[,RANGE]|      --max-record BYTES  largest input record, K/M/G suffixes (64M)" \
	"$(grep -e '--status' -e '--max-record' "$T/out" | paste -sd'|')"
"$BIN/validate" --max-record 0 </dev/null 2>"$T/err"
expect_eq "a bad value gets the one message" \
	"64 validate: invalid value '0' for --max-record: want a size of 1 or more, K/M/G suffixes" "$? $(head -1 "$T/err")"
"$BIN/validate" --version >"$T/out"
expect_match "--version names the libraries" "^0 validate [0-9.]+ .*pcre2 .*msgpack-c" "$? $(tr '\n' ' ' <"$T/out")"

# malformed input
cat "$T/pages.mp" >"$T/bad.mp"
printf '\301garbage' >>"$T/bad.mp"
size=$(wc -c <"$T/pages.mp" | tr -d ' ')
"$BIN/validate" --json --summary "$T/sum4.json" <"$T/bad.mp" >"$T/out" 2>"$T/err"; rc=$?
expect_eq "malformed stream: exit 65 after every good record" "65 8" "$rc $(records "$T/out")"
expect_eq "malformed stream: the message names the byte offset" \
	"validate: malformed record at byte $size: invalid msgpack byte" "$(tail -1 "$T/err")"
expect_eq "malformed stream: the summary is still written" 8 "$(jq .total.raw "$T/sum4.json")"
head -c "$((size - 3))" "$T/pages.mp" | "$BIN/validate" -q >/dev/null 2>"$T/err"
expect_match "truncated stream exits 65" "^65 validate: malformed record at byte [0-9]+: truncated record$" "$? $(cat "$T/err")"
head -c 100000 /dev/urandom | "$BIN/validate" -q >/dev/null 2>"$T/err"
expect_match "random bytes exit 65 with a malformed-record message" "^65 validate: malformed record at byte [0-9]+: " "$? $(cat "$T/err")"
"$BIN/validate" -q --max-record 100 <"$T/pages.mp" >/dev/null 2>"$T/err"
expect_eq "--max-record refuses a larger record" "65 validate: malformed record at byte 0: record larger than 100 bytes" "$? $(cat "$T/err")"
echo '[1,2]' | mkrec | "$BIN/validate" -q >/dev/null 2>"$T/err"
expect_eq "a non-map record is malformed" "65 validate: malformed record at byte 0: not a map" "$? $(cat "$T/err")"

# SIGTERM while waiting for input: flush what was judged, write the summary
mkfifo "$T/fifo"
"$BIN/validate" -q --summary "$T/sum5.json" <"$T/fifo" >"$T/term.mp" &
vpid=$!
python3 "$TESTS/mkrec.py" --hold 30 "$F/pages.jsonl" >"$T/fifo" 2>"$T/mkrec.err" &
ppid=$!
wait_for 20 "the producer to write its records" grep -q holding "$T/mkrec.err"
wait_for 20 "validate to read them all and wait for more" idle_reader "$vpid" "$T/fifo"
kill -TERM "$vpid"; wait "$vpid"; rc=$?
kill "$ppid" 2>/dev/null
expect_eq "SIGTERM: validate flushes every judged record, then dies of the signal" "143 8" \
	"$rc $("$BIN/validate" -q --json --status any --ctype any --require url <"$T/term.mp" | wc -l | tr -d ' ')"
expect_eq "SIGTERM: the summary is written" 8 "$(jq .total.raw "$T/sum5.json")"

# a closed stdout ends validate quietly
for i in $(seq 1 3000); do cat "$F/pages.jsonl"; done | grep -v '^#' | mkrec >"$T/many.mp"
( "$BIN/validate" -q <"$T/many.mp" 2>"$T/err"; echo $? >"$T/rc" ) | head -c 10 >/dev/null
expect_eq "closed stdout: exit 0, no message" "0|" "$(cat "$T/rc")|$(cat "$T/err")"
finish
