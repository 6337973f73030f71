# fetch --shard K/N: N fetches reading one list split it by host, every
# input in exactly one of them, at the shard the documented formula
# (FNV-1a 32 of the canonical host name, mod N, plus one) names.
. "$TESTS/lib.sh"
server_start

# shard_of N HOST...: "HOST K" per host, computed here, not by fetch
shard_of() {
	python3 - "$@" <<'EOF'
import sys
n = int(sys.argv[1])
for host in sys.argv[2:]:
    h = 2166136261
    for b in host.encode():
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    print(host, h % n + 1)
EOF
}

# 3 hosts x 20 URLs, and three inputs that are not fetched.
urls "$U1/page/" 20 "$U2/page/" 20 "$U3/page/" 20 >"$T/good.txt"
printf '%s\n' 'http://' 'mailto:someone@example.org' 'ftp://example.org/x' >"$T/bad.txt"
cat "$T/good.txt" "$T/bad.txt" >"$T/in.txt"

# The three shards at once, as parallel would run them (waited for by
# pid: a bare wait would wait for the server too).
pids=
for k in 1 2 3; do
	"$BIN/fetch" -q --json --shard "$k/3" <"$T/in.txt" >"$T/out.$k" &
	pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
for k in 1 2 3; do jq -r --arg k "$k" '"\($k) \(.url) \(.error // .status)"' "$T/out.$k"; done >"$T/all"
expect_eq "the three shards' records are the 63 inputs, each once" \
	"$(cat "$T/in.txt" | sort)" "$(awk '{ print $2 }' "$T/all" | sort)"
expect_eq "every page is a 200" 60 "$(grep -c ' 200$' "$T/all")"
expect_eq "each host's records come from one shard" "3" \
	"$(jq -r 'select(.host) | "\(input_filename) \(.host)"' "$T/out.1" "$T/out.2" "$T/out.3" | sort -u | wc -l | tr -d ' ')"
expect_eq "the server saw each of the 60 URLs once" \
	"$(sed 's|^http://||; s|:[0-9]*/| /|' "$T/good.txt" | sort)" \
	"$(jq -r 'select(.path != "/robots.txt") | "\(.addr) \(.path)"' "$LOG" | sort)"
expect_eq "robots.txt was asked once per host: one fetch owns it" "127.0.0.1 127.0.0.2 127.0.0.3" \
	"$(jq -r 'select(.path == "/robots.txt") | .addr' "$LOG" | sort | tr '\n' ' ' | sed 's/ $//')"
expect_eq "each host went to the shard of the formula" \
	"$(shard_of 3 127.0.0.1 127.0.0.2 127.0.0.3)" \
	"$(jq -r 'select(.host) | "\(.host) \(input_filename | sub(".*out[.]"; ""))"' "$T/out.1" "$T/out.2" "$T/out.3" | sort -u)"
expect_eq "inputs that are not fetched come from shard 1 only, with their error" \
	"1 http:// bad_url
1 mailto:someone@example.org scheme
1 ftp://example.org/x scheme" "$(grep -v ' 200$' "$T/all")"

# --shard 1/1 is the identity: the same records as without --shard.
"$BIN/fetch" -q --json --no-robots <"$T/in.txt" | jq -r '"\(.url) \(.error // .status)"' | sort >"$T/plain"
"$BIN/fetch" -q --json --no-robots --shard 1/1 <"$T/in.txt" | jq -r '"\(.url) \(.error // .status)"' | sort >"$T/one"
expect_eq "--shard 1/1 gives every input its record, as without it" "$(cat "$T/plain")" "$(cat "$T/one")"
expect_eq "... all 63" 63 "$(records "$T/one")"

# Placement is by the canonical host name: punycode, IPv4 in dotted
# form, port and scheme ignored.  Hosts not in a shard are never asked,
# so only the one fetch that owns each of these tries it (and fails).
printf '%s\n' "http://B$(printf '\303\274')cher.INVALID:9/b" "https://127.0.0.2:9/s" \
	"http://2130706433:9/n" "$U3/ok" >"$T/forms.txt"
for n in 2 3 5; do
	k=1
	while [ "$k" -le "$n" ]; do
		"$BIN/fetch" -q --json --no-robots --retries 0 --connect-timeout 2 -t 2 \
			--shard "$k/$n" <"$T/forms.txt" | jq -r --arg k "$k" '"\(.url) \($k)"'
		k=$((k + 1))
	done | sort >"$T/got"
	shard_of "$n" xn--bcher-kva.invalid 127.0.0.2 127.0.0.1 127.0.0.3 | awk '{ print $2 }' >"$T/ks"
	printf '%s\n' "http://xn--bcher-kva.invalid:9/b" "https://127.0.0.2:9/s" \
		"http://127.0.0.1:9/n" "$U3/ok" | paste -d ' ' - "$T/ks" | sort >"$T/want"
	expect_eq "N=$n: punycode, IPv4 forms, https and other ports shard by host name" \
		"$(cat "$T/want")" "$(cat "$T/got")"
done

# Record input is sharded too; its own keys pass through.
for h in "$U1" "$U2" "$U3"; do
	for i in 1 2; do echo "{\"url\": \"$h/page/$i\", \"job\": \"j$i\"}"; done
done >"$T/recs.json"
echo '{"job": "no-url"}' >>"$T/recs.json"
mkrec "$T/recs.json" >"$T/recs.mp"
for k in 1 2 3; do
	"$BIN/fetch" -q --json --no-robots --shard "$k/3" <"$T/recs.mp" |
		jq -r --arg k "$k" '"\($k) \(.host // "-") \(.job) \(.error // .status)"' | sort
done >"$T/rall"
expect_eq "records: each host's in its shard, user keys kept, the one without url from shard 1" \
	"1 - no-url bad_url
1 127.0.0.2 j1 200
1 127.0.0.2 j2 200
2 127.0.0.3 j1 200
2 127.0.0.3 j2 200
3 127.0.0.1 j1 200
3 127.0.0.1 j2 200" "$(cat "$T/rall")"

# Usage errors: exit 64, the hint, and what was wrong.
expect_usage_errors fetch "--shard 0/3" "--shard 4/3" "--shard 3" "--shard a/b" "--shard 1/0" \
	"--shard 1/3x" "--shard=" "--shard 1/3 --queue $T/q.db"
for v in 0/3 4/3 3 a/b 1/0 1/3x '' ' 1/3' 1/+3 -1/3; do
	"$BIN/fetch" --shard "$v" </dev/null >/dev/null 2>"$T/err"
	expect_eq "--shard '$v' is refused with what it wants" \
		"64 fetch: invalid value '$v' for --shard: want K/N with 1 <= K <= N" "$? $(head -1 "$T/err")"
done
"$BIN/fetch" --shard 1/3 --queue "$T/q.db" </dev/null >/dev/null 2>"$T/err"
expect_eq "--shard with --queue is refused" "64 fetch: --shard and --queue cannot be used together" \
	"$? $(head -1 "$T/err")"
expect_eq "... before the frontier is made" no "$([ -e "$T/q.db" ] && echo yes || echo no)"
finish
