# Pausing a host by hand while other hosts go on: --pause/--resume on a
# queue job (seen by a running fetch within 2 s), and pause=on in a
# --policy re-read on SIGHUP in list mode.
. "$TESTS/lib.sh"
server_start
# 80 URLs of 127.0.0.1 take 8 s at -d 0.1: it has work throughout the pause.
{ urls "$U1/ok?a=" 80; urls "$U2/ok?b=" 30; } >"$T/seeds.txt"
db=$T/job.db
first() { jq -r --arg a "$1" --argjson from "$2" 'select(.addr == $a and .t >= $from and .path != "/robots.txt") | .t' "$LOG" | sort -n | head -1; }
# went_ge ADDR N: the log has at least N requests at ADDR
went_ge() { [ "$(between "$1" 0 9999999999)" -ge "$2" ]; }
between() { jq -r --arg a "$1" --argjson from "$2" --argjson to "$3" 'select(.addr == $a and .t >= $from and .t < $to and .path != "/robots.txt") | .t' "$LOG" | wc -l | tr -d ' '; }

( "$BIN/fetch" -q --queue "$db" --no-robots -d 0.1 "$T/seeds.txt" |
	"$BIN/sink" -q --queue "$db" "$db" ) 2>"$T/run.err" &
run=$!
# The job is seeded and both hosts are being fetched.
wait_for 20 "a first request at 127.0.0.2" grep -q '"addr": "127.0.0.2"' "$LOG"
pause_at=$(now)
"$BIN/fetch" --queue "$db" --pause 127.0.0.2 2>"$T/pause.err"
expect_eq "--pause exits 0" 0 $?
expect_match "and says so" "paused 127.0.0.2" "$(cat "$T/pause.err")"
# Not a wait for a state: the window checked below (from 2 s after the
# pause to the resume) must be long enough to show the host stays idle.
sleep 2.5
report=$("$BIN/fetch" --queue "$db" --report)
expect_match "--report lists the paused host and why" "127.0.0.2  paused by hand" "$report"
resume_at=$(now)
"$BIN/fetch" -q --queue "$db" --resume 127.0.0.2
wait_for 30 "the paused job to finish" gone $run || kill $run
wait $run

expect_eq "the paused host got no request from 2 s after the pause to the resume" 0 \
	"$(between 127.0.0.2 "$(echo "$pause_at + 2" | bc)" "$resume_at")"
# -d 0.1: the healthy host's rate is 10 starts a second, pause or not.
went=$(between 127.0.0.1 "$pause_at" "$resume_at")
expect_cmd "the other host kept its rate meanwhile ($went starts in $(echo "$resume_at - $pause_at" | bc) s)" \
	holds "$went >= ($resume_at - $pause_at) * 10 * 0.7"
back=$(first 127.0.0.2 "$resume_at")
expect_cmd "the paused host starts again within 2 s of --resume ($(echo "${back:-99} - $resume_at" | bc) s)" \
	holds "${back:-99} - $resume_at < 2"
expect_eq "every URL is done, each stored once" "done|110 110" \
	"$(q "$db" "select state, count(*) from frontier group by state") $(q "$db" 'select count(distinct url) from pages')"
expect_eq "no URL was fetched twice" "" \
	"$(jq -r 'select(.path != "/robots.txt") | "\(.addr)\(.path)"' "$LOG" | sort | uniq -d)"

# A job whose remaining URLs all belong to a paused host ends and says so.
urls "$U1/ok?c=" 30 "$U2/ok?c=" 30 >"$T/seeds2.txt"
db2=$T/job2.db
"$BIN/fetch" -q --queue "$db2" --no-robots </dev/null >/dev/null   # creates the job
"$BIN/fetch" -q --queue "$db2" --pause 127.0.0.2
timeout 30 "$BIN/fetch" --queue "$db2" --no-robots "$T/seeds2.txt" 2>"$T/held.err" |
	timeout 30 "$BIN/sink" -q --queue "$db2" "$db2"
expect_eq "it ends with the other host done and the paused one pending" "127.0.0.1|done|30 127.0.0.2|pending|30" \
	"$(q "$db2" 'select host, state, count(*) from frontier group by host, state' | tr '\n' ' ' | sed 's/ $//')"
expect_match "naming what waits" "30 URLs wait for paused hosts: 127.0.0.2 [(]paused by hand[)]" "$(cat "$T/held.err")"
expect_eq "--resume of a host not paused says so" "fetch: 127.0.0.1 was not paused" \
	"$("$BIN/fetch" --queue "$db2" --resume 127.0.0.1 2>&1)"
expect_eq "--pause needs --queue" 64 "$("$BIN/fetch" --pause x </dev/null >/dev/null 2>&1; echo $?)"

# List mode: pause=on in --policy, lifted by SIGHUP after editing the file;
# a policy that no longer reads is refused and the old one kept.
: >"$LOG"
printf '127.0.0.2 pause=on\n' >"$T/policy"
urls "$U1/ok?d=" 10 "$U2/ok?e=" 10 >"$T/list.txt"
"$BIN/fetch" --json --no-robots --policy "$T/policy" "$T/list.txt" >"$T/list.out" 2>"$T/list.err" &
f=$!
# fetch is running (its SIGHUP handler set) and has done the free host.
wait_for 20 "10 requests at 127.0.0.1" went_ge 127.0.0.1 10
printf '127.0.0.2 pause=maybe\n' >"$T/policy"
kill -HUP $f
wait_for 20 "fetch to refuse the bad policy" grep -q 'keeping the policy in use' "$T/list.err"
expect_match "a bad policy on SIGHUP is refused" "bad setting 'pause=maybe'.*keeping the policy in use" "$(cat "$T/list.err")"
kill -0 $f
expect_eq "and fetch goes on" 0 $?
expect_eq "the held host waits, the other is done" "10 0" \
	"$(between 127.0.0.1 0 9999999999) $(between 127.0.0.2 0 9999999999)"
hup_at=$(now)
printf '127.0.0.2 pause=off\n' >"$T/policy"
kill -HUP $f
wait_for 20 "fetch to end after the SIGHUP" gone $f || kill $f
wait $f
expect_eq "after SIGHUP the held host is fetched: every record" 20 "$(jq -r 'select(.status == 200) | .url' "$T/list.out" | wc -l | tr -d ' ')"
expect_eq "none of its requests came before the SIGHUP" 0 "$(between 127.0.0.2 0 "$hup_at")"
finish
