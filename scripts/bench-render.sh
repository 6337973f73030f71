#!/bin/sh
# bench-render.sh [N [ROUNDS]]: render -c 4 against a Playwright script on
# the same Chromium binary, both opening N (default 200) client-rendered
# pages from tests/server.py on 127.0.0.1, 4 at a time, each in a new
# browser context, images, media and fonts refused, the DOM taken at
# network idle.  Two kinds of page: js.html (its content from a fetch()
# of JSON) and styled.html (the same with a stylesheet, which render's
# default --load dom refuses and the Playwright script, refusing images,
# media and fonts as a lean scraper does, loads).  ROUNDS (default 1)
# rounds, render and Playwright taking turns, since the machine's load
# shifts; prints each run, then per tool and page the best and median
# pages/s and the largest peak RSS and PSS of its whole process tree,
# and the load average.
#
# Playwright is npm's playwright-core (plain JavaScript: no browser of its
# own), installed into a scratch directory (PLAYWRIGHT_DIR keeps one)
# when missing; without node and npm only render runs.
#
# bench-render.sh --long [N]: render alone over N (default 1000) pages
# with --recycle 100, printing the tree's peak RSS and PSS over each 100
# pages: flat when nothing grows from one browser to the next.
set -eu
long=0
if [ "${1:-}" = --long ]; then long=1; shift; fi
N=${1:-$([ $long = 1 ] && echo 1000 || echo 200)}
ROUNDS=${2:-1}
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$here/bin}
CHROMIUM=/usr/lib/chromium/chromium
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-render.XXXXXX")
trap 'kill "$spid" 2>/dev/null; rm -rf "$W"' EXIT
mkdir -p "$W/www"
cp "$here"/tests/fixtures/render/js.html "$here"/tests/fixtures/render/styled.html \
	"$here"/tests/fixtures/render/style.css "$here"/tests/fixtures/render/items.json "$W/www/"
python3 "$here/tests/server.py" --port-file "$W/port" --log /dev/null --addr 127.0.0.1 \
	--root "$W/www" >/dev/null 2>&1 &
spid=$!
while [ ! -s "$W/port" ]; do sleep 0.05; done
URL=http://127.0.0.1:$(cat "$W/port")
urls() {
	i=0
	while [ $i -lt "$N" ]; do echo "$URL/$1?n=$i"; i=$((i + 1)); done >"$W/urls.txt"
}

# tree PID: the pids of PID and all its descendants
tree() {
	ps -e -o pid=,ppid= | awk -v root="$1" '
		{ parent[$1] = $2 }
		END { for (p in parent) { q = p; while (q != "" && q != root && q in parent && q != 1) q = parent[q]
			if (q == root) print p } }'
}

# mem PID: "RSS PSS" in KiB of PID's tree (PSS: /proc/PID/smaps_rollup;
# a page shared by n processes counts 1/n in each)
mem() {
	for p in $(tree "$1"); do
		cat "/proc/$p/smaps_rollup" 2>/dev/null
	done | awk '/^Rss:/ { r += $2 } /^Pss:/ { s += $2 } END { print r + 0, s + 0 }'
}

# peak PID FILE: samples mem PID every 0.2 s while PID lives; writes the
# largest of each, "RSS PSS", to FILE.
peak() {
	mr=0 mp=0
	while kill -0 "$1" 2>/dev/null; do
		m=$(mem "$1")
		[ "${m% *}" -gt "$mr" ] && mr=${m% *}
		[ "${m#* }" -gt "$mp" ] && mp=${m#* }
		sleep 0.2
	done
	echo "$mr $mp" >"$2"
}

# measure NAME CMD...: runs CMD with urls.txt on stdin, prints a line
# and appends "NAME PAGE PAGES/S RSS-MIB PSS-MIB OK" to results
measure() {
	name=$1; shift
	t0=$(date +%s.%N)
	"$@" <"$W/urls.txt" >"$W/out.$name" 2>"$W/err.$name" &
	pid=$!
	peak "$pid" "$W/peak.$name" &
	wait "$pid" || true
	t1=$(date +%s.%N)
	sleep 0.5
	# render's body is bin: base64 in JSON lines
	if [ "$name" = render ]; then
		ok=$(jq -r '.body // "" | @base64d' "$W/out.$name" | grep -c 'Rendered Items' || true)
	else
		ok=$(grep -c 'Rendered Items' "$W/out.$name" || true)
	fi
	rate=$(echo "$N / ($t1 - $t0)" | bc -l)
	read -r rss pss <"$W/peak.$name"
	printf '%-11s %-12s %4s pages with content  %6.2f pages/s  peak RSS %5d MiB  PSS %5d MiB\n' \
		"$name" "$page" "$ok" "$rate" $((rss / 1024)) $((pss / 1024))
	echo "$name $page $rate $((rss / 1024)) $((pss / 1024)) $ok" >>"$W/results"
}

if [ $long = 1 ]; then
	urls js.html
	"$BIN/render" -q --json --no-robots -c 4 -p 4 --recycle 100 <"$W/urls.txt" >"$W/out.long" &
	pid=$! at=100 mr=0 mp=0
	# window: the row of the 100 pages up to $at, if all were written
	window() {
		[ "$(wc -l <"$W/out.long")" -ge "$at" ] || return 1
		echo "| $((at - 99))-$at | $((mr / 1024)) MiB | $((mp / 1024)) MiB |"
	}
	echo "| pages | peak RSS | peak PSS |"
	echo "|---|---|---|"
	while kill -0 "$pid" 2>/dev/null; do
		m=$(mem "$pid")
		[ "${m% *}" -gt "$mr" ] && mr=${m% *}
		[ "${m#* }" -gt "$mp" ] && mp=${m#* }
		if window; then
			at=$((at + 100)) mr=0 mp=0
		fi
		sleep 0.5
	done
	wait "$pid"
	window || true
	echo
	echo "$(wc -l <"$W/out.long") records, $(jq -r '.body // "" | @base64d' "$W/out.long" |
		grep -c 'Rendered Items') with content; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi

pw=1
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "playwright: skipped, no node and npm here"
	pw=0
fi
PW=${PLAYWRIGHT_DIR:-$W/pw}
if [ $pw = 1 ] && [ ! -d "$PW/node_modules/playwright-core" ]; then
	mkdir -p "$PW"
	(cd "$PW" && npm install --no-audit --no-fund --silent playwright-core >/dev/null 2>&1) ||
		{ echo "playwright: skipped, npm could not install playwright-core"; pw=0; }
fi
cat >"$W/pw.js" <<'JS'
// 4 workers take URLs from stdin; each page in a new context.
const { chromium } = require(process.env.PW + '/node_modules/playwright-core');
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
(async () => {
	const browser = await chromium.launch({ executablePath: process.env.CHROMIUM,
		args: process.getuid() === 0 ? ['--no-sandbox'] : [] });
	let next = 0;
	async function worker() {
		while (next < lines.length) {
			const url = lines[next++];
			const ctx = await browser.newContext();
			await ctx.route('**/*', r => ['image', 'media', 'font'].includes(r.request().resourceType())
				? r.abort('blockedbyclient') : r.continue());
			const page = await ctx.newPage();
			try {
				await page.goto(url, { waitUntil: 'networkidle', timeout: 30000 });
				process.stdout.write(JSON.stringify({ url, body: await page.content() }) + '\n');
			} catch (e) {
				process.stdout.write(JSON.stringify({ url, error: String(e) }) + '\n');
			}
			await ctx.close();
		}
	}
	await Promise.all([worker(), worker(), worker(), worker()]);
	await browser.close();
})();
JS

: >"$W/results"
r=0
while [ $r -lt "$ROUNDS" ]; do
	for page in js.html styled.html; do
		urls "$page"
		measure render "$BIN/render" -q --json --no-robots -c 4 -p 4
		[ $pw = 0 ] || PW=$PW CHROMIUM=$CHROMIUM measure playwright node "$W/pw.js"
	done
	r=$((r + 1))
done
echo
echo "| tool | page | pages with content (of $N) | pages/s best | median | peak RSS | peak PSS |"
echo "|---|---|---|---|---|---|---|"
sort -k1,2 -k3n "$W/results" | awk '
	function out() { if (n) printf "| %s | %s | %d | %.2f | %.2f | %d MiB | %d MiB |\n", k1, k2, okmin,
		v[n], n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, rss, pss }
	$1 " " $2 != key { out(); key = $1 " " $2; k1 = $1; k2 = $2; n = 0; rss = pss = 0; okmin = $6 }
	{ v[++n] = $3; if ($4 > rss) rss = $4; if ($5 > pss) pss = $5; if ($6 < okmin) okmin = $6 }
	END { out() }'
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
