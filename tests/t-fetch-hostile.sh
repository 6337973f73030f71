#!/bin/sh
# fetch against hostile or broken servers: hangs, resets, redirect loops,
# redirects to file:, compression bombs, huge and dripping bodies, refused
# connections.  Each ends as one record with the right error word, with
# the number of requests checked in the server's log.
. "$(dirname "$0")/lib.sh"

server_start
F() { "$BIN/fetch" --json --no-robots -q --retries 0 "$@"; }
# one URL [FETCH-ARGS...]: fetches one URL into $T/one.json, log emptied first
one() { : >"$LOG"; u=$1; shift; echo "$u" | F "$@" >"$T/one.json"; }

# ---- /hang: timeout, one request
one "$URL/hang" -t 1
expect_eq "/hang -t 1: error timeout, status 0, attempts 1" '["timeout",0,1]' "$(field "$T/one.json" '[.error, .status, .attempts]')"
expect_eq "/hang -t 1 --retries 0: exactly one request" 1 "$(count '^/hang$')"
expect_eq "/hang -t 1: gave up after about 1 s (1000-2500 ms)" true "$(field "$T/one.json" '.time_ms >= 1000 and .time_ms < 2500')"

# ---- /reset and /reset-mid: reset
one "$URL/reset"
expect_eq "/reset: error reset, status 0, one request" '["reset",0,1] 1' "$(field "$T/one.json" '[.error, .status, .attempts]') $(count '^/reset$')"
one "$URL/reset-mid"
expect_eq "/reset-mid (RST after 1000 of 100000 bytes): error reset, one request" '"reset" 1' "$(field "$T/one.json" .error) $(count '^/reset-mid$')"
one "$URL/garbage" --retries 1 --backoff 0.05
expect_eq "/garbage (not HTTP): error reset, retried once like any reset" '["reset",0,2] 2' "$(field "$T/one.json" '[.error, .status, .attempts]') $(count '^/garbage$')"

# ---- redirects
one "$URL/loop" --max-redirs 3
expect_eq "/loop --max-redirs 3: error redirects, last status 302" '["redirects",302]' "$(field "$T/one.json" '[.error, .status]')"
expect_eq "/loop: the loop is seen at its first repeat: exactly 1 request" 1 "$(count '^/loop$')"
one "$URL/redirect/2" --max-redirs 3
expect_eq "/redirect/2 (3 redirects) --max-redirs 3: allowed, status 200, at /ok" "[null,200,\"$URL/ok\"]" "$(field "$T/one.json" '[.error, .status, .final_url]')"
one "$URL/redirect/3" --max-redirs 3
expect_eq "/redirect/3 (4 redirects) --max-redirs 3: error redirects, 4 requests" '"redirects" 4' "$(field "$T/one.json" .error) $(records "$LOG")"
one "$URL/redirect-to?url=file%3A%2F%2F%2Fetc%2Fpasswd"
expect_eq "redirect to file:///etc/passwd: error scheme" '"scheme"' "$(field "$T/one.json" .error)"
expect_eq "redirect to file:: no body of /etc/passwd in the record" false \
	"$(field "$T/one.json" '(.body // "" | @base64d | test("root:")) ')"
expect_eq "redirect to file:: one request" 1 "$(count '^/redirect-to')"
one "$URL/redirect-to?url=ftp%3A%2F%2F127.0.0.1%3A$PORT%2Fx"
expect_eq "redirect to ftp:: error scheme, nothing else requested" '"scheme" 1' "$(field "$T/one.json" .error) $(records "$LOG")"

# ---- size limits
one "$URL/big?bytes=5000000" --max-body 1M
expect_eq "/big 5 MB --max-body 1M: error too_large, status 200" '["too_large",200]' "$(field "$T/one.json" '[.error, .status]')"
expect_eq "/big too_large: no body in the dead letter" false "$(field "$T/one.json" 'has("body")')"
one "$URL/big?bytes=1048576" --max-body 1M
expect_eq "/big of exactly --max-body passes" '[null,1048576]' "$(field "$T/one.json" '[.error, .bytes]')"
one "$URL/big?bytes=1048577" --max-body 1M
expect_eq "/big one byte over --max-body: too_large" '"too_large"' "$(field "$T/one.json" .error)"
: >"$LOG"
echo "$URL/gzipbomb?mb=64" | /usr/bin/time -f %M -o "$T/rss" "$BIN/fetch" --json --no-robots -q --retries 0 --max-body 1M >"$T/one.json"
expect_eq "gzip bomb 64 MB --max-body 1M: error too_large, one request" '"too_large" 1' "$(field "$T/one.json" .error) $(count '^/gzipbomb')"
rss=$(tail -n 1 "$T/rss")
expect_eq "gzip bomb: max RSS under 60 MB" true "$([ "$rss" -lt 61440 ] && echo true || echo "false ($rss KB)")"
echo "#   gzip bomb max RSS: $rss KB"
one "$URL/gzipbomb?mb=1" --max-body 2M
expect_eq "small gzip body is decoded: 1 MiB of zeros" '[null,1048576]' "$(field "$T/one.json" '[.error, .bytes]')"

# ---- a body that drips slower than --low-speed-limit
one "$URL/drip?bytes=1000&ms=200" -t 30 --low-speed-limit 100 --low-speed-time 1
expect_eq "/drip 5 B/s --low-speed-limit 100 --low-speed-time 1: error timeout, one request" '"timeout" 1' \
	"$(field "$T/one.json" .error) $(count '^/drip')"
expect_eq "/drip: ended by the speed limit (1-4 s), not by -t 30" true "$(field "$T/one.json" '.time_ms >= 1000 and .time_ms < 4000')"

# ---- binary bodies pass untouched
one "$URL/bin"
expect_eq "/bin: status 200, ctype image/png, no error" '[200,"image/png",null]' "$(field "$T/one.json" '[.status, .ctype, .error]')"

# ---- refused connection
cp=$(closed_port)
one "http://127.0.0.1:$cp/x"
expect_eq "refused port: error connect, status 0" '["connect",0]' "$(field "$T/one.json" '[.error, .status]')"

# ---- one hung URL must not hold the host's other URLs: with -p 4 the
# other three go on their own connections and succeed at once
: >"$LOG"
printf '%s\n' "$URL/hang" "$URL/ok?a" "$URL/ok?b" "$URL/ok?c" | F -t 1 >"$T/mix.json"
expect_eq "/hang among /ok URLs (-t 1 -p 4): every /ok is 200, the server saw each" '[200,200,200] 3' \
	"$(jq -sc '[.[] | select(.url | test("/ok")) | .status]' "$T/mix.json") $(count '^/ok')"

finish
