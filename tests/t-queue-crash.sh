# Crash safety of a durable crawl: the documented command with default
# flags, kill -9 of the whole pipeline at random moments five times,
# rerunning the same command each time.  Each rerun must resume within
# seconds (the dead run's leases come back at once, not after --lease's
# 900 s); at the end every page is stored exactly once, every URL is done,
# and no URL was fetched more often than 1 + the number of kills.
. "$TESTS/lib.sh"
server_start --root "$T/site"
python3 "$TESTS/queue-site.py" "$T/site" 11111
echo "$URL/p0.html" >"$T/seeds.txt"
db=$T/job.db
KILLS=5

cat >"$T/pipeline.sh" <<PIPE
"$BIN/fetch" -q --queue "$db" "$T/seeds.txt" | "$BIN/parse" -q | "$BIN/validate" -q |
	"$BIN/sink" -q --queue "$db" --follow "$db"
PIPE
stored() { sqlite3 "$db" "select count(*) from pages" 2>/dev/null || echo 0; }
# new_page_or_end: this run stored a page, or ended (or got stuck) without
new_page_or_end() { [ "$(stored)" != "$before" ] || ! kill -0 "$pid" 2>/dev/null; }

i=0 slowest=0
while [ $i -lt $KILLS ]; do
	before=$(stored)
	t0=$(now)
	setsid sh "$T/pipeline.sh" &
	pid=$!
	# Wait for this run's first stored page, then kill at a random moment
	# (the random sleep is the test: a kill anywhere in the next 0.15 s).
	poll_until 30 new_page_or_end
	took=$(since "$t0")
	[ "$(stored)" = "$before" ] && took=999   # ended or stuck without storing
	sleep "$(awk -v s="$i$$" 'BEGIN { srand(s); printf "%.2f", rand() * 0.15 }')"
	kill -9 "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	i=$((i + 1))
	echo "# run $i: first new page after $took s, $(stored) pages stored at the kill"
	holds "$took > $slowest" && slowest=$took
done
expect_cmd "each rerun stored a page within 10 s (slowest: $slowest s)" holds "$slowest < 10"
timeout 120 sh "$T/pipeline.sh"
expect_eq "the run after $KILLS kills completes" 0 $?
expect_eq "no owner is left registered" 0 "$(sqlite3 "$db" 'select count(*) from frontier_owner')"

expect_eq "integrity check passes" ok "$(sqlite3 "$db" 'pragma integrity_check')"
expect_eq "every reachable page is stored (p2 is nofollow: 10001)" 10001 "$(sqlite3 "$db" 'select count(*) from pages')"
expect_eq "every page exactly once" 10001 "$(sqlite3 "$db" 'select count(distinct url) from pages')"
expect_eq "every frontier URL is done" "done|10001" "$(sqlite3 "$db" 'select state, count(*) from frontier group by state')"
most=$(jq -r 'select(.path | startswith("/p")) | .path' "$LOG" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
expect_cmd "no URL fetched more than 1 + $KILLS times (most: $most)" test "$most" -le $((1 + KILLS))
expect_eq "every stored page was accepted" 10001 "$(sqlite3 "$db" 'select count(*) from pages where accepted')"
finish
