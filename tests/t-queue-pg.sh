# fetch --queue and sink --queue on a PostgreSQL frontier: the same
# crawl as on SQLite, several workers on one job, kill -9 of one of
# them, and bad connection URIs.  A real server from Debian's package.
# run.sh: alone
. "$TESTS/lib.sh"
server_start --root "$T/site"
python3 "$TESTS/queue-site.py" "$T/site" 1111 "http://127.0.0.2:$PORT/p5.html"
pg_start
seed="$URL/p0.html"
echo "$seed" >"$T/seeds.txt"

# De-duplication, and a rerun admits nothing.
J=$(pg_db dups)
printf '%s\n%s\n%s\n' "$seed" "$seed#x" "HTTP://127.0.0.1:$PORT/./p0.html" >"$T/dups.txt"
timeout 20 "$BIN/fetch" -q --queue "$J" --no-robots "$T/dups.txt" |
	timeout 20 "$BIN/sink" -q --queue "$J" "$T/dups.db"
expect_eq "duplicate seeds are one frontier row, done after the ack" "done|1" \
	"$(pq "$J" 'select state, count(*) from frontier group by state')"
timeout 20 "$BIN/fetch" -q --queue "$J" --no-robots "$T/dups.txt" >/dev/null
expect_eq "a rerun admits nothing" 1 "$(pq "$J" "select value from frontier_meta where key = 'admitted'")"

# One worker, the whole tree: 1001 pages, each fetched once, all done.
J=$(pg_db one)
: >"$LOG"
crawl "$J" "$T/one.db" --no-robots -c 8 -p 8 sink: --batch-ms 50 --follow --max-depth 10
expect_eq "one worker stores every reachable page once" 1001 "$(q "$T/one.db" 'select count(*) from pages')"
expect_eq "and leaves every URL done" "done|1001" "$(pq "$J" 'select state, count(*) from frontier group by state')"
expect_eq "no page was fetched twice" 1 "$(jq -r .path "$LOG" | grep '^/p' | sort | uniq -c | sort -rn | awk 'NR==1{print $1}')"
expect_eq "depths follow the tree" "0|1 1|10 2|90 3|900" \
	"$(pq "$J" 'select depth, count(*) from frontier group by depth order by depth' | tr '\n' ' ' | sed 's/ $//')"
expect_eq "parent is the page a link was found on" "$URL/p1.html" \
	"$(pq "$J" "select parent from frontier where url = '$URL/p11.html'")"
report=$("$BIN/fetch" --queue "$J" --report)
expect_match "--report reads the PostgreSQL job" "done  1001" "$report"

# --max-pages counts admissions in the shared job.
J=$(pg_db pages)
crawl "$J" "$T/pages.db" --no-robots -c 8 sink: --batch-ms 50 --follow --max-depth 10 --max-pages 50
expect_eq "--max-pages 50 admits exactly 50 and stores them" "50 50" \
	"$(pq "$J" 'select count(*) from frontier') $(q "$T/pages.db" 'select count(*) from pages')"

# Three worker pipelines on one job crawling three hosts at -d 0.05; one
# is killed with kill -9 once it has made 3 requests.  They store into
# the job's own database, each row committed with its acknowledgement.
# The others finish: every URL done, every page stored once, none fetched
# more than twice.  At each host, where one worker's request follows
# another's the gap is at least the interval; any two requests are at
# least 40 ms apart (the server's clock on a loaded machine jitters by a
# few ms).  p2 is nofollow: 101 pages reachable per host.
python3 "$TESTS/queue-site.py" "$T/site3" 111
server_restart --root "$T/site3"
printf '%s/p0.html\n' "$U1" "$U2" "$U3" >"$T/seeds3.txt"
J=$(pg_db three)
# crawler N: worker N's pipeline, user agent WN; fetch's pid goes to $T/fN.pid.
crawler() {
	sh -c 'echo $$ >"$1"; exec "$2/fetch" -q --queue "$3" --no-robots --user-agent "W$5" -d 0.05 "$4"' \
		sh "$T/f$1.pid" "$BIN" "$J" "$T/seeds3.txt" "$1" |
		"$BIN/parse" -q | "$BIN/validate" -q |
		"$BIN/sink" -q --batch-ms 50 --queue "$J" --follow --max-depth 10 "$J"
}
# handovers ADDR: the gaps at ADDR where the worker changes
handovers() {
	jq -sc --arg a "$1" '[.[] | select(.addr == $a)] | sort_by(.t) | . as $r
		| [range(1; length) as $i | select($r[$i].ua != $r[$i - 1].ua) | $r[$i].t - $r[$i - 1].t]' "$LOG"
}
( crawler 1 ) & w1=$!
( crawler 2 ) & w2=$!
( crawler 3 ) & w3=$!
# Once worker 3 holds a host and fetches from it (hosts are handed over
# at heartbeats): what is tested is the takeover of a host in use.
w3_fetched() { [ "$(grep -c '"ua": "W3"' "$LOG")" -ge 3 ]; }
wait_for 30 "3 requests of worker 3" w3_fetched
kill -9 "$(cat "$T/f3.pid")"
( sleep 90; kill $w1 $w2 2>/dev/null ) & guard=$!   # a watchdog, not a wait
wait $w1 $w2; kill $guard 2>/dev/null; wait $w3 2>/dev/null
expect_eq "3 workers, one killed: every URL done" "done|303" "$(pq "$J" 'select state, count(*) from frontier group by state')"
expect_eq "every page stored once, in the job's database" "303|303|303" \
	"$(pq "$J" "select count(*), count(distinct url), sum(case when title like 'Page %' then 1 else 0 end) from pages")"
expect_eq "no page fetched more than twice" true \
	"$(jq -r '"\(.addr) \(.path)"' "$LOG" | sort | uniq -c | awk '$1 > 2 { bad = 1 } END { print bad ? "false" : "true" }')"
for a in 127.0.0.1 127.0.0.2 127.0.0.3; do
	h=$(handovers $a) g=$(gaps $a)
	expect_eq "$a: from one worker to another, gaps >= 50 ms ($(ms "$h"))" true "$(echo "$h" | jq 'all(.[]; . >= 0.05)')"
	expect_eq "$a: any two requests >= 40 ms apart (min $(echo "$g" | jq 'min * 1000 | floor') ms)" true \
		"$(echo "$g" | jq 'all(.[]; . >= 0.04)')"
done
expect_eq "the killed worker had fetched before it died" true \
	"$([ "$(jq -r 'select(.ua == "W3") | .path' "$LOG" | wc -l)" -gt 0 ] && echo true || echo false)"
expect_eq "its hosts were taken over: the survivors fetched all three hosts" 3 \
	"$(jq -r 'select(.ua != "W3") | .addr' "$LOG" | sort -u | wc -l | tr -d ' ')"

# Pause, resume and dead letters through the shared job.
J=$(pg_db dead)
echo "http://127.0.0.2:$PORT/status/503" >"$T/dead.txt"
timeout 20 "$BIN/fetch" -q --queue "$J" --no-robots --retries 0 "$T/dead.txt" |
	timeout 20 "$BIN/sink" -q --queue "$J" "$T/dead.db"
expect_eq "a dead letter is dead with the fetch error" "dead|retries_exhausted" \
	"$(pq "$J" 'select state, substr(last_error, 1, 17) from frontier')"
expect_match "--report lists it" "127.0.0.2:$PORT/status/503  retries_exhausted" "$("$BIN/fetch" --queue "$J" --report)"
"$BIN/fetch" -q --queue "$J" --requeue-dead >/dev/null
expect_eq "--requeue-dead makes it pending" pending "$(pq "$J" 'select state from frontier')"
"$BIN/fetch" -q --queue "$J" --pause 127.0.0.2 >/dev/null
expect_match "--pause shows in the report" "127.0.0.2  paused by hand" "$("$BIN/fetch" --queue "$J" --report)"
"$BIN/fetch" -q --queue "$J" --resume 127.0.0.2 >/dev/null
expect_eq "--resume clears it" 0 "$(pq "$J" 'select count(*) from frontier_host where paused = 1')"

# Bad connections: a clear message naming the target, exit 74, no hang.
bad="postgresql:///postgres?host=$T/nowhere&user=sluice"
err=$(echo "$seed" | timeout 20 "$BIN/fetch" -q --queue "$bad" 2>&1 >/dev/null; echo "rc=$?")
expect_match "a server that is not there: fetch says so" "fetch: cannot open '.*/nowhere&user=sluice': connection to server on socket .* failed: No such file" "$err"
expect_match "and exits 74" "rc=74" "$err"
err=$(timeout 20 "$BIN/sink" -q --queue "postgresql:///nodb?host=$PGDIR&user=sluice" "$T/x.db" </dev/null 2>&1; echo "rc=$?")
expect_match "a database that does not exist: sink says so" 'database "nodb" does not exist' "$err"
finish
