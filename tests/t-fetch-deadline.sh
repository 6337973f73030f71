# --max-elapsed is a deadline for every URL: those waiting in a failing
# host's queue, waiting to retry or paused by the breaker end by it, while
# a healthy host's URLs are unaffected; a long polite queue behind a
# healthy host is not cut by it.
. "$TESTS/lib.sh"
server_start
{ urls "$U2/status/503?n=" 30; urls "$U1/ok?n=" 20; } >"$T/urls.txt"

# The case of issue 11: by the old rules the failing host's URLs took hours.
t0=$(now)
timeout 60 "$BIN/fetch" -q --json --no-robots --retries 1 --backoff 0.05 --host-failures 3 \
	--host-pause 3 --max-elapsed 6 -d 0.05 "$T/urls.txt" >"$T/out.jsonl"
expect_eq "fetch ends" 0 $?
took=$(since "$t0")
expect_cmd "all 50 records within about 7 s ($took s)" holds "$took < 8"
expect_eq "one record per URL" 50 "$(jq -r .url "$T/out.jsonl" | sort -u | wc -l | tr -d ' ')"
expect_eq "the healthy host's URLs all succeed" 20 \
	"$(jq -r 'select(.host == "127.0.0.1" and .status == 200 and .error == null) | .url' "$T/out.jsonl" | wc -l | tr -d ' ')"
expect_eq "every failing-host URL ends with its last error or deadline" 30 \
	"$(jq -r 'select(.host == "127.0.0.2") | select((.error == "retries_exhausted" and .status == 503) or (.error == "deadline" and .attempts == 0)) | .url' "$T/out.jsonl" | wc -l | tr -d ' ')"
expect_cmd "some never started and say so" \
	test "$(jq -r 'select(.error == "deadline") | .error_detail' "$T/out.jsonl" | grep -c 'not started within --max-elapsed (6 s)')" -gt 0
healthy_end=$(jq -r 'select(.path | startswith("/ok")) | .t' "$LOG" | sort -n | tail -1)
expect_cmd "the healthy host was not held back (done $(echo "$healthy_end - $t0" | bc) s in)" \
	holds "$healthy_end - $t0 < 3"
# The breaker's pause (3 s, doubling) and the learnt interval stay within
# the deadline: no request to the failing host after it.
last=$(jq -r 'select(.addr == "127.0.0.2") | .t' "$LOG" | sort -n | tail -1)
expect_cmd "no request after the deadline ($(echo "$last - $t0" | bc) s)" \
	holds "$last - $t0 < 6.5"

# A healthy, polite host: 12 URLs at 0.5 s apart take 5.5 s, longer than
# --max-elapsed 2; waiting behind the host's own pacing costs nothing.
urls "$U3/ok?slow=" 12 >"$T/polite.txt"
timeout 60 "$BIN/fetch" -q --json --no-robots -d 0.5 --max-elapsed 2 "$T/polite.txt" >"$T/polite.jsonl"
expect_eq "a polite queue longer than --max-elapsed is fetched whole" 12 \
	"$(jq -r 'select(.status == 200 and .error == null) | .url' "$T/polite.jsonl" | wc -l | tr -d ' ')"

# A retry whose wait would pass the deadline is not made: one 503, then
# the deadline comes before the host's next allowed start (-d 3).
echo "$U2/status/503?one" | timeout 30 "$BIN/fetch" -q --json --no-robots -d 3 --backoff 0.01 --max-elapsed 1 >"$T/one.jsonl"
expect_eq "a retry past the deadline ends the URL with its last answer" "1 503 retries_exhausted" \
	"$(jq -r '"\(.attempts) \(.status) \(.error)"' "$T/one.jsonl")"
expect_match "and says why" "max-elapsed [(]1 s[)] passed before attempt 2" "$(jq -r .error_detail "$T/one.jsonl")"
finish
