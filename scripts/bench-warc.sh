#!/bin/sh
# bench-warc.sh — how fast fetch --from-warc turns a .warc.gz into
# records, next to zcat of the same file (the floor: inflating it) and
# warcio.js's parser (node) reading every record's payload.
#
#   [BIN=dir] [RUNS=5] scripts/bench-warc.sh
#
# A private nginx serves the PostgreSQL manual (postgresql-doc-15, about
# 1170 pages, 18 MB); wget -r writes its WARC (gzip per record, as
# Common Crawl's), repeated COPIES (4) times in one file so that CPU
# times are long enough to compare; then each reader goes through the
# file, output to /dev/null, best of RUNS wall clock and CPU time.
# Prints a markdown table on stdout (progress on stderr).  warcio comes
# from npm into build/npm (or $SLUICE_NPM), as tests/t-sink-warc.sh
# installs it; without npm its row is left out.  Needs nginx, wget,
# curl, node, GNU /usr/bin/time, awk; KEEP=1 keeps the temp dir.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${BIN:=$here/../bin}"
RUNS=${RUNS:-5}
COPIES=${COPIES:-4}
docs=${PGDOCS:-/usr/share/doc/postgresql-doc-15/html}

die() { echo "bench-warc: $*" >&2; exit 1; }
say() { echo "bench-warc: $*" >&2; }

[ -x "$BIN/fetch" ] || die "$BIN/fetch: not executable (make bin/fetch)"
[ -f "$docs/index.html" ] || die "$docs: no PostgreSQL manual (apt-get install postgresql-doc-15)"
. "$here/bench/nginx.sh"
nginx_scratch bench-warc
nginx_up "$dir" "$docs" /index.html

say "wget -r of $base/index.html into a WARC"
(cd "$dir" && wget -q -r -l inf --no-parent -P mirror --warc-file=pg --no-warc-keep-log \
	"$base/index.html") || [ -s "$dir/pg.warc.gz" ] || die "wget wrote no WARC"
nginx_down
warc=$dir/all.warc.gz
for _ in $(seq "$COPIES"); do cat "$dir/pg.warc.gz"; done >"$warc"

NPM=${SLUICE_NPM:-$here/../build/npm}
warcio=
if [ -d "$NPM/node_modules/warcio" ] ||
	{ mkdir -p "$NPM" && (cd "$NPM" && npm install --no-audit --no-fund --silent warcio@2.4.11 >/dev/null 2>&1); }; then
	warcio=$dir/read.cjs
	cat >"$warcio" <<'EOF'
// node read.cjs NODE_MODULES FILE: every record of FILE through warcio's
// parser, its payload read whole (decoded as fetch decodes it)
const { WARCParser } = require(process.argv[2] + "/warcio");
const fs = require("fs");
(async () => {
	let n = 0, bytes = 0;
	for await (const r of new WARCParser(fs.createReadStream(process.argv[3]))) {
		const p = await r.readFully(true);
		n++, bytes += p.length;
	}
	process.stderr.write(`${n} records, ${bytes} payload bytes\n`);
})();
EOF
else
	say "npm could not install warcio: its row is left out"
fi

# best CMD...: "WALL CPU": the best wall clock and the best CPU time
# (user + system: what a shared machine's load does not inflate) of RUNS
# runs of CMD, in seconds
best() {
	for _ in $(seq "$RUNS"); do
		/usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" >/dev/null 2>&1
		tail -1 "$dir/time"
	done | awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 + $3 < c { c = $2 + $3 }
		END { printf "%.3f %.3f\n", w, c }'
}

size=$(wc -c <"$warc")
plain=$(zcat "$warc" | wc -c)
records=$("$BIN/fetch" -q --json --from-warc "$warc" | wc -l)
say "$size bytes gzip'd, $plain plain, $records answers; best of $RUNS"
z=$(best zcat "$warc")
# row NAME "WALL CPU"
row() { echo "$2" | awk -v n="$1" -v z="$z" -v p="$plain" 'BEGIN { split(z, Z, " ") }
	{ printf "| %s | %.3f s | %.3f s | %.2f | %.0f MB/s |\n", n, $1, $2, $2 / Z[2], p / $2 / 1e6 }'; }
echo "WARC: wget -r of the PostgreSQL manual, $COPIES times: $size bytes gzip per record ($plain plain), $records HTTP answers"
echo
echo "| reader | best wall, of $RUNS | best CPU | CPU vs zcat | plain MB/s of CPU |"
echo "|---|---|---|---|---|"
row "zcat" "$z"
row "fetch --from-warc (msgpack)" "$(best "$BIN/fetch" -q --from-warc "$warc")"
row "fetch --from-warc --json" "$(best "$BIN/fetch" -q --json --from-warc "$warc")"
[ -z "$warcio" ] || row "warcio.js 2.4.11 (node $(node --version)), payloads read" \
	"$(best node "$warcio" "$NPM/node_modules" "$warc")"
