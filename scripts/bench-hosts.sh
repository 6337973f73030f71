#!/bin/sh
# bench-hosts.sh — the cost of a broad crawl: one URL on each of N
# distinct host names (hNNNNNNN.localhost, loopback by RFC 6761, all
# answered by one private nginx), for N from 10 000 to 1 000 000, next
# to the curl CLI on the same lists.  A crawl of the open web touches
# hundreds of thousands of hosts: fetch's CPU per URL must stay flat as
# N grows (curl 7.88's DNS cache and connection cache walks made it grow
# with N), its memory bounded by its flags.
#
#   [BIN=dir] [HOSTS="10000 100000 1000000"] [CURL_HOSTS="10000 20000"]
#   [MAXSECS=600] scripts/bench-hosts.sh
#
# For each N: fetch -c 64 --no-robots, wall clock, user+sys CPU, peak
# RSS (GNU time); a size whose run would take longer than MAXSECS at the
# last rate is skipped and said.  curl --parallel --parallel-max 64 on
# the CURL_HOSTS sizes only (it grows with N squared).  Prints a markdown
# table on stdout (progress on stderr).  Needs nginx, curl, GNU time.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${BIN:-}" ]; then
	if [ -x ./bin/fetch ]; then BIN=./bin; else BIN=$here/../bin; fi
fi
HOSTS=${HOSTS:-"10000 100000 1000000"}
CURL_HOSTS=${CURL_HOSTS:-"10000 20000"}
MAXSECS=${MAXSECS:-600}
C=64

die() { echo "bench-hosts: $*" >&2; exit 1; }
say() { echo "bench-hosts: $*" >&2; }
for t in nginx curl awk; do command -v "$t" >/dev/null 2>&1 || die "$t: not found"; done
[ -x /usr/bin/time ] || die "/usr/bin/time: not found (GNU time)"

. "$here/bench/nginx.sh"
nginx_scratch bench-hosts
mkdir "$dir/www"
echo '<!doctype html><title>ok</title><p>ok</p>' >"$dir/www/ok.html"
chmod -R a+rX "$dir/www"
nginx_up "$dir" "$dir/www" /ok.html
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# hosts N: the list of N URLs, one a host
hosts() { awk -v n="$1" -v p="$port" 'BEGIN { for (i = 0; i < n; i++) printf "http://h%07d.localhost:%d/ok.html\n", i, p }'; }
# timed LABEL N CMD...: runs CMD, sets wall, cpu (user+sys s), rss (KB)
timed() {
	label=$1 n=$2
	shift 2
	t0=$(date +%s.%N)
	/usr/bin/time -f '%U %S %M' -o "$dir/time" "$@" || die "$label: exited $?"
	wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/time")
	rss=$(awk '{ print $3 }' "$dir/time")
	say "$label $n hosts: $wall s wall, $cpu s cpu, $rss KB"
}
us() { awk -v c="$1" -v n="$2" 'BEGIN { printf "%.0f", c * 1e6 / n }'; }

echo "| hosts | fetch wall s | fetch URLs/s | fetch CPU µs/URL | × the first | fetch peak RSS MB | curl wall s | curl CPU µs/URL |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
first= rate=
for n in $HOSTS; do
	if [ -n "$rate" ] && [ "$(awk -v n="$n" -v r="$rate" -v m="$MAXSECS" 'BEGIN { print (n / r > m) }')" = 1 ]; then
		say "$n hosts would take over $MAXSECS s at $rate URLs/s: skipped"
		echo "| $n | skipped: over MAXSECS ($MAXSECS s) at $rate URLs/s | | | | | | |"
		continue
	fi
	hosts "$n" >"$dir/urls"
	timed fetch "$n" sh -c "'$BIN/fetch' -q -c $C --no-robots --json '$dir/urls' >'$dir/out.jsonl'"
	ok=$(grep -c '"status":200' "$dir/out.jsonl" || true)
	[ "$ok" = "$n" ] || die "fetch: $ok of $n URLs answered 200"
	f_us=$(us "$cpu" "$n")
	[ -n "$first" ] || first=$f_us
	rate=$(awk -v n="$n" -v w="$wall" 'BEGIN { printf "%.0f", n / w }')
	fwall=$wall frss=$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')
	cwall=- cus=-
	for m in $CURL_HOSTS; do
		[ "$m" = "$n" ] || continue
		awk '{ printf "url = \"%s\"\noutput = \"/dev/null\"\n", $0 }' "$dir/urls" >"$dir/curl.cfg"
		timed curl "$n" curl -s --no-progress-meter --parallel --parallel-max $C -K "$dir/curl.cfg"
		cwall=$wall cus=$(us "$cpu" "$n")
	done
	echo "| $n | $fwall | $rate | $f_us | $(awk -v a="$f_us" -v b="$first" 'BEGIN { printf "%.2f", a / b }') | $frss | $cwall | $cus |"
done
# curl alone on the sizes fetch did not run
for m in $CURL_HOSTS; do
	case " $HOSTS " in *" $m "*) continue ;; esac
	hosts "$m" >"$dir/urls"
	awk '{ printf "url = \"%s\"\noutput = \"/dev/null\"\n", $0 }' "$dir/urls" >"$dir/curl.cfg"
	timed curl "$m" curl -s --no-progress-meter --parallel --parallel-max $C -K "$dir/curl.cfg"
	echo "| $m | | | | | | $wall | $(us "$cpu" "$m") |"
done
echo
echo "fetch -c $C --no-robots, one URL on each host (hNNNNNNN.localhost, one private nginx); curl 7.88 --parallel --parallel-max $C on the same list; load average at the start $load0."
