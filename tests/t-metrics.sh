# fetch --metrics and sink --metrics (Prometheus's text format, read back
# by promtool and by python3-prometheus-client's parser), sink --stats
# (per host accepted, rejected by reason, accepted/s), and fetch's status
# line with --sink-stats.
. "$TESTS/lib.sh"
server_start

# prom FILE: the samples of FILE as one JSON object, "name{k=v,...}" ->
# value, labels sorted, as Prometheus's own Python parser reads them
# (Debian's python3-prometheus-client: /usr/bin/python3).
prom() {
	/usr/bin/python3 - "$1" <<'PY'
import json, sys
from prometheus_client.parser import text_string_to_metric_families
out = {}
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        labels = ",".join("%s=%s" % kv for kv in sorted(s.labels.items()))
        out["%s{%s}" % (s.name, labels)] = s.value
print(json.dumps(out))
PY
}
# v JSON KEY: one sample's value, as an integer (0 when absent)
v() { printf "%s\n" "$1" | jq -r --arg k "$2" '.[$k] // 0 | floor'; }
# promtool_ok FILE: promtool check metrics finds nothing, errors or lint
promtool_ok() { out=$(promtool check metrics <"$1" 2>&1) && [ -z "$out" ] || { echo "$out"; return 1; }; }

# --- fetch: exact counters against the server's request log ---
CLOSED=$(closed_port)
{
	urls "$U1/ok?n=" 3
	urls "$U1/status/404?n=" 2
	echo "$U2/status/503"
	echo "$U3/ok"
	echo "http://127.0.0.1:$CLOSED/x"
} >"$T/mix.txt"
"$BIN/fetch" -q --no-robots --retries 0 --metrics "$T/f.prom" <"$T/mix.txt" >/dev/null
expect_eq "fetch: promtool check metrics accepts the file, no lint" "" "$(promtool_ok "$T/f.prom")"
P=$(prom "$T/f.prom")
expect_eq "fetch: requests by host and status match the server's log" \
	"$(count '^/ok') $(count '^/status/404') $(count '^/status/503') 1 1" \
	"$(( $(v "$P" 'sluice_fetch_requests_total{host=127.0.0.1,status=200}') + $(v "$P" 'sluice_fetch_requests_total{host=127.0.0.3,status=200}') )) $(v "$P" 'sluice_fetch_requests_total{host=127.0.0.1,status=404}') $(v "$P" 'sluice_fetch_requests_total{host=127.0.0.2,status=503}') $(v "$P" 'sluice_fetch_requests_total{host=127.0.0.1,status=none}') $(v "$P" 'sluice_fetch_errors_total{error=connect,host=127.0.0.1}')"
expect_eq "fetch: answered requests add up to the log's $(records "$LOG")" \
	"$(records "$LOG")" \
	"$(printf "%s\n" "$P" | jq '[to_entries[] | select(.key | test("^sluice_fetch_requests_total.*status=[0-9]")) | .value] | add | floor')"
expect_eq "fetch: records by host: 6, 1, 1, other 0" "6 1 1 0" \
	"$(v "$P" 'sluice_fetch_records_total{host=127.0.0.1}') $(v "$P" 'sluice_fetch_records_total{host=127.0.0.2}') $(v "$P" 'sluice_fetch_records_total{host=127.0.0.3}') $(v "$P" 'sluice_fetch_records_total{host=other}')"
expect_eq "fetch: the duration histogram counts every request, +Inf too" "8 8" \
	"$(v "$P" 'sluice_fetch_request_duration_seconds_count{}') $(v "$P" 'sluice_fetch_request_duration_seconds_bucket{le=+Inf}')"
expect_match "fetch: HELP and TYPE lines" '^# TYPE sluice_fetch_request_duration_seconds histogram$' \
	"$(grep TYPE "$T/f.prom")"

# --- fetch: hosts above --max-hosts fold into other ---
python3 -c "
for i in range(30): print('http://127.0.9.%d:9/x' % (1 + i))" >"$T/hosts.txt"
"$BIN/fetch" -q --retries 0 --no-robots --pending 2 --max-hosts 5 --metrics "$T/h.prom" \
	<"$T/hosts.txt" >/dev/null
expect_eq "fetch --max-hosts: promtool accepts it" "" "$(promtool_ok "$T/h.prom")"
P=$(prom "$T/h.prom")
expect_eq "fetch --max-hosts 5: at most 5 hosts and other have series" true \
	"$(printf "%s\n" "$P" | jq '[keys[] | select(startswith("sluice_fetch_records_total"))] | length <= 6')"
expect_eq "fetch --max-hosts: other holds the evicted hosts' records, all 30 add up" "true 30 30" \
	"$(printf "%s\n" "$P" | jq -r '(."sluice_fetch_records_total{host=other}" > 0 | tostring) + " " +
		([to_entries[] | select(.key | startswith("sluice_fetch_records_total")) | .value] | add | floor | tostring) + " " +
		([to_entries[] | select(.key | startswith("sluice_fetch_errors_total")) | .value] | add | floor | tostring)')"

# --- sink: --stats and --metrics against the rows stored ---
cat >"$T/recs.jsonl" <<'J'
{"url": "http://a.test/1", "host": "a.test", "status": 200, "accepted": true}
{"url": "http://a.test/2", "host": "a.test", "status": 200, "accepted": true}
{"url": "http://a.test/3", "host": "a.test", "status": 503, "accepted": false, "reason": "status 503"}
{"url": "http://a.test/4", "host": "a.test", "status": 500, "accepted": false, "reason": "status 500"}
{"url": "http://a.test/5", "host": "a.test", "status": 200, "accepted": false, "reason": "missing title"}
{"url": "http://b.test/1", "host": "b.test", "status": 200, "accepted": true}
{"url": "http://b.test/2", "host": "b.test", "status": 200}
{"url": "http://c.test/1", "host": "we\"ird\\host", "status": 200, "accepted": false, "reason": "rejected /Access Denied/"}
{"host": "a.test", "accepted": true}
J
mkrec "$T/recs.jsonl" | "$BIN/sink" -q --stats "$T/s.json" --metrics "$T/s.prom" "$T/p.db" 2>/dev/null
S=$T/s.json
expect_eq "sink --stats: totals stored, accepted, rejected, unvalidated, skipped" "8 3 4 1 1" \
	"$(jq -r '"\(.stored) \(.accepted) \(.rejected) \(.unvalidated) \(.skipped)"' "$S")"
expect_eq "sink --stats: a.test's counts and reasons by first word" \
	'{"stored":5,"accepted":2,"rejected":3,"unvalidated":0,"reasons":{"status":2,"missing":1}}' \
	"$(jq -c '.hosts["a.test"] | {stored, accepted, rejected, unvalidated, reasons}' "$S")"
expect_eq "sink --stats: per-host counts match the rows stored" \
	"$(q "$T/p.db" "select host, sum(accepted = 1), sum(accepted = 0), count(*) from pages group by host order by host" | tr '\n' ' ')" \
	"$(jq -r '.hosts | to_entries[] | select(.key != "other") | "\(.key)|\(.value.accepted)|\(.value.rejected)|\(.value.stored)"' "$S" | sort | tr '\n' ' ')"
expect_eq "sink --stats: commit latency measured" true \
	"$(jq '.commit_ms.commits >= 1 and .commit_ms.max > 0 and .commit_ms.p50 <= .commit_ms.max' "$S")"
expect_eq "sink: promtool check metrics accepts the file, no lint" "" "$(promtool_ok "$T/s.prom")"
P=$(prom "$T/s.prom")
expect_eq "sink --metrics: records by outcome match the rows" \
	"$(q "$T/p.db" "select sum(accepted = 1), sum(accepted = 0), sum(accepted is null) from pages where host = 'a.test'") $(q "$T/p.db" "select count(*) from pages where host = 'b.test' and accepted is null")" \
	"$(v "$P" 'sluice_sink_records_total{host=a.test,outcome=accepted}')|$(v "$P" 'sluice_sink_records_total{host=a.test,outcome=rejected}')|$(v "$P" 'sluice_sink_records_total{host=a.test,outcome=unvalidated}') $(v "$P" 'sluice_sink_records_total{host=b.test,outcome=unvalidated}')"
expect_eq "sink --metrics: rejected by reason" "2 1" \
	"$(v "$P" 'sluice_sink_rejected_total{host=a.test,reason=status}') $(v "$P" 'sluice_sink_rejected_total{host=a.test,reason=missing}')"
expect_eq "sink --metrics: a label value with \" and \\ reads back as it was" 1 \
	"$(v "$P" 'sluice_sink_rejected_total{host=we"ird\host,reason=rejected}')"
expect_eq "sink --metrics: the commit histogram's count is the commits" \
	"$(jq .commit_ms.commits "$S")" "$(v "$P" 'sluice_sink_commit_duration_seconds_count{}')"

# --- sink --max-hosts: the least recently seen fold into other ---
mkrec "$T/recs.jsonl" | "$BIN/sink" -q --max-hosts 2 --stats "$T/s2.json" --metrics "$T/s2.prom" \
	"$T/p2.db" 2>/dev/null
expect_eq "sink --max-hosts 2: 2 hosts kept, a.test folded into other" \
	'2 1 ["b.test","other","we\"ird\\host"] 5 2' \
	"$(jq -c -r '"\(.hosts_kept) \(.hosts_evicted) \(.hosts | keys) \(.hosts.other.stored) \(.hosts.other.accepted)"' "$T/s2.json")"
expect_eq "sink --max-hosts: promtool accepts it" "" "$(promtool_ok "$T/s2.prom")"
expect_eq "sink --max-hosts: other's series in the metrics too" 2 \
	"$(v "$(prom "$T/s2.prom")" 'sluice_sink_records_total{host=other,outcome=accepted}')"

# --- accepted/s on a paced host, and on fetch's status line ---
urls "$U1/page/" 40 >"$T/paced.txt"
S=$T/live.json
"$BIN/fetch" --progress --no-robots -d 0.2 --sink-stats "$S" --metrics "$T/live-f.prom" \
	<"$T/paced.txt" 2>"$T/progress.err" | "$BIN/parse" | "$BIN/validate" 2>/dev/null |
	"$BIN/sink" -q --stats "$S" --metrics "$T/live-s.prom" "$T/live.db" &
PIPE=$!
# sink writes every 5 s: the first write comes with about 25 accepted.
wait_for 20 "sink's first --stats write" test -s "$S"
r=$(jq '.hosts["127.0.0.1"].accepted_per_s_1m' "$S")
expect_eq "sink --stats: accepted/s near 5 on a host paced at -d 0.2 (got $r)" true \
	"$(echo "$r" | jq '. >= 3.5 and . <= 6.5')"
# fetch reads it on its next tick (every 250 ms) while it still runs.
wait_for 10 "accepted/s on fetch's status line" grep -q 'accepted/s' "$T/progress.err"
a=$(tr '\r' '\n' <"$T/progress.err" | grep -o '[0-9.]* accepted/s' | tail -1 | cut -d' ' -f1)
expect_eq "fetch --sink-stats: the status line shows sink's accepted/s (got $a)" true \
	"$(echo "${a:-0}" | jq '. >= 3.5 and . <= 6.5')"
wait $PIPE
expect_eq "sink --stats at exit: all 40 accepted, as stored" "40 $(q "$T/live.db" 'select count(*) from pages where accepted = 1')" \
	"$(jq '.hosts["127.0.0.1"].accepted' "$S") 40"
expect_eq "the paced run's metrics files pass promtool" "" \
	"$(promtool_ok "$T/live-f.prom")$(promtool_ok "$T/live-s.prom")"

# --- queue mode: accepted/s from the frontier's counts ---
"$BIN/fetch" --progress --no-robots -d 0.2 --queue "$T/job.db" "$T/paced.txt" 2>"$T/queue.err" |
	"$BIN/parse" | "$BIN/validate" 2>/dev/null | "$BIN/sink" -q --queue "$T/job.db" "$T/qpages.db" &
PIPE=$!
# Two readings of the count, 5 s apart, make the first rate.
wait_for 20 "accepted/s on fetch's status line in queue mode" grep -q 'accepted/s' "$T/queue.err"
a=$(tr '\r' '\n' <"$T/queue.err" | grep -o '[0-9.]* accepted/s' | tail -1 | cut -d' ' -f1)
expect_eq "fetch --queue: the status line shows the job's accepted/s (got $a)" true \
	"$(echo "${a:-0}" | jq '. >= 3.5 and . <= 6.5')"
wait $PIPE
expect_eq "fetch --queue: every page accepted and acknowledged" "40 40" \
	"$(q "$T/qpages.db" 'select count(*) from pages where accepted = 1') $(q "$T/job.db" "select accepted from frontier_host")"
finish
