# fetch --max-hosts and --stats: host state stays bounded however many
# distinct hosts the input names, and the counters add up.
. "$TESTS/lib.sh"
server_start

# 2000 distinct hosts across 127.0.0.0/8, nothing listening on port 9:
# each ends at once as a connect error.
python3 -c "
for i in range(2000): print('http://127.0.%d.%d:9/x' % (10 + i // 250, 1 + i % 250))" >"$T/hosts.txt"
"$BIN/fetch" -q --json --no-robots --retries 0 --pending 16 --max-hosts 50 --stats "$T/s.json" \
	<"$T/hosts.txt" >"$T/out.json"
expect_eq "every host's URL has its record" 2000 "$(records "$T/out.json")"
expect_eq "stats: 2000 records, 2000 requests, all connect errors" "2000 2000 2000" \
	"$(jq -r '"\(.records) \(.requests) \(.errors.connect)"' "$T/s.json")"
expect_eq "stats: every host seen" 2000 "$(jq .hosts_seen "$T/s.json")"
expect_eq "no more than --max-hosts host states are held" true "$(jq '.hosts_kept <= 50' "$T/s.json")"
expect_eq "idle hosts were evicted" true "$(jq '.hosts_evicted >= 1950' "$T/s.json")"
expect_eq "the per-host map stays bounded too" true "$(jq '.hosts | length <= 51' "$T/s.json")"
expect_eq "evicted hosts fold into other: all 2000 requests add up" "2000 2000 2000" \
	"$(jq -r '[.hosts[]] | "\(map(.records) | add) \(map(.requests) | add) \(map(.errors.connect // 0) | add)"' "$T/s.json")"

# 10 000 hosts that answer, --max-hosts 100: at the last write (nothing
# in flight then), exactly 100 host states and 100 host series in
# --metrics, not what was left since the table was last swept.
urls "http://m" 10000 | sed "s|\$|.localhost:$PORT/ok|" >"$T/m.txt"
"$BIN/fetch" -q --no-robots --max-hosts 100 --metrics "$T/m.prom" --stats "$T/m.json" <"$T/m.txt" >/dev/null
expect_eq "10 000 hosts, --max-hosts 100: 100 kept, 9 900 evicted, 100 host series and other" \
	"100 9900 101" \
	"$(jq -r '"\(.hosts_kept) \(.hosts_evicted)"' "$T/m.json") $(grep -c '^sluice_fetch_records_total{' "$T/m.prom")"

# Per host: a host answering 429 five times, a 100 ms one, a healthy one.
{
	urls "$U2/status/429?n=" 5
	urls "$U3/slow?ms=100&n=" 10
	echo "$U1/ok"
} >"$T/mix.txt"
"$BIN/fetch" -q --no-robots --retries 0 --no-adapt --stats "$T/mix.json" <"$T/mix.txt" >/dev/null
expect_eq "a host answering 429 five times shows \"429\": 5" '{"429":5}' \
	"$(jq -c '.hosts["127.0.0.2"].status' "$T/mix.json")"
expect_eq "its counts: 5 records, starts, requests, no retries" "5 5 5 0 0" \
	"$(jq -r '.hosts["127.0.0.2"] | "\(.records) \(.starts) \(.requests) \(.retries) \(.in_flight)"' "$T/mix.json")"
expect_eq "its errors: retries_exhausted is a record's word, not an attempt's" '{}' \
	"$(jq -c '.hosts["127.0.0.2"].errors' "$T/mix.json")"
p50=$(jq '.hosts["127.0.0.3"].latency_ms.p50' "$T/mix.json")
expect_cmd "a 100 ms endpoint shows p50 near 100 ms ($p50)" holds "$p50 >= 95 && $p50 < 200"
expect_cmd "and a fast one well below it" \
	holds "$(jq '.hosts["127.0.0.1"].latency_ms.p99' "$T/mix.json") < 95"
expect_eq "state per host: interval and pause; no queue age outside --queue" "0 null null" \
	"$(jq -r '.hosts["127.0.0.1"] | "\(.interval_s) \(.paused) \(.queue_age_s)"' "$T/mix.json")"

# An evicted host that comes back starts afresh: robots.txt again.  The
# input (a fifo this script writes) pauses until page/1's record is out
# (its host idle) before 60 other hosts push the count past --max-hosts 10.
python3 -c "
for i in range(60): print('http://127.0.%d.%d:9/x' % (10 + i // 250, 1 + i % 250))" >"$T/others.txt"
mkfifo "$T/evict.in"
"$BIN/fetch" -q --retries 0 --pending 4 --max-hosts 10 <"$T/evict.in" >"$T/evict.out" &
f=$!
exec 3>"$T/evict.in"
echo "$URL/page/1" >&3
wait_for 20 "page/1's record" test -s "$T/evict.out"
cat "$T/others.txt" >&3
echo "$URL/page/2" >&3
exec 3>&-
wait $f
expect_eq "a host evicted between its URLs fetches robots.txt again" 2 "$(count '^/robots[.]txt$')"

# The counters of an ordinary run.
: >"$LOG"
printf '%s\n' "$URL/ok" "$URL/status/404" "$URL/status/503" "bad url" >"$T/mix.txt"
"$BIN/fetch" -q --json --no-robots --retries 1 --backoff 0.05 --stats "$T/m.json" <"$T/mix.txt" >"$T/mix.json"
expect_eq "stats: records and requests (503 retried once, bad url never asked)" "4 4" "$(jq -r '"\(.records) \(.requests)"' "$T/m.json")"
expect_eq "stats: records by status class" '{"none":1,"1xx":0,"2xx":1,"3xx":0,"4xx":1,"5xx":1}' "$(jq -c .status "$T/m.json")"
expect_eq "stats: errors by word" '{"bad_url":1,"retries_exhausted":1}' "$(jq -c '.errors | to_entries | sort_by(.key) | from_entries' "$T/m.json")"
expect_eq "stats: bytes are the sum of the records' bytes" "$(jq -s 'map(.bytes // 0) | add' "$T/mix.json")" "$(jq .bytes "$T/m.json")"
finish
