# What a request carries: -H (and @FILE), --policy header=, curl's
# "Name:" and "Name;", --user and --netrc; secrets (Authorization,
# --secret-header) never follow a redirect to another origin and never
# show in records, --stats or stderr.
. "$TESTS/lib.sh"
server_start

KEY=k3y-0a9f7c61
printf 'X-Api-Key: %s\n\nX-From-File: yes\n' "$KEY" >"$T/headers"
hdr() { requests "$1" "${3:-}" | jq -r --arg n "$2" '.hdrs[$n] // "none"' | sort -u | tr '\n' ' ' | sed 's/ $//'; }

# -H from a file and the command line, to every host.
out=$(printf '%s\n' "$U1/need-header?name=x-api-key&value=$KEY" "$U2/ok" | "$BIN/fetch" --no-robots --json \
	-H @"$T/headers" -H 'X-Plain: yes' -H 'Accept:' -H 'X-Empty;' --secret-header X-Api-Key \
	--stats "$T/stats.json" 2>"$T/err")
expect_eq "the key from -H @FILE opens the door" 200 "$(echo "$out" | jq -s '.[0].status')"
expect_eq "-H headers go to every host" "$KEY yes yes" \
	"$(hdr '^/ok$' x-api-key 127.0.0.2) $(hdr '^/ok$' x-from-file 127.0.0.2) $(hdr '^/ok$' x-plain 127.0.0.2)"
expect_eq "'Accept:' drops libcurl's Accept, 'X-Empty;' sends it empty" "none ." \
	"$(hdr '^/need-header' accept) $(hdr '^/need-header' x-empty)."
"$BIN/fetch" -H "X-Api-Key $KEY" </dev/null >/dev/null 2>"$T/err2"; rc=$?
expect_eq "a bad -H line exits 64 without showing its value" \
	"64 fetch: --header: 'X-Api-Key...': want 'Name: value', 'Name:' or 'Name;'" "$rc $(head -1 "$T/err2")"
"$BIN/fetch" -H "$KEY" </dev/null >/dev/null 2>"$T/err2"; rc=$?
expect_eq "a -H of token characters alone (a bare key) shows nothing of it" \
	"64 fetch: --header: '...': want 'Name: value', 'Name:' or 'Name;'" "$rc $(head -1 "$T/err2")"
printf 'X-Ok: 1\nX-Api-Key %s\n' "$KEY" >"$T/bad-headers"
"$BIN/fetch" -H @"$T/bad-headers" </dev/null >/dev/null 2>"$T/err3"; rc=$?
expect_eq "a bad line of -H @FILE is named by number" "64 fetch: --header: $T/bad-headers:2: not a header line ('Name: value', 'Name:' or 'Name;')" \
	"$rc $(head -1 "$T/err3")"

# A redirect to another origin: the secrets stay behind, the rest goes.
: >"$LOG"
{ printf 'http://u:%s@127.0.0.1:%s/redirect-to?url=%s\n' "$KEY" "$PORT" "$U2/need-header"
  echo "$U1/redirect-to?url=/need-header%3Fsame"; } |
	"$BIN/fetch" --no-robots --json -H @"$T/headers" -H "Authorization: Bearer $KEY" \
		-H "Cookie: c=$KEY" -H 'X-Plain: yes' -H 'X-Tenant: t1' --secret-header x-tenant --user "me:$KEY" \
		--stats "$T/stats2.json" >"$T/redir.json" 2>>"$T/err"
expect_eq "the other host got none of Authorization, Cookie, X-Api-Key (a secret by name), --secret-header's" "none none none none" \
	"$(hdr '^/need-header$' authorization 127.0.0.2) $(hdr '^/need-header$' cookie 127.0.0.2) $(hdr '^/need-header$' x-api-key 127.0.0.2) $(hdr '^/need-header$' x-tenant 127.0.0.2)"
expect_eq "the other host got the plain -H headers" "yes yes" \
	"$(hdr '^/need-header$' x-plain 127.0.0.2) $(hdr '^/need-header$' x-from-file 127.0.0.2)"
expect_eq "the first hop carried them all" "Bearer $KEY c=$KEY $KEY" \
	"$(hdr '^/redirect-to.*need-header$' authorization) $(hdr '^/redirect-to.*need-header$' cookie) $(hdr '^/redirect-to.*need-header$' x-api-key)"
expect_eq "a redirect within the origin keeps them" "Bearer $KEY $KEY" \
	"$(hdr '^/need-header\?same' authorization 127.0.0.1) $(hdr '^/need-header\?same' x-api-key 127.0.0.1)"
expect_eq "the password of a URL shows as ***" \
	"\"http://u:***@127.0.0.1:$PORT/redirect-to?url=$U2/need-header\"" "$(jq -c 'select(.url | test("@")) | .url' "$T/redir.json")"
for f in "$T/redir.json" "$T/stats.json" "$T/stats2.json" "$T/err"; do
	expect_eq "no secret in $(basename "$f")" 0 "$(grep -c -e "$KEY" -e 'bWU6' "$f")"
done

# --policy header= goes to its host only, never to another on a redirect.
cat >"$T/policy" <<EOF
127.0.0.1 header=X-Host-One: one # not a comment
127.0.0.1 delay=0
EOF
: >"$LOG"
printf '%s\n' "$U1/redirect-to?url=$U2/ok" "$U3/ok" | "$BIN/fetch" --no-robots --json --policy "$T/policy" >/dev/null
expect_eq "policy header= to its host, '#' and all" "one # not a comment" "$(hdr '^/redirect-to' x-host-one 127.0.0.1)"
expect_eq "... not to another host, redirected to or not" "none none" \
	"$(hdr '^/ok$' x-host-one 127.0.0.2) $(hdr '^/ok$' x-host-one 127.0.0.3)"
printf '127.0.0.1 header=X-Api-Key %s\n' "$KEY" >"$T/bad-policy"
"$BIN/fetch" --policy "$T/bad-policy" </dev/null >/dev/null 2>"$T/err4"; rc=$?
expect_eq "a bad policy header is named by line, not shown" "64 fetch: $T/bad-policy:1: bad header (want header=Name: value)" \
	"$rc $(head -1 "$T/err4")"
{ printf '127.0.0.1 header=X-Api-Key: '; head -c 9000 /dev/zero | tr '\0' k; echo " $KEY"; } >"$T/long-policy"
"$BIN/fetch" --policy "$T/long-policy" </dev/null >/dev/null 2>"$T/err4"; rc=$?
expect_eq "a policy line too long is refused whole, nothing of it shown" \
	"64 fetch: $T/long-policy:1: line longer than 8190 bytes" "$rc $(head -1 "$T/err4")"

# --user, @FILE, --netrc-file.
echo "$U1/basic?user=me&pass=$KEY" >"$T/basic.url"
st() { "$BIN/fetch" --no-robots --json "$@" <"$T/basic.url" | jq .status; }
printf 'me:%s\n' "$KEY" >"$T/cred"
printf 'machine 127.0.0.1 login me password %s\n' "$KEY" >"$T/netrc"
expect_eq "Basic auth: none, --user, --user @FILE, --netrc-file" "401 200 200 200" \
	"$(st) $(st --user "me:$KEY") $(st --user @"$T/cred") $(st --netrc-file "$T/netrc")"
"$BIN/fetch" --user me </dev/null >/dev/null 2>"$T/err5"; rc=$?
expect_eq "--user without a password is refused: fetch never prompts" \
	"64 fetch: invalid value '***' for --user: want USER:PASS, or @FILE holding it (fetch never prompts)" "$rc $(head -1 "$T/err5")"
finish
