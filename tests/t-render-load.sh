# render --load: by default (dom) stylesheets are refused with images,
# media and fonts, and the DOM of the test pages is the one --load all
# builds; a page whose script reads a computed style is the exception
# the docs name, and --screenshot loads all.
# run.sh: alone (Chromium: it would blur other tests' timing)
. "$TESTS/lib.sh"
render_setup
R() { "$BIN/render" -q --no-robots --json -c 4 -p 4 "$@"; }

# url TAB body-as-text, one line a page, in URL order
doms() { jq -r '"\(.url)\t\(.body | @base64d | gsub("\n"; " "))"' "$1" | sort; }

for p in static js images jsredirect timer alert styled; do echo "$URL/$p.html"; done >"$T/urls.txt"
: >"$LOG"
R <"$T/urls.txt" >"$T/dom.json"
expect_eq "--load dom: the stylesheet never requested, nor an image or a font" "0 0 0" \
	"$(count '^/style.css') $(count '^/bin[?]img=') $(count '^/font.woff2')"
expect_eq "... refused: the stylesheet and the favicon" 2 \
	"$(jq -r 'select(.url | test("styled")) | .rendered.blocked' "$T/dom.json")"
: >"$LOG"
R --load all <"$T/urls.txt" >"$T/all.json"
expect_eq "--load all: the stylesheet, the images and the font are loaded" "1 2 1" \
	"$(count '^/style.css') $(count '^/bin[?]img=') $(count '^/font.woff2')"
expect_eq "every test page: one DOM with and without its stylesheets and images" \
	"$(doms "$T/all.json")" "$(doms "$T/dom.json")"
expect_match "... and it is the built one" 'Rendered Items</h1><p class="note">apple, banana, cherry</p>' \
	"$(doms "$T/dom.json" | grep styled)"

# A script that reads a computed style sees the stylesheet's only when
# it is loaded
echo "$URL/computed.html" | R >"$T/c-dom.json"
echo "$URL/computed.html" | R --load all >"$T/c-all.json"
echo "$URL/computed.html" | R --screenshot >"$T/c-shot.json"
computed() { jq -r '.body | @base64d | capture("id=\"n\">(?<c>[^<]*)<").c' "$1"; }
expect_eq "computed style: the default color under dom, the stylesheet's under all and --screenshot" \
	"color rgb(0, 0, 0)|color rgb(200, 0, 0)|color rgb(200, 0, 0)" \
	"$(computed "$T/c-dom.json")|$(computed "$T/c-all.json")|$(computed "$T/c-shot.json")"

expect_eq "--load-images is --load all's older spelling" "1" \
	"$(: >"$LOG"; echo "$URL/styled.html" | R --load-images >/dev/null; count '^/style.css')"

rm -rf "$T"/tmp/render-profile.*
finish
