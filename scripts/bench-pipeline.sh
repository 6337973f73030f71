#!/bin/sh
# bench-pipeline.sh — the whole pipeline end to end, with default flags,
# next to each stage alone and to the usual Python tools for the same job.
#
#   [BIN=dir] [RUNS=3] [TMO=600] scripts/bench-pipeline.sh
#
# Starts a private nginx on 127.0.0.1 (free port, own prefix in a temp dir,
# access_log off, /etc/nginx/mime.types) serving /usr/share/doc, then:
#
# List job: every page of the PostgreSQL 15 manual (postgresql-doc-15), one
# URL per HTML file:
#   - fetch < urls | parse | validate | sink pages.db (a new db each run),
#     checking that pages.db has one row per URL;
#   - each stage alone on the same bytes: fetch < urls > f.mp, parse < f.mp
#     > p.mp, validate < p.mp > v.mp, sink x.db < v.mp, and their sum;
#     pipeline / sum (target <= 1.2: the pipe costs little);
#   - scripts/bench/aiohttp_recipe.py (aiohttp + BeautifulSoup, 64 in
#     flight, 4 per host); recipe / pipeline (target >= 6);
#   - scripts/bench/scrapy_spider.py list (Scrapy, 64 / 4 per domain);
#     scrapy / pipeline (target >= 8).
# Crawl job: the Python 3.11 manual (python3.11-doc) from its index.html,
# kept to the manual's prefix:
#   - fetch --queue job.db seed.txt | parse | validate
#       | sink --queue job.db --follow --include '^PREFIX' pages.db
#     (new job.db and pages.db each run): rows stored;
#   - scripts/bench/scrapy_spider.py crawl (same prefix, depth 5 = sink's
#     default --max-depth): items;
#   - wget2 -r -np --max-threads 4 (default depth 5): HTML files saved;
#   scrapy / sluice (target >= 8) and wget2 / sluice.
#
# Every sluice command runs with its default flags (robots.txt is fetched
# and 404s).  Each measurement is the best wall clock of RUNS runs; one
# whose first run takes longer than SLOW seconds (60) is run once only, and
# the table says so.  Every run is bounded by `timeout TMO` (600 s); a run
# that times out or fails is reported as such in the table, and the script
# goes on.  A wrong count (rows, items) is reported as FAILED and makes the
# script exit 1 after the table.  Progress goes to stderr, a markdown table
# to stdout.
#
# Environment: BIN (bin/ next to this script), RUNS, TMO, SLOW, PY
# (/usr/bin/python3: Debian's, with python3-aiohttp, -bs4, -scrapy; the
# python3 on PATH may be another one), PGDOCS, PYDOCS, KEEP=1 to keep the
# temp dir.  Needs nginx, curl, wget2, sqlite3, timeout, awk.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
RUNS=${RUNS:-3}
TMO=${TMO:-600}
SLOW=${SLOW:-60}
PY=${PY:-/usr/bin/python3}
DOCROOT=/usr/share/doc
PGDOCS=${PGDOCS:-postgresql-doc-15/html}
PYDOCS=${PYDOCS:-python3.11/html}

die() { echo "bench-pipeline: $*" >&2; exit 1; }
say() { echo "bench-pipeline: $*" >&2; }

for b in fetch parse validate sink; do
	[ -x "$BIN/$b" ] || die "$BIN/$b: not executable (make)"
done
for t in nginx curl wget2 sqlite3 timeout awk; do
	command -v "$t" >/dev/null 2>&1 || die "$t: not found (make deps-bench)"
done
[ -d "$DOCROOT/$PGDOCS" ] || die "$DOCROOT/$PGDOCS missing: apt-get install postgresql-doc-15"
[ -f "$DOCROOT/$PYDOCS/index.html" ] || die "$DOCROOT/$PYDOCS missing: apt-get install python3.11-doc"
"$PY" -c 'import aiohttp, bs4, scrapy' 2>/dev/null ||
    die "$PY lacks aiohttp, bs4 or scrapy: apt-get install python3-aiohttp python3-bs4 python3-scrapy"
BIN=$(cd "$BIN" && pwd)

load0=$(cut -d' ' -f1-3 /proc/loadavg)
. "$here/bench/nginx.sh"
nginx_scratch bench-pipeline

nginx_up "$dir" "$DOCROOT" "/$PGDOCS/index.html"

# ---- inputs --------------------------------------------------------------------
for f in "$DOCROOT/$PGDOCS"/*.html; do
	echo "$base/$PGDOCS/${f##*/}"
done >"$dir/urls.txt"
N=$(wc -l <"$dir/urls.txt")
pgbytes=$(cat "$DOCROOT/$PGDOCS"/*.html | wc -c)
pgmb=$(awk -v b="$pgbytes" 'BEGIN { printf "%.1f", b / 1e6 }')
seed=$base/$PYDOCS/index.html
prefix=$base/$PYDOCS/
echo "$seed" >"$dir/seed.txt"
# sink's --include is a PCRE2: escape the dots of the prefix
include="^$(printf '%s' "$prefix" | sed 's/\./\\./g')"
pyhtml=$(find -L "$DOCROOT/$PYDOCS" -name '*.html' | wc -l)
say "list job: $N URLs ($pgmb MB); crawl job: $seed ($pyhtml HTML files under the prefix)"

# ---- helpers --------------------------------------------------------------------
now() { date +%s.%N; }
lt() { awk -v x="$1" -v y="$2" 'BEGIN { print (x < y) ? 1 : 0 }'; }
ratio() {
	if [ -n "$1" ] && [ -n "$2" ]; then
		awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
	else
		echo n/a
	fi
}
fails=0

# cmd NAME: the shell script for NAME, written from stdin
cmd() { cat >"$dir/$1.sh"; }

# measure NAME LABEL: runs $dir/NAME.sh up to RUNS times under timeout,
# each after $dir/NAME.prep.sh (untimed) when it exists and followed by
# $dir/NAME.check.sh (untimed), which prints the run's count and exits
# nonzero when the count is wrong.  Sets $best (seconds, empty when no
# run succeeded), $count (the check's output for the best run), $note
# (what happened: runs, timeouts, failures).
measure() {
	name=$1 label=$2
	best= count= note= ok=0 bad=0 to=0 r=0 n=$RUNS
	while [ $r -lt "$n" ]; do
		[ -f "$dir/$name.prep.sh" ] && sh "$dir/$name.prep.sh"
		t0=$(now)
		rc=0
		timeout -k 10 "$TMO" sh "$dir/$name.sh" 2>"$dir/$name.err" || rc=$?
		t1=$(now)
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		r=$((r + 1))
		if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			say "$label run $r: TIMED OUT after $s s"
			to=$((to + 1))
			n=$r	# a second try would time out too
			break
		elif [ $rc -ne 0 ]; then
			say "$label run $r: FAILED, exit $rc after $s s; stderr:"
			tail -n 5 "$dir/$name.err" >&2
			bad=$((bad + 1))
			continue
		fi
		c=0
		cnt=$(sh "$dir/$name.check.sh" 2>&1) || c=$?
		if [ $c -ne 0 ]; then
			say "$label run $r: $s s, WRONG COUNT: $cnt"
			bad=$((bad + 1))
			count="**FAILED: $cnt**"
			continue
		fi
		say "$label run $r: $s s, $cnt"
		ok=$((ok + 1))
		if [ -z "$best" ] || [ "$(lt "$s" "$best")" = 1 ]; then
			best=$s count=$cnt
		fi
		if [ $r -eq 1 ] && [ "$(lt "$SLOW" "$s")" = 1 ] && [ "$n" -gt 1 ]; then
			say "$label: over $SLOW s, not repeated"
			n=1
		fi
	done
	if [ $ok -gt 0 ]; then
		if [ $n -eq 1 ] && [ "$RUNS" -gt 1 ]; then note="1 run (slow)"
		else note="best of $ok"; fi
	fi
	[ $to -eq 0 ] || note="${note:+$note, }**timed out** (> $TMO s)"
	[ $bad -eq 0 ] || { note="${note:+$note, }**$bad run(s) failed**"; fails=$((fails + 1)); }
	[ -n "$best" ] || [ $to -gt 0 ] || [ $bad -gt 0 ] || note="not run"
}

# notes COUNT NOTE: the table's notes for a measurement
notes() { if [ -n "$1" ] && [ -n "$2" ]; then echo "$1; $2"; else echo "$1$2"; fi; }
# cell SECONDS: the table's result for a measurement
cell() { if [ -n "$1" ]; then echo "$1 s"; else echo "—"; fi; }
# verdict RATIO OP TARGET
verdict() {
	[ "$1" != n/a ] || { echo "target $2 $3: n/a"; return; }
	awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN {
		m = (op == ">=") ? (v >= t) : (v <= t)
		printf "target %s %s: %s", op, t, m ? "met" : "**missed**" }'
}

# ---- list job ----------------------------------------------------------------------
F=$BIN/fetch P=$BIN/parse V=$BIN/validate S=$BIN/sink
echo "rm -f '$dir'/pages.db*" | cmd pipe.prep
cmd pipe <<EOF
'$F' <'$dir/urls.txt' | '$P' | '$V' | '$S' '$dir/pages.db'
EOF
cmd pipe.check <<EOF
n=\$(sqlite3 '$dir/pages.db' 'select count(*) from pages')
ok=\$(sqlite3 '$dir/pages.db' 'select count(*) from pages where status = 200 and accepted = 1')
echo "\$n rows (\$ok status 200 and accepted) for $N URLs"
[ "\$n" -eq $N ]
EOF
say "list job: pipeline"
measure pipe "pipeline"
pipe_s=$best pipe_n=$count pipe_note=$note

echo "rm -f '$dir/f.mp'" | cmd fetch.prep
echo "'$F' <'$dir/urls.txt' >'$dir/f.mp'" | cmd fetch
# the stage-alone inputs: one record per URL, checked on the last stage
echo "echo \$(wc -c <'$dir/f.mp') bytes" | cmd fetch.check
echo "'$P' <'$dir/f.mp' >'$dir/p.mp'" | cmd parse
echo "echo \$(wc -c <'$dir/p.mp') bytes" | cmd parse.check
echo "'$V' <'$dir/p.mp' >'$dir/v.mp'" | cmd validate
echo "echo \$(wc -c <'$dir/v.mp') bytes" | cmd validate.check
echo "rm -f '$dir'/x.db*" | cmd sinkalone.prep
echo "'$S' '$dir/x.db' <'$dir/v.mp'" | cmd sinkalone
sed "s|pages.db|x.db|g" "$dir/pipe.check.sh" | cmd sinkalone.check
sum= stages_ok=1
for st in fetch parse validate sinkalone; do
	if [ $stages_ok = 1 ]; then
		say "list job: ${st%alone} alone"
		measure "$st" "${st%alone} alone"
	else
		best= count= note="not run (an earlier stage failed)"
	fi
	eval "${st}_s=\$best ${st}_n=\$count ${st}_note=\$note"
	if [ -n "$best" ]; then
		sum=$(awk -v a="${sum:-0}" -v b="$best" 'BEGIN { printf "%.3f", a + b }')
	else
		stages_ok=0 sum=
	fi
done
[ $stages_ok = 1 ] || sum=
rm -f "$dir"/f.mp "$dir"/p.mp "$dir"/v.mp "$dir"/x.db*

# pylist NAME LABEL NOUN SCRIPT...: measures `$PY SCRIPT... urls out` of a
# Python tool over the URL list, writing $dir/NAME.jsonl, checked for one
# line (NOUN) per URL
pylist() {
	_n=$1 _l=$2 _w=$3
	shift 3
	echo "rm -f '$dir/$_n.jsonl'" | cmd "$_n.prep"
	echo "'$PY' $* '$dir/urls.txt' '$dir/$_n.jsonl'" | cmd "$_n"
	cmd "$_n.check" <<EOF
n=\$(wc -l <'$dir/$_n.jsonl')
ok=\$(grep -c '"status": 200' '$dir/$_n.jsonl' || true)
echo "\$n $_w (\$ok status 200) for $N URLs"
[ "\$n" -eq $N ]
EOF
	say "list job: $_l"
	measure "$_n" "$_l"
}
pylist aio "aiohttp recipe" lines "'$here/bench/aiohttp_recipe.py'"
aio_s=$best aio_n=$count aio_note=$note
pylist scrapy "scrapy list" items "'$here/bench/scrapy_spider.py'" list
scrapy_s=$best scrapy_n=$count scrapy_note=$note

# ---- crawl job ------------------------------------------------------------------------
echo "rm -f '$dir'/job.db* '$dir'/crawl.db*" | cmd crawl.prep
cmd crawl <<EOF
'$F' --queue '$dir/job.db' '$dir/seed.txt' | '$P' | '$V' |
    '$S' --queue '$dir/job.db' --follow --include '$include' '$dir/crawl.db'
EOF
cmd crawl.check <<EOF
n=\$(sqlite3 '$dir/crawl.db' 'select count(*) from pages')
ok=\$(sqlite3 '$dir/crawl.db' 'select count(*) from pages where accepted = 1')
echo "\$n rows (\$ok accepted)"
[ "\$n" -gt 0 ]
EOF
say "crawl job: sluice"
measure crawl "sluice crawl"
crawl_s=$best crawl_n=$count crawl_note=$note

echo "rm -f '$dir/scrawl.jsonl'" | cmd scrawl.prep
echo "'$PY' '$here/bench/scrapy_spider.py' crawl '$seed' '$prefix' '$dir/scrawl.jsonl'" | cmd scrawl
cmd scrawl.check <<EOF
n=\$(wc -l <'$dir/scrawl.jsonl')
ok=\$(grep -c '"title": "' '$dir/scrawl.jsonl' || true)
echo "\$n items (\$ok with a title)"
[ "\$n" -gt 0 ]
EOF
say "crawl job: scrapy"
measure scrawl "scrapy crawl"
scrawl_s=$best scrawl_n=$count scrawl_note=$note

echo "rm -rf '$dir/wget'" | cmd wget.prep
# exit 8: some responses were errors (robots.txt and a link or two 404)
echo "wget2 -r -np -q --max-threads 4 -P '$dir/wget' '$seed' || [ \$? -eq 8 ]" | cmd wget
cmd wget.check <<EOF
n=\$(find '$dir/wget' -type f -name '*.html' | wc -l)
all=\$(find '$dir/wget' -type f | wc -l)
echo "\$n HTML files (\$all files)"
[ "\$n" -gt 0 ]
EOF
say "crawl job: wget2"
measure wget "wget2 -r"
wget_s=$best wget_n=$count wget_note=$note
rm -rf "$dir/wget"

# ---- report --------------------------------------------------------------------------------
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
nginxv=$(nginx -v 2>&1 | sed 's/.*nginx\///')
pyv=$("$PY" -c 'import sys, aiohttp, bs4, scrapy
print("Python %d.%d.%d, aiohttp %s, bs4 %s, scrapy %s" % (sys.version_info[:3] + (aiohttp.__version__, bs4.__version__, scrapy.__version__)))')
lxmlv=$("$PY" -c 'import lxml.etree as e; print("lxml " + e.__version__)' 2>/dev/null || echo "html.parser")
wget2v=$(wget2 --version 2>/dev/null | awk 'NR == 1 { print $3 }')
fetchv=$("$F" --version 2>/dev/null | awk 'NR == 1 { print $2 }')
load1=$(cut -d' ' -f1-3 /proc/loadavg)
r_sum=$(ratio "$pipe_s" "$sum")
r_aio=$(ratio "$aio_s" "$pipe_s")
r_scrapy=$(ratio "$scrapy_s" "$pipe_s")
r_scrawl=$(ratio "$scrawl_s" "$crawl_s")
r_wget=$(ratio "$wget_s" "$crawl_s")
esc() { printf '%s' "$1" | sed 's/|/\\|/g'; }

cat <<EOF
### pipeline end to end, default flags ($(date -u +%Y-%m-%d))

Machine: $(nproc) cores, $cpu, Linux $(uname -r).
nginx $nginxv (1 worker, access_log off, serving $DOCROOT on 127.0.0.1),
fetch $fetchv (all sluice programs with default flags),
$pyv ($lxmlv), wget2 $wget2v.
Best wall clock of RUNS=$RUNS runs unless
noted; every run bounded by timeout $TMO s.
Load average before: $load0, after: $load1.

List job: the PostgreSQL 15 manual, $N pages, $pgmb MB, one URL per page.

| measurement | result | notes |
|---|---:|---|
| $(esc "fetch < urls | parse | validate | sink pages.db") | $(cell "$pipe_s") | $(notes "$pipe_n" "$pipe_note") |
| fetch < urls > f.mp | $(cell "$fetch_s") | $(notes "$fetch_n" "$fetch_note") |
| parse < f.mp > p.mp | $(cell "$parse_s") | $(notes "$parse_n" "$parse_note") |
| validate < p.mp > v.mp | $(cell "$validate_s") | $(notes "$validate_n" "$validate_note") |
| sink x.db < v.mp | $(cell "$sinkalone_s") | $(notes "$sinkalone_n" "$sinkalone_note") |
| sum of the stages alone | $(cell "$sum") | |
| pipeline / sum | $r_sum | $(verdict "$r_sum" "<=" 1.2) |
| aiohttp + BeautifulSoup recipe (64 in flight, 4 per host) | $(cell "$aio_s") | $(notes "$aio_n" "$aio_note") |
| recipe / pipeline | $r_aio | $(verdict "$r_aio" ">=" 6) |
| Scrapy, list of URLs (64 / 4 per domain) | $(cell "$scrapy_s") | $(notes "$scrapy_n" "$scrapy_note") |
| scrapy / pipeline | $r_scrapy | $(verdict "$r_scrapy" ">=" 8) |

Crawl job: the Python 3.11 manual from index.html, links followed within
$prefix
(depth 5: sink's default --max-depth, Scrapy's DEPTH_LIMIT, wget2's
default -l); $pyhtml HTML files there on disk.

| measurement | result | notes |
|---|---:|---|
| $(esc "fetch --queue job.db seed.txt | parse | validate | sink --queue job.db --follow --include '^PREFIX' pages.db") | $(cell "$crawl_s") | $(notes "$crawl_n" "$crawl_note") |
| Scrapy spider following a[href] within the prefix | $(cell "$scrawl_s") | $(notes "$scrawl_n" "$scrawl_note") |
| wget2 -r -np --max-threads 4 | $(cell "$wget_s") | $(notes "$wget_n" "$wget_note") |
| scrapy / sluice | $r_scrawl | $(verdict "$r_scrawl" ">=" 8) |
| wget2 / sluice | $r_wget | |
EOF
[ $fails -eq 0 ] || die "$fails measurement(s) failed: see the table"
