# render: pages built by JavaScript come out with their content, through
# parse | validate | sink; endless scripts and long polls end by the cap;
# errors keep fetch's words; Chromium and its profile are gone at exit.
. "$TESTS/lib.sh"
mkdir -p "$T/www" "$T/tmp"
cp "$TESTS"/fixtures/render/* "$T/www/"
server_start --root "$T/www"
# Profiles go under $T, so this script's Chromium is told from others'.
export TMPDIR=$T/tmp
chromes() { pgrep -f "$T/tmp/render-profile" | wc -l | tr -d ' '; }

# Skipped only where Chromium cannot start (as t-report).
echo "$URL/static.html" | "$BIN/render" -q --no-robots --json >"$T/probe.json" 2>"$T/probe.err"
if [ "$(jq -r .status "$T/probe.json" 2>/dev/null)" != 200 ]; then
	echo "ok - $NAME: # skip headless Chromium cannot start here: $(tail -1 "$T/probe.err") (make deps)"
	finish
fi

# ---- a page whose content comes from fetch('/items.json') after load
echo "$URL/js.html" | "$BIN/render" -q --no-robots --json >"$T/js.json"
expect_eq "the rendered page: status 200, one request for the JSON" "200 2 false" \
	"$(jq -r '"\(.status) \(.rendered.requests) \(.rendered.partial)"' "$T/js.json")"
expect_match "body is the DOM after scripts: the items are in it" \
	'<h1>Rendered Items</h1><p>apple, banana, cherry</p>' "$(jq -r '.body | @base64d' "$T/js.json")"
expect_eq "fetch's keys: url, final_url, host, ctype, bytes, attempts" \
	"$URL/js.html $URL/js.html 127.0.0.1 text/html 1 true" \
	"$(jq -r '"\(.url) \(.final_url) \(.host) \(.ctype) \(.attempts) \(.bytes == (.body | @base64d | utf8bytelength))"' "$T/js.json")"
echo "$URL/js.html" | "$BIN/render" -q --no-robots | "$BIN/parse" -q --json >"$T/parsed.json"
expect_eq "parse finds the title the script set and its text" "Rendered Items|true" \
	"$(jq -r '"\(.title)|\(.text | test("apple, banana, cherry"))"' "$T/parsed.json")"

# ---- the pipeline stores rendered pages
printf '%s\n' "$URL/js.html" "$URL/timer.html" "$URL/status/404" >"$T/urls.txt"
"$BIN/render" -q --no-robots -c 2 <"$T/urls.txt" | "$BIN/parse" -q | "$BIN/validate" -q |
	"$BIN/sink" -q "$T/pages.db"
expect_eq "render | parse | validate | sink stores each page, with the titles scripts set" \
	"$URL/js.html|Rendered Items|1
$URL/status/404|Status 404|0
$URL/timer.html|After the timer|1" \
	"$(q "$T/pages.db" "SELECT url, title, accepted FROM pages ORDER BY url")"
expect_eq "a page that does not exist keeps its status" 404 \
	"$(q "$T/pages.db" "SELECT status FROM pages WHERE url = '$URL/status/404'")"

# ---- errors keep fetch's words
cp="$(closed_port)"
printf '%s\n' "http://127.0.0.1:$cp/x" "file:///etc/passwd" "not a url" |
	"$BIN/render" -q --no-robots --json >"$T/err.json"
expect_eq "connection refused, another scheme, no URL: connect, scheme, bad_url" \
	"bad_url connect scheme" "$(jq -r .error "$T/err.json" | sort | tr '\n' ' ' | sed 's/ $//')"
expect_eq "the refused scheme was never opened: one page rendered" 1 \
	"$(jq -s 'map(select(.rendered)) | length' "$T/err.json")"

# ---- an endless script and a long poll end by the cap, with the DOM
t0=$(now)
printf '%s\n' "$URL/endless.html" "$URL/longpoll.html" |
	"$BIN/render" -q --no-robots --max-wait 2 --timeout 20 --json >"$T/cap.json"
took=$(echo "$(now) - $t0" | bc)
expect_eq "both end partial, with the DOM they had" \
	"$URL/endless.html true before the loop
$URL/longpoll.html true polling" \
	"$(jq -r '"\(.url) \(.rendered.partial) \(.body | @base64d | capture("<p[^>]*>(?<t>[^<]*)</p>").t)"' "$T/cap.json" | sort)"
expect_cmd "and render did not hang: done in ${took} s (caps of 2 s)" test "$(echo "$took < 15" | bc)" = 1

# ---- Chromium runs while render does, and nothing is left after it
mkfifo "$T/fifo"
"$BIN/render" -q --no-robots --json <"$T/fifo" >"$T/live.json" &
rpid=$!
exec 3>"$T/fifo"
echo "$URL/static.html" >&3
i=0
while [ "$(chromes)" = 0 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
expect_cmd "Chromium runs under the run's own profile while render waits for input" test "$(chromes)" -gt 0
expect_eq "its profile directory exists meanwhile" 1 "$(ls "$T/tmp" | grep -c '^render-profile')"
exec 3>&-
wait "$rpid"
expect_eq "after render exits: no Chromium process, no profile directory" "0 0" \
	"$(chromes) $(ls "$T/tmp" | grep -c '^render-profile')"

# kill -9: Chromium reads EOF on its pipe and quits by itself.
mkfifo "$T/fifo2"
"$BIN/render" -q --no-robots --json <"$T/fifo2" >/dev/null &
rpid=$!
exec 3>"$T/fifo2"
i=0
while [ "$(chromes)" = 0 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
kill -9 "$rpid"
wait "$rpid" 2>/dev/null
i=0
while [ "$(chromes)" != 0 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
expect_eq "kill -9 of render leaves no Chromium process behind" 0 "$(chromes)"
exec 3>&-
rm -rf "$T"/tmp/render-profile.*

finish
