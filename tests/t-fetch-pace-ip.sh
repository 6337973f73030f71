# --pace-by ip: host names that resolve to one address share one budget
# (shared hosting), as --pace-by site shares one per registrable domain.
# Judged at the server: gaps between requests to one address.
# run.sh: alone
. "$TESTS/lib.sh"
server_start
P=$PORT
# a.test and b.test at 127.0.0.2, c.test at 127.0.0.3 (--resolve); and
# names under .localhost, which are loopback (127.0.0.1) by RFC 6761.
res="--resolve a.test:$P:127.0.0.2 --resolve b.test:$P:127.0.0.2 --resolve c.test:$P:127.0.0.3"
list() { urls "http://a.test:$P/ok?" 3 "http://b.test:$P/ok?" 3 "http://c.test:$P/ok?" 3; }
# gaps_at ADDR: seconds between request starts at ADDR, robots.txt aside
ok_gaps() {
	g=$(gaps "$1")
	if [ "$(echo "$g" | jq --argjson n "$2" 'length == $n and all(.[]; . >= 0.295)')" = true ]; then
		echo ok
	else
		ms "$g"
	fi
}
# shellcheck disable=SC2086
run_ip() { : >"$LOG"; list | "$BIN/fetch" --json -q $res -d 0.3 --pace-by ip >"$T/r.json"; }
check_ip() { echo "$(ok_gaps 127.0.0.2 5) $(ok_gaps 127.0.0.3 2)"; }
expect_eq "--pace-by ip: a.test and b.test (one address) share one -d 0.3 gap; c.test keeps its own" \
	"ok ok" "$(twice run_ip check_ip)"
expect_eq "... records keep their host names" '["a.test","b.test","c.test"]' \
	"$(jq -sc 'map(.host) | unique' "$T/r.json")"
expect_eq "... each name's robots.txt fetched" 3 "$(count '^/robots.txt$')"
# By host (the default), a.test and b.test are two budgets.
: >"$LOG"
# shellcheck disable=SC2086
list | "$BIN/fetch" --json -q $res -d 0.3 >"$T/r.json"
expect_eq "by host: a.test and b.test interleave (some gap at 127.0.0.2 under 0.25 s)" true \
	"$(gaps 127.0.0.2 | jq 'any(.[]; . < 0.25)')"
run_lh() { : >"$LOG"; urls "http://x.localhost:$P/ok?" 3 "http://y.localhost:$P/ok?" 3 |
	"$BIN/fetch" --json -q -d 0.3 --pace-by ip >"$T/l.json"; }
check_lh() { ok_gaps 127.0.0.1 5; }
expect_eq "--pace-by ip: x.localhost and y.localhost (loopback) share one budget" ok "$(twice run_lh check_lh)"
expect_eq "... all six fetched" 6 "$(jq -s 'map(select(.status == 200)) | length' "$T/l.json")"
"$BIN/fetch" --pace-by ip --proxy http://127.0.0.1:1 </dev/null >/dev/null 2>"$T/err"
expect_eq "--pace-by ip with --proxy: usage error (the proxy resolves the names)" \
	"64 fetch: --pace-by ip and --proxy cannot be used together: the proxy resolves the names" \
	"$? $(head -1 "$T/err")"
finish
