# scripts/report on a PostgreSQL job: three fetch --queue workers share
# the frontier and sink into the job's own pages table; the report counts
# every host exactly as SQL does, agrees with the same crawl stored in
# SQLite (three workers, a pages file each), and never shows the password
# of the URI it was given.
# run.sh: alone
. "$TESTS/lib.sh"
server_start
pg_start
report=$TESTS/../scripts/report
# pq URI SQL: one value per line, columns joined by |
pq() { psql -X -q -At "$1" -c "$2"; }

# Per host a known mix: accepted pages, rejected ones (404, 410, a PNG),
# and on 127.0.0.3 two dead letters (a 503 and a 429, --retries 0).
{
	for i in 1 2 3 4 5; do echo "$U1/page/$i"; done
	echo "$U1/hello?title=%3Cscript%3Ealert(1)%3C/script%3E"
	echo "$U1/status/404"
	echo "$U1/status/410"
	for i in 1 2; do echo "$U2/page/$i"; done
	for i in 1 2 3; do echo "$U2/status/404?n=$i"; done
	echo "$U2/bin"
	for i in 1 2 3; do echo "$U3/page/$i"; done
	echo "$U3/status/503?dead"
	echo "$U3/status/429?dead"
} >"$T/seeds.txt"

# crawl JOB PAGES N: worker N's pipeline (user agent WN) on JOB into PAGES.
crawl() {
	"$BIN/fetch" -q --queue "$1" --no-robots --retries 0 -d 0.25 --user-agent "W$3" "$T/seeds.txt" |
		"$BIN/parse" -q | "$BIN/validate" -q | "$BIN/sink" -q --batch-ms 50 --queue "$1" "$2"
}
# three JOB PAGES1 PAGES2 PAGES3: three workers at once, to the end of the job.
three() {
	( crawl "$1" "$2" 1 ) & w1=$!
	( crawl "$1" "$3" 2 ) & w2=$!
	( crawl "$1" "$4" 3 ) & w3=$!
	( sleep 60; kill $w1 $w2 $w3 2>/dev/null ) & guard=$!   # a watchdog, not a wait
	wait $w1 $w2 $w3; kill $guard 2>/dev/null
}
# counts FILE: host|raw|accepted|yield|429s|timeouts|dead per host line of a report
counts() { awk '/^127\./ { print $1 "|" $2 "|" $3 "|" $4 "|" $7 "|" $8 "|" $9 }' "$1" | sort; }

psql -X -q "$PG" -c "CREATE DATABASE three" >/dev/null
J=$(echo "$PG" | sed "s|:///postgres?|:///three?|")
three "$J" "$J" "$J" "$J"
expect_eq "the job is done: 17 URLs done, 2 dead" "dead|2 done|17" \
	"$(pq "$J" 'select state, count(*) from frontier group by state order by state' | tr '\n' ' ' | sed 's/ $//')"
# Which worker gets which host is the frontier's business (a late one
# may find every host owned): what matters here is that more than one
# did the work the report sums.
n=$(jq -r .ua "$LOG" | sort -u | grep -c '^W[123]$')
expect_cmd "the workers shared the job ($n of 3 fetched)" test "$n" -ge 2

"$report" "$J" --queue "$J" >"$T/pg.out" 2>"$T/pg.err"
expect_eq "report on a postgresql:// job exits 0" "0 " "$? $(cat "$T/pg.err")"
expect_eq "every host with its raw, accepted and dead letters" \
	"127.0.0.1|8|6|75.0%|0|0|0 127.0.0.2|6|2|33.3%|0|0|0 127.0.0.3|5|3|60.0%|1|0|2" \
	"$(counts "$T/pg.out" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "raw and accepted as SQL counts them" \
	"$(pq "$J" 'select host, count(*), sum(accepted) from pages group by host order by host')" \
	"$(awk '/^127\./ { print $1 "|" $2 "|" $3 }' "$T/pg.out" | sort)"
expect_eq "dead letters as SQL counts them" \
	"$(pq "$J" "select host, count(*) from frontier where state = 'dead' group by host order by host")" \
	"$(awk '/^127\./ && $9 > 0 { print $1 "|" $9 }' "$T/pg.out" | sort)"
expect_eq "the frontier by state" "frontier: dead 2, done 17" "$(tail -1 "$T/pg.out")"

# The same crawl on SQLite: a frontier file, three workers, a pages file
# each; one report over the three files says the same.
: >"$LOG"
three "$T/job.db" "$T/w1.db" "$T/w2.db" "$T/w3.db"
n=$(for w in 1 2 3; do q "$T/w$w.db" 'select count(*) from pages'; done |
	awk '$1 > 0 { n++ } { s += $1 } END { print n, s }')
expect_cmd "the pages are spread over the workers' files ($n)" test "${n% *}" -ge 2 -a "${n#* }" = 19
"$report" "$T/w1.db" "$T/w2.db" "$T/w3.db" --queue "$T/job.db" >"$T/sq.out"
expect_eq "the report from SQLite stores agrees" "$(counts "$T/pg.out")" "$(counts "$T/sq.out")"
expect_eq "and so does its frontier line" "$(tail -1 "$T/pg.out")" "$(tail -1 "$T/sq.out")"

# --host keeps only the hosts named.
"$report" "$J" --queue "$J" --host 127.0.0.2 --host 127.0.0.3 >"$T/h.out"
expect_eq "--host: only those hosts" "127.0.0.2 127.0.0.3" \
	"$(awk '/^127\./ { print $1 }' "$T/h.out" | sort | tr '\n' ' ' | sed 's/ $//')"

# A password in the URI (trust authentication lets it through unused)
# is shown nowhere: not on stdout, not in the page, not in an error.
S="postgresql://sluice:pw-s3cret@/three?host=$PGDIR"
"$report" "$S" --queue "$S&password=pw-s3cret" --html "$T/pw.html" >"$T/pw.out" 2>&1
expect_eq "a URI with a password works" "$(counts "$T/pg.out")" "$(counts "$T/pw.out")"
expect_match "the page names the job with *** for the password" \
	"postgresql://sluice:\*\*\*@/three\?host=$PGDIR&amp;password=\*\*\*" "$(cat "$T/pw.html")"
"$report" "postgresql://sluice:pw-s3cret@/nodb?host=$PGDIR" >"$T/e1.out" 2>&1
e1=$?
"$report" "$J" --queue "postgresql:///nodb?host=$PGDIR&password=pw-s3cret" >"$T/e2.out" 2>&1
e2=$?
"$report" "$J" --bogus "postgresql://sluice:pw-s3cret@/x" >"$T/e3.out" 2>&1
e3=$?
expect_eq "a database that is not there: exit 66" "66 66" "$e1 $e2"
expect_eq "and the message says which, password hidden" \
	"report: cannot open 'postgresql://sluice:***@/nodb?host=$PGDIR': connection to server on socket \"$PGDIR/.s.PGSQL.5432\" failed: FATAL: database \"nodb\" does not exist" \
	"$(cat "$T/e1.out")"
expect_eq "a bad option: exit 64" 64 "$e3"
expect_eq "the password appears in no output" "" \
	"$(grep -l 'pw-s3cret' "$T/pw.out" "$T/pw.html" "$T/e1.out" "$T/e2.out" "$T/e3.out")"

# A PostgreSQL database that is not sink's.
"$report" "$PG" >"$T/e4.out" 2>&1
expect_eq "a database without pages: exit 65, saying so" \
	"65 report: not a sink database '$PG': relation \"pages\" does not exist" "$? $(cat "$T/e4.out")"
finish
