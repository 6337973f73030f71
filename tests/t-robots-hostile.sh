# Hostile robots.txt files against a real fetch: star runs that took
# backtracking minutes or overflowed the stack, a 10 MB file, a 100 KiB
# line; fetch decides correctly, promptly, and SIGTERM ends it at once.
. "$TESTS/lib.sh"
R=$T/robots.txt
server_start --robots "$R"
long=$(printf 'a%.0s' $(seq 60))
verdicts() { jq -r '"\(.url | sub("^http://[^/]*"; "")) \(.status) \(.error // "-")"' "$1" | sort; }

# 40 stars and an x, against a 60-character path: minutes before.
{ printf 'User-agent: *\nDisallow: /'; printf '*%.0s' $(seq 40); printf 'x\nDisallow: /private\n'; } >"$R"
printf '%s\n' "$U1/$long" "$U1/private/p" >"$T/urls.txt"
t0=$(now)
timeout 60 "$BIN/fetch" -q --json <"$T/urls.txt" >"$T/out"
expect_eq "the star run: the long path is fetched (a 404 here), /private refused" \
	"/$long 404 -
/private/p 0 robots" "$(verdicts "$T/out")"
expect_cmd "promptly ($(since "$t0") s)" holds "$(since "$t0") < 5"

# 2 000 000 stars: the stack overflowed (exit 139).  The line is cut at
# 16 KiB to "/" and stars, which refuses everything.
server_restart --robots "$R"
{ printf 'User-agent: *\nDisallow: /'; head -c 2000000 /dev/zero | tr '\0' '*'; printf 'x\n'; } >"$R"
echo "$U1/ok" | timeout 60 "$BIN/fetch" -q --json >"$T/out2"
expect_eq "2 000 000 stars: fetch lives and refuses the URL" "0 robots 1" \
	"$(jq -r '"\(.status) \(.error)"' "$T/out2") $(count '^/robots[.]txt$')"

# A 10 MB file: read up to 500 KiB (not refused as too large), the rules
# there apply, the rest is ignored.
server_restart --robots "$R"
/usr/bin/python3 -c "
import sys
sys.stdout.write('User-agent: *\nDisallow: /early\n' + 'Disallow: /filler\n' * 40000 + 'Disallow: /late\n' + 'x' * 10_000_000)" >"$R"
printf '%s\n' "$U1/early" "$U1/late" "$U1/ok" >"$T/urls3.txt"
timeout 60 "$BIN/fetch" -q --json <"$T/urls3.txt" >"$T/out3"
expect_eq "a 10 MB robots.txt: rules in its first 500 KiB apply, later ones not" \
	"/early 0 robots
/late 404 -
/ok 200 -" "$(verdicts "$T/out3")"

timeout 60 "$BIN/fetch" -q --json --max-body 100000 <"$T/urls3.txt" >"$T/out3b"
expect_eq "--max-body below it does not make robots.txt unreachable" \
	"/early 0 robots
/late 404 -
/ok 200 -" "$(verdicts "$T/out3b")"

# A 100 KiB line is cut at 16 KiB; the next line still applies.
server_restart --robots "$R"
{ printf 'User-agent: *\nDisallow: /'; head -c 102400 /dev/zero | tr '\0' 'a'; printf '\nDisallow: /after\n'; } >"$R"
printf '%s\n' "$U1/after" "$U1/ok" >"$T/urls4.txt"
timeout 60 "$BIN/fetch" -q --json <"$T/urls4.txt" >"$T/out4"
expect_eq "a 100 KiB line: the line after it applies" "/after 0 robots
/ok 200 -" "$(verdicts "$T/out4")"

# SIGTERM while the star-run file rules a slow paced crawl: fetch stops
# within a second or two, with a record for every URL read.
server_restart --robots "$R"
{ printf 'User-agent: *\nDisallow: /'; printf '*%.0s' $(seq 40); printf 'x\n'; } >"$R"
urls "$U1/$long" 30 >"$T/urls5.txt"
"$BIN/fetch" -q --json -d 0.3 "$T/urls5.txt" >"$T/out5" &
f=$!
wait_for 20 "2 paced requests under the star-run rules" logged_ge 2 "^/$long"
term_at=$(now)
kill -TERM $f
wait $f
expect_eq "SIGTERM: exit 143" 143 $?
expect_cmd "within 2 s ($(since "$term_at") s)" holds "$(since "$term_at") < 2"
expect_eq "a record for every URL read, the rest interrupted" 30 "$(records "$T/out5")"
finish
