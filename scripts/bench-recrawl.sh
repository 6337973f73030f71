#!/bin/sh
# bench-recrawl.sh — what a recrawl of an unchanged site costs: the
# PostgreSQL 15 manual (postgresql-doc-15, one URL per HTML page) crawled
# into a queue job with default flags, then recrawled with --recrawl 0.
#
#   [BIN=dir] [RUNS=3] [TMO=600] scripts/bench-recrawl.sh
#
# Starts a private nginx on 127.0.0.1 (scripts/bench/nginx.sh, serving
# /usr/share/doc) whose access log has each request's status, URI,
# If-None-Match, If-Modified-Since and body bytes.  Each run, on a new
# job.db and pages.db:
#   fetch --queue job.db urls.txt | parse | validate | sink --queue job.db pages.db
#   fetch --queue job.db --recrawl 0 | parse | validate | sink --queue job.db pages.db
# (urls.txt only seeds the first; the recrawl's input is empty).  From
# nginx's log: requests, how many were conditional, the statuses and the
# body bytes of each crawl; from pages.db: the rows the recrawl changed
# (any of url, title, status, stored_at, etag, last_modified, body) and
# the rows it checked (last_checked later); sink's closing notes.  The
# table has the best wall clock of RUNS runs of each crawl and the counts
# of the last run; a recrawl that sends other than N conditional requests,
# gets other than N 304s or changes a row makes the script exit 1 after
# the table.  Every command runs under `timeout TMO`.  Progress goes to
# stderr, a markdown table to stdout.
#
# Environment: BIN (bin/ next to this script), RUNS, TMO, PGDOCS, KEEP=1
# to keep the temp dir.  Needs nginx, curl, sqlite3, timeout, awk.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
RUNS=${RUNS:-3}
TMO=${TMO:-600}
DOCROOT=/usr/share/doc
PGDOCS=${PGDOCS:-postgresql-doc-15/html}

die() { echo "bench-recrawl: $*" >&2; exit 1; }
say() { echo "bench-recrawl: $*" >&2; }

for b in fetch parse validate sink; do
	[ -x "$BIN/$b" ] || die "$BIN/$b: not executable (make)"
done
for t in nginx curl sqlite3 timeout awk; do
	command -v "$t" >/dev/null 2>&1 || die "$t: not found (make deps-bench)"
done
[ -d "$DOCROOT/$PGDOCS" ] || die "$DOCROOT/$PGDOCS missing: apt-get install postgresql-doc-15"
BIN=$(cd "$BIN" && pwd)

load0=$(cut -d' ' -f1-3 /proc/loadavg)
. "$here/bench/nginx.sh"
nginx_scratch bench-recrawl

LOG=$dir/access.log
# shellcheck disable=SC2016  # nginx's variables
NGINX_LOG=$LOG NGINX_LOGFMT='$status|$request_uri|$http_if_none_match|$http_if_modified_since|$body_bytes_sent' \
	nginx_up "$dir" "$DOCROOT" "/$PGDOCS/index.html"

for f in "$DOCROOT/$PGDOCS"/*.html; do
	echo "$base/$PGDOCS/${f##*/}"
done >"$dir/urls.txt"
N=$(wc -l <"$dir/urls.txt")
: >"$dir/empty.txt"
say "$N URLs"

now() { date +%s.%N; }
F=$BIN/fetch P=$BIN/parse V=$BIN/validate S=$BIN/sink
J=$dir/job.db D=$dir/pages.db

# crawl NAME INPUT [FETCH-OPTIONS...]: one run of the job's pipeline on
# an emptied access log; sets $secs; stderr in $dir/NAME.err, fetch's
# --stats in $dir/NAME.json
crawl() {
	_n=$1 _in=$2
	shift 2
	: >"$LOG"
	_t0=$(now)
	timeout -k 10 "$TMO" sh -c 'f=$1 j=$2 st=$3 p=$4 v=$5 s=$6 d=$7; shift 7
		"$f" --queue "$j" --stats "$st" "$@" | "$p" | "$v" | "$s" --queue "$j" "$d"' \
		sh "$F" "$J" "$dir/$_n.json" "$P" "$V" "$S" "$D" "$_in" "$@" 2>"$dir/$_n.err" ||
		{ tail -n 5 "$dir/$_n.err" >&2; die "$_n: the pipeline failed"; }
	secs=$(awk -v a="$_t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
	# nginx logs a request once it has sent the answer: wait for the
	# last of the N pages and robots.txt (5 s at most)
	_i=0
	while [ "$(wc -l <"$LOG")" -lt $((N + 1)) ] && [ $_i -lt 100 ]; do sleep 0.05; _i=$((_i + 1)); done
	cp "$LOG" "$dir/$_n.log"
}

# logstats NAME: "pages robots conditional inm ims s200 s304 other bytes"
# from NAME's copy of the access log (pages: requests but robots.txt)
logstats() {
	awk -F'|' '
		$2 == "/robots.txt" { robots++; next }
		{ pages++; bytes += $5
		  if ($3 != "-") inm++
		  if ($4 != "-") ims++
		  if ($3 != "-" || $4 != "-") cond++
		  if ($1 == 200) s200++; else if ($1 == 304) s304++; else other++ }
		END { printf "%d %d %d %d %d %d %d %d %d\n", pages, robots, cond, inm, ims, s200, s304, other, bytes }' \
		"$dir/$1.log"
}

# snapshot: every row of pages.db as the recrawl must leave it
snapshot() {
	sqlite3 "$D" "select url, title, status, stored_at, etag, last_modified, hex(sha3(body)) from pages order by url"
}

best1='' best2='' r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	rm -f "$J"* "$D"*
	crawl first "$dir/urls.txt"
	s1=$secs
	snapshot >"$dir/snap1"
	checked0=$(sqlite3 "$D" 'select max(last_checked) from pages')
	crawl recrawl "$dir/empty.txt" --recrawl 0
	s2=$secs
	snapshot >"$dir/snap2"
	say "run $r: first crawl $s1 s, recrawl $s2 s"
	if [ -z "$best1" ] || awk -v a="$s1" -v b="$best1" 'BEGIN { exit !(a < b) }'; then best1=$s1; fi
	if [ -z "$best2" ] || awk -v a="$s2" -v b="$best2" 'BEGIN { exit !(a < b) }'; then best2=$s2; fi
done

# the last run's counts
# shellcheck disable=SC2046
set -- $(logstats first)
p1=$1 rb1=$2 c1=$3 s200a=$6 s304a=$7 o1=$8 b1=$9
# shellcheck disable=SC2046
set -- $(logstats recrawl)
p2=$1 rb2=$2 c2=$3 inm2=$4 ims2=$5 s200b=$6 s304b=$7 o2=$8 b2=$9
rows1=$(wc -l <"$dir/snap1" | tr -d ' ')
rows2=$(wc -l <"$dir/snap2" | tr -d ' ')
changed=$(LC_ALL=C comm -13 "$dir/snap1" "$dir/snap2" | wc -l | tr -d ' ')
checked=$(sqlite3 "$D" "select count(*) from pages where last_checked > $checked0")
nm=$(awk -F'"not_modified": *' 'NF > 1 { sub(/[^0-9].*/, "", $2); print $2; exit }' "$dir/recrawl.json")
note1=$(grep '^sink:' "$dir/first.err" | tail -n 1 | sed "s|$dir/||")
note2=$(grep '^sink:' "$dir/recrawl.err" | tail -n 1 | sed "s|$dir/||")
ratio=$(awk -v a="$best2" -v b="$best1" 'BEGIN { printf "%.2f", a / b }')
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
nginxv=$(nginx -v 2>&1 | sed 's/.*nginx\///')
fetchv=$("$F" --version 2>/dev/null | awk 'NR == 1 { print $2 }')
load1=$(cut -d' ' -f1-3 /proc/loadavg)

cat <<EOF
### recrawl of the PostgreSQL manual ($(date -u +%Y-%m-%d))

Machine: $(nproc) cores, $cpu, Linux $(uname -r).
nginx $nginxv (1 worker, serving $DOCROOT on 127.0.0.1, access log of
status, URI, If-None-Match, If-Modified-Since and body bytes), fetch
$fetchv, every program with its default flags. $N pages of the manual,
one URL each, seeded into a new job:

    fetch --queue job.db urls.txt | parse | validate | sink --queue job.db pages.db
    fetch --queue job.db --recrawl 0 | parse | validate | sink --queue job.db pages.db

Wall clock: best of RUNS=$RUNS runs (a new job each); counts: the last run.
Load average before: $load0, after: $load1.

| measurement | first crawl | recrawl (--recrawl 0) |
|---|---:|---:|
| wall clock | $best1 s | $best2 s |
| requests for pages (+ robots.txt) | $p1 (+$rb1) | $p2 (+$rb2) |
| conditional (If-None-Match, If-Modified-Since) | $c1 | $c2 ($inm2, $ims2) |
| answers 200 / 304 / other | $s200a / $s304a / $o1 | $s200b / $s304b / $o2 |
| body bytes sent by nginx | $(mb "$b1") | $b2 |
| rows in pages.db | $rows1 | $rows2 |
| rows changed by the recrawl (url, title, status, stored_at, validators, body) | | $changed |
| rows checked by the recrawl (last_checked later) | | $checked |
| fetch --stats not_modified | | ${nm:-n/a} |
| sink's closing note | $note1 | $note2 |
| recrawl / first crawl | | $ratio |
EOF
if [ "$c2" -ne "$N" ] || [ "$s304b" -ne "$N" ] || [ "$changed" -ne 0 ] || [ "$rows2" -ne "$N" ]; then
	die "the recrawl sent $c2 conditional requests, got $s304b 304s and changed $changed rows, for $N pages"
fi
