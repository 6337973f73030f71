#!/bin/sh
# bench-fetch.sh — how fast fetch drives a local HTTP server, next to
# wrk (the upper bound) and curl --parallel, and how much memory it needs.
#
#   [BIN=dir] [N=20000] [M=1000000] scripts/bench-fetch.sh
#
# Starts a private nginx on 127.0.0.1 (free port, own prefix in a temp
# dir, access_log off) serving N small pages p0.html..p{N-1}.html of about
# 1 KB, then at concurrency C (64):
#   - wrk -t2 -cC -dD with a Lua script cycling through the N paths;
#   - curl --parallel --parallel-max C with the N URLs in a -K config file
#     (--no-progress-meter too: curl 7.88 shows the parallel meter despite -s);
#   - fetch -c C -p C --no-robots < urls > /dev/null, and into `| cat`;
# each of curl and fetch best of RUNS (3) runs, wall clock.  Then peak RSS
# of fetch (GNU time %M) over N and over M (1 000 000) URLs cycling the same
# pages; if M URLs would take longer than MAXSECS (180) at the measured
# rate, measures head -n 100000 and head -n 300000 instead and says so.
# Prints a markdown table on stdout (progress goes to stderr).
#
# Environment: BIN (./bin, else bin/ next to this script), N, M, C, RUNS,
# DURATION (wrk, 10s), MAXSECS, KEEP=1 to keep the temp dir.
# Works as root or not; needs nginx, wrk, curl, GNU /usr/bin/time, awk.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${BIN:-}" ]; then
	if [ -x ./bin/fetch ]; then BIN=./bin; else BIN=$here/../bin; fi
fi
N=${N:-20000}
M=${M:-1000000}
C=${C:-64}
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
MAXSECS=${MAXSECS:-180}
FETCH=$BIN/fetch

die() { echo "bench-fetch: $*" >&2; exit 1; }
say() { echo "bench-fetch: $*" >&2; }

[ -x "$FETCH" ] || die "$FETCH: not executable (make bin/fetch)"
for t in nginx wrk curl awk; do
	command -v "$t" >/dev/null 2>&1 || die "$t: not found"
done
[ -x /usr/bin/time ] || die "/usr/bin/time: not found (GNU time)"
NGINX=$(command -v nginx)

load0=$(cut -d' ' -f1-3 /proc/loadavg)
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench-fetch.XXXXXX")
ngpid=
cleanup() {
	if [ -n "$ngpid" ]; then
		kill "$ngpid" 2>/dev/null || true
		wait "$ngpid" 2>/dev/null || true
	fi
	if [ "${KEEP:-0}" = 1 ]; then say "kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# nginx workers drop to "nobody" when started as root: let them read.
chmod 755 "$dir"

# ---- docroot: N pages of ~1 KB -------------------------------------------
say "generating $N pages"
mkdir "$dir/www"
( cd "$dir/www" && awk -v n="$N" 'BEGIN {
	pad = ""
	for (k = 0; k < 14; k++)
		pad = pad "Lorem ipsum dolor sit amet, consectetur adipiscing elit. "
	for (i = 0; i < n; i++) {
		f = "p" i ".html"
		printf "<!doctype html>\n<html><head><title>Page %d</title></head>\n" \
		    "<body><h1>Page %d</h1>\n<p>%s</p>\n<a href=\"p%d.html\">next</a>\n" \
		    "</body></html>\n", i, i, pad, (i + 1) % n > f
		close(f)
	}
}' )
chmod -R a+rX "$dir/www"
pagesize=$(wc -c <"$dir/www/p0.html")

# ---- private nginx on a free port -----------------------------------------
. "$here/bench/nginx.sh"
nginx_up "$dir" "$dir/www" /p0.html

# ---- inputs -----------------------------------------------------------------
awk -v n="$N" -v b="$base" 'BEGIN { for (i = 0; i < n; i++) print b "/p" i ".html" }' \
    >"$dir/urls.txt"
awk '{ printf "url = \"%s\"\noutput = \"/dev/null\"\n", $0 }' "$dir/urls.txt" >"$dir/curl.cfg"
cat >"$dir/cycle.lua" <<EOF
-- cycle through /p0.html .. /p$((N - 1)).html; each wrk thread has its
-- own Lua state, so start each thread at a different offset
local n = $N
local i = 0
local threads = 0
function setup(thread)
	thread:set("start", threads * math.floor(n / 2))
	threads = threads + 1
end
function init(args)
	i = tonumber(start) or 0
end
function request()
	local p = "/p" .. i .. ".html"
	i = (i + 1) % n
	return wrk.format("GET", p)
end
EOF

# ---- helpers ------------------------------------------------------------------
now() { date +%s.%N; }
. "$here/bench/best.sh"
# microseconds of CPU per URL
cpu_us() { awk -v c="$1" -v n="$N" 'BEGIN { printf "%.0f", c * 1e6 / n }'; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# ---- sanity: every URL comes back 200 from fetch ------------------------------
say "sanity run of fetch --json"
"$FETCH" -q -c "$C" -p "$C" --no-robots --json <"$dir/urls.txt" >"$dir/check.jsonl" ||
    die "fetch sanity run failed"
recs=$(wc -l <"$dir/check.jsonl")
ok=$(grep -c '"status":200' "$dir/check.jsonl" || true)
[ "$recs" -eq "$N" ] || say "warning: $recs records for $N URLs"
[ "$ok" -eq "$N" ] || say "warning: only $ok of $N records have status 200"
rm -f "$dir/check.jsonl"
curl_ok=$(curl -s --no-progress-meter --parallel --parallel-max "$C" -K "$dir/curl.cfg" -w '%{http_code}\n' |
    grep -c '^200$' || true)
[ "$curl_ok" -eq "$N" ] || say "warning: curl got 200 for $curl_ok of $N URLs"

# ---- wrk ----------------------------------------------------------------------------
say "wrk -t2 -c$C -d$DURATION"
wrk -t2 -c"$C" -d"$DURATION" -s "$dir/cycle.lua" "$base/" >"$dir/wrk.out" 2>&1 ||
    { cat "$dir/wrk.out" >&2; die "wrk failed"; }
cat "$dir/wrk.out" >&2
wrk_rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$dir/wrk.out")
wrk_non2xx=$(awk '/Non-2xx/ { print $NF }' "$dir/wrk.out")
[ -z "$wrk_non2xx" ] || say "warning: wrk saw $wrk_non2xx non-2xx responses"

# ---- curl --parallel ------------------------------------------------------------------
best_of curl "curl -s --no-progress-meter --parallel --parallel-max $C -K '$dir/curl.cfg'"
curl_s=$best curl_cpu=$bestcpu
curl_rps=$(rate "$N" "$curl_s")

# ---- fetch --------------------------------------------------------------------------------
best_of fetch "'$FETCH' -q -c $C -p $C --no-robots <'$dir/urls.txt' >/dev/null"
fetch_s=$best fetch_cpu=$bestcpu
fetch_rps=$(rate "$N" "$fetch_s")
best_of "fetch|cat" "'$FETCH' -q -c $C -p $C --no-robots <'$dir/urls.txt' | cat >/dev/null"
fetchp_s=$best fetchp_cpu=$bestcpu
fetchp_rps=$(rate "$N" "$fetchp_s")

# ---- memory ---------------------------------------------------------------------------------
# peak RSS (KiB) and wall seconds of fetch over the first $1 lines of $2
memrun() {
	head -n "$1" "$2" >"$dir/mem.in"
	/usr/bin/time -f '%M %e' -o "$dir/time.out" \
	    "$FETCH" -q -c "$C" -p "$C" --no-robots <"$dir/mem.in" >/dev/null ||
	    die "fetch over $1 URLs failed"
	rm -f "$dir/mem.in"
	read -r kib secs <"$dir/time.out"
	mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
	mrate=$(rate "$1" "$secs")
	say "fetch over $1 URLs: peak RSS $mib MiB, $secs s, $mrate URLs/s"
}
awk -v m="$M" -v n="$N" -v b="$base" \
    'BEGIN { for (i = 0; i < m; i++) print b "/p" (i % n) ".html" }' >"$dir/million.txt"
memrun "$N" "$dir/urls.txt"
mem_small_mib=$mib
est=$(awk -v m="$M" -v r="$fetch_rps" 'BEGIN { printf "%.0f", m / r }')
memrows=
if [ "$est" -le "$MAXSECS" ]; then
	memrun "$M" "$dir/million.txt"
	memrows="| fetch peak RSS, $M URLs | $mib MiB | $secs s, $mrate URLs/s |"
	mem_big_mib=$mib
	mem_note="full run of $M URLs"
else
	say "$M URLs would take ~$est s at $fetch_rps URLs/s (> $MAXSECS s): measuring prefixes"
	for k in 100000 300000; do
		memrun "$k" "$dir/million.txt"
		memrows="$memrows| fetch peak RSS, first $k URLs (head -n) | $mib MiB | $secs s, $mrate URLs/s |
"
		mem_big_mib=$mib
	done
	memrows=${memrows%?}
	mem_note="$M URLs would take ~$est s; measured head -n 100000 and 300000 instead (RSS trend)"
fi
rm -f "$dir/million.txt"

# ---- queue mode: a frontier of M URLs on disk ------------------------------------------------
# fetch --queue admits $1 distinct URLs, then leases and fetches them with
# sink --queue acknowledging, for QSECS seconds (SIGINT then).  Reports
# fetch's peak RSS, how long admission took, and the acknowledged rate
# after it: flat memory and fast leasing mean both match a small queue.
SINK=${FETCH%/fetch}/sink
QSECS=${QSECS:-60}
qrun() {
	awk -v m="$1" -v n="$N" -v b="$base" \
	    'BEGIN { for (i = 0; i < m; i++) print b "/p" (i % n) ".html?q=" i }' >"$dir/q.in"
	rm -f "$dir"/q.db*
	t0=$(now)
	/usr/bin/time -f '%M' -o "$dir/q.time" timeout -s INT "$QSECS" \
	    "$FETCH" -q --queue "$dir/q.db" -c "$C" -p "$C" --no-robots "$dir/q.in" |
	    "$SINK" -q --queue "$dir/q.db" - >/dev/null
	t1=$(now)
	# (the last line: time adds one about timeout's exit status first)
	qmib=$(tail -n 1 "$dir/q.time" | awk '{ printf "%.1f", $1 / 1024 }')
	qdone=$(sqlite3 "$dir/q.db" "select count(*) from frontier where state = 'done'")
	# admission ends when the first URL is leased: its updated_at
	qadmit=$(sqlite3 "$dir/q.db" "select printf('%.1f', min(updated_at) - $t0) from frontier where state = 'done'")
	qrate=$(awk -v d="$qdone" -v a="$qadmit" -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
	    'BEGIN { printf "%.0f", d / (s - a) }')
	# one lease's candidate query, on the frontier as the run left it
	qlease=$(python3 - "$dir/q.db" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1])
t = time.perf_counter()
db.execute("SELECT id, url, host, depth, attempts FROM frontier WHERE state = 'pending'"
           " AND next_at <= 1e12 ORDER BY next_at, id LIMIT 2048").fetchall()
print("%.1f" % ((time.perf_counter() - t) * 1000))
PY
)
	say "queue of $1: peak RSS $qmib MiB, admitted in $qadmit s, then $qrate URLs/s acknowledged ($qdone done), lease query $qlease ms"
	rm -f "$dir/q.in" "$dir"/q.db*
}
qrun 10000
q_small="| fetch --queue, 10000 queued | $qmib MiB peak RSS | admitted in $qadmit s, then $qrate URLs/s acknowledged by sink --queue; lease query $qlease ms |"
qrun "$M"
q_big="| fetch --queue, $M queued | $qmib MiB peak RSS | admitted in $qadmit s, then $qrate URLs/s acknowledged ($qdone done within ${QSECS} s); lease query $qlease ms |"

# ---- report -------------------------------------------------------------------------------------
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
kernel=$(uname -r)
curlv=$(curl --version | awk 'NR == 1 { print $2 }')
nginxv=$("$NGINX" -v 2>&1 | sed 's/.*nginx\///')
wrkv=$(wrk -v 2>&1 | awk 'NR == 1 { print $2 }')
fetchv=$("$FETCH" --version 2>/dev/null | awk 'NR == 1 { print $2 }')
fc=$(ratio "$fetch_rps" "$curl_rps")
fw=$(ratio "$fetch_rps" "$wrk_rps")
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v >= t) ? "met" : "**missed**" }'; }
mverdict=$(awk -v v="$mem_big_mib" 'BEGIN { print (v < 64) ? "met" : "**missed**" }')

cat <<EOF
### fetch throughput and memory ($(date -u +%Y-%m-%d))

Machine: $(nproc) cores, $cpu, Linux $kernel; nginx $nginxv (1 worker,
access_log off, keepalive_requests 100000), curl $curlv, wrk $wrkv,
fetch $fetchv.  $N static pages of $pagesize bytes on 127.0.0.1,
concurrency $C, output to /dev/null; curl and fetch best of $RUNS runs
(wall clock; CPU is user+sys of that run).  Load average before: $load0,
after: $(cut -d' ' -f1-3 /proc/loadavg).

| measurement | result | notes |
|---|---:|---|
| wrk -t2 -c$C -d$DURATION (Lua cycling $N paths) | $wrk_rps req/s | upper bound |
| curl --parallel --parallel-max $C -K cfg | $curl_rps URLs/s | $curl_s s for $N; $(cpu_us "$curl_cpu") us CPU/URL |
| fetch -c $C -p $C --no-robots > /dev/null | $fetch_rps URLs/s | $fetch_s s for $N; $(cpu_us "$fetch_cpu") us CPU/URL |
| fetch -c $C -p $C --no-robots \\| cat > /dev/null | $fetchp_rps URLs/s | $fetchp_s s for $N; $(cpu_us "$fetchp_cpu") us CPU/URL incl. cat (pipe cost) |
| fetch / curl | $fc | target >= 1.5: $(verdict "$fc" 1.5) |
| fetch / wrk | $fw | target >= 0.5: $(verdict "$fw" 0.5) |
| fetch peak RSS, $N URLs | $mem_small_mib MiB | |
$memrows
| memory target < 64 MiB | $mverdict | $mem_note |
$q_small
$q_big
EOF
