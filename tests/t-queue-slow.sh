# The yield guard slows a host down before pausing it: below --min-yield
# over a window of stored records, the host's rate is halved; still below
# over the next window, halved again (x0.25); still below, it is paused.
# Judged at the server: the gaps between the host's requests grow about
# 2x, then 4x, then no request comes.  Each step is said on stderr (timed
# here as it comes), counted in --stats, shown by --report, and runs the
# --on-alert command: once for the halvings (rule yield, once per
# --alert-every), and always for the pause (rule paused).
# run.sh: alone
. "$TESTS/lib.sh"
server_start
urls "$U1/ok?n=" 10 "$U2/status/404?n=" 40 >"$T/seeds.txt"
db=$T/job.db
mkfifo "$T/err.fifo"
# Each stderr line with the time it came (the server's log has its own).
while IFS= read -r l; do printf '%s %s\n' "$(now)" "$l"; done <"$T/err.fifo" >"$T/err.t" &
stamper=$!
cmd="printf '%s|%s|%s\n' \"\$SLUICE_RULE\" \"\$SLUICE_HOST\" \"\$SLUICE_VALUE\" >>'$T/alerts'"
( timeout 120 "$BIN/fetch" --queue "$db" --no-robots -d 0.2 --no-adapt --min-yield 0.5 --yield-window 5 \
	--stats "$T/s.json" --on-alert "$cmd" "$T/seeds.txt" 2>"$T/err.fifo" |
	"$BIN/parse" -q | "$BIN/validate" -q | "$BIN/sink" -q --queue "$db" "$db" ) &
run=$!
wait_for 60 "the first halving" grep -q "rate halved (" "$T/err.t"
slowed() { "$BIN/fetch" --queue "$db" --report | grep -A1 "^slowed hosts:" | grep -q "$1"; }
wait_for 20 "--report to list the slowed host" slowed "127.0.0.2  rate x0.5: yield 0% < 50% over the last 5 stored"
wait_for 60 "the crawl to end" gone $run
wait $run
expect_eq "the crawl ends" 0 $?
wait "$stamper"

at() { grep -m1 "$1" "$T/err.t" | cut -d' ' -f1; }
t1=$(at "^[0-9.]* fetch: 127.0.0.2: yield 0.00 below 0.5: rate halved (interval 0.4")
t2=$(at "^[0-9.]* fetch: 127.0.0.2: yield 0.00 below 0.5: rate halved again, x0.25 (interval 0.8")
t3=$(at "^[0-9.]* fetch: paused 127.0.0.2: yield 0% < 50% over the last 5 stored")
expect_cmd "each step said on stderr, in order ($t1 $t2 $t3)" test -n "$t1" -a -n "$t2" -a -n "$t3"
# The gaps between requests to the host, each with the phase its first
# request began in; a request sent up to 0.1 s before a step may be
# logged just after it, so such gaps count for neither phase.
phases=$(jq -s --argjson t1 "${t1:-0}" --argjson t2 "${t2:-0}" --argjson t3 "${t3:-0}" '
	def median: sort | if length == 0 then null else .[length / 2 | floor] end;
	[.[] | select(.addr == "127.0.0.2") | .t] | sort as $t
	| [range(1; $t | length) as $i | {from: $t[$i - 1], gap: ($t[$i] - $t[$i - 1])}] as $g
	| def within(a; b): [$g[] | select(.from >= a + 0.1 and .from < b) | .gap];
	{a: within(-1; $t1), b: within($t1; $t2), c: within($t2; $t3),
	 after: [$t[] | select(. >= $t3 + 1)] | length}
	| {a: (.a | median), b: (.b | median), c: (.c | median), nb: (.b | length), nc: (.c | length),
	   bmin: (.b | min), cmin: (.c | min), after}' "$LOG")
echo "# gaps (median s): $(echo "$phases" | jq -c .)"
v() { echo "$phases" | jq -r ".$1"; }
# Generous bounds: a loaded machine makes gaps longer, never shorter.
expect_cmd "before: about -d 0.2 ($(v a) s)" awk -v a="$(v a)" 'BEGIN { exit !(a >= 0.18 && a < 0.35) }'
expect_cmd "halved: gaps about 2x ($(v b) s, the least $(v bmin), $(v nb) gaps)" \
	awk -v a="$(v a)" -v b="$(v b)" -v m="$(v bmin)" -v n="$(v nb)" \
	'BEGIN { exit !(n >= 2 && m >= 0.35 && b / a >= 1.5 && b / a < 3) }'
expect_cmd "halved again: gaps about 4x ($(v c) s, the least $(v cmin), $(v nc) gaps)" \
	awk -v a="$(v a)" -v c="$(v c)" -v m="$(v cmin)" -v n="$(v nc)" \
	'BEGIN { exit !(n >= 2 && m >= 0.7 && c / a >= 3 && c / a < 6) }'
expect_eq "paused: no request a second after" 0 "$(v after)"
sent=$(jq -r 'select(.addr == "127.0.0.2") | .path' "$LOG" | wc -l | tr -d ' ')
expect_cmd "the failing host was stopped early ($sent of 40 requested)" test "$sent" -lt 40
expect_eq "--stats counts the steps per host, the other host untouched" "2 1 0 0 1" \
	"$(jq -r '[.hosts["127.0.0.2"].yield_halved, .hosts["127.0.0.2"].yield_paused,
		.hosts["127.0.0.1"].yield_halved, .hosts["127.0.0.1"].yield_paused,
		.hosts["127.0.0.1"].rate_factor] | join(" ")' "$T/s.json")"
expect_match "--report shows the pause and why" "127.0.0.2  yield 0% < 50% over the last 5 stored" \
	"$("$BIN/fetch" --queue "$db" --report | grep -A1 '^paused hosts:')"
wait_for 20 "the alert command's two lines" lines_ge 2 "$T/alerts"
expect_eq "the alert command ran twice for the host: rule yield (the second halving within --alert-every is not), rule paused" \
	"yield|127.0.0.2|0 paused|127.0.0.2|0" "$(tr '\n' ' ' <"$T/alerts" | sed 's/ $//')"

# A host whose yield recovers gets its rate back, a step a window: 10
# rejected pages, then 40 accepted ones.
{ urls "$U3/status/404?r=" 10; urls "$U3/ok?r=" 40; } >"$T/recover.txt"
timeout 120 "$BIN/fetch" --queue "$T/r.db" --no-robots -d 0.1 --no-adapt --min-yield 0.5 --yield-window 5 \
	--stats "$T/r.json" "$T/recover.txt" 2>"$T/r.err" |
	"$BIN/parse" -q | "$BIN/validate" -q | "$BIN/sink" -q --queue "$T/r.db" "$T/r.db"
expect_match "slowed while its pages were rejected" "127.0.0.3: yield 0.[0-4][0-9] below 0.5: rate halved" "$(cat "$T/r.err")"
expect_match "back in full once they were accepted" "127.0.0.3: yield [01].[0-9]* back at 0.5: rate back in full" "$(cat "$T/r.err")"
expect_eq "all fetched, none paused; the rate factor 1 at the end" "50 0 1" \
	"$(jq -r '[.hosts["127.0.0.3"].records, .hosts["127.0.0.3"].yield_paused, .hosts["127.0.0.3"].rate_factor] | join(" ")' "$T/r.json")"
expect_eq "--report lists no slowed host" "" \
	"$("$BIN/fetch" --queue "$T/r.db" --report | sed -n '/^slowed hosts:/,/^oldest/p' | grep '^  ')"
finish
