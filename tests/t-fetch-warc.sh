# fetch --from-warc: each HTTP answer of a WARC file (plain, gzip per
# record, one gzip stream, stdin) as the record fetch would write, its
# body decoded, with the file, offset and record id; other records
# skipped and counted; filters; bad input of every kind (cut gzip,
# lying Content-Length, no WARC, bad header lines, a 100 MB header block,
# a block over --max-body, a digest that does not match, ARC), each said
# with its offset after every good record before it; backpressure; and
# the WARCs of real tools: wget's of pages nginx serves, read back as
# fetching them gives them, and warcio.js's.
. "$TESTS/lib.sh"
mkwarc() { python3 "$TESTS/mkwarc.py" "$@"; }
FW() { "$BIN/fetch" --json --from-warc "$@"; }
# summary FILE: "url status body" per record
summary() { jq -r '"\(.url) \(.status) \(.body // "" | @base64d)"' "$1"; }
size() { wc -c <"$1" | tr -d ' '; }

cat >"$T/good.jsonl" <<'EOF'
{"type":"warcinfo","body":"software: mkwarc\r\n"}
{"type":"request","url":"http://a.test/g"}
{"url":"http://a.test/g","body":"<title>G</title>gzip","ce":"gzip"}
{"url":"http://a.test/gc","body":"<title>GC</title>gzip, chunked","ce":"gzip","chunked":true}
{"url":"http://a.test/d","body":"<title>D</title>deflate","ce":"deflate"}
{"url":"http://a.test/b","body":"<title>B</title>br","ce":"br"}
{"url":"http://a.test/z","body":"<title>Z</title>zstd","ce":"zstd"}
{"url":"http://a.test/c","body":"<title>C</title>chunked","chunked":true}
{"url":"http://a.test/404","status":404,"reason":"Not Found","body":"nope"}
{"type":"resource","url":"http://a.test/r","body":"<title>R</title>resource"}
{"type":"revisit","url":"http://a.test/g","body":""}
{"type":"metadata","url":"http://a.test/g","ctype":"application/warc-fields","body":"via: x\r\n"}
{"url":"dns:a.test","ctype":"text/dns","block":"20240501100000\na.test. 60 IN A 192.0.2.7\n"}
EOF
want="http://a.test/g 200 <title>G</title>gzip
http://a.test/gc 200 <title>GC</title>gzip, chunked
http://a.test/d 200 <title>D</title>deflate
http://a.test/b 200 <title>B</title>br
http://a.test/z 200 <title>Z</title>zstd
http://a.test/c 200 <title>C</title>chunked
http://a.test/404 404 nope
http://a.test/r 200 <title>R</title>resource"
counts="fetch: 13 WARC records read, 8 written; skipped 1 warcinfo, 1 request, 1 revisit, 1 metadata, 1 not HTTP"
for mode in member whole none; do
	mkwarc --gzip $mode "$T/good.$mode" <"$T/good.jsonl"
	FW "$T/good.$mode" >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "$mode: every HTTP answer in file order, chunks and gzip, deflate, br, zstd undone" \
		"$want" "$(summary "$T/out")"
	expect_eq "$mode: exit 0, the others skipped and counted" "0 $counts" "$rc $(cat "$T/err")"
done

FW -q "$T/good.member" >"$T/out"
expect_eq "fetch's keys, from the archive: headers lowercase, WARC-Date, WARC-IP-Address" \
	'{"url":"http://a.test/g","final_url":"http://a.test/g","host":"a.test","status":200,"ctype":"text/html","headers":{"content-type":"text/html","content-encoding":"gzip"},"bytes":20,"fetched_at":1714557600.5,"ip":"192.0.2.7","http_version":"1.1"}' \
	"$(head -1 "$T/out" | jq -c 'del(.body, .warc, .headers["content-length"])')"
expect_eq "a resource record: status 200, the record's Content-Type, no HTTP" \
	'{"status":200,"ctype":"text/html","headers":null,"http_version":null}' \
	"$(jq -c 'select(.url == "http://a.test/r") | {status, ctype, headers, http_version}' "$T/out")"
expect_eq "warc: the file as given, the record id" "$T/good.member <urn:uuid:" \
	"$(head -1 "$T/out" | jq -r '"\(.warc.file) \(.warc.record_id[0:10])"')"
# offsets FILE RECORDS MODE: "ok" per record whose warc.offset is where a
# gzip member (member) or the text (none) of that record starts
offsets() {
	python3 - "$@" <<'PY'
import json, sys, zlib
data = open(sys.argv[1], "rb").read()
for line in open(sys.argv[2]):
    r = json.loads(line)
    off = r["warc"]["offset"]
    text = zlib.decompressobj(31).decompress(data[off:]) if sys.argv[3] == "member" else data[off:]
    ok = text.startswith(b"WARC/1.1\r\n") and r["warc"]["record_id"].encode() in text[:400]
    print("ok" if ok else "bad %d" % off)
PY
}
expect_eq "gzip per record: each offset is its record's gzip member, as CDX names it" \
	"$(printf 'ok\n%.0s' 1 2 3 4 5 6 7 8)" "$(offsets "$T/good.member" "$T/out" member)"
FW -q "$T/good.none" >"$T/out.none"
expect_eq "plain: each offset is where its record starts" \
	"$(printf 'ok\n%.0s' 1 2 3 4 5 6 7 8)" "$(offsets "$T/good.none" "$T/out.none" none)"

# stdin, as a pipe that stalls mid-record (the pause is the test: fetch
# must wait for the pipe, not take a short read for the file's end)
{ head -c 700 "$T/good.member"; sleep 0.3; tail -c +701 "$T/good.member"; } | FW - >"$T/out" 2>/dev/null
expect_eq "stdin (-), a pipe that stalls: the same records" "$want" "$(summary "$T/out")"
expect_eq "... warc.file is -" "-" "$(jq -r .warc.file "$T/out" | sort -u)"

# ---- filters
FW --include '/[gdb]$' --exclude '/d$' --status 2xx "$T/good.member" >"$T/out" 2>"$T/err"
expect_eq "--include, --exclude (first), --status" "http://a.test/g http://a.test/b" \
	"$(jq -r .url "$T/out" | paste -sd' ' -)"
expect_eq "... the others counted as filtered out" \
	"fetch: 13 WARC records read, 2 written; skipped 1 warcinfo, 1 request, 1 revisit, 1 metadata, 1 not HTTP, 6 filtered out" \
	"$(cat "$T/err")"
expect_eq "--status 4xx: the 404 alone" "http://a.test/404" "$(FW -q --status 4xx "$T/good.member" | jq -r .url)"
expect_usage_errors fetch "--include x" "--status 2xx" "--from-warc --raw" "--from-warc --queue $T/q.db" \
	"--from-warc --status 600" "--from-warc --include ("

# ---- bad input: every record before the bad one comes out, then the
# reason with the bad record's offset; exit 65
printf '%s\n' '{"url":"http://a.test/1","body":"one"}' '{"url":"http://a.test/2","body":"two"}' |
	mkwarc "$T/two.gz"
printf '%s\n' '{"url":"http://a.test/3","body":"three"}' | mkwarc "$T/three.gz"
{ cat "$T/two.gz"; head -c 100 "$T/three.gz"; } >"$T/cut.gz"
FW "$T/cut.gz" >"$T/out" 2>"$T/err"
rc=$?
expect_eq "a gzip member cut short: the records before it, its offset, 65" \
	"65 http://a.test/1 http://a.test/2|fetch: $T/cut.gz: malformed WARC record at byte $(size "$T/two.gz"): the gzip member is cut short" \
	"$rc $(jq -r .url "$T/out" | paste -sd' ' -)|$(head -1 "$T/err")"

printf '%s\n' '{"url":"http://a.test/1","body":"one"}' | mkwarc --gzip none "$T/one.warc"
for lie in -3 3 1000000; do
	printf '%s\n' "{\"url\":\"http://a.test/2\",\"body\":\"two\",\"cl_delta\":$lie}" \
		'{"url":"http://a.test/3","body":"three"}' | mkwarc --gzip none "$T/lie.part"
	cat "$T/one.warc" "$T/lie.part" >"$T/lie.warc"
	FW "$T/lie.warc" >"$T/out" 2>"$T/err"
	rc=$? cl=$((66 + lie))
	case $lie in
	1000000) why="the file ends within the block (Content-Length $cl)" ;;
	*) why="Content-Length $cl is not the block's length (no CRLF CRLF after it)" ;;
	esac
	expect_eq "Content-Length off by $lie: the record before, the offset, 65" \
		"65 http://a.test/1|fetch: $T/lie.warc: malformed WARC record at byte $(size "$T/one.warc"): $why" \
		"$rc $(jq -r .url "$T/out")|$(head -1 "$T/err")"
done

echo '<html>not an archive</html>' | gzip >"$T/page.gz"
FW "$T/page.gz" >"$T/out" 2>"$T/err"
rc=$?
expect_eq "a gzip file that is no WARC: said, nothing written, 65" \
	"65 0|fetch: $T/page.gz: not a WARC file: it starts with no WARC/ version line" \
	"$rc $(records "$T/out")|$(head -1 "$T/err")"

for bad in noversion noline; do
	case $bad in
	noversion) raw='WARC-Type: response\r\nContent-Length: 0\r\n\r\n\r\n\r\n'
		why='no WARC/ version line where a record starts' ;;
	noline) raw='WARC/1.1\r\nWARC-Type response\r\nContent-Length: 0\r\n\r\n\r\n\r\n'
		why='header line 2 is no field' ;;
	esac
	{ cat "$T/one.warc"; printf "$raw"; } >"$T/$bad.warc"
	FW "$T/$bad.warc" >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "$bad: the record before, the offset, 65" \
		"65 http://a.test/1|fetch: $T/$bad.warc: malformed WARC record at byte $(size "$T/one.warc"): $why" \
		"$rc $(jq -r .url "$T/out")|$(head -1 "$T/err")"
done

# A 100 MB header block (gzip'd to 100 KB): refused once past 1 MiB, in
# a few MB of memory, after the record before it.
printf '%s\n' '{"url":"http://a.test/2","header_pad":100000000}' | mkwarc "$T/pad.part"
cat "$T/two.gz" "$T/pad.part" >"$T/pad.gz"
/usr/bin/time -f %M -o "$T/rss" "$BIN/fetch" --json --from-warc "$T/pad.gz" >"$T/out" 2>"$T/err"
rc=$?
expect_eq "a 100 MB header block: refused after the records before it, 65" \
	"65 http://a.test/1 http://a.test/2|fetch: $T/pad.gz: malformed WARC record at byte $(size "$T/two.gz"): header block over 1048576 bytes" \
	"$rc $(jq -r .url "$T/out" | paste -sd' ' -)|$(head -1 "$T/err")"
expect_cmd "... in less than 64 MB" test "$(tail -1 "$T/rss")" -lt 65536

# An HTTP head no server sends (5000 fields, or over libcurl's 300 KiB):
# malformed HTTP, skipped and counted, the records around it read; its
# repeated names are never joined (that would be quadratic).
python3 -c '
import json
print(json.dumps({"url": "http://a.test/1", "body": "one"}))
print(json.dumps({"url": "http://a.test/2", "headers": [["x%d" % (i % 7), "v"] for i in range(5000)], "body": "two"}))
print(json.dumps({"url": "http://a.test/3", "headers": [["X-Big", "v" * 400000]], "body": "three"}))
print(json.dumps({"url": "http://a.test/4", "body": "four"}))' | mkwarc "$T/fields.gz"
FW "$T/fields.gz" >"$T/out" 2>"$T/err"
expect_eq "5000 header fields, a 400 KB head: malformed HTTP, skipped and counted; 1 and 4 read, 0" \
	"0 http://a.test/1 http://a.test/4|fetch: 4 WARC records read, 2 written; skipped 2 malformed HTTP" \
	"$? $(jq -r .url "$T/out" | paste -sd' ' -)|$(cat "$T/err")"

# A block over --max-body is passed over, said and counted; the rest
# are read.  A body that decodes past it is too_large, as fetch's own.
python3 -c '
import json
print(json.dumps({"url": "http://a.test/1", "body": "one"}))
print(json.dumps({"url": "http://a.test/big", "body": "x" * 300000}))
print(json.dumps({"url": "http://a.test/bomb", "body": "0" * 1000000, "ce": "gzip"}))
print(json.dumps({"url": "http://a.test/3", "body": "three"}))' | mkwarc "$T/big.gz"
FW --max-body 64K "$T/big.gz" >"$T/out" 2>"$T/err"
rc=$?
expect_eq "--max-body: the big block skipped, the bomb too_large without body, the rest read, 0" \
	"0 http://a.test/1 200 one|http://a.test/bomb 200 |http://a.test/3 200 three|too_large" \
	"$rc $(summary "$T/out" | paste -sd'|' -)|$(jq -r 'select(.error) | .error' "$T/out")"
off=$(python3 -c '
import gzip, sys
d = open(sys.argv[1], "rb").read(); o = 0
while True:
    z = __import__("zlib").decompressobj(31); t = z.decompress(d[o:])
    if b"a.test/big" in t[:400]: print(o); break
    o = len(d) - len(z.unused_data)' "$T/big.gz")
expect_eq "... said with its offset, and counted" \
	"fetch: $T/big.gz: record at byte $off skipped: its block of 300068 bytes is over --max-body
fetch: 4 WARC records read, 3 written; skipped 1 over --max-body" "$(cat "$T/err")"

# Digests: a payload digest that does not match keeps the record,
# flagged; sha256 in hex (warcio.js's) is checked too.
h=$(printf 'five' | sha256sum | cut -d' ' -f1)
printf '%s\n' '{"url":"http://a.test/1","body":"one","bad_digest":true}' \
	'{"url":"http://a.test/4","body":"four","fields":{"WARC-Block-Digest":null}}' \
	"{\"url\":\"http://a.test/5\",\"body\":\"five\",\"fields\":{\"WARC-Payload-Digest\":\"sha256:$h\"}}" \
	"{\"url\":\"http://a.test/6\",\"body\":\"six\",\"fields\":{\"WARC-Payload-Digest\":\"sha256:$h\"}}" |
	mkwarc "$T/dig.gz"
expect_eq "a digest that does not match: kept, warc_digest_mismatch; the others not flagged" \
	"http://a.test/1 one true|http://a.test/4 four null|http://a.test/5 five null|http://a.test/6 six true" \
	"$(FW -q "$T/dig.gz" | jq -r '"\(.url) \(.body | @base64d) \(.warc_digest_mismatch)"' | paste -sd'|' -)"

python3 -c '
import base64, hashlib, json
b32 = base64.b32encode(hashlib.sha256(b"five").digest()).decode().lower().rstrip("=")
for d in ("sha1:" + hashlib.sha1(b"five").hexdigest(), "sha256:" + b32, "sha256:" + ("b" if b32[0] != "b" else "c") + b32[1:]):
    print(json.dumps({"url": "http://a.test/5", "body": "five", "fields": {"WARC-Payload-Digest": d}}))' |
	mkwarc "$T/dig2.gz"
expect_eq "... sha1 in hex, sha256 in base32 (any case, unpadded) read too; one letter off flagged" \
	"null null true" "$(FW -q "$T/dig2.gz" | jq -r .warc_digest_mismatch | paste -sd' ' -)"

# ARC files are refused by name; the next file is still read.
printf 'filedesc://x.arc 0.0.0.0 20240101000000 text/plain 76\n1 0 sluice\nURL IP-address Archive-date Content-type Archive-length\n' >"$T/x.arc"
gzip -c "$T/x.arc" >"$T/x.arc.gz"
FW "$T/x.arc" "$T/x.arc.gz" "$T/one.warc" >"$T/out" 2>"$T/err"
rc=$?
expect_eq "ARC, plain or gzip: refused by name, the WARC after them read, 65" \
	"65 http://a.test/1|fetch: $T/x.arc: an ARC file, not WARC: only WARC/1.0 and 1.1 are read|fetch: $T/x.arc.gz: an ARC file, not WARC: only WARC/1.0 and 1.1 are read" \
	"$rc $(jq -r .url "$T/out")|$(head -2 "$T/err" | paste -sd'|' -)"
FW "$T/nothere.warc" "$T/one.warc" >"$T/out" 2>"$T/err"
rc=$?
expect_eq "a file that cannot be opened: said, the next read, 66" \
	"66 http://a.test/1|fetch: cannot open '$T/nothere.warc': No such file or directory" \
	"$rc $(jq -r .url "$T/out")|$(head -1 "$T/err")"

# ---- backpressure: with a reader that takes nothing, fetch stops
# reading the file once its output buffer is full.
python3 -c '
import json
for i in range(1500):
    print(json.dumps({"url": "http://a.test/p%d" % i, "body": "<title>%d</title>" % i + "x" * 20000}))' |
	mkwarc "$T/many.gz"
mkfifo "$T/fifo"
"$BIN/fetch" -q --from-warc --buffer 64K "$T/many.gz" >"$T/fifo" &
pid=$!
exec 3<"$T/fifo"
# blocked PID FIFO: PID waits in poll() and FIFO holds a full pipe
blocked() {
	python3 - "$1" "$2" <<'PY'
import fcntl, os, struct, sys, termios
fd = os.open(sys.argv[2], os.O_RDONLY | os.O_NONBLOCK)
unread = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
with open(f"/proc/{sys.argv[1]}/wchan") as f:
    sys.exit(not ("poll" in f.read() and unread >= 65536))
PY
}
wait_for 20 "fetch blocked on a full pipe" blocked $pid "$T/fifo"
fdn=$(ls -l /proc/$pid/fd | awk -v f="$T/many.gz" '$NF == f { print $(NF - 2) }')
pos=$(awk '/^pos:/ { print $2 }' /proc/$pid/fdinfo/"$fdn")
expect_cmd "... having read $pos of its $(size "$T/many.gz") bytes" test "$pos" -lt "$(size "$T/many.gz")"
"$BIN/sink" -q - <&3 | jq -r .url >"$T/urls"
exec 3<&-
wait $pid
rc=$?
expect_eq "once read, every record comes, in order, exit 0" "0 1500 http://a.test/p1499" \
	"$rc $(records "$T/urls") $(tail -1 "$T/urls")"

# ---- the round trip: fetch --raw | sink x.warc.gz, then fetch
# --from-warc x.warc.gz gives back the records fetch made: each answer's
# url, status, ctype, headers, body (chunks and gzip, br undone), bytes,
# ip, http_version, and fetched_at the exchange's date.  A redirect's
# hop is a record of its own; a payload sink stored once is a revisit
# the second time, skipped and counted.
mkdir "$T/rt"
page='<!doctype html><html><head><title>Brotli</title></head><body><p>br</p></body></html>'
printf '%s' "$page" | brotli -c >"$T/rt/page.br"
server_start --root "$T/rt"
printf '%s\n' "$URL/ok" "$URL/chunked?gzip=1" "$URL/encoded?name=page.br&enc=br" "$URL/page/1" \
	"$URL/status/404" "$URL/bin" "$URL/redirect-to?url=/hello" "$URL/ok?again=1" |
	"$BIN/fetch" -q --no-robots --raw >"$T/rt.mp"
"$BIN/sink" -q "$T/rt.warc.gz" <"$T/rt.mp"
"$BIN/sink" -q - <"$T/rt.mp" >"$T/rt.live"
FW "$T/rt.warc.gz" >"$T/rt.back" 2>"$T/err"
# as fetch made them, one per answer (a redirect's last), by its URL;
# sink keeps a Transfer-Encoding it undid as X-Orig-Transfer-Encoding
jq -c 'select(.url != "'"$URL"'/ok?again=1") | {url: .final_url, status, ctype, body, bytes, ip, http_version,
	headers: (.headers | with_entries(if .key == "transfer-encoding" then .key = "x-orig-transfer-encoding" else . end))}' \
	"$T/rt.live" | sort >"$T/rt.want"
expect_eq "round trip: each answer's url, status, ctype, headers, body, bytes, ip and version as fetched" \
	"$(cat "$T/rt.want")" \
	"$(jq -c 'select(.status < 300 or .status > 399) | {url, status, ctype, body, bytes, ip, http_version, headers}' \
		"$T/rt.back" | sort)"
expect_eq "... the br page decoded, the chunked one undone" "Brotli Chunked" \
	"$(jq -r '.body | @base64d | capture("<title>(?<t>[^<]*)").t' "$T/rt.back" | grep -E '^(Brotli|Chunked)$' | sort | paste -sd' ' -)"
expect_eq "... fetched_at: the date of the exchange, to the microsecond" "7 0" \
	"$(jq -n --slurpfile l "$T/rt.live" --slurpfile b "$T/rt.back" '[$l[] | .exchanges[-1] as $x
		| $b[] | select(.url == $x.url) | (.fetched_at - $x.date) | fabs] | "\(length) \(map(select(. > 0.000001)) | length)"' -r)"
expect_eq "... the redirect: its hop a record of its own, the 302 with its Location" \
	"$URL/redirect-to?url=/hello 302 /hello" \
	"$(jq -r 'select(.status == 302) | "\(.url) \(.status) \(.headers.location)"' "$T/rt.back")"
expect_eq "... the repeated payload a revisit: skipped and counted; no digest amiss" \
	"fetch: 27 WARC records read, 8 written; skipped 1 warcinfo, 9 request, 8 metadata, 1 revisit|0" \
	"$(cat "$T/err")|$(jq -s 'map(select(.warc_digest_mismatch)) | length' "$T/rt.back")"

# ---- wget's WARC of pages nginx serves reads back as fetching them does
mkdir "$T/site"
for p in a b c; do
	printf '<!doctype html><html><head><title>Page %s</title></head><body><p>Page %s</p></body></html>\n' $p $p \
		>"$T/site/$p.html"
done
P=$(closed_port)
nginx_start "server { listen 127.0.0.1:$P; root $T/site; access_log off; gzip on; gzip_types text/html; gzip_min_length 1; }" || finish
for p in a b c missing; do echo "http://127.0.0.1:$P/$p.html"; done >"$T/urls.txt"
(cd "$T" && wget -q --warc-file=wget --no-warc-keep-log -i "$T/urls.txt" -O /dev/null --header 'Accept-Encoding: gzip')
"$BIN/fetch" -q --json --no-robots <"$T/urls.txt" | jq -c '{url, status, body}' | sort >"$T/direct"
FW -q "$T/wget.warc.gz" | jq -c '{url, status, body}' | sort >"$T/fromwarc"
expect_eq "wget's WARC (gzip'd answers): the same url, status and body as fetching the pages" \
	"$(cat "$T/direct")" "$(cat "$T/fromwarc")"
expect_eq "... four answers, a 404 among them" "4 1" \
	"$(records "$T/fromwarc") $(grep -c '"status":404' "$T/fromwarc")"

# ---- warcio.js (npm warcio) writes a WARC, gzip per record, with a
# gzip'd answer, a 404, a revisit and a resource: read back as written
# (into build/npm, or $SLUICE_NPM, as t-sink-warc installs it)
W=${SLUICE_NPM:-$TESTS/../build/npm}
if [ ! -d "$W/node_modules/warcio" ]; then
	mkdir -p "$W"
	(cd "$W" && npm install --no-audit --no-fund --silent warcio@2.4.11 >/dev/null 2>&1) ||
		fail "npm could not install warcio"
fi
cat >"$T/write.cjs" <<'EOF'
// node write.cjs NPM_DIR OUT: a WARC, gzip per record, by warcio.js
const { WARCRecord, WARCSerializer } = require(process.argv[2] + "/node_modules/warcio");
const zlib = require("zlib");
const fs = require("fs");
async function* bytes(b) { yield b; }
const page = (t) => new TextEncoder().encode(`<html><head><title>${t}</title></head><body><p>${t}</p></body></html>`);
const v = "WARC/1.1";
const response = (url, date, body, more) =>
	WARCRecord.create({ url, date, type: "response", warcVersion: v, ...more }, bytes(body));
(async () => {
	const recs = [
		await WARCRecord.createWARCInfo({ filename: "w.warc.gz", warcVersion: v }, { software: "warcio.js" }),
		await response("http://w.test/a", "2024-05-01T10:00:00Z", page("Page a"),
			{ httpHeaders: { "Content-Type": "text/html" } }),
		await response("http://w.test/b", "2024-05-01T10:00:01Z", zlib.gzipSync(page("Page b")),
			{ httpHeaders: { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip" } }),
		await response("http://w.test/gone", "2024-05-01T10:00:02Z", page("Gone"),
			{ statusline: "HTTP/1.1 404 Not Found", httpHeaders: { "Content-Type": "text/html" } }),
		await WARCRecord.create({ url: "http://w.test/a", date: "2024-05-02T10:00:00Z", type: "revisit",
			warcVersion: v, refersToUrl: "http://w.test/a", refersToDate: "2024-05-01T10:00:00Z",
			httpHeaders: { "Content-Type": "text/html" } }, bytes(new Uint8Array(0))),
		await WARCRecord.create({ url: "http://w.test/c", date: "2024-05-01T10:00:03Z", type: "resource",
			warcVersion: v, warcHeaders: { "Content-Type": "text/html" } }, bytes(page("Page c"))),
	];
	const out = [];
	for (const r of recs)
		out.push(Buffer.from(await WARCSerializer.serialize(r, { gzip: true })));
	fs.writeFileSync(process.argv[3], Buffer.concat(out));
})();
EOF
node "$T/write.cjs" "$W" "$T/warcio.warc.gz"
FW "$T/warcio.warc.gz" >"$T/out" 2>"$T/err"
expect_eq "warcio.js's WARC: each answer and the resource, their sha256 digests holding" \
	"http://w.test/a 200 Page a null 1714557600|http://w.test/b 200 Page b null 1714557601|http://w.test/gone 404 Gone null 1714557602|http://w.test/c 200 Page c null 1714557603" \
	"$(jq -r '"\(.url) \(.status) \(.body | @base64d | capture("<title>(?<t>[^<]*)").t) \(.warc_digest_mismatch) \(.fetched_at)"' "$T/out" | paste -sd'|' -)"
expect_eq "... the warcinfo and the revisit skipped and counted" \
	"fetch: 6 WARC records read, 4 written; skipped 1 warcinfo, 1 revisit" "$(cat "$T/err")"
finish
