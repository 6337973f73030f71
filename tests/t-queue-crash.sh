# Crash safety of a durable crawl: kill -9 the whole pipeline at random
# moments five times, rerunning the same command each time; then every
# page is stored exactly once, every URL is done, and no URL was fetched
# more often than 1 + the number of kills.
. "$TESTS/lib.sh"
server_start --root "$T/site"
python3 "$TESTS/queue-site.py" "$T/site" 1111
echo "$URL/p0.html" >"$T/seeds.txt"
db=$T/job.db
KILLS=5

# The documented command, paced so the kills land mid-crawl, with short leases so a rerun need not wait
# long for the dead run's leases, and --pending small enough that every
# leased URL is stored well within its lease.
cat >"$T/pipeline.sh" <<PIPE
"$BIN/fetch" -q --queue "$db" --no-robots --lease 3 --pending 64 -c 8 -p 8 -d 0.004 "$T/seeds.txt" |
	"$BIN/parse" -q -j2 | "$BIN/validate" -q |
	"$BIN/sink" -q --batch-ms 50 --queue "$db" --follow --max-depth 10 "$db"
PIPE

i=0
while [ $i -lt $KILLS ]; do
	setsid sh "$T/pipeline.sh" &
	pid=$!
	sleep "$(awk -v s="$i$$" 'BEGIN { srand(s); printf "%.2f", 0.4 + rand() * 0.8 }')"
	kill -9 "-$pid"
	wait "$pid" 2>/dev/null
	i=$((i + 1))
	echo "# kill $i: $(sqlite3 "$db" "select count(*) from pages" 2>/dev/null) pages stored"
done
timeout 120 sh "$T/pipeline.sh"
expect_eq "the run after $KILLS kills completes" 0 $?

expect_eq "integrity check passes" ok "$(sqlite3 "$db" 'pragma integrity_check')"
expect_eq "every reachable page is stored (p2 is nofollow: 1001)" 1001 "$(sqlite3 "$db" 'select count(*) from pages')"
expect_eq "every page exactly once" 1001 "$(sqlite3 "$db" 'select count(distinct url) from pages')"
expect_eq "every frontier URL is done" "done|1001" "$(sqlite3 "$db" 'select state, count(*) from frontier group by state')"
most=$(jq -r 'select(.path | startswith("/p")) | .path' "$LOG" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $1 }')
expect_cmd "no URL fetched more than 1 + $KILLS times (most: $most)" test "$most" -le $((1 + KILLS))
expect_eq "every stored page was accepted" 1001 "$(sqlite3 "$db" 'select count(*) from pages where accepted')"
finish
