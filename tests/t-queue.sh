# fetch --queue and sink --queue --follow: de-duplication, limits, scope,
# nofollow, leases, dead letters, reports.
. "$TESTS/lib.sh"
server_start --root "$T/site"
python3 "$TESTS/queue-site.py" "$T/site" 1111 "http://127.0.0.2:$PORT/p5.html"
echo "$URL/p0.html" >"$T/seeds.txt"

# tree DB [SINK-OPTIONS...]: one crawl of the site from p0 into DB
# (frontier and pages in the same file).
tree() { db=$1; shift; crawl "$db" "$db" --no-robots -c 16 -p 16 parse: -j2 sink: --batch-ms 50 "$@"; }

# De-duplication: seeds repeated and spelled differently are one row, and
# a rerun admits nothing.
printf '%s\n%s\n%s\n' "$URL/p0.html" "$URL/p0.html#x" "HTTP://127.0.0.1:$PORT/./p0.html" >"$T/dups.txt"
timeout 20 "$BIN/fetch" -q --queue "$T/d.db" --no-robots "$T/dups.txt" |
	timeout 20 "$BIN/sink" -q --queue "$T/d.db" "$T/d.db"
expect_eq "duplicate seeds are one frontier row" 1 "$(q "$T/d.db" 'select count(*) from frontier')"
expect_eq "that row is done after the sink acked it" done "$(q "$T/d.db" 'select state from frontier')"
timeout 20 "$BIN/fetch" -q --queue "$T/d.db" --no-robots "$T/dups.txt" >/dev/null
expect_eq "a rerun admits nothing" 1 "$(q "$T/d.db" "select value from frontier_meta where key='admitted'")"

# A whole crawl: every page once, each fetched once, all done.  p2 is
# nofollow, so p21..p30 and their 100 children are never reached: 1001.
: >"$LOG"
tree "$T/all.db" --follow --max-depth 10
expect_eq "full crawl stores every reachable page once" 1001 "$(q "$T/all.db" 'select count(*) from pages')"
expect_eq "full crawl leaves every URL done" "done|1001" "$(q "$T/all.db" 'select state, count(*) from frontier group by state')"
expect_eq "no page was fetched twice" 1 "$(jq -r .path "$LOG" | grep '^/p' | sort | uniq -c | sort -rn | awk 'NR==1{print $1}')"
expect_eq "depths follow the tree" "0|1
1|10
2|90
3|900" "$(q "$T/all.db" 'select depth, count(*) from frontier group by depth order by depth')"
expect_eq "parent is the page a link was found on" "$URL/p1.html" "$(q "$T/all.db" "select parent from frontier where url = '$URL/p11.html'")"
expect_eq "the out-of-scope host is never admitted by default" 0 "$(q "$T/all.db" "select count(*) from frontier where host = '127.0.0.2'")"
# p2 has nofollow: its children p21..p30 are reached by nothing else.
expect_eq "nofollow page's links are not admitted" 0 "$(q "$T/all.db" "select count(*) from frontier where url like '%/p2_.html' and url != '$URL/p20.html'")"

tree "$T/depth.db" --follow --max-depth 1
expect_eq "--max-depth 1 admits seed and its links" 11 "$(q "$T/depth.db" 'select count(*) from frontier')"

tree "$T/pages.db" --follow --max-depth 10 --max-pages 50
expect_eq "--max-pages 50 admits exactly 50" 50 "$(q "$T/pages.db" 'select count(*) from frontier')"
expect_eq "--max-pages 50 stores 50 pages" 50 "$(q "$T/pages.db" 'select count(*) from pages')"

tree "$T/ex.db" --follow --max-depth 2 --exclude '/p1\.html$' --exclude '/p3\.html$'
expect_eq "--exclude drops the matching links and what lies below them" 0 \
	"$(q "$T/ex.db" "select count(*) from frontier where url like '%/p1.html' or url like '%/p3.html' or
		(url like '%/p1_.html' and url != '$URL/p10.html') or url like '%/p3_.html'")"
expect_eq "--exclude keeps the rest" 1 "$(q "$T/ex.db" "select count(*) from frontier where url = '$URL/p45.html'")"

tree "$T/in.db" --follow --max-depth 2 --include '/p[0-4]\.html$'
expect_eq "--include admits only matching links" "0
1
2
3
4" "$(q "$T/in.db" "select replace(replace(url, '$URL/p', ''), '.html', '') from frontier order by id")"

tree "$T/any.db" --follow --max-depth 1 --scope any
expect_eq "--scope any follows the other host" 1 "$(q "$T/any.db" "select count(*) from frontier where host = '127.0.0.2'")"

# Dead letters: a URL fetch gave up on is dead with its reason; the
# report shows it and --requeue-dead puts it back.
echo "http://127.0.0.2:$PORT/status/503" >"$T/dead.txt"
timeout 20 "$BIN/fetch" -q --queue "$T/dead.db" --no-robots --retries 0 "$T/dead.txt" |
	timeout 20 "$BIN/sink" -q --queue "$T/dead.db" "$T/dead.db"
expect_eq "a dead letter is dead with the fetch error" "dead|retries_exhausted" \
	"$(q "$T/dead.db" "select state, substr(last_error, 1, 17) from frontier")"
report=$("$BIN/fetch" --queue "$T/dead.db" --report)
expect_match "--report lists the dead letter" "127.0.0.2:$PORT/status/503  retries_exhausted" "$report"
expect_match "--report counts by state" "dead  1" "$report"
"$BIN/fetch" -q --queue "$T/dead.db" --requeue-dead >/dev/null
expect_eq "--requeue-dead makes it pending" pending "$(q "$T/dead.db" 'select state from frontier')"

# --lease is the backstop for a live owner: a fetch that still runs but
# has held a lease for --lease seconds (here stopped with SIGSTOP, before
# its 10 s heartbeat timeout) loses it to another fetch on the job.
before=$(count '^/p7[.]html$')
echo "$URL/p7.html" >"$T/lease.txt"
"$BIN/fetch" -q --queue "$T/lease.db" --no-robots --lease 1 "$T/lease.txt" >/dev/null &
held=$!
wait_for 20 "the first fetch of p7" logged_ge $((before + 1)) '^/p7[.]html$'
kill -STOP $held
expect_eq "an unacknowledged URL stays leased" leased "$(q "$T/lease.db" 'select state from frontier')"
sleep 1.2   # not a state but wall time: the 1 s lease must run out
timeout 20 "$BIN/fetch" -q --queue "$T/lease.db" --no-robots --lease 1 "$T/lease.txt" |
	timeout 20 "$BIN/sink" -q --queue "$T/lease.db" "$T/lease.db"
expect_eq "an expired lease is fetched again" 2 "$(( $(count '^/p7[.]html$') - before ))"
expect_eq "the second lease is numbered 2 and done" "done|2" "$(q "$T/lease.db" 'select state, attempts from frontier')"
kill -KILL $held; kill -CONT $held
wait $held 2>/dev/null

# A fetch that exits normally hands back the leases it was not acked for.
echo "$URL/p8.html" >"$T/leave.txt"
timeout 0.8 "$BIN/fetch" -q --queue "$T/leave.db" --no-robots "$T/leave.txt" >/dev/null
expect_eq "a stopped fetch leaves its lease pending and no owner" "pending|0" \
	"$(q "$T/leave.db" 'select state, (select count(*) from frontier_owner) from frontier')"

# A sink that dies (here at once, on a bad target) must not leave fetch
# waiting for acknowledgements that will never come: it sees its pipe's
# reader gone and ends.  (timeout's 124 would mean it hung.)
echo "$URL/p9.html" >"$T/orphan.txt"
timeout 20 sh -c '"$1/fetch" -q --queue "$2" --no-robots "$3" | "$1/sink" -q --queue "$2" bad-target 2>/dev/null' \
	sh "$BIN" "$T/orphan.db" "$T/orphan.txt"
expect_eq "a fetch whose sink died ends by itself" 64 $?

expect_eq "usage: --follow needs --queue" 64 "$("$BIN/sink" --follow x.db </dev/null 2>/dev/null; echo $?)"
finish
