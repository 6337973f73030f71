# Durable retry state in queue mode, on SQLite and PostgreSQL: a URL
# waiting out Retry-After is back in the frontier with next_at and its
# host held, so a fetch killed during the wait does not request early on
# rerun; a URL whose records never reach the sink (validate --drop) ends
# after --max-attempts leases as attempts_exhausted, and fetch exits; a
# SIGTERM hands back the URLs not started.
. "$TESTS/lib.sh"
server_start
pg_start

# killed_wait NAME JOB QUERY: fetch a URL that answers 429 with
# Retry-After: 5 once, and a second URL of its host; kill -9 fetch once
# the wait is in the frontier, rerun the job to its end.  QUERY runs SQL
# on JOB.
# waits_in QUERY JOB: one URL of JOB has a wait (next_at) set
waits_in() { [ "$($1 "$2" "select count(*) from frontier where next_at > 0" 2>/dev/null)" = 1 ]; }
killed_wait() {
	name=$1 job=$2 query=$3
	ra="/retry-after?key=$name&s=5"
	printf '%s\n%s\n' "$URL$ra" "$URL/page/$name" >"$T/$name.txt"
	: >"$LOG"
	"$BIN/fetch" -q --queue "$job" -p 1 -d 1 "$T/$name.txt" >/dev/null &
	pid=$!
	wait_for 20 "$name: the Retry-After wait in the frontier" waits_in "$query" "$job"
	kill -9 $pid
	wait $pid 2>/dev/null
	expect_eq "$name: the wait is in the frontier, the URL pending, its host held" "pending|1|1" \
		"$($query "$job" "select state, CASE WHEN next_at > $(now) + 3 THEN 1 END,
			(select CASE WHEN next_start > next_at - 1 THEN 1 END from frontier_host
			 where host = '127.0.0.1') from frontier where url like '%retry-after%'")"
	t429=$(requests '^/retry-after' | jq -s '.[0].t')
	first=$(wc -l <"$LOG")
	timeout 30 "$BIN/fetch" -q --queue "$job" -p 1 -d 1 </dev/null |
		timeout 30 "$BIN/sink" -q --queue "$job" "$T/$name-pages.db"
	expect_eq "$name: the rerun ends with both URLs done" "done|2" \
		"$($query "$job" "select state, count(*) from frontier group by state")"
	early=$(tail -n +$((first + 1)) "$LOG" | jq -s --argjson t "$t429" '[.[] | select(.t < $t + 5) | .path]')
	expect_eq "$name: no request of the rerun before the 429's Retry-After ran out" "[]" "$early"
	expect_eq "$name: the retried URL was requested twice, its lease numbered 2" "2 2" \
		"$(count '^/retry-after') $($query "$job" "select attempts from frontier where url like '%retry-after%'")"
}

killed_wait lite "$T/wait.db" q
killed_wait pg "$(pg_db wait)" pq

# dropped NAME JOB QUERY: validate --drop rejects the page, so the sink
# never acknowledges it: three leases of one second, three requests, then
# a dead letter; the pipeline ends by itself.
dropped() {
	name=$1 job=$2 query=$3
	echo "$URL/page/drop$name" >"$T/$name-drop.txt"
	: >"$LOG"
	timeout 30 sh -c '"$1/fetch" -q --queue "$2" --no-robots --lease 1 --max-attempts 3 "$3" |
		tee "$4" | "$1/parse" -q | "$1/validate" -q --drop --require nosuch |
		"$1/sink" -q --queue "$2" "$5"' sh "$BIN" "$job" "$T/$name-drop.txt" "$T/$name-drop.out" \
		"$T/$name-drop-pages.db"
	expect_eq "$name: --drop in queue mode ends, fetch exits 0" 0 $?
	expect_eq "$name: exactly --max-attempts requests" 3 "$(count "^/page/drop$name\$")"
	expect_eq "$name: the URL is a dead letter, attempts_exhausted" \
		"dead|3|attempts_exhausted: leased 3 times, never acknowledged" \
		"$($query "$job" "select state, attempts, last_error from frontier")"
	expect_eq "$name: fetch wrote its record" \
		'"attempts_exhausted" "leased 3 times, never acknowledged" 3 4' \
		"$("$BIN/sink" -q - <"$T/$name-drop.out" | jq -r 'select(.error) | "\(.error|tojson) \(.error_detail|tojson) \(.attempts) \(.lease)"')"
}

dropped lite "$T/drop.db" q
dropped pg "$(pg_db dropped)" pq

# A due retry is leased before URLs never leased: with 20 URLs of another
# host paced 0.2 s apart ahead of it (4 s) and room for 2, the retry of
# a 429 with Retry-After: 1 goes about 1 s after the first answer, not
# after the backlog.
{ echo "$URL/retry-after?key=order&s=1"; urls "$U2/page/order" 20; } >"$T/order.txt"
: >"$LOG"
timeout 30 "$BIN/fetch" -q --queue "$T/order.db" --no-robots --pending 2 -d 0.2 "$T/order.txt" |
	timeout 30 "$BIN/sink" -q --queue "$T/order.db" "$T/order-pages.db"
took=$(requests '^/retry-after[?]key=order' | jq -s '.[1].t - .[0].t')
expect_cmd "a due retry goes ahead of the backlog (after $took s)" holds "$took >= 1 && $took < 2.5"
expect_eq "and every URL of the job is done" "done|21" "$(q "$T/order.db" 'select state, count(*) from frontier group by state')"

# The cap counts leases: 1 still lets a URL be fetched once.
echo "$URL/page/unleased" >"$T/unlease.txt"
timeout 20 "$BIN/fetch" -q --queue "$T/unlease.db" --no-robots --max-attempts 1 "$T/unlease.txt" |
	timeout 20 "$BIN/sink" -q --queue "$T/unlease.db" "$T/unlease-pages.db"
expect_eq "--max-attempts 1 still fetches a URL once" "done|1" "$(q "$T/unlease.db" 'select state, attempts from frontier')"

# SIGTERM: the URLs fetch holds unstarted go back to pending, unused,
# rather than to the sink as `interrupted` dead letters.
printf '%s\n' "$URL/page/t1" "$URL/page/t2" "$URL/page/t3" >"$T/term.txt"
: >"$LOG"
sh -c 'echo $$ >"$1"; exec "$2/fetch" -q --queue "$3" --no-robots -d 5 "$4"' \
	sh "$T/term.pid" "$BIN" "$T/term.db" "$T/term.txt" |
	"$BIN/sink" -q --queue "$T/term.db" "$T/term-pages.db" &
pipeline=$!
wait_for 20 "the first request" logged_ge 1 '^/page/t'
kill -TERM "$(cat "$T/term.pid")"
wait $pipeline
expect_eq "SIGTERM: the started URL is done, the two unstarted pending and unused" "done|1|1
pending|2|0" "$(q "$T/term.db" 'select state, count(*), sum(attempts) from frontier group by state')"

expect_usage_errors fetch "--queue x.db --max-attempts 0" "--queue x.db --max-attempts x"
finish
