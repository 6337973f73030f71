# fetch --raw: each exchange as sent and received, for an archive: every
# redirect hop's and the last one's request line and headers as sent
# (libcurl's own included), status line and headers as received, the
# payload with its content coding kept and its chunked coding undone, the
# answer's address and HTTP version; the decoded body beside it.
# --warc-redact NAME shows a header's value as ***.  Checked against what
# the test server received and sent.
. "$TESTS/lib.sh"
server_start
F() { "$BIN/fetch" --json -q --no-robots --raw "$@"; }
x() { jq -r "$1" "$T/r.json"; }

echo "$URL/redirect-to?url=/ok" | F -H 'X-Mine: one' >"$T/r.json"
expect_eq "a redirect and its target: two exchanges, in order" \
	"$URL/redirect-to?url=/ok $URL/ok" "$(x '[.exchanges[].url] | join(" ")')"
expect_eq "the request line and our headers as sent, libcurl's Host and Accept too" \
	"GET /ok HTTP/1.1|Host: 127.0.0.1:$PORT|Accept: */*|X-Mine: one" \
	"$(x '.exchanges[1].request | @base64d' | tr -d '\r' | grep -E '^(GET|Host|X-Mine|Accept:)' | paste -sd'|' -)"
expect_eq "the request ends with its blank line" true \
	"$(x '.exchanges[1].request | @base64d | endswith("\r\n\r\n")')"
expect_eq "the status lines as received: 302, then 200" "HTTP/1.1 302 Found|HTTP/1.1 200 OK" \
	"$(x '[.exchanges[].response | @base64d | split("\r\n")[0]] | join("|")')"
expect_eq "the payload is the body as sent (identity)" true "$(x '(.exchanges[1].payload | @base64d) == (.body | @base64d)')"
expect_eq "the hop's payload is its own answer" true \
	"$(x '.exchanges[0].payload | @base64d | contains("Redirect")')"
expect_eq "address and HTTP version, per exchange and of the answer" "127.0.0.1 1.1 127.0.0.1 1.1" \
	"$(x '"\(.exchanges[1].ip) \(.exchanges[1].http_version) \(.ip) \(.http_version)"')"
expect_eq "each exchange dated when sent, in order, near fetched_at" true \
	"$(x '.exchanges[0].date <= .exchanges[1].date and .fetched_at - .exchanges[1].date < 5')"

# Chunked and gzip'd: the payload keeps gzip, loses the chunks; body is plain.
echo "$URL/chunked?gzip=1" | F >"$T/r.json"
expect_eq "chunked + gzip: the response head says both, as received" \
	"Transfer-Encoding: chunked|Content-Encoding: gzip" \
	"$(x '.exchanges[0].response | @base64d' | tr -d '\r' | grep -E '^(Transfer|Content-Encoding)' | paste -sd'|' -)"
expect_eq "... the payload is the gzip member, its chunks undone, and said so" "1f8b chunked" \
	"$(x '.exchanges[0].payload' | base64 -d | head -c 2 | od -An -tx1 | tr -d ' \n') $(x .exchanges[0].transfer_encoding)"
x .body | base64 -d >"$T/body"
expect_eq "... it inflates to the decoded body" true \
	"$(x '.exchanges[0].payload' | base64 -d | gzip -dc | cmp -s - "$T/body" && echo true || echo false)"
echo "$URL/chunked" | F >"$T/r.json"
expect_eq "chunked, identity: payload == body" true "$(x '(.exchanges[0].payload | @base64d) == (.body | @base64d)')"

# --warc-redact: the value replaced, request and response alike.
echo "$URL/login" | F -H 'Authorization: Bearer s3cr3t' --warc-redact Authorization \
	--warc-redact set-cookie >"$T/r.json"
expect_eq "--warc-redact: Authorization and Set-Cookie shown as ***" "Authorization: ***|Set-Cookie: ***" \
	"$( (x '.exchanges[0].request | @base64d'; x '.exchanges[0].response | @base64d') | tr -d '\r' |
		grep -E '^(Authorization|Set-Cookie):' | paste -sd'|' -)"
expect_eq "... nowhere in the record" 0 "$(grep -c 's3cr3t' "$T/r.json")"
echo "$URL/ok" | F -H 'Authorization: Bearer s3cr3t' >"$T/r.json"
expect_eq "without it the archive holds what was sent (docs/archive.md says so)" 1 \
	"$(x '.exchanges[0].request | @base64d' | grep -c 'Authorization: Bearer s3cr3t')"

# --max-body bounds the payload as it bounds the body; no --raw, no keys.
echo "$URL/big?bytes=50000" | F --max-body 10K >"$T/r.json"
expect_eq "--max-body 10K: too_large, and no exchange kept for a dead letter's WARC" '"too_large" null' \
	"$(x '.error | tojson') $(x '.exchanges | tojson')"
echo "$URL/ok" | "$BIN/fetch" --json -q --no-robots >"$T/r.json"
expect_eq "without --raw: no exchanges, ip or http_version" "false false false" \
	"$(x '[has("exchanges"), has("ip"), has("http_version")] | map(tostring) | join(" ")')"
"$BIN/fetch" --warc-redact x </dev/null >/dev/null 2>"$T/err"
expect_eq "--warc-redact without --raw: usage error" "64 fetch: --warc-redact needs --raw" "$? $(head -1 "$T/err")"
finish
