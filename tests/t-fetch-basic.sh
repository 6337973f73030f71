#!/bin/sh
# fetch: the record (every key fetch writes), URL lines and msgpack record
# input with pass-through keys, canonicalization, bad_url and scheme
# records, content types, usage.
. "$(dirname "$0")/lib.sh"

server_start
F() { "$BIN/fetch" --json --no-robots -q "$@"; }

# ---- one record per URL, every key
before=$(date +%s.%N)
echo "$URL/ok" | F >"$T/ok.json"
rc=$?
after=$(date +%s.%N)
expect_eq "fetch of /ok exits 0" 0 "$rc"
expect_eq "one record for one URL" 1 "$(records "$T/ok.json")"
r=$(cat "$T/ok.json")
j() { printf '%s\n' "$r" | jq -c "$@"; }
expect_eq "url" "\"$URL/ok\"" "$(j .url)"
expect_eq "final_url" "\"$URL/ok\"" "$(j .final_url)"
expect_eq "host" '"127.0.0.1"' "$(j .host)"
expect_eq "status" 200 "$(j .status)"
expect_eq "no error on success" "false false" "$(j 'has("error"), has("error_detail")' | tr '\n' ' ' | sed 's/ $//')"
expect_eq "ctype" '"text/html; charset=utf-8"' "$(j .ctype)"
expect_eq "headers: content-type and content-length" '["text/html; charset=utf-8","134"]' \
	"$(j '[.headers["content-type"], .headers["content-length"]]')"
expect_eq "headers: server" '"sluice-test/1"' "$(j '.headers.server | split(" ")[0]')"
expect_eq "headers: every name lowercase" '[]' \
	"$(j '[.headers | keys[] | select(test("^[a-z0-9-]+$") | not)]')"
expect_eq "body is the page, base64 in JSON" \
	'<html><head><title>OK page</title></head><body><p>hello world</p><a href="/page/1">one</a><a href="/page/2#frag">two</a></body></html>' \
	"$(j -r '.body | @base64d')"
expect_eq "bytes" 134 "$(j .bytes)"
expect_eq "attempts" 1 "$(j .attempts)"
expect_eq "fetched_at is a float between start and end of the run" true \
	"$(j --argjson a "$before" --argjson b "$after" '(.fetched_at | type) == "number" and .fetched_at >= $a and .fetched_at <= $b')"
expect_eq "time_ms is a number below the run's wall time" true \
	"$(j --argjson a "$before" --argjson b "$after" '(.time_ms | type) == "number" and .time_ms >= 0 and .time_ms <= ($b - $a) * 1000')"
expect_eq "the server saw one GET /ok" '1 GET' "$(count '^/ok$') $(requests '^/ok$' | jq -r .method)"
expect_match "user agent is sluice/VERSION" '^sluice/[0-9]' "$(requests '^/ok$' | jq -r .ua)"

# ---- duplicates are separate inputs; --user-agent
: >"$LOG"
printf '%s\n' "$URL/page/9" "$URL/page/9" | F --user-agent "tester/1.0 (+mailto:x@y)" >"$T/dup.json"
expect_eq "the same URL twice: two records, two requests" "2 2" "$(records "$T/dup.json") $(count '^/page/9$')"
expect_eq "--user-agent is sent as is" '"tester/1.0 (+mailto:x@y)"' "$(requests '^/page/9$' | jq -sc 'map(.ua) | unique | .[0]')"

# ---- several URL lines, blank lines and comments skipped
: >"$LOG"
printf '%s\n' "$URL/page/1" "" "# a comment" "  $URL/page/2" "$URL/status/404" "$URL/redirect/2" >"$T/urls.txt"
F "$T/urls.txt" >"$T/lines.json"
expect_eq "URL lines: one record per URL, comments and blanks skipped" 4 "$(records "$T/lines.json")"
expect_eq "URL lines: statuses" \
	"$URL/page/1 200|$URL/page/2 200|$URL/redirect/2 200|$URL/status/404 404" \
	"$(jq -r '"\(.url) \(.status)"' "$T/lines.json" | sort | paste -sd'|' -)"
expect_eq "a 404 is a final HTTP answer: no error, body kept" "false 1" \
	"$(jq -r 'select(.status == 404) | "\(has("error")) \(.bytes > 0 | if . then 1 else 0 end)"' "$T/lines.json")"
expect_eq "redirects: url stays, final_url is where it ended" "$URL/redirect/2 $URL/ok" \
	"$(jq -r 'select(.url | test("redirect")) | "\(.url) \(.final_url)"' "$T/lines.json")"
expect_eq "redirect chain requested once each" 4 "$(count '^/(redirect/[0-9]|ok)$')"
echo "$URL/json" >"$T/one.txt"
expect_eq "a file argument and stdin '-': both read, in order" "$URL/json|$URL/text" \
	"$(echo "$URL/text" | F -c 1 "$T/one.txt" - | jq -r .url | paste -sd'|' -)"
echo "$URL/text" | F "$T/no-such-file" - >"$T/nf.json" 2>/dev/null
expect_eq "a missing file: exit 66, the other input still fetched" "66 1" "$? $(records "$T/nf.json")"

printf '%s\r\n' "$URL/page/5" | F >"$T/crlf.json"
expect_eq "CRLF line endings: the CR is not part of the URL" "\"$URL/page/5\" 200" "$(jq -r '"\(.url | tojson) \(.status)"' "$T/crlf.json")"

# ---- msgpack records in, other keys passed through unchanged
cat >"$T/in.jsonl" <<EOF
{"url": "$URL/page/3", "job": "j1", "depth": 2, "tags": ["a", "b"], "meta": {"k": [1, 2.5, null, true]}}
{"url": "$URL/page/4", "job": "j2", "status": 999, "error": "stale", "body": {"\$bin": "old"}}
{"job": "j3"}
{"url": 42, "job": "j4"}
EOF
mkrec "$T/in.jsonl" >"$T/in.mp"
F <"$T/in.mp" >"$T/recs.json"
expect_eq "records: one record per input record" 4 "$(records "$T/recs.json")"
expect_eq "records: user keys pass through unchanged" \
	'{"job":"j1","depth":2,"tags":["a","b"],"meta":{"k":[1,2.5,null,true]},"status":200,"url":"'"$URL"'/page/3"}' \
	"$(jq -c 'select(.job == "j1") | {job, depth, tags, meta, status, url}' "$T/recs.json")"
expect_eq "records: stale fetch keys are replaced, not passed" \
	'{"status":200,"has_error":false,"body":"<html><head><title>Page 4</title></head><body><p>page 4</p><a href=\"/page/5\">next</a><a href=\"/ok\">ok</a></body></html>"}' \
	"$(jq -c 'select(.job == "j2") | {status, has_error: has("error"), body: (.body | @base64d)}' "$T/recs.json")"
expect_eq "records: no url key → bad_url, keys kept" '"bad_url" 0 0' \
	"$(jq -r 'select(.job == "j3") | "\(.error | tojson) \(.status) \(.attempts)"' "$T/recs.json")"
expect_eq "records: non-string url → bad_url" '"bad_url"' \
	"$(jq -c 'select(.job == "j4") | .error' "$T/recs.json")"
expect_eq "records: the server saw exactly the two good URLs" 2 "$(count '^/page/[34]$')"
nul=$(printf '{"url": "%s/page/9\\u0000x"}\n' "$URL" | python3 "$TESTS/mkrec.py" | "$BIN/fetch" --json --no-robots)
expect_eq "records: a NUL byte inside url → bad_url, no request" '"bad_url" "NUL byte in URL" 0' \
	"$(echo "$nul" | jq -r '"\(.error | tojson) \(.error_detail | tojson) \(.attempts)"')"
# msgpack out (no --json, stdout a file): the same records, binary body
"$BIN/fetch" --no-robots -q <"$T/in.mp" >"$T/out.mp"
expect_eq "msgpack output: 4 maps, body is bin" "4 bin" "$(python3 -c '
import sys
sys.path.insert(0, sys.argv[2])
data = open(sys.argv[1], "rb").read()
# minimal decoder: enough for fetch output
import struct
def rd(b, i):
    c = b[i]; i += 1
    if c <= 0x7f: return c, i
    if c >= 0xe0: return c - 256, i
    if 0x80 <= c <= 0x8f: return rmap(b, i, c & 15)
    if 0x90 <= c <= 0x9f: return rarr(b, i, c & 15)
    if 0xa0 <= c <= 0xbf: n = c & 31; return b[i:i+n].decode(), i + n
    if c == 0xc0: return None, i
    if c == 0xc2: return False, i
    if c == 0xc3: return True, i
    if c in (0xc4, 0xc5, 0xc6):
        w = {0xc4: 1, 0xc5: 2, 0xc6: 4}[c]; n = int.from_bytes(b[i:i+w], "big"); i += w
        return bytes(b[i:i+n]), i + n
    if c == 0xcb: return struct.unpack(">d", b[i:i+8])[0], i + 8
    if c == 0xca: return struct.unpack(">f", b[i:i+4])[0], i + 4
    if c in (0xcc, 0xcd, 0xce, 0xcf):
        w = {0xcc: 1, 0xcd: 2, 0xce: 4, 0xcf: 8}[c]; return int.from_bytes(b[i:i+w], "big"), i + w
    if c in (0xd0, 0xd1, 0xd2, 0xd3):
        w = {0xd0: 1, 0xd1: 2, 0xd2: 4, 0xd3: 8}[c]; return int.from_bytes(b[i:i+w], "big", signed=True), i + w
    if c in (0xd9, 0xda, 0xdb):
        w = {0xd9: 1, 0xda: 2, 0xdb: 4}[c]; n = int.from_bytes(b[i:i+w], "big"); i += w
        return b[i:i+n].decode(), i + n
    if c in (0xdc, 0xdd):
        w = 2 if c == 0xdc else 4; n = int.from_bytes(b[i:i+w], "big"); return rarr(b, i + w, n)
    if c in (0xde, 0xdf):
        w = 2 if c == 0xde else 4; n = int.from_bytes(b[i:i+w], "big"); return rmap(b, i + w, n)
    raise ValueError(hex(c))
def rmap(b, i, n):
    d = {}
    for _ in range(n):
        k, i = rd(b, i); v, i = rd(b, i); d[k] = v
    return d, i
def rarr(b, i, n):
    a = []
    for _ in range(n):
        v, i = rd(b, i); a.append(v)
    return a, i
i, recs = 0, []
while i < len(data):
    v, i = rd(data, i); recs.append(v)
bodies = [r["body"] for r in recs if "body" in r]
print(len(recs), "bin" if bodies and all(isinstance(x, bytes) for x in bodies) else "not bin")
' "$T/out.mp" "$TESTS")"

# ---- canonicalization
: >"$LOG"
echo "HTTP://127.0.0.1:$PORT/a/./b/../c#frag" | F >"$T/canon.json"
expect_eq "canonical url: scheme lowercased, dot segments resolved, fragment dropped" \
	"\"http://127.0.0.1:$PORT/a/c\"" "$(jq -c .url "$T/canon.json")"
expect_eq "the canonical path is what was requested" '["/a/c"]' "$(jq -sc 'map(.path)' "$LOG")"
cp=$(closed_port)
printf '%s\n' "http://127.0.0.1:80/" "http://127.0.0.1:$cp" "HTTP://127.0.0.1:$cp/x?q=1#f" |
	F --retries 0 --connect-timeout 2 >"$T/canon2.json"
expect_eq "explicit default port dropped, empty path made /, query kept" \
	"http://127.0.0.1/|http://127.0.0.1:$cp/|http://127.0.0.1:$cp/x?q=1" \
	"$(jq -r .url "$T/canon2.json" | paste -sd'|' -)"

# ---- bad_url and scheme: records, no requests
: >"$LOG"
printf '%s\n' "not a url" "http://" "ftp://127.0.0.1:$PORT/x" "gopher://127.0.0.1:$PORT/" "file:///etc/passwd" | F >"$T/bad.json"
expect_eq "bad URLs: one record each" 5 "$(records "$T/bad.json")"
expect_eq "bad URLs: errors" 'bad_url|bad_url|scheme|scheme' "$(head -n 4 "$T/bad.json" | jq -r .error | paste -sd'|' -)"
# file:///etc/passwd is a well-formed absolute URL: refused for its scheme
expect_eq "file:///etc/passwd: error scheme" '"scheme"' "$(tail -n 1 "$T/bad.json" | jq -c .error)"
expect_eq "bad URLs: status 0, attempts 0" '0 0|0 0|0 0|0 0|0 0' "$(jq -r '"\(.status) \(.attempts)"' "$T/bad.json" | paste -sd'|' -)"
expect_eq "bad_url keeps the raw input as url" '"not a url"' "$(jq -c 'select(.error == "bad_url") | .url' "$T/bad.json" | head -n 1)"
expect_eq "scheme record: canonical url and a detail" "\"ftp://127.0.0.1:$PORT/x\" true" \
	"$(jq -c 'select(.url | startswith("ftp")) | "\(.url | tojson) \(.error_detail | length > 0)"' -r "$T/bad.json")"
expect_eq "bad URLs: no request made" 0 "$(records "$LOG")"

# ---- content types, refused connections
: >"$LOG"
printf '%s\n' "$URL/bin" "$URL/text" "$URL/json" "$URL/noctype" | F >"$T/ct.json"
expect_eq "/bin: image/png, 8-byte signature intact" 'image/png 89504e470d0a1a0a' \
	"$(jq -r 'select(.url | endswith("/bin")) | .ctype' "$T/ct.json") $(jq -r 'select(.url | endswith("/bin")) | .body' "$T/ct.json" | base64 -d | head -c 8 | od -An -tx1 | tr -d ' \n')"
expect_eq "/bin bytes equal the PNG size" "$(curl -s "$URL/bin" | wc -c | tr -d ' ')" \
	"$(jq -r 'select(.url | endswith("/bin")) | .bytes' "$T/ct.json")"
expect_eq "/text and /json ctypes" 'application/json|text/plain; charset=utf-8' \
	"$(jq -r 'select(.url | test("/(text|json)$")) | .ctype' "$T/ct.json" | sort | paste -sd'|' -)"
expect_eq "/noctype: no ctype key, status 200" 'false 200' \
	"$(jq -r 'select(.url | endswith("/noctype")) | "\(has("ctype")) \(.status)"' "$T/ct.json")"
echo "http://127.0.0.1:$cp/" | F --retries 0 >"$T/refused.json"
expect_eq "refused port: error connect, status 0, attempts 1" '"connect" 0 1 127.0.0.1' \
	"$(jq -r '"\(.error | tojson) \(.status) \(.attempts) \(.host)"' "$T/refused.json")"

# ---- usage
"$BIN/fetch" --help >"$T/help" 2>"$T/help.err"
expect_eq "--help exits 0 with the synopsis on stdout, nothing on stderr" "0 usage: fetch [OPTION...] [FILE...] 0" \
	"$? $(head -n 1 "$T/help") $(wc -c <"$T/help.err" | tr -d ' ')"
"$BIN/fetch" --no-such-option </dev/null >"$T/uo" 2>"$T/uo.err"
expect_eq "unknown option exits 64, nothing on stdout" "64 0" "$? $(wc -c <"$T/uo" | tr -d ' ')"
expect_match "unknown option: a fetch: message naming the option" '^fetch: .*no-such-option' "$(cat "$T/uo.err")"
"$BIN/fetch" --version >"$T/ver" 2>&1
expect_eq "--version exits 0" 0 "$?"
expect_match "--version names fetch, libcurl, libuv and msgpack-c" '^fetch .*libcurl/.*libuv/.*msgpack-c/' "$(tr '\n' ' ' <"$T/ver")"
"$BIN/fetch" -c 0 </dev/null >/dev/null 2>&1
expect_eq "-c 0 exits 64" 64 "$?"
"$BIN/fetch" --buffer 1000 </dev/null >/dev/null 2>&1
expect_eq "--buffer below 1024 exits 64" 64 "$?"
"$BIN/fetch" --json </dev/null >"$T/empty"
expect_eq "empty input: exit 0, no records" "0 0" "$? $(wc -c <"$T/empty" | tr -d ' ')"

finish
