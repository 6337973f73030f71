# scripts/report on a PostgreSQL job: three fetch --queue workers share
# the frontier and sink into the job's own pages table; the report counts
# every host exactly as SQL does, agrees with the same crawl stored in
# SQLite (three workers, a pages file each), and never shows the password
# of the URI it was given.  --sample picks from the named hosts only, the
# same pages for the same seed from either store, escaped in --html.  No
# timing is checked: it runs beside the others.
. "$TESTS/lib.sh"
server_start
pg_start
report=$TESTS/../scripts/report

# Per host a known mix: accepted pages, rejected ones (404, 410, a PNG),
# and on 127.0.0.3 two dead letters (a 503 and a 429, --retries 0).
{
	urls "$U1/page/" 5
	echo "$U1/hello?title=%3Cscript%3Ealert(1)%3C/script%3E"
	echo "$U1/status/404"
	echo "$U1/status/410"
	urls "$U2/page/" 2
	urls "$U2/status/404?n=" 3
	echo "$U2/bin"
	urls "$U3/page/" 3
	echo "$U3/status/503?dead"
	echo "$U3/status/429?dead"
} >"$T/seeds.txt"

# worker JOB PAGES N: worker N's crawl (user agent WN) on JOB into PAGES.
worker() { crawl "$1" "$2" --no-robots --retries 0 -d 0.25 --user-agent "W$3" sink: --batch-ms 50; }
# three JOB PAGES1 PAGES2 PAGES3: three workers at once, to the end of the job.
three() {
	( worker "$1" "$2" 1 ) & w1=$!
	( worker "$1" "$3" 2 ) & w2=$!
	( worker "$1" "$4" 3 ) & w3=$!
	wait $w1 $w2 $w3
}
# counts FILE: host|raw|accepted|yield|429s|timeouts|dead per host line of a report
counts() { awk '/^127\./ { print $1 "|" $2 "|" $3 "|" $4 "|" $7 "|" $8 "|" $9 }' "$1" | sort; }

J=$(pg_db three)
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

# --sample N --host H: N accepted and N rejected pages of H only (all
# there are when H has fewer), each with its status and reason, picked
# by --seed: the same pages for the same seed from either store.
# sample FILE: the lines of the sample, from its first line on
sample() { sed -n '/^sample: /,$p' "$1"; }
# picks FILE OUTCOME: the URL of each page of OUTCOME the sample shows
picks() { sample "$1" | awk -v o="$2" '$1 == o { print $3 }'; }
"$report" "$J" --sample 2 --host 127.0.0.1 --seed 7 >"$T/s1.out" 2>&1
expect_eq "--sample exits 0" 0 $?
expect_eq "the sample names H alone, with how many it picked from" \
	"127.0.0.1: 2 of 6 accepted, 2 of 2 rejected" "$(sample "$T/s1.out" | grep '^[^ ].*: ' | grep -v '^sample: ')"
expect_eq "2 accepted pages of H" "2 2" \
	"$(picks "$T/s1.out" accepted | wc -l) $(picks "$T/s1.out" accepted | grep -c "^$U1/")"
expect_eq "2 rejected pages of H, with status and reason" \
	"  rejected  404  $U1/status/404  status 404|  rejected  410  $U1/status/410  status 410" \
	"$(sample "$T/s1.out" | grep '^  rejected ' | sort | paste -sd'|')"
expect_eq "no other host's page in the output" 0 "$(grep -c '127\.0\.0\.[23]' "$T/s1.out")"
expect_eq "each page has its title and text" "4 4" \
	"$(sample "$T/s1.out" | grep -c '^      title: ') $(sample "$T/s1.out" | grep -c '^      text: ')"
"$report" "$J" --sample 3 --host 127.0.0.2 --host 127.0.0.3 --seed 7 >"$T/s2.out"
expect_eq "fewer than N: all there are (2 accepted on .2), N of more (3 of 4 rejected)" \
	"127.0.0.2: 2 of 2 accepted, 3 of 4 rejected|127.0.0.3: 3 of 3 accepted, 2 of 2 rejected" \
	"$(sample "$T/s2.out" | grep '^127' | paste -sd'|')"
expect_eq "the dead letters are rejected pages with the fetch error as reason" \
	"fetch_error retries_exhausted|fetch_error retries_exhausted" \
	"$(sample "$T/s2.out" | grep "^  rejected .* $U3/" | sed 's/.* fetch_error/fetch_error/' | paste -sd'|')"
"$report" "$J" --sample 2 --host 127.0.0.1 --seed 7 >"$T/s3.out"
expect_eq "the same seed picks the same pages" "$(sample "$T/s1.out")" "$(sample "$T/s3.out")"
"$report" "$T/w1.db" "$T/w2.db" "$T/w3.db" --sample 2 --host 127.0.0.1 --seed 7 >"$T/s4.out"
expect_eq "and the same from the SQLite stores" "$(sample "$T/s1.out")" "$(sample "$T/s4.out")"
for seed in 1 2 3 4 5 6; do
	"$report" "$J" --sample 2 --host 127.0.0.1 --seed $seed | picks /dev/stdin accepted | sort | paste -sd' '
done | sort -u >"$T/seeds.picks"
expect_cmd "other seeds pick other pages ($(wc -l <"$T/seeds.picks") pairs of 6 seeds)" \
	test "$(wc -l <"$T/seeds.picks")" -ge 2
"$report" "$J" --sample 1 | sample /dev/stdin >"$T/s5.out"
expect_match "without --seed a new one, printed to reproduce the sample" \
	'^sample: 1 accepted and 1 rejected per host, seed [0-9]+$' "$(head -1 "$T/s5.out")"
"$report" "$J" --sample 1 --seed "$(head -1 "$T/s5.out" | sed 's/.*seed //')" | sample /dev/stdin >"$T/s6.out"
expect_eq "which it does" "$(cat "$T/s5.out")" "$(cat "$T/s6.out")"
"$report" "$J" --sample 0 >/dev/null 2>"$T/s0.err"
expect_eq "--sample 0: exit 64" "64 report: argument --sample: want a count of 1 or more" "$? $(tail -1 "$T/s0.err")"

# --html shows the sample as a table, every value escaped: the page
# titled <script>alert(1)</script> is text, not a script.
"$report" "$J" --queue "$J" --sample 6 --host 127.0.0.1 --seed 7 --html "$T/s.html" >/dev/null
expect_eq "the sample table: a header and 8 rows" "1 8" \
	"$(grep -c '<table class=.sample.>' "$T/s.html") $(sed -n "/<table class='sample'>/,/<\/table>/p" "$T/s.html" | grep -o '<tr><td>' | wc -l)"
expect_match "the title, escaped" '<td>&lt;script&gt;alert\(1\)&lt;/script&gt;</td>' "$(cat "$T/s.html")"
expect_eq "no <script> in the page" 0 "$(grep -ci '<script' "$T/s.html")"

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

# libpq's keyword form works as a URI does, its password hidden too.
K="host=$PGDIR dbname=three user=sluice password=pw-s3cret"
"$report" "$K" --queue "$K" >"$T/kw.out" 2>&1
expect_eq "libpq keywords: the same report" "$(counts "$T/pg.out")" "$(counts "$T/kw.out")"
"$report" "host=$PGDIR dbname=nodb user=sluice password=pw-s3cret" >"$T/kw2.out" 2>&1
expect_eq "libpq keywords of a database that is not there: exit 66, password hidden" \
	"66 report: cannot open 'host=$PGDIR dbname=nodb user=sluice password=***': connection to server on socket \"$PGDIR/.s.PGSQL.5432\" failed: FATAL: database \"nodb\" does not exist" \
	"$? $(cat "$T/kw2.out")"
expect_eq "the password appears in neither" "" "$(grep -l 'pw-s3cret' "$T/kw.out" "$T/kw2.out")"

# A PostgreSQL database that is not sink's.
"$report" "$PG" >"$T/e4.out" 2>&1
expect_eq "a database without pages: exit 65, saying so" \
	"65 report: not a sink database '$PG': relation \"pages\" does not exist" "$? $(cat "$T/e4.out")"

# robots.txt and sitemap rows are left out on PostgreSQL too: the report
# of a database holding them is that of its pages alone (from SQLite).
R=$TESTS/fixtures/report
psql -X -q "$PG" -c "CREATE DATABASE sm" >/dev/null
SM=$(echo "$PG" | sed "s|:///postgres?|:///sm?|")
cat "$R/pages.jsonl" "$R/not-pages.jsonl" | mkrec | "$BIN/sink" -q "$SM"
mkrec <"$R/pages.jsonl" | "$BIN/sink" -q "$T/p.db"
"$report" "$SM" --sample 2 --seed 1 --html "$T/sm.html" | grep -v '^report: ' >"$T/sm.out"
"$report" "$T/p.db" --sample 2 --seed 1 --html "$T/p.html" | grep -v '^report: ' >"$T/p.out"
expect_eq "robots.txt and sitemaps: not raw, no host of their own" "r.test 2 1 50.0%" \
	"$(awk '/\.test / { print $1, $2, $3, $4 }' "$T/sm.out")"
expect_eq "the table and the sample are those of the pages alone" "$(cat "$T/p.out")" "$(cat "$T/sm.out")"
expect_eq "and so are the charts" "$(sed -n '/^<section>/,$p' "$T/p.html")" \
	"$(sed -n '/^<section>/,$p' "$T/sm.html")"
finish
