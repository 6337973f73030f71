# render --raw: the page's own answer as fetch --raw keeps it, from
# DevTools: each redirect's exchange and the last one's, the request
# headers as the server got them, the status lines and headers as sent,
# the payload as Chromium decoded it (said so, its headers no longer
# claiming gzip); --warc-redact as fetch's; sink archives it.
# run.sh: alone (Chromium beside other tests blurs their timing)
. "$TESTS/lib.sh"
mkdir -p "$T/tmp"
chmod 711 "$T"   # as root, Chromium runs as nobody, its profile under $TMPDIR
server_start
export TMPDIR=$T/tmp
x() { jq -r "$1" "$T/r.json"; }

echo "$URL/redirect-to?url=/chunked%3Fgzip=1" |
	"$BIN/render" -q --no-robots --json --raw -H 'Authorization: Bearer s3cr3t' \
		--warc-redact authorization >"$T/r.json" 2>"$T/err"
if [ "$(x .status 2>/dev/null)" != 200 ]; then
	echo "ok - $NAME: # skip headless Chromium cannot start here: $(tail -1 "$T/err") (make deps)"
	finish
fi
expect_eq "a redirect and its target: two exchanges, in order" \
	"$URL/redirect-to?url=/chunked%3Fgzip=1 $URL/chunked?gzip=1" "$(x '[.exchanges[].url] | join(" ")')"
expect_eq "the request lines as sent" \
	"GET /redirect-to?url=/chunked%3Fgzip=1 HTTP/1.1|GET /chunked?gzip=1 HTTP/1.1" \
	"$(x '[.exchanges[].request | @base64d | split("\r\n")[0]] | join("|")')"
expect_eq "every header the server got, and no other, in each request" \
	"$(jq -r '.hdrs | keys | join(" ")' "$LOG" | paste -sd'|' -)" \
	"$(x '.exchanges[].request | @base64d | split("\r\n")[1:] | map(select(. != "") | split(":")[0] | ascii_downcase) | sort | join(" ")' | paste -sd'|' -)"
expect_eq "each request ends with its blank line" "true true" \
	"$(x '[.exchanges[].request | @base64d | endswith("\r\n\r\n")] | join(" ")')"
expect_eq "--warc-redact: Authorization shown as ***, nowhere else" "Authorization: ***|Authorization: ***|0" \
	"$(x '.exchanges[].request | @base64d' | tr -d '\r' | grep '^Authorization' | paste -sd'|' -)|$(grep -c s3cr3t "$T/r.json")"
expect_eq "the status lines as received: 302, then 200" "HTTP/1.1 302 Found|HTTP/1.1 200 OK" \
	"$(x '[.exchanges[].response | @base64d | split("\r\n")[0]] | join("|")')"
expect_eq "the answer's headers as sent, gzip said as X-Orig-: the payload is decoded" \
	"Transfer-Encoding: chunked|X-Orig-Content-Encoding: gzip" \
	"$(x '.exchanges[1].response | @base64d' | tr -d '\r' | grep -Ei '^(x-orig-|transfer-|content-enc)' | paste -sd'|' -)"
echo "$URL/chunked?gzip=1" | "$BIN/fetch" -q --no-robots --json >"$T/f.json"
expect_eq "the payload: the page as the server sent it (fetch's body), before scripts" true \
	"$(jq -r .body "$T/f.json" | jq -rR --slurpfile r "$T/r.json" '. == $r[0].exchanges[1].payload')"
expect_eq "its keys: decoded, chunked undone, whole; the redirect's payload not had" \
	"true chunked null | null null true" \
	"$(x '.exchanges | "\(.[1].content_decoded) \(.[1].transfer_encoding) \(.[1].payload_cut) | \(.[0].content_decoded) \(.[0].transfer_encoding) \(.[0].payload_cut)"')"
expect_eq "address and HTTP version, per exchange and of the answer" "127.0.0.1 1.1 127.0.0.1 1.1" \
	"$(x '"\(.exchanges[1].ip) \(.exchanges[1].http_version) \(.ip) \(.http_version)"')"
expect_eq "each exchange dated when sent, in order, before fetched_at" true \
	"$(x '.exchanges[0].date <= .exchanges[1].date and .exchanges[1].date <= .fetched_at and .fetched_at - .exchanges[1].date < 30')"

# sink writes the exchanges as response and request records, the DOM
# beside them; without --raw, none of the keys.
jq -r .url "$T/r.json" | "$BIN/render" -q --no-robots --raw >"$T/r.mp"
"$BIN/sink" -q "$T/a.warc" <"$T/r.mp"
expect_eq "sink's WARC: two responses, two requests, their metadata, the DOM as a resource" \
	"metadata request request resource response response" \
	"$(grep -a '^WARC-Type:' "$T/a.warc" | tr -d '\r' | cut -d' ' -f2 | grep -v warcinfo | sort | paste -sd' ' -)"
echo "$URL/ok" | "$BIN/render" -q --no-robots --json >"$T/r.json"
expect_eq "without --raw: no exchanges, ip or http_version" "false false false" \
	"$(x '"\(has("exchanges")) \(has("ip")) \(has("http_version"))"')"
finish
