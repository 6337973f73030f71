# fetch --queue and sink --queue on a PostgreSQL frontier: the same
# crawl as on SQLite, several workers on one job, kill -9 of one of
# them, and bad connection URIs.  A real server from Debian's package.
. "$TESTS/lib.sh"
server_start --root "$T/site"
python3 "$TESTS/queue-site.py" "$T/site" 1111 "http://127.0.0.2:$PORT/p5.html"
pg_start
seed="$URL/p0.html"
echo "$seed" >"$T/seeds.txt"

# job NAME: a fresh database for one crawl job; prints its URI.
job() {
	psql -X -q "$PG" -c "CREATE DATABASE $1" >/dev/null
	echo "$PG" | sed "s|:///postgres?|:///$1?|"
}
# pq URI SQL: one value per line, columns joined by |
pq() { psql -X -q -At "$1" -c "$2"; }

# worker JOB DB: one crawl pipeline on JOB storing into the SQLite DB.
worker() {
	"$BIN/fetch" -q --queue "$1" --no-robots -c 8 -p 8 "$T/seeds.txt" |
		"$BIN/parse" -q | "$BIN/validate" -q |
		"$BIN/sink" -q --batch-ms 50 --queue "$1" --follow --max-depth 10 "$2"
}

# De-duplication, and a rerun admits nothing.
J=$(job dups)
printf '%s\n%s\n%s\n' "$seed" "$seed#x" "HTTP://127.0.0.1:$PORT/./p0.html" >"$T/dups.txt"
timeout 20 "$BIN/fetch" -q --queue "$J" --no-robots "$T/dups.txt" |
	timeout 20 "$BIN/sink" -q --queue "$J" "$T/dups.db"
expect_eq "duplicate seeds are one frontier row, done after the ack" "done|1" \
	"$(pq "$J" 'select state, count(*) from frontier group by state')"
timeout 20 "$BIN/fetch" -q --queue "$J" --no-robots "$T/dups.txt" >/dev/null
expect_eq "a rerun admits nothing" 1 "$(pq "$J" "select value from frontier_meta where key = 'admitted'")"

# One worker, the whole tree: 1001 pages, each fetched once, all done.
J=$(job one)
: >"$LOG"
( worker "$J" "$T/one.db" ) & w=$!
( sleep 60; kill $w 2>/dev/null ) & guard=$!
wait $w; kill $guard 2>/dev/null
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
J=$(job pages)
timeout 60 "$BIN/fetch" -q --queue "$J" --no-robots -c 8 "$T/seeds.txt" | "$BIN/parse" -q |
	"$BIN/validate" -q | "$BIN/sink" -q --batch-ms 50 --queue "$J" --follow --max-depth 10 --max-pages 50 "$T/pages.db"
expect_eq "--max-pages 50 admits exactly 50 and stores them" "50 50" \
	"$(pq "$J" 'select count(*) from frontier') $(q "$T/pages.db" 'select count(*) from pages')"

# Three workers on one job; one is killed with kill -9 after 1 s.  The
# others finish the job: every URL done, every page stored once in one
# of the three databases, none fetched more than twice.
J=$(job three)
: >"$LOG"
( worker "$J" "$T/w1.db" ) & w1=$!
( worker "$J" "$T/w2.db" ) & w2=$!
sh -c 'echo $$ >"$1"; exec "$2/fetch" -q --queue "$3" --no-robots -c 8 -p 8 -d 0.01 "$4"' sh "$T/k.pid" "$BIN" "$J" "$T/seeds.txt" |
	"$BIN/parse" -q | "$BIN/validate" -q |
	"$BIN/sink" -q --batch-ms 50 --queue "$J" --follow --max-depth 10 "$T/w3.db" & w3=$!
sleep 1
kill -9 "$(cat "$T/k.pid")"
( sleep 90; kill $w1 $w2 2>/dev/null ) & guard=$!
wait $w1 $w2; kill $guard 2>/dev/null; wait $w3 2>/dev/null
stored=$(for d in w1 w2 w3; do q "$T/$d.db" 'select url from pages' 2>/dev/null; done)
expect_eq "3 workers, one killed: every URL done" "done|1001" "$(pq "$J" 'select state, count(*) from frontier group by state')"
expect_eq "every page stored once across the workers" "1001 1001" \
	"$(echo "$stored" | grep -c .) $(echo "$stored" | sort -u | grep -c .)"
expect_eq "no page fetched more than twice" true \
	"$(jq -r .path "$LOG" | grep '^/p' | sort | uniq -c | awk '$1 > 2 { bad = 1 } END { print bad ? "false" : "true" }')"
expect_eq "the killed worker's owner row is gone" 0 "$(pq "$J" 'select count(*) from frontier_owner')"
expect_eq "both survivors fetched" true \
	"$([ "$(q "$T/w1.db" 'select count(*) from pages')" -gt 0 ] && [ "$(q "$T/w2.db" 'select count(*) from pages')" -gt 0 ] && echo true)"

# Pause, resume and dead letters through the shared job.
J=$(job dead)
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
