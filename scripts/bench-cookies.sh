#!/bin/sh
# bench-cookies.sh — what --cookies costs fetch (issue 37): a site that
# sets 50 new cookies on every answer, and a jar of 100 000 cookies read
# at start and written at exit.
#
#   [BIN=dir] [N=2000] [RUNS=5] [JAR=100000] scripts/bench-cookies.sh
#
# A private nginx (scripts/bench/nginx.sh) answers /c with a small page
# and 50 Set-Cookie lines of names new on each answer ($request_id), so a
# jar fills and evicts at every answer.  fetch --no-robots -q takes the N
# URLs (default flags otherwise), without --cookies and with a new jar
# each run; best of RUNS, wall clock and fetch's user+sys CPU.  Then
# fetch with no input and --max-cookies JAR on a jar of JAR cookies (1000
# hosts): the jar read and written back, against the same fetch without
# --cookies.  Prints a markdown table on stdout (progress on stderr).
#
# Environment: BIN (./bin, else bin/ next to this script), N, RUNS, JAR,
# KEEP=1 to keep the temp dir.  Needs nginx, curl, awk, GNU /usr/bin/time.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${BIN:-}" ]; then
	if [ -x ./bin/fetch ]; then BIN=./bin; else BIN=$here/../bin; fi
fi
N=${N:-2000}
RUNS=${RUNS:-5}
JAR=${JAR:-100000}
FETCH=$BIN/fetch

die() { echo "bench-cookies: $*" >&2; exit 1; }
say() { echo "bench-cookies: $*" >&2; }

[ -x "$FETCH" ] || die "$FETCH: not executable (make bin/fetch)"
for t in nginx curl awk; do
	command -v "$t" >/dev/null 2>&1 || die "$t: not found"
done
[ -x /usr/bin/time ] || die "/usr/bin/time: not found (GNU time)"

. "$here/bench/nginx.sh"
nginx_scratch bench-cookies
load0=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir "$dir/www"
echo ok >"$dir/www/index.html"
chmod -R a+rX "$dir/www"
NGINX_SERVER=$(
	echo "		location = /c {"
	i=1
	while [ $i -le 50 ]; do
		echo "			add_header Set-Cookie \"c${i}_\$request_id=1; Path=/\";"
		i=$((i + 1))
	done
	echo "			default_type text/html;"
	echo "			return 200 \"<!doctype html><title>Cookies</title><p>50 new cookies\";"
	echo "		}"
)
export NGINX_SERVER
nginx_up "$dir" "$dir/www" /index.html
n=$(curl -s -D - -o /dev/null "$base/c" | grep -ci '^set-cookie:')
[ "$n" = 50 ] || die "/c sent $n Set-Cookie lines, not 50"
awk -v n="$N" -v b="$base" 'BEGIN { for (i = 0; i < n; i++) print b "/c?i=" i }' >"$dir/urls.txt"

now() { date +%s.%N; }
. "$here/bench/best.sh"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

F="$FETCH --no-robots -q"
best_of plain "$F <'$dir/urls.txt' >/dev/null"
pw=$best pc=$bestcpu
best_of cookies "rm -f '$dir/s.jar'; $F --cookies '$dir/s.jar' --stats '$dir/s.json' <'$dir/urls.txt' >/dev/null"
cw=$best cc=$bestcpu
kept=$(sed -n 's/.*"cookies": {"kept": \([0-9]*\), "evicted": \([0-9]*\).*/\1 kept, \2 evicted/p' "$dir/s.json")

awk -v n="$JAR" 'BEGIN { print "# Netscape HTTP Cookie File"
	for (i = 0; i < n; i++)
		printf "h%04d.example\tFALSE\t/\tFALSE\t0\tc%d\tv%d\n", i % 1000, i, i }' >"$dir/big.jar"
# Both runs copy the jar, so the difference is its read and write.
best_of "no jar" "cp '$dir/big.jar' '$dir/b.jar'; $FETCH --no-robots -q </dev/null"
ew=$best ec=$bestcpu
best_of "jar" "cp '$dir/big.jar' '$dir/b.jar'; $FETCH --no-robots -q --max-cookies $JAR --cookies '$dir/b.jar' </dev/null"
jw=$best jc=$bestcpu
grep -v '^#' "$dir/b.jar" | grep -v '^$' >"$dir/b.lines"
grep -v '^#' "$dir/big.jar" | cmp -s - "$dir/b.lines" || die "the jar written back differs from the one read"
# The read alone: FILE.tmp a directory, the write fails at once (said,
# and fetch exits 74).
mkdir "$dir/b.jar.tmp"
best_of "jar read" "cp '$dir/big.jar' '$dir/b.jar'; $FETCH --no-robots -q --max-cookies $JAR --cookies '$dir/b.jar' </dev/null 2>/dev/null; [ \$? = 74 ]"
rw=$best rc=$bestcpu
rmdir "$dir/b.jar.tmp"

echo "N=$N URLs, 50 new cookies an answer, best of $RUNS; load before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | wall s | CPU s (user+sys) | × without cookies (wall) |"
echo "| --- | --- | --- | --- |"
echo "| fetch, no --cookies | $pw | $pc | 1.00 |"
echo "| fetch --cookies ($kept) | $cw | $cc | $(ratio "$cw" "$pw") |"
echo "| fetch, no input, no --cookies | $ew | $ec | |"
# more WALL CPU: "+wall s wall, +cpu s CPU" against the run without a jar
more() { awk -v w="$1" -v c="$2" -v ew="$ew" -v ec="$ec" 'BEGIN { printf "+%.3f s wall, +%.2f s CPU", w - ew, c - ec }'; }
echo "| fetch, no input, jar of $JAR read | $rw | $rc | $(more "$rw" "$rc") |"
echo "| fetch, no input, jar of $JAR read and written | $jw | $jc | $(more "$jw" "$jc") |"
