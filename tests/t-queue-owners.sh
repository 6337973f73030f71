# Several fetches on one job.  A second fetch never takes the leases of a
# live one; when the first is killed with kill -9, the second takes its
# leases back within a heartbeat or two and finishes the job; a frontier
# made before leases had owners still opens.
. "$TESTS/lib.sh"
server_start --root "$T/site"
python3 "$TESTS/queue-site.py" "$T/site" 40
i=0
while [ $i -lt 40 ]; do echo "$URL/p$i.html"; i=$((i + 1)); done >"$T/seeds.txt"
db=$T/job.db

# Each worker: one host, one request at a time, 0.15 s apart; a fetch
# holds at most 8 leases per host slot, so A and B share the 40 URLs.
worker() { # NAME
	"$BIN/fetch" -q --queue "$db" --user-agent "$1" --no-robots -p 1 -d 0.15 --pending 40 "$T/seeds.txt" |
		"$BIN/sink" -q --queue "$db" "$db"
}
( worker A ) &
a=$!
# A has seeded the job and is fetching before B starts.
wait_for 20 "A's first request" grep -q '"ua": "A"' "$LOG"
( worker B ) >"$T/b.out" 2>&1 &
b=$!
# b_beat: B's fetch has registered and sent a heartbeat since (hosts and
# leases are handed over at heartbeats: B has had its chance to take A's)
b_beat() {
	bpid=$(pgrep -f -- "--user-agent B" | head -1)
	[ "$(q "$db" "select count(*) from frontier_owner
		where pid = ${bpid:-0} and beat_at > started_at + 0.5")" = 1 ]
}
# a_holds: A's fetch holds leases now
a_holds() {
	apid=$(pgrep -f -- "--user-agent A" | head -1)
	[ "$(q "$db" "select count(*) from frontier f join frontier_owner o on o.id = f.owner
		where f.state = 'leased' and o.pid = ${apid:-0}")" -gt 0 ]
}
wait_for 20 "B's first heartbeat" b_beat
wait_for 20 "A to hold leases" a_holds
# What A holds when it dies: its owner row is the one with A's fetch's pid.
apid=$(pgrep -f -- "--user-agent A" | head -1)
held=$(q "$db" "select f.url from frontier f join frontier_owner o on o.id = f.owner
	where f.state = 'leased' and o.pid = $apid" | sed "s|^$URL||" | sort)
kill_at=$(now)
pkill -9 -f -- "--user-agent A"
wait "$a" 2>/dev/null
poll_until 60 gone $b
expect_eq "the surviving fetch finishes the job" 0 $?
wait "$b"
expect_eq "it exits 0" 0 $?

expect_cmd "A held leases when it was killed ($(echo "$held" | wc -w))" test -n "$held"
before=$(jq -r --argjson k "$kill_at" 'select(.t < $k) | "\(.ua) \(.path)"' "$LOG")
both=$(echo "$before" | sort -u | awk '{print $2}' | sort | uniq -d | wc -l | tr -d ' ')
expect_eq "while A lived, no URL was fetched by both" 0 "$both"
expect_eq "while A lived, B fetched none of A's leases" 0 \
	"$(echo "$before" | awk '$1 == "B" {print $2}' | grep -cxF "$held")"
# B queues A's reclaimed leases behind the 8 it holds: the first of them
# starts within a heartbeat plus those 8 starts.
first=$(for p in $held; do
	jq -r --arg p "$p" 'select(.ua == "B" and .path == $p) | .t' "$LOG"
done | sort -n | head -1)
expect_cmd "B started one of A's leases within 4 s of the kill ($(echo "${first:-999} - $kill_at" | bc) s)" \
	holds "${first:-999} - $kill_at < 4"
expect_eq "every URL is done" "done|40" "$(q "$db" 'select state, count(*) from frontier group by state')"
expect_eq "every page stored once" 40 "$(q "$db" 'select count(distinct url) from pages')"
twice=$(jq -r 'select(.path | startswith("/p")) | .path' "$LOG" | sort | uniq -d | wc -l | tr -d ' ')
expect_cmd "at most the URLs A had in hand at the kill are fetched twice ($twice)" test "$twice" -le 3
expect_eq "A fetched some, B the rest" "A B" \
	"$(jq -r 'select(.path | startswith("/p")) | .ua' "$LOG" | sort -u | tr '\n' ' ' | sed 's/ $//')"

# A frontier from before owners: no owner column, one old lease.
old=$T/old.db
sqlite3 "$old" "CREATE TABLE frontier (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE,
  host TEXT NOT NULL, scope TEXT NOT NULL, depth INTEGER NOT NULL DEFAULT 0, parent TEXT,
  state TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
  next_at REAL NOT NULL DEFAULT 0, lease_until REAL, last_error TEXT,
  added_at REAL NOT NULL, updated_at REAL NOT NULL);
  INSERT INTO frontier(url, host, scope, state, lease_until, added_at, updated_at)
  VALUES ('$URL/p1.html', '127.0.0.1', '127.0.0.1', 'leased', 0, 0, 0);"
"$BIN/fetch" -q --queue "$old" --no-robots </dev/null | "$BIN/sink" -q --queue "$old" "$old"
expect_eq "an old frontier opens and its expired lease is fetched" "done|1" \
	"$(q "$old" 'select state, count(*) from frontier group by state')"
# fetch and sink open an old file at the same moment: only one may add
# the owner column (both used to, and the second died on it).
mkold() {
	rm -f "$old" "$old-wal" "$old-shm"
	sqlite3 "$old" "CREATE TABLE frontier (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE,
	  host TEXT NOT NULL, scope TEXT NOT NULL, depth INTEGER NOT NULL DEFAULT 0, parent TEXT,
	  state TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
	  next_at REAL NOT NULL DEFAULT 0, lease_until REAL, last_error TEXT,
	  added_at REAL NOT NULL, updated_at REAL NOT NULL);
	  INSERT INTO frontier(url, host, scope, added_at, updated_at)
	  VALUES ('$URL/p2.html', '127.0.0.1', '127.0.0.1', 0, 0);"
}
ok=0
i=0
while [ $i -lt 15 ]; do
	mkold
	"$BIN/fetch" -q --queue "$old" --no-robots </dev/null 2>>"$T/race.err" |
		"$BIN/sink" -q --queue "$old" "$old" 2>>"$T/race.err"
	[ "$(q "$old" 'select state from frontier')" = done ] && ok=$((ok + 1))
	i=$((i + 1))
done
expect_eq "15 simultaneous opens of an old frontier: every one done, no error" "15 " "$ok $(cat "$T/race.err")"

# A frontier whose frontier_host predates host owners (a paused host in
# it) gains the columns and is crawled; the pause still holds.
mkold
sqlite3 "$old" "CREATE TABLE frontier_host (host TEXT PRIMARY KEY, paused INTEGER NOT NULL DEFAULT 0,
  reason TEXT, stored INTEGER NOT NULL DEFAULT 0, accepted INTEGER NOT NULL DEFAULT 0,
  recent TEXT NOT NULL DEFAULT '', updated_at REAL NOT NULL);
  INSERT INTO frontier_host(host, paused, reason, updated_at) VALUES ('127.0.0.9', 1, 'old pause', 0);"
timeout 20 "$BIN/fetch" -q --queue "$old" --no-robots </dev/null | timeout 20 "$BIN/sink" -q --queue "$old" "$old"
expect_eq "an old frontier_host gains owner, next_start, min_gap; its job is done" "done 3 old pause" \
	"$(q "$old" 'select state from frontier') $(q "$old" "select count(*) from pragma_table_info('frontier_host')
		where name in ('owner', 'next_start', 'min_gap')") $(q "$old" "select reason from frontier_host where paused = 1")"
finish
