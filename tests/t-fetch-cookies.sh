# --cookies FILE: libcurl's cookie engine, one jar for every transfer,
# read at start and written at exit (a signal's stop too); with --queue
# the job keeps the jar, so a rerun or another fetch has the session, in
# SQLite and in PostgreSQL.
. "$TESTS/lib.sh"
server_start
# status URL [FETCH-OPTIONS...]: the record's status for URL
status() { u=$1; shift; echo "$u" | "$BIN/fetch" --no-robots --json "$@" | jq .status; }

# List mode: a login sets the cookie, the next page wants it.
expect_eq "without a jar the members page refuses" 403 "$(status "$URL/members")"
printf '%s\n' "$URL/login" "$URL/members" | "$BIN/fetch" --no-robots --json -p 1 -c 1 \
	--cookies "$T/jar" >"$T/one.json"
expect_eq "login then members in one run: the cookie is sent" "200 200" "$(jq -r .status "$T/one.json" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "the jar is written at exit, Netscape format, 0600" \
	"#HttpOnly_127.0.0.1	FALSE	/	FALSE	0	session	s3cret 600" \
	"$(grep session "$T/jar") $(stat -c %a "$T/jar")"
expect_eq "a later run reads the jar" 200 "$(status "$URL/members" --cookies "$T/jar")"
expect_eq "the members request carried the cookie" "session=s3cret" \
	"$(jq -r 'select(.path == "/members") | .hdrs.cookie // empty' "$LOG" | sort -u)"
expect_eq "the record's response headers keep Set-Cookie (what the site sent)" \
	'"session=s3cret; Path=/; HttpOnly"' "$(jq -c 'select(.url | endswith("/login")) | .headers["set-cookie"]' "$T/one.json")"

# Cookies of one host are not sent to another (libcurl's rules).
: >"$LOG"
printf '%s\n' "$U2/members" | "$BIN/fetch" --no-robots --json --cookies "$T/jar" >/dev/null
expect_eq "127.0.0.1's cookie is not sent to 127.0.0.2" "none" \
	"$(jq -r 'select(.path == "/members") | .hdrs.cookie // "none"' "$LOG")"

# Stopped by SIGTERM: the jar is written all the same.
printf '%s\n' "$URL/login?value=late" "$URL/hang" | "$BIN/fetch" --no-robots --json \
	--cookies "$T/jar-term" >"$T/term.json" 2>"$T/term.err" &
pid=$!
poll_until 5 test -s "$T/term.json"
kill -TERM $pid
# The first signal lets /hang run out its timeout; the second ends it.
poll_until 5 grep -q stopping "$T/term.err"
kill -TERM $pid
wait $pid
expect_eq "SIGTERM: fetch exits 143 and writes the jar" "143 1" "$? $(grep -c 'session	late' "$T/jar-term")"

# Queue mode: the session lives in the job.  qrun DB JAR URLFILE: one
# fetch on the job, its records stored (so done) by sink in DB.
qrun() {
	timeout 20 "$BIN/fetch" -q --queue "$1" --no-robots --cookies "$2" "$3" |
		timeout 20 "$BIN/sink" -q --queue "$1" "$1"
}
members='select status from pages where url like '"'"'%/members%'"'"'' 
echo "$URL/login?value=q1" >"$T/login.txt"
echo "$URL/members?value=q1" >"$T/members.txt"
# The login is stored (and so done) by sink: the next fetch does not log in again.
: >"$LOG"
qrun "$T/job.db" "$T/w1.jar" "$T/login.txt"
expect_eq "the job's frontier holds the cookie" "127.0.0.1|/|session|0" \
	"$(q "$T/job.db" "select replace(domain, '#HttpOnly_', ''), path, name, cast(expires as integer) from frontier_cookie")"
expect_eq "the job file holding the session is 0600, as the jar" 600 "$(stat -c %a "$T/job.db")"
qrun "$T/job.db" "$T/w2.jar" "$T/members.txt"
st=$(q "$T/job.db" "$members")
expect_eq "a second fetch on the job, with a jar of its own, has the session" 200 "$st"
expect_eq "... and writes it to its jar" 1 "$(grep -c 'session	q1' "$T/w2.jar")"
expect_eq "the login page was requested once" 1 "$(grep -c '"/login' "$LOG")"
qrun "$T/other.db" "$T/w3.jar" "$T/members.txt"
st=$(q "$T/other.db" "$members")
expect_eq "another job has no session" 403 "$st"

# The same in PostgreSQL.
pg_start
qrun "$PG" "$T/p1.jar" "$T/login.txt"
qrun "$PG" "$T/p2.jar" "$T/members.txt"
st=$(pq "$PG" "$members")
expect_eq "PostgreSQL: the second fetch has the session" 200 "$st"
finish
