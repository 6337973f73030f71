#!/bin/sh
# fetch and robots.txt (RFC 9309): disallowed URLs end as `robots` without
# a request, robots.txt once per host and first, longest match wins with
# Allow on ties, `*` and `$`, our own group over `*`, Crawl-delay, 4xx =
# no rules, 5xx = nothing fetched until it answers, then `robots`;
# --robots-agent, and non-ASCII patterns against percent-encoded URLs.
# run.sh: alone
. "$(dirname "$0")/lib.sh"

R=$T/robots.txt
server_start --robots "$R"
F() { "$BIN/fetch" --json -q "$@"; }
# verdict FILE PATH: "status error" of the record for $U1PATH
verdict() { jq -r --arg u "$U1$2" 'select(.url == $u) | "\(.status) \(.error // "-")"' "$1"; }

# ---- rules for everyone.  How rules match (wildcards, $, the longest
# rule, ties) is lib/robots.c's, proven in test_robots and
# test_robots_google; here what only a live server shows: a refused URL
# is never requested, an allowed one is, robots.txt comes first.
cat >"$R" <<'EOF'
# test rules
User-agent: *
Disallow: /private
Allow: /private/open
Disallow: /*.pdf$
EOF
: >"$LOG"
printf '%s\n' "$U1/private/x" "$U1/private/open/y" "$U1/doc.pdf" "$U1/doc.pdf?x=1" \
	"$U1/ok" "$U2/ok" "$U2/private/z" >"$T/urls"
F <"$T/urls" >"$T/r.json"
expect_eq "robots: one record per URL" 7 "$(records "$T/r.json")"
expect_eq "Disallow /private: error robots, status 0, attempts 0" "[\"robots\",0,0,\"127.0.0.1\"]" \
	"$(field "$T/r.json" '[.error, .status, .attempts, .host]' "$U1/private/x")"
expect_eq "Disallow /private: never requested" 0 "$(count '^/private/x$')"
expect_eq "robots record says why" '"disallowed by robots.txt"' \
	"$(field "$T/r.json" .error_detail "$U1/private/x")"
expect_eq "longer Allow /private/open beats Disallow /private (404 from the server: fetched)" "404 - 1" \
	"$(verdict "$T/r.json" /private/open/y) $(requested /private/open/y)"
expect_eq "/*.pdf\$ blocks /doc.pdf" "0 robots 0" "$(verdict "$T/r.json" /doc.pdf) $(requested /doc.pdf)"
expect_eq "/*.pdf\$ is anchored: /doc.pdf?x=1 (the query is the path's) fetched" "404 - 1" \
	"$(verdict "$T/r.json" '/doc.pdf?x=1') $(requested '/doc.pdf?x=1')"
expect_eq "allowed /ok fetched" "200 -" "$(verdict "$T/r.json" /ok)"
expect_eq "the rules hold on every host: .2 /private/z refused, never requested" '"robots" 0' \
	"$(field "$T/r.json" .error "$U2/private/z") $(requested /private/z 127.0.0.2)"
expect_eq "/robots.txt fetched exactly once per host" "1 1" "$(requested /robots.txt) $(requested /robots.txt 127.0.0.2)"
expect_eq "/robots.txt is each host's first request" '"/robots.txt" "/robots.txt"' \
	"$(jq -sc 'map(select(.addr == "127.0.0.1")) | sort_by(.t) | .[0].path' "$LOG") $(jq -sc 'map(select(.addr == "127.0.0.2")) | sort_by(.t) | .[0].path' "$LOG")"
expect_eq "/robots.txt asked for with our user agent" true \
	"$(jq -s 'map(select(.path == "/robots.txt")) | all(.ua | startswith("sluice/"))' "$LOG")"

# ---- a group for our product token overrides *
cat >"$R" <<'EOF'
User-agent: *
Disallow: /

User-agent: sluice
Disallow: /private
EOF
: >"$LOG"
printf '%s\n' "$U1/ok" "$U1/private/x" "$U1/page/1" | F >"$T/g.json"
expect_eq "User-agent: sluice group overrides *: /ok and /page/1 fetched, /private refused" "200 -|0 robots|200 -" \
	"$(verdict "$T/g.json" /ok)|$(verdict "$T/g.json" /private/x)|$(verdict "$T/g.json" /page/1)"

cat >"$R" <<'EOF'
User-agent: otherbot
Disallow: /

User-agent: *
Disallow: /nothing-here
EOF
: >"$LOG"
echo "$U1/ok" | F >"$T/o.json"
expect_eq "another bot's group does not apply to us" "200 -" "$(verdict "$T/o.json" /ok)"

# ---- Crawl-delay raises the interval above -d 0
cat >"$R" <<'EOF'
User-agent: *
Crawl-delay: 0.3
Disallow: /private
EOF
run_cd() { urls "$U1/page/" 4 | F -d 0 >"$T/cd.json"; }
cd_ok() { g=$(gaps 127.0.0.1); [ "$(echo "$g" | jq 'length == 3 and all(.[]; . >= 0.295)')" = true ] && echo true || ms "$g"; }
r=$(twice run_cd cd_ok)
expect_eq "Crawl-delay: 0.3 with -d 0: 4 records, every gap >= 295 ms" "4 true" "$(records "$T/cd.json") $r"

# ---- robots.txt counts as a start for -d; the token matches in any case
cat >"$R" <<'EOF'
User-agent: *
Disallow: /

User-Agent: SLUICE
Disallow: /private
EOF
run_ci() { printf '%s\n' "$U1/page/7" "$U1/private/q" | F -d 0.2 >"$T/ci.json"; }
ci_ok() { jq -s '(map(select(.path == "/robots.txt")) | .[0].t) as $r | map(select(.path == "/page/7")) | .[0].t - $r >= 0.195' "$LOG"; }
r=$(twice run_ci ci_ok)
expect_eq "product token matched case-insensitively (SLUICE): /page/7 200, /private/q refused" "200 -|0 robots" \
	"$(verdict "$T/ci.json" /page/7)|$(verdict "$T/ci.json" /private/q)"
expect_eq "-d 0.2: the first page starts >= 195 ms after robots.txt" true "$r"

# ---- --no-robots and a policy's robots=off: robots.txt never asked for
: >"$LOG"
printf '%s\n' "$U1/private/x" | F --no-robots >"$T/nr.json"
expect_eq "--no-robots: /private/x fetched (404), robots.txt never requested" "404 - 0" \
	"$(verdict "$T/nr.json" /private/x) $(requested /robots.txt)"
: >"$LOG"
printf '127.0.0.2 robots=off\n' >"$T/policy"
printf '%s\n' "$U1/private/x" "$U2/private/x" | F --policy "$T/policy" >"$T/pr.json"
expect_eq "policy robots=off on .2 only: .2 fetched, .1 refused" "404 0" \
	"$(field "$T/pr.json" .status "$U2/private/x") $(field "$T/pr.json" .status "$U1/private/x")"
expect_eq "policy robots=off: robots.txt asked of .1 only" "1 0" "$(requested /robots.txt) $(requested /robots.txt 127.0.0.2)"

# ---- --robots-agent picks another group; a bad token is a usage error
cat >"$R" <<'EOF'
User-agent: sluice
Disallow: /

User-agent: Archiver
Sitemap: http://127.0.0.1/sitemap.xml
User-agent: research-bot crawler
Disallow: /private
EOF
: >"$LOG"
printf '%s\n' "$U1/ok" "$U1/private/x" | F --robots-agent research-bot >"$T/ra.json"
expect_eq "--robots-agent research-bot: its group (first word of the value, past a Sitemap line)" \
	"200 -|0 robots" "$(verdict "$T/ra.json" /ok)|$(verdict "$T/ra.json" /private/x)"
expect_eq "--robots-agent: /private/x never requested, the user agent unchanged" '0 true' \
	"$(requested /private/x) $(jq -s 'map(select(.path == "/robots.txt")) | all(.ua | startswith("sluice/"))' "$LOG")"
printf '%s\n' "$U1/ok" | F --robots-agent archiver >"$T/rb.json"
expect_eq "--robots-agent archiver: the group it shares with research-bot" "200 -" "$(verdict "$T/rb.json" /ok)"
out=$(echo "$U1/ok" | "$BIN/fetch" --robots-agent 'bot/1.0' 2>&1 >/dev/null); rc=$?
expect_eq "--robots-agent bot/1.0: usage error" "64 fetch: invalid value 'bot/1.0' for --robots-agent: want a product token of letters, '_' and '-'" "$rc $(echo "$out" | head -n 1)"

# ---- a non-ASCII pattern blocks the percent-encoded URL parse writes
printf 'User-agent: *\nDisallow: /caf\303\251/\nDisallow: /%%7Euser/\n' >"$R"
: >"$LOG"
printf '%s\n' "$U1/caf%C3%A9/menu" "$U1/caf%c3%a9/menu" "$U1/~user/x" "$U1/cafe/menu" | F >"$T/pe.json"
expect_eq "Disallow /café/: /caf%C3%A9/ and /caf%c3%a9/ refused; %7E is ~: /~user/ refused; /cafe/ fetched" \
	"0 robots|0 robots|0 robots|404 -" \
	"$(verdict "$T/pe.json" /caf%C3%A9/menu)|$(verdict "$T/pe.json" /caf%c3%a9/menu)|$(verdict "$T/pe.json" /~user/x)|$(verdict "$T/pe.json" /cafe/menu)"
expect_eq "none of the three requested" 0 "$(jq -s 'map(select(.path | test("caf%|user"))) | length' "$LOG")"

# ---- robots.txt 404: no rules
rm -f "$R"
: >"$LOG"
printf '%s\n' "$U1/private/x" "$U1/ok" | F >"$T/404.json"
expect_eq "robots.txt 404: everything allowed" "404 -|200 -" "$(verdict "$T/404.json" /private/x)|$(verdict "$T/404.json" /ok)"
expect_eq "robots.txt 404: asked once" 1 "$(requested /robots.txt)"

# ---- robots.txt 503: nothing fetched; after --retries failures, `robots`
server_restart --robots-status 503
printf '%s\n' "$U1/ok" "$U1/page/1" | F --retries 1 --backoff 0.1 >"$T/503.json"
expect_eq "robots.txt 503: both URLs end with error robots, status 0, attempts 0" '["robots",0,0]|["robots",0,0]' \
	"$(jq -c '[.error, .status, .attempts]' "$T/503.json" | paste -sd'|' -)"
expect_eq "robots.txt 503 --retries 1: robots.txt asked twice, nothing else requested" "2 2" \
	"$(requested /robots.txt) $(records "$LOG")"
expect_eq "robots.txt 503: the record says robots.txt was unreachable" '"robots.txt unreachable"' \
	"$(jq -c .error_detail "$T/503.json" | head -n 1)"
server_restart --robots-status 404
printf '%s\n' "$U1/ok" | F --retries 1 --backoff 0.1 >"$T/s404.json"
expect_eq "--robots-status 404: all allowed" "200 -" "$(verdict "$T/s404.json" /ok)"

finish
