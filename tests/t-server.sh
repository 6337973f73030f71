#!/bin/sh
# The test server itself (tests/server.py), checked with curl and jq so that
# every other test can trust what it serves and what it logs.
. "$TESTS/lib.sh"

server_start
C="curl -s --max-time 10"

# title PAGE: the text of the first <title>
title() { sed -n 's:.*<title>\([^<]*\)</title>.*:\1:p' | head -n 1; }
# header NAME FILE: a header's value from curl -D output, CR stripped
header() { tr -d '\r' <"$2" | sed -n "s/^$1: *//Ip" | tail -n 1; }

expect_match "port file holds a port" '^[0-9]+$' "$PORT"

# ---- pages
body=$($C "$URL/ok")
expect_eq "/ok body" '<html><head><title>OK page</title></head><body><p>hello world</p><a href="/page/1">one</a><a href="/page/2#frag">two</a></body></html>' "$body"
expect_eq "/ok title" "OK page" "$(printf '%s' "$body" | title)"
$C -D "$T/h" -o /dev/null "$URL/ok"
expect_match "/ok is utf-8 html" '^text/html; charset=utf-8$' "$(header Content-Type "$T/h")"
expect_eq "/ok content-length" 134 "$(header Content-Length "$T/h")"
body=$($C "$URL/page/7")
expect_eq "/page/N title" "Page 7" "$(printf '%s' "$body" | title)"
expect_match "/page/N links on" 'href="/page/8".*href="/ok"' "$body"
expect_eq "/hello title" "a <b> & c" "$($C "$URL/hello?title=a%20%3Cb%3E%20%26%20c" | title | sed 's/&lt;/</; s/&gt;/>/; s/&amp;/\&/')"
expect_eq "/slow waits and answers" "OK page" "$($C "$URL/slow?ms=200" | title)"
ms=$(jq -s 'map(select(.path == "/slow?ms=200")) | length' "$LOG")
expect_eq "/slow logged once" 1 "$ms"

# ---- status codes
code=$($C -o "$T/b" -w '%{http_code}' "$URL/status/404")
expect_eq "/status/404 code" 404 "$code"
expect_eq "/status/404 title" "Status 404" "$(title <"$T/b")"
expect_eq "/status/503 code" 503 "$($C -o /dev/null -w '%{http_code}' "$URL/status/503")"
expect_eq "unknown path is 404" 404 "$($C -o /dev/null -w '%{http_code}' "$URL/no/such/thing")"
expect_eq "POST is 501" 501 "$($C -X POST -o /dev/null -w '%{http_code}' "$URL/ok")"

# ---- redirects
out=$($C -L -o /dev/null -w '%{http_code} %{num_redirects} %{url_effective}' "$URL/redirect/2")
expect_eq "/redirect/2 ends at /ok after 3 redirects" "200 3 $URL/ok" "$out"
expect_eq "/redirect chain logged" 3 "$(count '^/redirect/[0-9]$')"
out=$($C -o /dev/null -w '%{http_code} %{redirect_url}' "$URL/loop")
expect_eq "/loop redirects to itself" "302 $URL/loop" "$out"
$C -D "$T/h" -o /dev/null "$URL/redirect-to?url=file%3A%2F%2F%2Fetc%2Fpasswd"
expect_eq "/redirect-to decodes the location" "file:///etc/passwd" "$(header Location "$T/h")"

# ---- content types and sizes
$C -D "$T/h" -o "$T/b" "$URL/bin"
expect_eq "/bin is png" "image/png" "$(header Content-Type "$T/h")"
expect_eq "/bin has the png signature" "89504e470d0a1a0a" "$(head -c 8 "$T/b" | od -An -tx1 | tr -d ' \n')"
expect_match "/text is text/plain" '^text/plain' "$($C -o /dev/null -w '%{content_type}' "$URL/text")"
expect_eq "/json parses" world "$($C "$URL/json" | jq -r .hello)"
$C -D "$T/h" -o "$T/b" "$URL/noctype"
expect_eq "/noctype has no content-type" "" "$(header Content-Type "$T/h")"
expect_match "/noctype has an html body" '<title>' "$(cat "$T/b")"
expect_eq "/big exact size" 1000000 "$($C "$URL/big?bytes=1000000" | wc -c | tr -d ' ')"
expect_eq "/big tiny size" 5 "$($C "$URL/big?bytes=5" | wc -c | tr -d ' ')"
$C -I -D "$T/h" -o /dev/null "$URL/big?bytes=12345"
expect_eq "HEAD gives the length without a body" 12345 "$(header Content-Length "$T/h")"
out=$($C -o /dev/null -w '%{size_download} %{time_total}' "$URL/drip?bytes=4&ms=150")
expect_match "/drip sends bytes slowly" '^4 0*(0\.[4-9]|[1-9])' "$out"

# ---- gzip bomb
out=$($C --compressed "$URL/gzipbomb?mb=5" | wc -c | tr -d ' ')
expect_eq "/gzipbomb decodes to 5 MiB" 5242880 "$out"
$C -D "$T/h" -o "$T/b" "$URL/gzipbomb?mb=5"
expect_eq "/gzipbomb is gzip encoded" gzip "$(header Content-Encoding "$T/h")"
raw=$(wc -c <"$T/b" | tr -d ' ')
if [ "$raw" -lt 100000 ] && [ "$raw" = "$(header Content-Length "$T/h")" ]; then
	ok "/gzipbomb wire body is small"
else
	fail "/gzipbomb wire body is small" "raw $raw bytes"
fi

# ---- flaky and retry-after
codes=
for i in 1 2 3 4; do codes="$codes $($C -o "$T/b" -w '%{http_code}' "$URL/flaky?key=k1&fail=2")"; done
expect_eq "/flaky fails twice then succeeds" " 503 503 200 200" "$codes"
expect_eq "/flaky success title" "Flaky k1" "$(title <"$T/b")"
codes=
for i in 1 2; do codes="$codes $($C -o /dev/null -w '%{http_code}' "$URL/flaky?key=k2&fail=1&status=500")"; done
expect_eq "/flaky counts per key, custom status" " 500 200" "$codes"
code=$($C -D "$T/h" -o /dev/null -w '%{http_code}' "$URL/retry-after?key=r1&fail=1&s=7")
expect_eq "/retry-after status" 429 "$code"
expect_eq "/retry-after header" 7 "$(header Retry-After "$T/h")"
expect_eq "/retry-after then 200" 200 "$($C -o /dev/null -w '%{http_code}' "$URL/retry-after?key=r1&fail=1&s=7")"
code=$($C -D "$T/h" -o /dev/null -w '%{http_code}' "$URL/retry-after?key=r2&s=1&status=503")
expect_eq "/retry-after custom status" 503 "$code"
$C -D "$T/h" -o /dev/null "$URL/retry-after-date?key=d1&fail=1&s=30"
when=$(header Retry-After "$T/h")
expect_match "/retry-after-date is an http date" '^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:]{8} GMT$' "$when"
delta=$(( $(date -d "$when" +%s) - $(date +%s) ))
if [ "$delta" -ge 28 ] && [ "$delta" -le 31 ]; then ok "/retry-after-date is 30 s ahead"
else fail "/retry-after-date is 30 s ahead" "delta $delta"; fi

# ---- charsets
$C -D "$T/h" -o "$T/b" "$URL/charset?cs=iso-8859-1&title=caf%C3%A9&how=header"
expect_match "/charset header declares it" 'charset=iso-8859-1' "$(header Content-Type "$T/h")"
expect_eq "/charset encodes the title" "café" "$(iconv -f iso-8859-1 -t utf-8 <"$T/b" | title)"
body=$($C "$URL/charset?cs=shift_jis&title=%E6%97%A5%E6%9C%AC&how=meta" | iconv -f shift_jis -t utf-8)
expect_match "/charset meta declares it" '<meta charset="shift_jis">' "$body"
expect_eq "/charset meta title" "日本" "$(printf '%s' "$body" | title)"
expect_eq "/charset none has a bare type" "text/html" "$($C -o /dev/null -w '%{content_type}' "$URL/charset?cs=koi8-r&title=x&how=none")"

# ---- broken connections
$C -o /dev/null "$URL/reset"
rc=$?
expect_eq "/reset is a curl receive error" 56 "$rc"
$C -o "$T/b" "$URL/reset-mid"
rc=$?
if [ "$rc" -ne 0 ] && [ "$(wc -c <"$T/b")" -le 1000 ]; then ok "/reset-mid fails mid-body"
else fail "/reset-mid fails mid-body" "rc $rc"; fi
curl -s --max-time 1 -o /dev/null "$URL/hang"
expect_eq "/hang never answers" 28 "$?"
expect_eq "the server survives broken connections" 200 "$($C -o /dev/null -w '%{http_code}' "$URL/ok")"

# ---- robots without flags
expect_eq "/robots.txt is 404 without --robots" 404 "$($C -o /dev/null -w '%{http_code}' "$URL/robots.txt")"

# ---- the request log
$C -o /dev/null -A "probe/1" "$U2/ok?x=1"
rec=$(requests '^/ok\?x=1$')
expect_eq "log: one line per request" 1 "$(printf '%s\n' "$rec" | grep -c .)"
expect_eq "log: fields" '"127.0.0.2" "127.0.0.2:'"$PORT"'" "GET" "/ok?x=1" "probe/1"' \
	"$(printf '%s' "$rec" | jq -r '[.addr, .host, .method, .path, .ua] | map(@json) | join(" ")')"
expect_eq "log: field types" 'number number number number' \
	"$(printf '%s' "$rec" | jq -r '[.t, .conn, .conns, .inflight] | map(type) | join(" ")')"
expect_eq "log: a lone request" '1 1' "$(printf '%s' "$rec" | jq -r '"\(.conns) \(.inflight)"')"
t=$(printf '%s' "$rec" | jq .t)
now=$(date +%s)
expect_eq "log: t is unix seconds" 1 "$(jq -n "($t - $now) | fabs < 5 | if . then 1 else 0 end")"
expect_eq "log: every line is valid json" "$(records "$LOG")" "$(jq -c . "$LOG" | wc -l | tr -d ' ')"
expect_eq "log: HEAD is logged as HEAD" HEAD "$(requests '^/big\?bytes=12345$' | jq -r .method)"

# t is when the request arrived, by the kernel's clock, not when a
# handler thread got to it: a request that waits in the socket while
# its thread still serves /slow is stamped when it was sent (the
# pacing tests' floors stand on that).  A client sends it once the
# first is logged, and prints when it sent it.
sent=$(python3 - "$PORT" "$LOG" <<'PY'
import socket, sys, time
port, log = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(("127.0.0.1", port))
s.sendall(b"GET /slow?ms=600&stamp=1 HTTP/1.1\r\nHost: x\r\n\r\n")
deadline = time.time() + 10
while "stamp=1" not in open(log).read() and time.time() < deadline:
    time.sleep(0.01)   # polls the log: the first request is being served
t = time.time()
s.sendall(b"GET /ok?stamp=2 HTTP/1.1\r\nHost: x\r\n\r\n")
s.settimeout(10)
got = b""
while got.count(b"OK page") < 2:
    got += s.recv(65536)
print("%.6f" % t)
PY
)
expect_eq "log: a request waiting in the socket is stamped when sent, not when read" ok \
	"$(requests '^/ok\?stamp=2$' | jq -r --argjson s "$sent" '(.t - $s) as $d | if $d > -0.01 and $d < 0.1 then "ok" else "stamped \($d) s after sending" end')"
$C -o /dev/null -o /dev/null "$U3/page/100" "$U3/page/101"
ids=$(requests '^/page/10[01]$' | jq -r .conn | sort -u | wc -l | tr -d ' ')
expect_eq "log: one keep-alive connection, one conn id" 1 "$ids"
expect_eq "log: both on 127.0.0.3" "127.0.0.3" "$(requests '^/page/10[01]$' | jq -r .addr | sort -u)"
$C -o /dev/null "$U3/page/102"
ids=$(requests '^/page/10[012]$' | jq -r .conn | sort -u | wc -l | tr -d ' ')
expect_eq "log: a new connection, a new conn id" 2 "$ids"
expect_eq "log: a conn id never spans addresses" true "$(jq -s 'group_by(.conn) | all(map(.addr) | unique | length == 1)' "$LOG")"

# Three requests at once on 127.0.0.2: the last logged sees all three.
pids=
for i in 1 2 3; do $C -o /dev/null "$U2/slow?ms=1500&n=$i" & pids="$pids $!"; done
wait_for 10 "the 3 slow requests in the log" logged_ge 3 '^/slow\?ms=1500'
$C -o /dev/null "$URL/page/200"
wait $pids
expect_eq "log: inflight counts concurrent requests" 3 "$(requests '^/slow\?ms=1500' | jq -s 'map(.inflight) | max')"
expect_eq "log: conns counts open connections" 3 "$(requests '^/slow\?ms=1500' | jq -s 'map(.conns) | max')"
expect_eq "log: counts are per address" '1 1' "$(requests '^/page/200$' | jq -r '"\(.conns) \(.inflight)"')"

# ---- SIGTERM with a hanging request open
: >"$LOG"
curl -s --max-time 20 -o /dev/null "$URL/hang" &
hang=$!
wait_for 10 "the /hang request in the log" logged_ge 1 '^/hang'
kill "$SERVER_PID"
( sleep 3; kill -9 "$SERVER_PID" 2>/dev/null ) &   # a watchdog, not a wait
dog=$!
wait "$SERVER_PID"
rc=$?
kill "$dog" 2>/dev/null
SERVER_PID=
expect_eq "SIGTERM exits promptly despite /hang" 0 "$rc"
wait "$hang"
expect_eq "the hanging client sees the close" 52 "$?"

# ---- a second server: --robots, --root, --port
mkdir -p "$T/root/sub"
printf '<html><head><title>Index</title></head></html>' >"$T/root/index.html"
printf 'a { }\n' >"$T/root/sub/s.css"
printf 'secret\n' >"$T/secret.txt"
printf 'User-agent: *\nDisallow: /private\n' >"$T/robots"
rm -f "$T/port"
server_start --robots "$T/robots" --root "$T/root"
expect_eq "--robots serves the file" "Disallow: /private" "$($C "$URL/robots.txt" | tail -n 1)"
printf 'User-agent: *\nDisallow: /\n' >"$T/robots"
expect_eq "--robots re-reads the file" "Disallow: /" "$($C "$URL/robots.txt" | tail -n 1)"
expect_eq "--root serves index.html" "Index" "$($C "$URL/" | title)"
expect_eq "--root content type" "text/css 6" "$($C -o /dev/null -w '%{content_type} %{size_download}' "$URL/sub/s.css")"
expect_eq "--root 404" 404 "$($C -o /dev/null -w '%{http_code}' "$URL/nope.html")"
expect_eq "--root no escape" 404 "$($C --path-as-is -o /dev/null -w '%{http_code}' "$URL/../secret.txt")"
expect_eq "--root no encoded escape" 404 "$($C --path-as-is -o /dev/null -w '%{http_code}' "$URL/sub/%2e%2e/%2e%2e/secret.txt")"
expect_eq "--root keeps the endpoints" "OK page" "$($C "$URL/ok" | title)"

# /cond: validators, a 304 to a matching conditional request, the log
# says what was sent
code() { $C -o /dev/null -w '%{http_code}' "$@"; }
expect_eq "/cond: 200 with ETag and Last-Modified" '200 "n-v1" Wed, 15 Nov 2023 22:13:20 GMT' \
	"$($C -D "$T/h" -o /dev/null -w '%{http_code}' "$URL/cond/n") $(header etag "$T/h") $(header last-modified "$T/h")"
expect_eq "/cond: If-None-Match of the version is 304, another 200" "304 200" \
	"$(code -H 'If-None-Match: "n-v1"' "$URL/cond/n") $(code -H 'If-None-Match: "n-v0"' "$URL/cond/n")"
expect_eq "/cond: If-Modified-Since of the version is 304 (mode=lm)" "304" \
	"$(code -H 'If-Modified-Since: Wed, 15 Nov 2023 22:13:20 GMT' "$URL/cond/l?mode=lm")"
expect_eq "/cond: mode=change is v1, then a new version at each request; mode=fail S after the first" \
	"304 200 200 404" "$(code -H 'If-None-Match: "c-v1"' "$URL/cond/c?mode=change") $(code -H 'If-None-Match: "c-v1"' "$URL/cond/c?mode=change") $(code "$URL/cond/f?mode=fail&status=404") $(code "$URL/cond/f?mode=fail&status=404")"
expect_eq "log: the conditional headers sent" '"n-v1" null' \
	"$(requests '^/cond/n$' | sed -n 2p | jq -r '"\(.hdrs["if-none-match"]) \(.hdrs["if-modified-since"])"')"

server_restart --robots-status 503
expect_eq "--robots-status" 503 "$($C -o /dev/null -w '%{http_code}' "$URL/robots.txt")"
old=$PORT
server_restart --port "$old"
expect_eq "--port binds that port" "$old" "$PORT"
expect_eq "--port serves on every addr" "200" "$($C -o /dev/null -w '%{http_code}' "http://127.0.0.3:$PORT/ok")"

# /challenge: a host that turns to bot checks after N pages.
expect_eq "/challenge: N stories, then the bot check with status S" \
	"200 Story k|200 Story k|503 One more step|503 One more step" \
	"$(for i in 1 2 3 4; do
		$C -o "$T/ch" -w '%{http_code} ' "$URL/challenge?key=k&after=2&status=503&n=$i"
		printf "%s\n" "$(title <"$T/ch")"
	done | paste -sd'|' -)"
finish
