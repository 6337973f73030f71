# --on-alert CMD: a command that appends its SLUICE_ environment to a
# file runs once for a host answering 429 to half its requests, and once
# for a host whose breaker opens (three times), within --alert-every; with
# --alert-every 0 the same crawl runs it more than once, so the once
# above is the interval's doing.  The command gets no secret of fetch's
# environment, runs with stdin from /dev/null and writes nothing into
# the record stream.
. "$TESTS/lib.sh"
server_start
urls "$U2/status/429?n=" 20 "$U2/ok?n=" 20 "$U1/ok?n=" 20 >"$T/half429.txt"
# One line per run: rule, host, value, whether a secret of fetch's
# environment came through, what stdin gave; then the message.
cmd="printf '%s|%s|%s|%s|%s|%s\n' \"\$SLUICE_RULE\" \"\$SLUICE_HOST\" \"\$SLUICE_VALUE\" \"\${API_TOKEN-unset}\" \"\$(cat)\" \"\$SLUICE_MESSAGE\" >>'$T/alerts'; echo said-by-cmd"

# -p 1: the host's answers come in the order asked, so the first window
# of 20 holds exactly 10 429s.
API_TOKEN=s3cret "$BIN/fetch" --no-robots -p 1 --retries 0 --no-adapt --json --stats "$T/s.json" \
	--on-alert "$cmd" "$T/half429.txt" >"$T/out" 2>"$T/err"
expect_eq "the crawl ends" 0 $?
expect_eq "fetch started the command once" '{"run":1,"dropped":0,"failed":0}' "$(jq -c .alerts "$T/s.json")"
wait_for 20 "the command's line" lines_ge 1 "$T/alerts"
expect_eq "once, for the host answering 429 to half, with rule, host and share; no secret, empty stdin" \
	"429|127.0.0.2|0.5|unset||127.0.0.2: 429 to 10 of its last 20 answers (0.50, --alert-429 0.5)" \
	"$(cat "$T/alerts")"
expect_eq "the record stream has only records" 60 "$(jq -r .url "$T/out" | grep -c "^http")"
expect_match "the alert is said on stderr" "^fetch: alert 429: 127.0.0.2: 429 to 10 of its last 20" "$(cat "$T/err")"
expect_match "the command's output goes to stderr" "said-by-cmd" "$(cat "$T/err")"

# Without the interval the share stays at 0.5 over each later window:
# the rule trips again and again.
: >"$T/alerts"
"$BIN/fetch" -q --no-robots --retries 0 --no-adapt --stats "$T/s.json" --alert-every 0 \
	--on-alert "$cmd" "$T/half429.txt" >/dev/null 2>"$T/err"
runs=$(jq .alerts.run "$T/s.json")
expect_cmd "--alert-every 0: the command runs more than once ($runs)" test "$runs" -gt 1
wait_for 20 "$runs lines" lines_ge "$runs" "$T/alerts"
# At most 4 run at once: a burst beyond is dropped, counted and said.
dropped=$(jq .alerts.dropped "$T/s.json")
if [ "$dropped" -gt 0 ]; then
	expect_match "a dropped alert is said" "alert 429 for 127.0.0.2 dropped: 4 alert commands still run" "$(cat "$T/err")"
fi
expect_eq "--alert-429 0: the rule is off" 0 \
	"$("$BIN/fetch" -q --no-robots --retries 0 --no-adapt --stats "$T/s.json" --alert-429 0 \
		--on-alert "$cmd" "$T/half429.txt" >/dev/null 2>&1; jq .alerts.run "$T/s.json")"

# The breaker: 503s in a row; three failures trip it, 12 URLs trip it
# three times (a pause of 0.1 s, doubling, each time).
urls "$U3/status/503?n=" 12 >"$T/down.txt"
: >"$T/alerts"
"$BIN/fetch" --no-robots --no-adapt --retries 0 --host-failures 3 --host-pause 0.1 --stats "$T/s.json" \
	--on-alert "$cmd" "$T/down.txt" >/dev/null 2>"$T/err"
expect_eq "the breaker opened 3 times: the command ran once" 1 "$(jq .alerts.run "$T/s.json")"
wait_for 20 "the breaker's line" lines_ge 1 "$T/alerts"
expect_eq "rule breaker, the host, the trip" \
	"breaker|127.0.0.3|1|unset||127.0.0.3: circuit breaker open after 3 failures in a row (trip 1)" \
	"$(cat "$T/alerts")"

# A command that fails is said, and counted.
"$BIN/fetch" --no-robots --no-adapt --retries 0 --host-failures 3 --host-pause 0.1 --stats "$T/s.json" \
	--on-alert "exit 3" "$T/down.txt" >/dev/null 2>"$T/err"
expect_eq "a failing command is counted" '{"run":1,"dropped":0,"failed":1}' "$(jq -c .alerts "$T/s.json")"
expect_match "and said" "alert command breaker for 127.0.0.3: exited 3" "$(cat "$T/err")"

# Rule lag: fetch stopped (SIGSTOP) for a second, its event loop's timer
# runs that late; the rule is of fetch as a whole, SLUICE_HOST empty.
: >"$T/alerts"
mkfifo "$T/in"
"$BIN/fetch" --alert-lag 0.5 --stats "$T/s.json" --on-alert "$cmd" <"$T/in" >/dev/null 2>"$T/err" &
pid=$!
exec 3>"$T/in"   # fetch waits for input, its loop idle
wait_for 20 "fetch's loop to wait for input" idle_reader $pid "$T/in"
kill -STOP $pid
sleep 1   # the time is the test: how long the loop is held
kill -CONT $pid
wait_for 20 "the lag alert's line" lines_ge 1 "$T/alerts"
exec 3>&-
wait $pid
expect_match "rule lag, no host, a second or so late" "^lag\|\|(0\.[5-9]|[1-9])[0-9.]*\|unset\|\|event loop [0-9]+ ms late [(]--alert-lag 0.5 s[)]$" \
	"$(cat "$T/alerts")"
expect_match "said on stderr" "fetch: alert lag: event loop [0-9]+ ms late" "$(cat "$T/err")"

expect_usage_errors fetch "--alert-429 2" "--alert-every soon" "--alert-lag -1"
# Nothing outlives fetch: a command that would run a minute is ended
# --alert-grace (1 s) after the crawl, with its process group, so a
# pipe on fetch's stderr closes; and it got no descriptor of fetch's
# (no socket, no libcurl wakeup pair), only stdin, stdout and stderr.
urls "$U2/status/429?g=" 20 >"$T/g429.txt"
cmd="ls -l /proc/\$\$/fd >'$T/fds'; sleep 60"
t0=$(now)
lines=$("$BIN/fetch" --no-robots -p 1 --retries 0 --no-adapt --alert-grace 1 --on-alert "$cmd" \
	"$T/g429.txt" 2>&1 | wc -l)
took=$(since "$t0")
expect_cmd "the pipe on fetch's output and stderr ends within --alert-grace and a little ($took s)" \
	holds "$took < 5"
expect_eq "the command's sleep is gone" "" "$(pgrep -f "sleep 60" || true)"
expect_match "fetch said it ended the command" "alert commands still run after --alert-grace 1 s: ending them" \
	"$("$BIN/fetch" --no-robots -p 1 --retries 0 --no-adapt --alert-grace 1 --on-alert "$cmd" "$T/g429.txt" 2>&1 >/dev/null)"
expect_eq "the command had no socket of fetch's" 0 "$(grep -c socket "$T/fds")"
expect_match "... and its stdin, stdout and stderr" "0 -> /dev/null" "$(cat "$T/fds")"
finish
