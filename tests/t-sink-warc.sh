# sink FILE.warc.gz and FILE.wacz from fetch --raw: every record read
# back by warcio.js (npm warcio) with its block and payload digests
# agreeing, the index equal to warcio's own, request and response tied
# together, revisits of both profiles, metadata, render's resources,
# rotation, refusals; the WACZ's package; and both replayed by
# ReplayWeb.page in headless Chromium, the live server gone.  The
# round trip through fetch --from-warc runs once fetch has that option.
. "$TESTS/lib.sh"
server_start
F() { "$BIN/fetch" -q --no-robots --raw "$@"; }

# npm's packages, installed once into build/npm (or $SLUICE_NPM):
# warcio and playwright-core, and ReplayWeb.page's prebuilt files
# (`npm install replaywebpage` fails on a dependency the registry lacks;
# its package has all replay needs).
NPM=${SLUICE_NPM:-$TESTS/../build/npm}
if [ ! -d "$NPM/node_modules/warcio" ] || [ ! -d "$NPM/node_modules/playwright-core" ] ||
	[ ! -f "$NPM/replaywebpage/sw.js" ]; then
	mkdir -p "$NPM" && (cd "$NPM" &&
		npm install --no-audit --no-fund --silent warcio@2.4.11 playwright-core@1.65.1 >npm.log 2>&1 &&
		npm pack --silent replaywebpage@2.5.3 >>npm.log 2>&1 &&
		mkdir -p replaywebpage && tar xzf replaywebpage-2.5.3.tgz -C replaywebpage --strip-components 1 \
			package/index.html package/ui.js package/sw.js) ||
		{ fail "npm could not install warcio, playwright-core and replaywebpage" "$(tail -5 "$NPM/npm.log")"; exit 1; }
fi
check() { NODE_MODULES=$NPM/node_modules node "$TESTS/warcio-check.cjs" "$@"; }
# cdxj FILE...: index lines with their JSON in one form (jq's), sorted
cdxj() { cat "$@" | while read -r key ts json; do echo "$key $ts $(echo "$json" | jq -cS .)"; done | LC_ALL=C sort; }
# members FILE: the gzip members of FILE, by zlib
members() {
	python3 -c 'import sys, zlib
data, n = open(sys.argv[1], "rb").read(), 0
while data:
    d = zlib.decompressobj(31); d.decompress(data); data = d.unused_data; n += 1
print(n)' "$1"
}
x() { jq -r "$1" "$T/r.json"; }
CLOSED=$(closed_port)

# The redirect first (fetch writes its records as the answers come), so
# the second copy of /ok's payload is the one at ?again=1.
{ echo "$URL/redirect-to?url=/ok" | F; printf '%s\n' "$URL/chunked?gzip=1" "$URL/ok?again=1" "$URL/status/404" \
	"http://127.0.0.1:$CLOSED/gone" | F; } | "$BIN/parse" | "$BIN/sink" "$T/x.warc.gz" 2>"$T/err"
expect_eq "sink x.warc.gz: exit 0, and what it wrote" \
	"0 sink: 4 records stored in '$T/x.warc.gz': 15 WARC records in 1 file, 1 revisits of a payload written before saved 134 bytes, 1 dead letters not written" \
	"$? $(cat "$T/err")"
check records "$T/x.warc.gz" >"$T/r.json"
expect_eq "warcio.js reads every record, each a gzip member of its own" "15 15" \
	"$(records "$T/r.json") $(members "$T/x.warc.gz")"
expect_eq "... and every block and payload digest agrees with its bytes" "0 15 4" \
	"$(jq -s '[.[] | select(.block_ok == false or .payload_ok == false)] | length' "$T/r.json") $(jq -s '[.[] | select(.block_ok)] | length' "$T/r.json") $(jq -s '[.[] | select(.payload_ok)] | length' "$T/r.json")"
expect_eq "warcinfo first; each response (or revisit) followed by its request; 4 metadata records" "warcinfo 5 4" \
	"$(jq -rs '"\(.[0].type) \([range(1; length - 1) as $i | select((.[$i].type == "response" or .[$i].type == "revisit")
		and .[$i + 1].type == "request" and .[$i + 1].concurrent == .[$i].id)] | length) \(map(select(.type == "metadata")) | length)"' "$T/r.json")"
expect_eq "warcinfo: WARC 1.1, sluice, the arguments, its file's name" \
	"x.warc.gz|software: sluice sink/0.1.0|format: WARC File Format 1.1|sink-arguments: $T/x.warc.gz" \
	"$( (x 'select(.type == "warcinfo") | .filename'; x 'select(.type == "warcinfo") | .text' | tr -d '\r' |
		grep -E '^(software|format|sink-arguments):') | paste -sd'|' -)"
expect_eq "every other record names that warcinfo" 14 \
	"$(jq -s '(.[0].id) as $i | [.[1:][] | select(.warcinfo == $i)] | length' "$T/r.json")"
expect_eq "each request is concurrent to the response (or revisit) of its URI" 5 \
	"$(jq -s '(map(select(.type == "response" or .type == "revisit") | {key: .id, value: .uri}) | from_entries) as $r
		| map(select(.type == "request" and $r[.concurrent] == .uri)) | length' "$T/r.json")"
expect_match "WARC-Date in microseconds, the address" \
	'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z 127\.0\.0\.1$' \
	"$(x 'select(.type == "response") | "\(.date) \(.ip)"' | head -1)"
expect_eq "record ids: random UUIDs, each its own" "15 15" \
	"$(x '.id' | grep -cE '^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$') $(x .id | sort -u | wc -l)"
expect_eq "the redirect and its target are exchanges of their own" "302 $URL/redirect-to?url=/ok 200 $URL/ok" \
	"$(x 'select(.type == "response") | "\(.http_status) \(.uri)"' | grep -E 'redirect-to|/ok$' | paste -sd' ' -)"
expect_eq "chunked: undone, Transfer-Encoding kept as X-Orig-Transfer-Encoding, gzip kept" "chunked null gzip" \
	"$(x "select(.type == \"response\" and .uri == \"$URL/chunked?gzip=1\") | .http_headers | \"\(.[\"x-orig-transfer-encoding\"]) \(.[\"transfer-encoding\"]) \(.[\"content-encoding\"])\"")"
expect_eq "a payload written before: a revisit (identical-payload-digest) naming the first" \
	"$URL/ok?again=1 http://netpreserve.org/warc/1.1/revisit/identical-payload-digest $URL/ok true true 0" \
	"$(jq -rs '(map(select(.type == "response" and .uri == "'"$URL"'/ok")) | .[0]) as $o | .[] | select(.type == "revisit")
		| "\(.uri) \(.profile) \(.refers_to_uri) \(.refers_to == $o.id) \(.payload_digest == $o.payload_digest and .refers_to_date == $o.date) \(.payload_len)"' "$T/r.json")"
expect_eq "metadata: fetch's timing, the hops, parse's outlinks" \
	"attempts: 2|hop: 302 $URL/redirect-to?url=/ok|outlink: $URL/page/1|outlink: $URL/page/2" \
	"$(x "select(.type == \"metadata\" and .uri == \"$URL/ok\") | .text" | head -8 | tr -d '\r' | grep -E '^(attempts|hop|outlink):' | paste -sd'|' -)"
expect_eq "... fetchTimeMs too, concurrent to the response" "1 true" \
	"$(x "select(.type == \"metadata\" and .uri == \"$URL/ok\") | .text" | head -8 | grep -c '^fetchTimeMs: [0-9.]*') $(jq -rs '(map(select(.type == "response" and .uri == "'"$URL"'/ok")) | .[0].id) as $i | map(select(.type == "metadata")) | .[0].concurrent == $i' "$T/r.json")"
expect_eq "a dead letter writes nothing" 0 "$(grep -c ":$CLOSED/" "$T/r.json")"
check index "$T/x.warc.gz" >"$T/warcio.cdxj"
expect_eq "x.cdxj: sorted, and line for line warcio.js's own index of the file" "ok 5" \
	"$(LC_ALL=C sort -c "$T/x.cdxj" && [ "$(cdxj "$T/x.cdxj")" = "$(cdxj "$T/warcio.cdxj")" ] && echo ok) $(records "$T/x.cdxj")"

# A rerun never rewrites a file: the series goes on.
cp "$T/x.warc.gz" "$T/x.before"
echo "$URL/page/3" | F | "$BIN/sink" -q "$T/x.warc.gz"
expect_eq "a rerun writes x-00001.warc.gz and its index, x.warc.gz untouched" "x-00001.cdxj x-00001.warc.gz same" \
	"$(cd "$T" && ls x-0* | paste -sd' ' -) $(cmp -s "$T/x.warc.gz" "$T/x.before" && echo same)"

# Rotation: no file past --warc-max-size but by its one record; each its
# own warcinfo and index.
urls "$URL/page/" 8 | F | "$BIN/parse" | "$BIN/sink" -q --warc-max-size 2K "$T/r.warc.gz"
n=$(ls "$T"/r*.warc.gz | wc -l)
check records "$T"/r*.warc.gz >"$T/r.json"
expect_eq "--warc-max-size 2K: a series of files, none over 2K but with its first record" "true 0" \
	"$(holds "$n > 4" && echo true) $(for f in "$T"/r*.warc.gz; do [ "$(stat -c %s "$f")" -gt 2048 ] &&
		[ "$(check records "$f" | jq -s 'map(select(.type != "warcinfo")) | length')" -gt 1 ] && echo "$f"; done | wc -l)"
expect_eq "... each file starts with a warcinfo of its own name" "$n" \
	"$(for f in "$T"/r*.warc.gz; do check records "$f" | jq -rs --arg f "${f##*/}" '.[0] | select(.type == "warcinfo" and .filename == $f) | .filename'; done | wc -l)"
expect_eq "... every record whole, its digests agreeing; 8 responses" "0 8" \
	"$(jq -s '[.[] | select(.block_ok != true or .payload_ok == false)] | length' "$T/r.json") $(jq -s 'map(select(.type == "response")) | length' "$T/r.json")"
for f in "$T"/r*.warc.gz; do check index "$f"; done >"$T/warcio.cdxj"
expect_eq "... each index holds its file's records, as warcio indexes them" ok \
	"$([ "$(cdxj "$T"/r*.cdxj)" = "$(cdxj "$T/warcio.cdxj")" ] && echo ok)"

# Records fetch wrote without --raw: no exchanges to archive.
printf '%s\n' "$URL/page/1" "$URL/page/2" | F | "$BIN/sink" -q "$T/n.warc.gz"
echo "$URL/ok" | "$BIN/fetch" -q --no-robots | "$BIN/sink" "$T/n.warc.gz" 2>"$T/err"
expect_eq "a record without exchanges: exit 65, naming --raw" \
	"65 sink: record at byte 0 has no exchanges: a WARC is written from fetch --raw" "$? $(tail -1 "$T/err")"
{ printf '%s\n' "$URL/page/1" | F; echo "$URL/ok" | "$BIN/fetch" -q --no-robots; } | "$BIN/sink" -q "$T/m.warc.gz" 2>/dev/null
expect_eq "... every record before it is written, and indexed" "65 1" "$? $(records "$T/m.cdxj")"
expect_usage_errors sink "--warc-max-size 1M x.db" "--warc-operator me x.jsonl" "--body x.warc.gz" "--links y.wacz"

# render's outputs: the DOM at the page's URL, the screenshot and the PDF
# as Browsertrix names its own (urn:TYPE:URL), concurrent to nothing.
printf '{"url": "%s/r", "status": 200, "fetched_at": 1700000000.5, "rendered": {"ms": 10}, "body": {"$bin": "<title>R</title>hi"}, "screenshot": {"$bin64": "iVBORw0K"}, "pdf": {"$bin": "%%PDF-1.4"}}\n' "$URL" |
	mkrec | "$BIN/sink" -q --warc-operator 'The Tester' "$T/g.warc"
check records "$T/g.warc" >"$T/r.json"
expect_eq "render's record: three resources, digests agreeing" \
	"resource $URL/r text/html; charset=utf-8 true|resource urn:fullPage:$URL/r image/png true|resource urn:pdf:$URL/r application/pdf true" \
	"$(x 'select(.type == "resource") | "\(.type) \(.uri) \(.ctype) \(.block_ok and .payload_ok)"' | paste -sd'|' -)"
expect_eq "... dated fetched_at; --warc-operator in the warcinfo" "2023-11-14T22:13:20.500000Z operator: The Tester" \
	"$(x 'select(.type == "resource") | .date' | head -1) $(x 'select(.type == "warcinfo") | .text' | tr -d '\r' | grep '^operator:')"

# server-not-modified: a recrawl's 304 is a revisit, not a response.
J=$T/job.db
echo "$URL/cond/a?mode=same" >"$T/seeds.txt"
crawl "$J" "$T/c1.warc.gz" --no-robots --raw sink: --batch-ms 50
crawl "$J" "$T/c2.warc.gz" --no-robots --raw --recrawl 0 sink: --batch-ms 50
check records "$T/c2.warc.gz" >"$T/r.json"
expect_eq "--recrawl's 304: a revisit of profile server-not-modified, the URL done" \
	"revisit http://netpreserve.org/warc/1.1/revisit/server-not-modified 304 true done" \
	"$(x 'select(.type == "revisit") | "\(.type) \(.profile) \(.http_status) \(.block_ok)"') $(q "$J" 'select state from frontier')"
expect_match "... said in the closing note" "1 not modified" "$(cat "$T/sink.err")"

# WACZ: the package, and a second run adding to it.
printf '%s\n' "$URL/ok" "$URL/page/1" "$URL/status/404" | F | "$BIN/parse" | "$BIN/validate" -q |
	"$BIN/sink" -q "$T/c.wacz"
mkdir "$T/u" && (cd "$T/u" && unzip -q "$T/c.wacz")
expect_eq "c.wacz: the WACZ 1.1.1 layout, no staging left" \
	"archive indexes/index.cdxj pages/pages.jsonl datapackage.json datapackage-digest.json 1.1.1 data-package no" \
	"$(unzip -Z1 "$T/c.wacz" | sed 's|^archive/.*|archive|' | paste -sd' ' -) $(jq -r '"\(.wacz_version) \(.profile)"' "$T/u/datapackage.json") $([ -e "$T/c.wacz.staging" ] && echo yes || echo no)"
expect_eq "... the WARC stored, not deflated, so a reader can seek in it" stored \
	"$(unzip -Zv "$T/c.wacz" 'archive/*' | grep 'compression method:' | grep -o stored)"
expect_eq "... datapackage.json: every file with its sha256 and size" ok \
	"$(cd "$T/u" && jq -r '.resources[] | "\(.hash | sub("sha256:"; ""))  \(.path)"' datapackage.json | sha256sum -c --quiet - &&
		[ "$(jq -r '.resources[] | "\(.path) \(.bytes)"' datapackage.json | sort)" = "$(find archive indexes pages -type f -printf '%p %s\n' | sort)" ] && echo ok)"
expect_eq "... datapackage-digest.json: the hash of datapackage.json" ok \
	"$(cd "$T/u" && [ "$(jq -r '.hash' datapackage-digest.json)" = "sha256:$(sha256sum datapackage.json | cut -c1-64)" ] && echo ok)"
# (the pages in the order fetch ended them, which varies)
expect_eq "... pages.jsonl: its header, then the accepted pages and their titles" \
	'{"format":"json-pages-1.0","id":"pages","title":"All Pages"}|OK page|Page 1' \
	"$(head -1 "$T/u/pages/pages.jsonl" | jq -c .)|$(tail -n +2 "$T/u/pages/pages.jsonl" | jq -r .title | sort | paste -sd'|' -)"
expect_eq "... the index, sorted, names its WARC" "ok 3" \
	"$(LC_ALL=C sort -c "$T/u/indexes/index.cdxj" && cut -d' ' -f3- "$T/u/indexes/index.cdxj" | jq -r .filename | sort -u | sed 's|^|archive/|' | xargs -I{} test -f "$T/u/{}" && echo ok) $(records "$T/u/indexes/index.cdxj")"
echo "$URL/page/2" | F | "$BIN/parse" | "$BIN/validate" -q | "$BIN/sink" -q "$T/c.wacz"
rm -rf "$T/u" && mkdir "$T/u" && (cd "$T/u" && unzip -q "$T/c.wacz")
expect_eq "a second run adds its WARC, index lines and page" "2 4 3" \
	"$(ls "$T/u/archive" | wc -l) $(records "$T/u/indexes/index.cdxj") $(tail -n +2 "$T/u/pages/pages.jsonl" | wc -l)"
expect_eq "... and the package still checks out" ok \
	"$(cd "$T/u" && jq -r '.resources[] | "\(.hash | sub("sha256:"; ""))  \(.path)"' datapackage.json | sha256sum -c --quiet - && LC_ALL=C sort -c indexes/index.cdxj && echo ok)"

# Replay: ReplayWeb.page, served by nginx on loopback (a service worker
# needs a secure context, and loopback is one), opens the WACZ and the
# WARC in headless Chromium, the test server gone: the page comes from
# the archive.
mkdir -p "$T/www"
cp "$NPM/replaywebpage/index.html" "$NPM/replaywebpage/ui.js" "$NPM/replaywebpage/sw.js" "$T/c.wacz" "$T/x.warc.gz" "$T/www/"
NP=$(closed_port)
nginx_start "server { listen 127.0.0.1:$NP; root $T/www; access_log off; }" || finish
kill "$SERVER_PID" && wait "$SERVER_PID" 2>/dev/null
SERVER_PID=
SHOTS=${TEST_OUT:-$TESTS/../build/test-out}
mkdir -p "$SHOTS"
replay() { NODE_MODULES=$NPM/node_modules node "$TESTS/replay.cjs" "http://127.0.0.1:$NP" "$@" 2>"$T/replay.err"; }
replay /c.wacz "$URL/ok" "OK page" "$SHOTS/sink-warc-wacz.png" >"$T/p.json"
expect_eq "ReplayWeb.page replays the WACZ: the page's title and text" "OK page true " \
	"$(jq -r '"\(.title) \(.text | contains("hello world"))"' "$T/p.json") $(cat "$T/replay.err")"
replay /x.warc.gz "$URL/chunked?gzip=1" Chunked "$SHOTS/sink-warc-warc.png" >"$T/p.json"
expect_eq "... and the WARC: a chunked, gzip'd page as it was" "Chunked true " \
	"$(jq -r '"\(.title) \(.text | contains("sent in chunks"))"' "$T/p.json") $(cat "$T/replay.err")"

# A page collected with render --screenshot: a shell whose script
# builds the content from /items.json, which the archive does not hold.
# Its DOM after scripts, kept as a resource at the page's URL (no --raw,
# so no response holds the URL), replays with what the script wrote.
# The script, run again in replay, leaves a built page alone, as a
# hydrating one does.  (As root, Chromium runs as nobody, its profile
# under $TMPDIR: on the way.)
cp "$TESTS/fixtures/render/items.json" "$T/www/"
cat >"$T/www/js.html" <<'EOF'
<!DOCTYPE html><html><head><title>Shell</title></head><body><div id="app"></div>
<script>if (!document.querySelector('#app h1')) fetch('/items.json').then(r => r.json()).then(j => { document.title = j.title; document.getElementById('app').innerHTML = '<h1>' + j.title + '</h1><p>' + j.items.join(', ') + '</p>'; });</script></body></html>
EOF
chmod 711 "$T" && mkdir -p "$T/rtmp" && chmod 1777 "$T/rtmp"
echo "http://127.0.0.1:$NP/js.html" | TMPDIR=$T/rtmp "$BIN/render" -q --no-robots --screenshot |
	"$BIN/sink" -q "$T/www/r.wacz" 2>"$T/r.err"
expect_eq "render --screenshot | sink r.wacz: the DOM at the URL and the shot at urn:fullPage:" \
	"resource http://127.0.0.1:$NP/js.html|resource urn:fullPage:http://127.0.0.1:$NP/js.html" \
	"$(cd "$T" && rm -rf ru && mkdir ru && cd ru && unzip -q ../www/r.wacz && check records archive/*.warc* | jq -r 'select(.type != "warcinfo" and .type != "metadata") | "\(.type) \(.uri)"' | sort | paste -sd'|' -)"
replay /r.wacz "http://127.0.0.1:$NP/js.html" "Rendered Items" "$SHOTS/sink-warc-render.png" >"$T/p.json"
expect_eq "... and ReplayWeb.page replays the rendered page: the script's title and text" "Rendered Items true " \
	"$(jq -r '"\(.title) \(.text | contains("banana"))"' "$T/p.json") $(cat "$T/replay.err")"
echo "# screenshots: $SHOTS/sink-warc-wacz.png $SHOTS/sink-warc-warc.png $SHOTS/sink-warc-render.png"

# The round trip: what a WARC gives back is what was fetched.
if "$BIN/fetch" --help 2>&1 | grep -q -- --from-warc; then
	server_start
	printf '%s\n' "$URL/ok" "$URL/chunked?gzip=1" "$URL/page/1" | F >"$T/live.mp"
	"$BIN/sink" -q "$T/t.warc.gz" <"$T/live.mp"
	"$BIN/parse" --json <"$T/live.mp" | jq -c '{url, status, title, text}' | sort >"$T/live.json"
	"$BIN/fetch" -q --from-warc "$T/t.warc.gz" | "$BIN/parse" --json | jq -c '{url, status, title, text}' | sort >"$T/back.json"
	expect_eq "fetch --raw | sink x.warc.gz, then fetch --from-warc: parse sees the same pages" \
		"$(cat "$T/live.json")" "$(cat "$T/back.json")"
else
	echo "# skip: the round trip through the WARC waits for fetch --from-warc"
fi
finish
