#!/bin/sh
# fetch follows redirects itself, one scheduled request per hop: robots.txt
# of every hop's origin, the target host's pacing, --max-redirs and loops,
# --redirects scope, private addresses after a public one, the record's
# `redirects` and `final_url`; one budget per host whatever the port
# (scheme and port never split it) and per site under --pace-by site.
# Judged from the test server's request and connection logs.
# run.sh: alone
. "$(dirname "$0")/lib.sh"

R=$T/robots.txt
printf 'User-agent: *\nDisallow: /private/\n' >"$R"
server_start --robots "$R" --conn-log "$T/conns"
F() { "$BIN/fetch" --json -q "$@"; }

# ---- robots.txt at every hop
: >"$LOG"
printf '%s\n' "$U1/private/direct" "$U1/redirect-to?url=/private/viaredirect" \
	"$U1/redirect-to?url=$U2/private/offsite" "$U1/redirect/2" >"$T/urls"
F <"$T/urls" >"$T/r.json"
expect_eq "one record per input" 4 "$(records "$T/r.json")"
expect_eq "redirect into a disallowed path: error robots naming the hop, never requested; final_url the last URL that answered" \
	"[\"robots\",\"redirect to $U1/private/viaredirect: disallowed by robots.txt\",\"$U1/redirect-to?url=/private/viaredirect\"] 0" \
	"$(field "$T/r.json" '[.error, .error_detail, .final_url]' "$U1/redirect-to?url=/private/viaredirect") $(requested /private/viaredirect)"
expect_eq "cross-host redirect: the target's robots.txt fetched, the disallowed target never requested" \
	'"robots" 1 0' \
	"$(field "$T/r.json" .error "$U1/redirect-to?url=$U2/private/offsite") $(requested /robots.txt 127.0.0.2) $(requested /private/offsite 127.0.0.2)"
expect_eq "a chain of 3: status 200, redirects, final_url, one attempt per hop" \
	"[200,[{\"url\":\"$U1/redirect/2\",\"status\":302},{\"url\":\"$U1/redirect/1\",\"status\":302},{\"url\":\"$U1/redirect/0\",\"status\":302}],\"$U1/ok\",4,\"127.0.0.1\"]" \
	"$(field "$T/r.json" '[.status, .redirects, .final_url, .attempts, .host]' "$U1/redirect/2")"
expect_eq "no record without a redirect has a redirects key" 0 \
	"$(jq -c --arg u "$U1/private/direct" 'select(.url == $u and has("redirects"))' "$T/r.json" | wc -l | tr -d ' ')"

# ---- loops and --max-redirs
: >"$LOG"
printf '%s\n' "$U1/loop" "$U1/redirect/3" >"$T/urls"
F --max-redirs 2 <"$T/urls" >"$T/r.json"
expect_eq "a loop ends as redirects after one request" '["redirects",1] 1' \
	"$(field "$T/r.json" '[.error, (.redirects | length)]' "$U1/loop") $(requested /loop)"
expect_eq "a chain over --max-redirs 2 ends as redirects, 3 requests, the 4th hop never asked" \
	'["redirects",3] 0' \
	"$(field "$T/r.json" '[.error, (.redirects | length)]' "$U1/redirect/3") $(requested /redirect/0)"

# ---- the target host's pacing holds at the hop
printf '127.0.0.2 delay=0.4\n' >"$T/policy"
run_pace() { printf '%s\n' "$U2/ok?a" "$U1/redirect-to?url=$U2/ok?b" "$U2/ok?c" "$U1/redirect-to?url=$U2/ok?d" | F --policy "$T/policy" >"$T/r.json"; }
gap2() { g=$(gaps 127.0.0.2); if [ "$(echo "$g" | jq 'length == 3 and all(.[]; . >= 0.395)')" = true ]; then echo ok; else ms "$g"; fi; }
expect_eq "hops to a host paced at 0.4 s keep its gap at the server" ok "$(twice run_pace gap2)"
expect_eq "... and its robots.txt came first" '"/robots.txt"' \
	"$(jq -sc 'map(select(.addr == "127.0.0.2")) | sort_by(.t) | .[0].path' "$LOG")"

# ---- --redirects scope, with names of our own (--resolve)
: >"$LOG"
P=$PORT
res="--resolve a.example.com:$P:127.0.0.1 --resolve b.other.org:$P:127.0.0.2 --resolve c.example.com:$P:127.0.0.2"
A=http://a.example.com:$P
# shellcheck disable=SC2086
printf '%s\n' "$A/redirect-to?url=http://b.other.org:$P/ok" "$A/redirect-to?url=http://c.example.com:$P/ok" |
	F $res --redirects same-site >"$T/r.json"
expect_eq "--redirects same-site: a.example.com -> b.other.org refused, never requested" \
	"[\"offsite_redirect\",\"redirect to http://b.other.org:$P/ok: another site (--redirects same-site)\"] 0" \
	"$(field "$T/r.json" '[.error, .error_detail]' "$A/redirect-to?url=http://b.other.org:$P/ok") $(requested /ok 127.0.0.2 | jq -s 'add - 1')"
expect_eq "--redirects same-site: a.example.com -> c.example.com followed" 200 \
	"$(field "$T/r.json" .status "$A/redirect-to?url=http://c.example.com:$P/ok")"
# shellcheck disable=SC2086
printf '%s\n' "$A/redirect-to?url=http://c.example.com:$P/ok" | F $res --redirects same-host >"$T/r.json"
expect_eq "--redirects same-host: a.example.com -> c.example.com refused, final_url the URL that answered" \
	"[\"offsite_redirect\",\"$A/redirect-to?url=http://c.example.com:$P/ok\"]" \
	"$(field "$T/r.json" '[.error, .final_url]' "$A/redirect-to?url=http://c.example.com:$P/ok")"

# ---- a public address may not lead into a private one
: >"$LOG"
: >"$T/conns"
printf '%s\n' "$U1/redirect-to?url=$U3/ok" >"$T/urls"
F --private-ranges 127.0.0.3/32 <"$T/urls" >"$T/r.json"
expect_eq "public 127.0.0.1 -> private 127.0.0.3: private_address, hop named, final_url the URL that answered" \
	"[\"private_address\",\"redirect to $U3/ok: a private address after a public one (--private-ranges)\",\"$U1/redirect-to?url=$U3/ok\"]" \
	"$(field "$T/r.json" '[.error, .error_detail, .final_url]' "$U1/redirect-to?url=$U3/ok")"
expect_eq "... never connected (nor for its robots.txt)" 0 "$(grep -c '^127.0.0.3$' "$T/conns")"
F --private-ranges 127.0.0.3/32 --allow-private <"$T/urls" >"$T/r.json"
expect_eq "--allow-private lets it through" 200 "$(field "$T/r.json" .status "$U1/redirect-to?url=$U3/ok")"
F <"$T/urls" >"$T/r.json"
expect_eq "default ranges: a private input (127.0.0.1) may redirect into 127/8" 200 \
	"$(field "$T/r.json" .status "$U1/redirect-to?url=$U3/ok")"
expect_usage_errors fetch "--private-ranges 10.0.0.0/33" "--private-ranges nonsense" \
	"--redirects elsewhere" "--pace-by planet"

# ---- one budget per host, whatever the port
python3 "$TESTS/server.py" --port-file "$T/port2" --log "$LOG" --addr 127.0.0.1 >/dev/null 2>&1 &
PID2=$!
wait_for 20 "the second server to write its port" test -s "$T/port2"
P2=$(cat "$T/port2")
run_ports() { urls "$U1/ok?" 3 "http://127.0.0.1:$P2/ok?" 3 | F -d 0.3 >"$T/r.json"; }
gap1() { g=$(gaps 127.0.0.1); if [ "$(echo "$g" | jq 'length == 5 and all(.[]; . >= 0.295)')" = true ]; then echo ok; else ms "$g"; fi; }
expect_eq "two ports of one host share one -d 0.3 gap" ok "$(twice run_ports gap1)"
expect_eq "... each port (origin) has its robots.txt" 2 "$(requested /robots.txt)"
kill "$PID2"

# ---- one budget per site under --pace-by site
res="--resolve a.example.co.uk:$P:127.0.0.1 --resolve b.example.co.uk:$P:127.0.0.2 --resolve a.co.uk:$P:127.0.0.3"
sites() { urls "http://a.example.co.uk:$P/ok?" 3 "http://b.example.co.uk:$P/ok?" 3; }
# gaps_all: seconds between request starts to any address, robots.txt aside
gaps_all() { jq -sc '[.[] | select(.path != "/robots.txt" and .addr != "127.0.0.3") | .t] | sort | [range(1; length) as $i | .[$i] - .[$i - 1]]' "$LOG"; }
site_ok() { g=$(gaps_all); if [ "$(echo "$g" | jq 'length == 5 and all(.[]; . >= 0.295)')" = true ]; then echo ok; else ms "$g"; fi; }
# shellcheck disable=SC2086
run_site() { sites | F $res -d 0.3 --pace-by site >"$T/r.json"; }
expect_eq "--pace-by site: a.example.co.uk and b.example.co.uk share one gap" ok "$(twice run_site site_ok)"
expect_eq "... records keep their own host" '["a.example.co.uk","b.example.co.uk"]' \
	"$(jq -sc 'map(.host) | unique' "$T/r.json")"
printf 'site=example.co.uk delay=0.3\n' >"$T/policy"
# shellcheck disable=SC2086
run_pol() { sites | F $res --policy "$T/policy" >"$T/r.json"; }
expect_eq "--policy site=example.co.uk: one budget without --pace-by" ok "$(twice run_pol site_ok)"
: >"$LOG"
# shellcheck disable=SC2086
sites | F $res -d 0.3 >"$T/r.json"
expect_eq "by host (the default) they are two budgets: some gap under 0.3 s" true \
	"$(gaps_all | jq 'any(.[]; . < 0.25)')"
# shellcheck disable=SC2086
printf '%s\n' "http://a.co.uk:$P/ok" "http://a.example.co.uk:$P/ok" | F $res --pace-by site >"$T/r.json"
expect_eq "a.co.uk is a site of its own, not co.uk's" 2 "$(jq -s 'map(select(.status == 200)) | length' "$T/r.json")"

# ---- queue mode: a redirect target is done in the frontier
: >"$LOG"
echo "$U1/redirect-to?url=/ok?target" | "$BIN/fetch" --queue "$T/job.db" -q |
	"$BIN/sink" -q --queue "$T/job.db" "$T/pages.db"
# found again later, as a seed or a link
echo "$U1/ok?target" | "$BIN/fetch" --queue "$T/job.db" -q | "$BIN/sink" -q --queue "$T/job.db" "$T/pages.db"
expect_eq "queue: the target's canonical URL is done" "done done" \
	"$(q "$T/job.db" "select state from frontier order by url" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "... and requested once, by the redirect, not when found again" 1 "$(requested '/ok?target')"
finish
