# How requests travel: through a real forward proxy (tinyproxy) given by
# --proxy or the *_proxy variables, past it with --noproxy; over TLS
# with a CA of the test's own (--cacert, --capath, --insecure); HTTP/1.1
# or HTTP/2 as asked; compressed bodies capped decoded.
. "$TESTS/lib.sh"
mkdir "$T/site"
server_start --root "$T/site"
unset http_proxy https_proxy all_proxy no_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY NO_PROXY

# ---- a forward proxy
PP=$(closed_port)
cat >"$T/tinyproxy.conf" <<EOF
Port $PP
Listen 127.0.0.1
Timeout 30
LogFile "$T/proxy.log"
LogLevel Info
MaxClients 20
Allow 127.0.0.1
ViaProxyName "sluice-test-proxy"
BasicAuth puser pp4ss-77e1
EOF
tinyproxy -d -c "$T/tinyproxy.conf" >"$T/tinyproxy.out" 2>&1 &
PROXY_PID=$! TLS_PID=
trap 'kill $PROXY_PID $TLS_PID 2>/dev/null; cleanup' EXIT
poll_until 5 grep -q "listening on\|Listening on\|Now running" "$T/proxy.log"
proxy_saw() { grep -c "$1" "$T/proxy.log"; }

st=$(echo "$URL/page/1?via=nocred" | "$BIN/fetch" --no-robots --json --proxy "http://127.0.0.1:$PP" | jq .status)
expect_eq "a proxy that wants credentials answers 407 without them" 407 "$st"
st=$(echo "$URL/page/1?via=flag" | "$BIN/fetch" --no-robots --json --proxy "http://127.0.0.1:$PP" \
	--proxy-user puser:pp4ss-77e1 --stats "$T/pstats" 2>"$T/perr" | tee "$T/prec" | jq .status)
expect_eq "--proxy, --proxy-user: 200 through the proxy, whose log has the request" "200 1" "$st $(proxy_saw 'page/1?via=flag')"
expect_eq "the proxy's password is nowhere in the record, stats or stderr" 0 \
	"$(cat "$T/prec" "$T/pstats" "$T/perr" | grep -c -e pp4ss -e 'cHVzZXI6')"
expect_eq "... and the origin saw the proxy's Via" "sluice-test-proxy" \
	"$(requests '^/page/1\?via=flag' | jq -r '.hdrs.via' | grep -o 'sluice-test-proxy')"
st=$(echo "$URL/page/2?via=env" | http_proxy="http://puser:pp4ss-77e1@127.0.0.1:$PP" "$BIN/fetch" --no-robots --json | jq .status)
expect_eq "http_proxy in the environment is honoured, as curl does" "200 1" "$st $(proxy_saw 'page/2?via=env')"
st=$(echo "$URL/page/3?via=none" | http_proxy="http://puser:pp4ss-77e1@127.0.0.1:$PP" "$BIN/fetch" --no-robots --json --noproxy 127.0.0.1 | jq .status)
expect_eq "--noproxy goes around it" "200 0" "$st $(proxy_saw 'page/3?via=none')"
st=$(echo "$URL/page/4?via=np" | http_proxy="http://puser:pp4ss-77e1@127.0.0.1:$PP" no_proxy=127.0.0.1 "$BIN/fetch" --no-robots --json | jq .status)
expect_eq "... as does no_proxy" "200 0" "$st $(proxy_saw 'page/4?via=np')"

# ---- TLS with a CA made here
tls_ca "$T"
cd "$T" || exit 1
mkdir capath && cp ca.pem capath/ && openssl rehash capath 2>/dev/null
cd - >/dev/null || exit 1
TLOG=$T/tls.log
python3 "$TESTS/server.py" --port-file "$T/tport" --log "$TLOG" --addr 127.0.0.1 \
	--cert "$T/srv.pem" --key "$T/srv.key" >"$T/tls.out" 2>&1 &
TLS_PID=$!
poll_until 5 test -s "$T/tport"
S=https://127.0.0.1:$(cat "$T/tport")
tls() { echo "$S/ok" | "$BIN/fetch" --no-robots --json --retries 0 "$@" 2>"$T/tls.err" | jq -c '[.status, .error]'; }
expect_eq "an unknown CA fails with error tls" '[0,"tls"]' "$(tls)"
expect_eq "--cacert trusts it" '[200,null]' "$(tls --cacert "$T/ca.pem")"
expect_eq "--capath too" '[200,null]' "$(tls --capath "$T/capath")"
expect_eq "--insecure passes, with one notice" '[200,null] fetch: --insecure: TLS certificates are not verified' \
	"$(tls --insecure) $(cat "$T/tls.err")"
expect_eq "-q silences the notice" '[200,null] ' "$(tls --insecure -q) $(cat "$T/tls.err")"

# ---- the protocol asked for: over plain http, --http2 asks for an upgrade
: >"$LOG"
echo "$URL/page/5" | "$BIN/fetch" --no-robots --json --http2 >/dev/null
echo "$URL/page/6" | "$BIN/fetch" --no-robots --json --http1.1 >/dev/null
expect_eq "--http2 offers h2c, --http1.1 does not" "h2c none" \
	"$(requests '^/page/5$' | jq -r '.hdrs.upgrade // "none"') $(requests '^/page/6$' | jq -r '.hdrs.upgrade // "none"')"

# ---- compression: libcurl's decoders, --max-body on the decoded size
head -c 65536 /dev/zero | tr '\0' 'z' | zstd -q -o "$T/site/small.zst"
head -c 67108864 /dev/zero | zstd -q -19 -o "$T/site/bomb.zst"
rec=$(echo "$URL/encoded?name=small.zst&enc=zstd" | "$BIN/fetch" --no-robots --json)
expect_eq "a zstd body is decoded" '[200,null,65536]' "$(echo "$rec" | jq -c '[.status, .error, .bytes]')"
expect_eq "... and zstd was offered" zstd \
	"$(requests '^/encoded\?name=small' | jq -r '.hdrs["accept-encoding"]' | grep -o zstd)"
echo "$URL/encoded?name=bomb.zst&enc=zstd" |
	/usr/bin/time -f %M -o "$T/rss" "$BIN/fetch" --no-robots --json --retries 0 --max-body 1M >"$T/bomb.json"
rss=$(tail -n 1 "$T/rss")
expect_eq "a zstd bomb ($(wc -c <"$T/site/bomb.zst") bytes, 64 MiB decoded), --max-body 1M: too_large" \
	'"too_large"' "$(jq -c .error "$T/bomb.json")"
expect_eq "zstd bomb: max RSS under 60 MB" true "$([ "$rss" -lt 61440 ] && echo true || echo "false ($rss KB)")"
echo "#   zstd bomb max RSS: $rss KB"
finish
