#!/bin/sh
# bench-render.sh [N]: render -c 4 against a Playwright script on the same
# Chromium binary, both opening N (default 200) client-rendered pages from
# tests/server.py on 127.0.0.1, 4 at a time, each in a new browser
# context, images, media and fonts refused, the DOM taken at network idle.
# Prints pages/s and the peak RSS of each one's whole process tree.
#
# Playwright is npm's playwright-core (plain JavaScript: no browser of its
# own), installed into a scratch directory when missing; without node and
# npm the script says so and stops.
set -eu
N=${1:-200}
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$here/bin}
CHROMIUM=/usr/lib/chromium/chromium
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-render.XXXXXX")
trap 'kill "$spid" 2>/dev/null; rm -rf "$W"' EXIT
mkdir -p "$W/www"
cp "$here"/tests/fixtures/render/js.html "$here"/tests/fixtures/render/items.json "$W/www/"
python3 "$here/tests/server.py" --port-file "$W/port" --log /dev/null --addr 127.0.0.1 \
	--root "$W/www" >/dev/null 2>&1 &
spid=$!
while [ ! -s "$W/port" ]; do sleep 0.05; done
URL=http://127.0.0.1:$(cat "$W/port")
i=0
while [ $i -lt "$N" ]; do echo "$URL/js.html?n=$i"; i=$((i + 1)); done >"$W/urls.txt"

# peak PID FILE: samples the RSS (KiB) of PID and all its descendants
# every 0.2 s while PID lives; writes the largest sum to FILE.
peak() {
	max=0
	while kill -0 "$1" 2>/dev/null; do
		s=$(ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
			{ parent[$1] = $2; rss[$1] = $3 }
			END { for (p in rss) { q = p; while (q != "" && q != root && q in parent && q != 1) q = parent[q]
				if (q == root) t += rss[p] } print t + 0 }')
		[ "$s" -gt "$max" ] && max=$s
		sleep 0.2
	done
	echo "$max" >"$2"
}

# measure NAME CMD...: runs CMD with urls.txt on stdin, prints a line
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
	printf '%-11s %4s pages with content  %6.2f pages/s  peak RSS %5d MiB\n' "$name" "$ok" \
		"$(echo "$N / ($t1 - $t0)" | bc -l)" "$(($(cat "$W/peak.$name") / 1024))"
}

measure render "$BIN/render" -q --json --no-robots -c 4 -p 4

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	echo "playwright: skipped, no node and npm here"
	exit 0
fi
PW=${PLAYWRIGHT_DIR:-$W/pw}
if [ ! -d "$PW/node_modules/playwright-core" ]; then
	mkdir -p "$PW"
	(cd "$PW" && npm install --no-audit --no-fund --silent playwright-core >/dev/null 2>&1) ||
		{ echo "playwright: skipped, npm could not install playwright-core"; exit 0; }
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
PW=$PW CHROMIUM=$CHROMIUM measure playwright node "$W/pw.js"
