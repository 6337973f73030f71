# The yield guard: sink --queue counts per host the validated records it
# stored and how many were accepted; fetch --min-yield pauses a host whose
# accepted share over its last --yield-window records falls below the
# bound, while the other host goes on; --resume puts it back.  Before the
# pause the guard halves the host's rate twice, a window each (t-queue-slow
# times the steps): 40 URLs of the failing host last past the three windows.
. "$TESTS/lib.sh"
server_start
urls "$U1/ok?n=" 20 "$U2/status/404?n=" 40 >"$T/seeds.txt"
db=$T/job.db
crawl "$db" "$db" --no-robots -d 0.25 --min-yield 0.5 --yield-window 5 --stats "$T/s.json"
expect_eq "the crawl ends" 0 $?
expect_eq "--stats: the paused host's queue has aged, the done one's is empty" "true 0 {\"reason\":\"yield 0% < 50% over the last 5 stored\"}" \
	"$(jq -c '"\(.hosts["127.0.0.2"].queue_age_s > 0) \(.hosts["127.0.0.1"].queue_age_s)"' "$T/s.json" | tr -d '"') $(jq -c '.hosts["127.0.0.2"].paused' "$T/s.json")"
expect_match "the guard says which host and why" \
	"paused 127.0.0.2: yield 0% < 50% over the last 5 stored" "$(cat "$T/fetch.err")"
expect_match "and what waits for it at the end" "URLs wait for paused hosts: 127.0.0.2 [(]yield 0%" "$(cat "$T/fetch.err")"
sent=$(jq -r 'select(.addr == "127.0.0.2") | .path' "$LOG" | wc -l | tr -d ' ')
expect_cmd "the failing host was stopped early ($sent of 40 requested)" test "$sent" -ge 5 -a "$sent" -lt 40
expect_eq "the healthy host went on: all 20 done" 20 \
	"$(q "$db" "select count(*) from frontier where host = '127.0.0.1' and state = 'done'")"
expect_eq "sink counted per host: stored and accepted" "127.0.0.1|20|20" \
	"$(q "$db" "select host, stored, accepted from frontier_host where host = '127.0.0.1'")"
expect_match "--report shows the paused host and why" "127.0.0.2  yield 0% < 50% over the last 5 stored" \
	"$("$BIN/fetch" --queue "$db" --report)"

"$BIN/fetch" -q --queue "$db" --resume 127.0.0.2
crawl "$db" "$db" --no-robots -d 0.25
expect_eq "after --resume the rest is fetched" "done|60" "$(q "$db" 'select state, count(*) from frontier group by state')"
expect_eq "--min-yield needs --queue" 64 "$("$BIN/fetch" --min-yield 0.5 </dev/null >/dev/null 2>&1; echo $?)"
expect_eq "--min-yield above 1 is refused" 64 "$("$BIN/fetch" --queue "$db" --min-yield 2 </dev/null >/dev/null 2>&1; echo $?)"
finish
