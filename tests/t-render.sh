# render: pages built by JavaScript come out with their content, through
# parse | validate | sink; endless scripts and long polls end by the cap;
# errors keep fetch's words; Chromium and its profile are gone at exit.
# run.sh: alone (a busy Chromium beside other tests blurs -d's gaps)
. "$TESTS/lib.sh"
mkdir -p "$T/www" "$T/tmp"
# As root, Chromium runs as nobody, its profile under $TMPDIR: on the way.
chmod 711 "$T"
cp "$TESTS"/fixtures/render/* "$T/www/"
server_start --root "$T/www" --robots "$T/robots.txt"   # robots.txt: 404 until written
# Profiles go under $T, so this script's Chromium is told from others'.
export TMPDIR=$T/tmp
chromes() { pgrep -f "$T/tmp/render-profile" | wc -l | tr -d ' '; }
some_chromes() { [ "$(chromes)" != 0 ]; }
no_chromes() { [ "$(chromes)" = 0 ]; }

# Skipped only where Chromium cannot start (as t-report).
echo "$URL/static.html" | "$BIN/render" -q --no-robots --json >"$T/probe.json" 2>"$T/probe.err"
if [ "$(jq -r .status "$T/probe.json" 2>/dev/null)" != 200 ]; then
	echo "ok - $NAME: # skip headless Chromium cannot start here: $(tail -1 "$T/probe.err") (make deps)"
	finish
fi

expect_eq "render -q says nothing on a run that goes well" "" "$(cat "$T/probe.err")"

# ---- the sandbox, as root too: every renderer runs as another user,
# under seccomp-bpf, unable to gain privileges
renderers() { pgrep -f "type=renderer.*$T/tmp/render-profile"; }
statuses() {
	for p in $(renderers); do
		awk '/^Uid:/ { u = "uid " $2 " " $3 " " $4 " " $5 } /^Seccomp:/ { s = "seccomp " $2 }
			/^NoNewPrivs:/ { n = "nnp " $2 } END { print u ", " s ", " n }' "/proc/$p/status"
	done | sort -u
}
# A renderer takes its seccomp filter in its first moments: a fresh
# spare one may not have it yet, so every one of them is waited for.
sandboxed() { [ "$(statuses | grep -vc 'seccomp 2, nnp 1$')" = 0 ] && [ -n "$(renderers)" ]; }
echo "$URL/longpoll.html" | "$BIN/render" -q --no-robots --json --max-wait 4 >"$T/sb.json" &
rpid=$!
wait_for 30 "the page's long poll" logged_ge 1 '^/hang'
wait_for 10 "every renderer sandboxed" sandboxed
statuses >"$T/sb.status"
wait "$rpid"
me=$(id -u)
[ "$me" = 0 ] && me=65534   # as root: --browser-user's default, nobody
expect_eq "every renderer runs as $me (never root), Seccomp 2 (filter), NoNewPrivs 1" \
	"uid $me $me $me $me, seccomp 2, nnp 1" "$(cat "$T/sb.status")"
expect_eq "and the page rendered" 200 "$(jq -r .status "$T/sb.json")"
if [ "$(id -u)" = 0 ]; then
	# A kernel that gives nobody no user namespace, and no setuid helper
	echo "$URL/static.html" | "$TESTS/no-userns.py" "$BIN/render" --no-robots --json >"$T/nons.json" 2>"$T/nons.err"
	expect_eq "no user namespaces, no setuid helper: 71, saying which, nothing rendered" \
		"71 render: cannot sandbox chromium: user namespaces are not available to user nobody (unshare: No space left on device; see sysctl user.max_user_namespaces and kernel.unprivileged_userns_clone) and the setuid helper /usr/lib/chromium/chrome-sandbox is not installed (chromium-sandbox); --no-sandbox runs chromium without its sandbox 0" \
		"$? $(cat "$T/nons.err") $(wc -c <"$T/nons.json")"
	echo "$URL/static.html" | "$TESTS/no-userns.py" "$BIN/render" -q --no-robots --json --no-sandbox \
		>"$T/nons.json" 2>"$T/nons.err"
	expect_eq "--no-sandbox there: the page renders, with a warning that -q keeps" \
		"200 render: chromium's sandbox is off (--no-sandbox): a page that exploits its renderer runs with the rights of user nobody" \
		"$(jq -r .status "$T/nons.json") $(cat "$T/nons.err")"
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

# ---- --wait selector:CSS: the DOM once the element is there
echo "$URL/timer.html" | "$BIN/render" -q --no-robots --json --wait 'selector:#m:not(:empty)' >"$T/sel.json"
expect_eq "--wait selector: taken with the timer's text, not by the cap" "false true" \
	"$(jq -r '"\(.rendered.partial) \(.body | @base64d | test("written 300 ms after load"))"' "$T/sel.json")"

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

# ---- fetch | render --only-shells: the shell is rendered, the static page
# passes untouched (validate's js_shell rule, lib/jsshell)
printf '%s\n' "$URL/static.html" "$URL/js.html" | "$BIN/fetch" -q --no-robots >"$T/fetched.mp"
"$BIN/render" -q --no-robots --only-shells <"$T/fetched.mp" >"$T/shells.mp"
echo "$URL/static.html" | "$BIN/fetch" -q --no-robots >"$T/static.mp"
"$BIN/render" -q --no-robots --only-shells <"$T/static.mp" >"$T/static.out"
expect_eq "the static page passes through byte for byte" "$(wc -c <"$T/static.mp" | tr -d ' ') same" \
	"$(wc -c <"$T/static.out" | tr -d ' ') $(cmp -s "$T/static.mp" "$T/static.out" && echo same)"
expect_eq "the shell is rendered: its items are in the body" "true Rendered Items" \
	"$("$BIN/parse" -q --json <"$T/shells.mp" | jq -r 'select(.url | test("js.html")) | "\(.rendered != null) \(.title)"')"
expect_eq "the record stream holds each input once" 2 "$("$BIN/sink" -q - <"$T/shells.mp" | wc -l | tr -d ' ')"

# ---- --screenshot and --pdf: bin keys, stored by sink as BLOB columns
echo "$URL/js.html" | "$BIN/render" -q --no-robots --screenshot --pdf --viewport 800x600 |
	"$BIN/sink" -q "$T/shots.db"
q "$T/shots.db" "SELECT writefile('$T/shot.png', screenshot), writefile('$T/page.pdf', pdf) FROM pages" >/dev/null
expect_eq "the screenshot is a PNG, 800 pixels wide" "89504e470d0a1a0a 800" \
	"$(head -c 8 "$T/shot.png" | od -An -tx1 | tr -d ' \n') $(python3 -c '
import struct, sys; d = open(sys.argv[1], "rb").read(24); print(struct.unpack(">I", d[16:20])[0])' "$T/shot.png")"
expect_eq "the PDF is a PDF" "%PDF-" "$(head -c 5 "$T/page.pdf")"

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
	"$BIN/render" -q --no-robots --max-wait 2 --timeout 60 --json >"$T/cap.json"
took=$(since "$t0")
expect_eq "both end partial, with the DOM they had" \
	"$URL/endless.html true before the loop
$URL/longpoll.html true polling" \
	"$(jq -r '"\(.url) \(.rendered.partial) \(.body | @base64d | capture("<p[^>]*>(?<t>[^<]*)</p>").t)"' "$T/cap.json" | sort)"
expect_eq "ended by the cap, not by --timeout: no error" "null null" \
	"$(jq -r .error "$T/cap.json" | tr '\n' ' ' | sed 's/ $//')"
expect_cmd "and render did not hang: done in ${took} s (caps of 2 s, --timeout 60)" holds "$took < 40"

# ---- politeness: robots.txt, images refused, -p, -d, --user-agent
printf 'User-agent: *\nDisallow: /status/\n' >"$T/robots.txt"
: >"$LOG"
printf '%s\n' "$URL/status/404" "$URL/images.html" |
	"$BIN/render" -q --json --user-agent 'polite-test/1.0' >"$T/pol.json"
expect_eq "a URL robots.txt disallows ends as robots, unopened" "robots 0" \
	"$(jq -r 'select(.url | test("status")) | "\(.error) \(.rendered // 0 | length)"' "$T/pol.json")"
expect_eq "the server saw robots.txt once, first, the page, and neither the disallowed page nor an image" \
	"/robots.txt /images.html" "$(jq -r .path "$LOG" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "blocked: two images, a video, a font and the favicon" "5" \
	"$(jq -r 'select(.url | test("images")) | .rendered.blocked' "$T/pol.json")"
expect_eq "--user-agent is what the server sees" "polite-test/1.0" \
	"$(jq -r 'select(.path == "/images.html") | .ua' "$LOG")"
rm "$T/robots.txt"
: >"$LOG"
echo "$URL/images.html" | "$BIN/render" -q --json --load-images >/dev/null
expect_eq "--load-images lets them through" "2 1" \
	"$(echo "$(count '^/bin[?]img=') $(count '^/font.woff2')")"
: >"$LOG"
printf '%s\n' "$U1/slow?ms=300&n=1" "$U1/slow?ms=300&n=2" "$U1/slow?ms=300&n=3" "$U2/slow?ms=300&n=4" |
	"$BIN/render" -q --json -c 4 -p 1 -d 1 >/dev/null
expect_eq "-p 1: one page at a time per host, while -c 4 opens the other host beside it" "1 1" \
	"$(jq -s '[.[] | select(.path | test("^/slow"))] | group_by(.addr) | map(map(.inflight) | max) | map(tostring) | join(" ")' -r "$LOG")"
expect_eq "-d 1: navigations to one host at least 1 s apart" true \
	"$(gaps 127.0.0.1 | jq 'length == 2 and all(. >= 0.95)')"

# ---- --max-hosts: above it a host with no page left is dropped, and
# fetches its robots.txt again when it comes back (memory follows flags)
robots_at() { jq -s --arg a "$1" '[.[] | select(.addr == $a and .path == "/robots.txt")] | length' "$LOG"; }
printf '%s\n' "$U1/static.html" "$U2/static.html" "$U1/static.html" >"$T/evict.txt"
: >"$LOG"
"$BIN/render" -q --json -c 1 --pending 1 <"$T/evict.txt" >/dev/null
expect_eq "by default the host that comes back keeps its robots.txt: asked once" 1 "$(robots_at 127.0.0.1)"
: >"$LOG"
"$BIN/render" -q --json -c 1 --pending 1 --max-hosts 1 <"$T/evict.txt" >"$T/evict.json"
expect_eq "--max-hosts 1: dropped while the other host's page ran, asked again; all three rendered" "2 200 200 200" \
	"$(robots_at 127.0.0.1) $(jq -r .status "$T/evict.json" | tr '\n' ' ' | sed 's/ $//')"

# ---- safety: with 127.0.0.2 private and 127.0.0.1 public, a public page
# reaches no private address, by script or by redirect; downloads refused
cat >"$T/www/private.html" <<EOF
<!DOCTYPE html>
<html><head><title>Reaches inside</title></head><body><p>public page</p>
<script>fetch('$U2/secret').catch(function () {});</script>
<iframe src="$U2/secret-frame"></iframe></body></html>
EOF
printf 'PK\003\004 not really a zip' >"$T/www/a.zip"
: >"$LOG"
printf '%s\n' "$U1/private.html" "$U1/redirect-to?url=$U2/ok" "$U1/a.zip" |
	"$BIN/render" -q --no-robots --private-ranges 127.0.0.2/32 --json >"$T/priv.json"
expect_eq "the private address was never asked for" 0 "$(jq -s 'map(select(.addr == "127.0.0.2")) | length' "$LOG")"
expect_eq "the public page's script and frame requests were refused (and the favicon)" "200 3" \
	"$(jq -r 'select(.url | test("private")) | "\(.status) \(.rendered.blocked)"' "$T/priv.json")"
expect_eq "a redirect of the page into the private range ends as private_address" private_address \
	"$(jq -r 'select(.url | test("redirect")) | .error' "$T/priv.json")"
expect_match "a download is refused" '^other .*download' \
	"$(jq -r 'select(.url | test("zip")) | "\(.error) \(.error_detail)"' "$T/priv.json")"
: >"$LOG"
echo "$U1/redirect-to?url=$U2/ok" | "$BIN/render" -q --no-robots --json >"$T/priv2.json"
expect_eq "where both are private (the default ranges), the redirect is followed" "200 $U2/ok" \
	"$(jq -r '"\(.status) \(.final_url)"' "$T/priv2.json")"

# ---- a stalled reader: render's loop goes on, no page starts while the
# output holds --buffer bytes (lib/outbuf, as fetch)
python3 -c 'import sys; sys.stdout.write("<!DOCTYPE html><title>Big</title><p>" + "x" * 300000 + "</p>")' \
	>"$T/www/big.html"
printf '%s\n' "$URL/big.html" "$URL/js.html" >"$T/stall.txt"
mkfifo "$T/ofifo"
: >"$LOG"
"$BIN/render" -q --no-robots --json -c 2 -p 1 --buffer 1K <"$T/stall.txt" >"$T/ofifo" &
rpid=$!
exec 4<"$T/ofifo"
unread() { python3 -c 'import fcntl, struct, termios
print(struct.unpack("i", fcntl.ioctl(0, termios.FIONREAD, b"\0" * 4))[0])' <&4; }
pipe_full() { [ "$(unread)" -ge 65536 ]; }
wait_for 60 "the stdout pipe to fill" pipe_full
expect_eq "the pipe is full with the first record: the second page, free to start by -c and -p, is not opened" \
	"/big.html" "$(jq -r .path "$LOG" | tr '\n' ' ' | sed 's/ $//')"
kill -TERM "$rpid"
wait_for 30 "Chromium to exit while stdout is still unread" no_chromes
expect_eq "render's loop ran meanwhile: SIGTERM stopped Chromium though nothing more was read" "0 $(unread)" \
	"$(chromes) $(unread)"
cat <&4 >"$T/stall.json"
exec 4<&-
wait "$rpid"
expect_eq "both records, whole: the big page, and the other interrupted before it started" \
	"$URL/big.html 200 true null
$URL/js.html 0 false interrupted" \
	"$(jq -r '"\(.url) \(.status) \(.bytes > 300000) \(.error)"' "$T/stall.json")"
expect_eq "and the server never saw the second page" 0 "$(count '^/js.html')"
rm -rf "$T"/tmp/render-profile.*

# ---- -H: every request of the page gets the header; a secret one (a
# credential word in its name) only those to the page's own origin
cat >"$T/www/hdr.html" <<EOF
<!DOCTYPE html>
<html><head><title>Headers</title></head><body><p>headers</p>
<script>fetch('/items.json'); fetch('$U2/ok').catch(function () {});</script></body></html>
EOF
: >"$LOG"
echo "$U1/hdr.html" | RENDER_TRACE=1 "$BIN/render" -q --no-robots --json -H 'X-Api-Key: s3cret-key' \
	-H 'X-Plain: p1' >"$T/hdr.json" 2>"$T/hdr.trace"
expect_eq "the page and its same-origin fetch carry both; the other origin only the plain one" \
	"127.0.0.1 /hdr.html s3cret-key p1
127.0.0.1 /items.json s3cret-key p1
127.0.0.2 /ok null p1" \
	"$(jq -r 'select(.path != "/favicon.ico") | "\(.addr) \(.path) \(.hdrs["x-api-key"]) \(.hdrs["x-plain"])"' "$LOG" | sort)"
expect_eq "the secret is in no record" "200 0" \
	"$(jq -r .status "$T/hdr.json") $(grep -c s3cret "$T/hdr.json")"
expect_eq "nor in RENDER_TRACE's DevTools messages, which show headers as ***" "0 yes" \
	"$(grep -c s3cret "$T/hdr.trace") $(grep -q '"headers":"\*\*\*"' "$T/hdr.trace" && echo yes)"
# With robots.txt on, through a redirect to the other address: neither
# robots.txt nor the other origin's document gets the secret.
: >"$LOG"
echo "$U1/redirect-to?url=$U2/ok" | "$BIN/render" -q --json -H 'X-Api-Key: s3cret-key' >"$T/hdr2.json"
expect_eq "render -H, robots.txt on, a redirect to .2: the secret only at .1's redirect" \
	"127.0.0.1 /redirect-to" \
	"$(jq -r 'select(.hdrs["x-api-key"] != null) | "\(.addr) \(.path | sub("\\?.*"; ""))"' "$LOG")"
expect_eq "... each address's robots.txt was asked without it, the other address answered without it" "2 1" \
	"$(jq -s 'map(select(.path == "/robots.txt" and .hdrs["x-api-key"] == null)) | length' "$LOG") $(jq -s 'map(select(.addr == "127.0.0.2" and .path == "/ok" and .hdrs["x-api-key"] == null)) | length' "$LOG")"

# ---- --cookies: the jar is set into each page's context, a page's new
# cookies reach the next page, and the jar is written back at exit
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\ts3cret\n' >"$T/jar.txt"
printf '%s\n' "$U1/members" "$U2/members" "$U1/login?name=tok&value=v1" "$U1/members?name=tok&value=v1" |
	"$BIN/render" -q --no-robots --json -c 1 --cookies "$T/jar.txt" >"$T/jar.json"
expect_eq "the jar's host-only cookie opens its host, not another; the login's cookie the next page" \
	"$U1/members 200
$U2/members 403
$U1/login?name=tok&value=v1 200
$U1/members?name=tok&value=v1 200" \
	"$(jq -r '"\(.url) \(.status)"' "$T/jar.json")"
expect_eq "the jar written back: both cookies, the HttpOnly one marked, mode 600" \
	"#HttpOnly_127.0.0.1 FALSE / FALSE tok v1
127.0.0.1 FALSE / FALSE session s3cret
600" \
	"$(grep -v '^#[^H]' "$T/jar.txt" | grep . | awk -F '\t' '{print $1, $2, $3, $4, $6, $7}' | sort)
$(stat -c %a "$T/jar.txt")"

# ---- --max-cookies: a site that sets 50 new cookies an answer fills
# the jar only to its bound, the oldest going first
: >"$T/many.txt"
for i in 1 2 3 4 5 6 7 8 9 10; do echo "$U1/set-cookies?n=50&name=m&i=$i"; done |
	"$BIN/render" -q --no-robots --json -c 1 --cookies "$T/many.txt" --max-cookies 100 >"$T/many.json"
expect_eq "--max-cookies 100 after 500 cookies: the jar holds the newest 100, m401..m500" 	"10 pages, 100 cookies, m401..m500" 	"$(jq -s length "$T/many.json") pages, $(grep -c '^[^#]' "$T/many.txt") cookies, $(grep '^[^#]' "$T/many.txt" | cut -f6 | sort -V | sed -n '1p;$p' | paste -sd. | sed 's/\./../')"

# ---- --share-context: one browser context, so a cookie one page got
# reaches the next; by default each page starts clean
printf '%s\n' "$U1/login?name=s2&value=v2" "$U1/members?name=s2&value=v2" >"$T/share.txt"
"$BIN/render" -q --no-robots --json -c 1 <"$T/share.txt" >"$T/noshare.json"
"$BIN/render" -q --no-robots --json -c 2 -p 1 --share-context <"$T/share.txt" >"$T/share.json"
expect_eq "a context per page: the second page has no cookie" "200 403" \
	"$(jq -r .status "$T/noshare.json" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "--share-context: the login's cookie opens the second page" "200 200" \
	"$(jq -r .status "$T/share.json" | tr '\n' ' ' | sed 's/ $//')"

# ---- adaptive pacing (lib/pace, as fetch): a 429 with Retry-After: 2
# holds its host for 2 s; another host goes on meanwhile
: >"$LOG"
printf '%s\n' "$U1/retry-after?s=2&key=ra" "$U1/static.html" "$U2/static.html" |
	"$BIN/render" -q --no-robots --json -c 2 -p 1 >"$T/ra.json"
expect_eq "the 429 is the page's record, the next page of its host renders" \
	"$U1/retry-after?s=2&key=ra 429
$U1/static.html 200
$U2/static.html 200" "$(jq -r '"\(.url) \(.status)"' "$T/ra.json" | sort)"
expect_eq "no navigation to the host for 2 s after its 429" true \
	"$(gaps 127.0.0.1 | jq 'length == 1 and .[0] >= 1.95')"
expect_eq "the other host was not held: asked before the first host's second page" true \
	"$(jq -s '([.[] | select(.addr == "127.0.0.2")][0].t) < ([.[] | select(.path == "/static.html" and .addr == "127.0.0.1")][0].t)' "$LOG")"
echo "#   gap after the 429: $(gaps 127.0.0.1)"

# ---- a hung Chromium (SIGSTOP: no exit, no EOF, no answer) is killed
# after --browser-timeout, started again, and its pages tried once more;
# a page in flight through two hangs ends as browser_lost
hang_chromium() {   # hang_chromium RENDER-PID N: stops Chromium when the Nth /slow arrived
	wait_for 60 "request $2 of the page" logged_ge "$2" '^/slow'
	kill -STOP "$(pgrep -P "$1" | head -1)"
}
: >"$LOG"
echo "$U1/slow?ms=3000" | "$BIN/render" -q --no-robots --json --browser-timeout 2 >"$T/hung.json" 2>"$T/hung.err" &
rpid=$!
hang_chromium "$rpid" 1
wait "$rpid"
expect_eq "once hung: the page rendered by the new Chromium, on its second attempt" "200 2 null" \
	"$(jq -r '"\(.status) \(.attempts) \(.error)"' "$T/hung.json")"
expect_eq "the server saw the page twice" 2 "$(count '^/slow')"
expect_match "and render said why" 'chromium did not answer for [0-9]+ s, restarting it' "$(cat "$T/hung.err")"
: >"$LOG"
echo "$U1/slow?ms=3000" | "$BIN/render" -q --no-robots --json --browser-timeout 2 >"$T/hung2.json" 2>/dev/null &
rpid=$!
hang_chromium "$rpid" 1
hang_chromium "$rpid" 2
wait "$rpid"
expect_eq "hung twice: browser_lost, with the reason, not tried a third time" \
	"browser_lost chromium answered nothing for 2 s, twice with this page open 2 2" \
	"$(jq -r '"\(.error) \(.error_detail) \(.attempts)"' "$T/hung2.json") $(count '^/slow')"
expect_eq "no Chromium left, stopped or not" 0 "$(chromes)"

# ---- Chromium runs while render does, and nothing is left after it
mkfifo "$T/fifo"
"$BIN/render" -q --no-robots --json <"$T/fifo" >"$T/live.json" &
rpid=$!
exec 3>"$T/fifo"
echo "$URL/static.html" >&3
poll_until 10 some_chromes
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
poll_until 10 some_chromes
kill -9 "$rpid"
wait "$rpid" 2>/dev/null
poll_until 10 no_chromes
expect_eq "kill -9 of render leaves no Chromium process behind" 0 "$(chromes)"
exec 3>&-
rm -rf "$T"/tmp/render-profile.*

finish
