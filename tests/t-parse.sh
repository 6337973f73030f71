#!/bin/sh
# parse: the page fields, links, text, pass-through and the command line.
# Records are built by mkrec (tests/mkrec.py: JSON lines -> msgpack),
# so these tests need neither fetch nor a server.
. "${TESTS:-$(dirname "$0")}/lib.sh"
F=$TESTS/fixtures/parse
P=$BIN/parse

# page FILE [URL [CTYPE]]: a fetch-shaped record for a fixture file.
page() {
	printf '{"url":"%s","final_url":"%s","status":200,"ctype":"%s","job":"j1","body":{"$file":"%s"}}\n' \
		"${2:-http://example.com/a/b.html}" "${2:-http://example.com/a/b.html}" \
		"${3:-text/html}" "$1"
}

# ---- the fields ---------------------------------------------------------
page "$F/fields.html" | mkrec >"$T/fields.mp"
"$P" --json <"$T/fields.mp" >"$T/fields.json"
expect_eq "exit 0" 0 "$?"
j() { jq -r "$1" "$T/fields.json"; }
expect_eq "title is collapsed, first title wins" "The Fields Page" "$(j .title)"
expect_eq "lang from html lang" "en-GB" "$(j .lang)"
expect_eq "description collapsed, name case-insensitive" "A page that tests every field." "$(j .description)"
expect_eq "meta_robots lowercased" "noindex, nofollow" "$(j .meta_robots)"
expect_eq "canonical absolute, first rel token match, no fragment" \
	"http://example.com/canonical/page?id=7" "$(j .canonical)"
expect_eq "text skips head, script, style, noscript, template" \
	"Main heading First para with entity & more. Second para. one two unbrokenword" \
	"$(j .text | sed 's/\xc2\xa0/ /g')"
# A browser reads a <noscript> as text up to its first end tag: the div
# opened inside one and closed inside the next wraps the page, which
# shows (gumbo alone would put the whole page inside the first).
printf '<html><body><noscript><p>Enable JavaScript</p></noscript><noscript><div class="nojs"></noscript><p>The page itself.</p><noscript></div></noscript></body></html>' >"$T/noscript.html"
expect_eq "a noscript's message hidden, a page wrapped across two noscripts shown" \
	"The page itself." "$("$BIN/parse" --html -j0 --json "$T/noscript.html" | jq -r .text)"
expect_eq "parser names parse and gumbo" "parse/0.1.0 gumbo/0.10.1" "$(j .parser)"
expect_eq "parse_ms is a number" "number" "$(j '.parse_ms | type')"
expect_eq "body dropped" "null" "$(j .body)"
expect_eq "input keys kept" "j1 200 http://example.com/a/b.html" "$(j '"\(.job) \(.status) \(.url)"')"
expect_eq "links empty array when none" "[]" "$(jq -c .links "$T/fields.json")"

"$P" --json --keep-body --no-text <"$T/fields.mp" >"$T/keep.json"
expect_eq "--keep-body keeps body" "$(wc -c <"$F/fields.html" | tr -d ' ')" \
	"$(jq -r '.body | @base64d | length' "$T/keep.json")"
expect_eq "--no-text omits text" "null" "$(jq -r .text "$T/keep.json")"

# ---- links --------------------------------------------------------------
page "$F/links.html" | mkrec | "$P" --json >"$T/links.json"
expect_eq "links: base href, odd relatives, http(s) only, de-duplicated" \
'http://example.com/docs/up.html
http://cdn.example.org/lib.js
http://example.com/docs/v2/?page=2
http://example.com/docs/v2/
http://example.com/docs/v2/spaced.html
http://example.com/docs/v2/chapter%20one.html
http://example.com/abs/path
https://other.example.com/x?y=1
http://example.com/port
http://example.com/docs/v2/area-link.html
http://example.com/docs/v2/caf%C3%A9.html' "$(jq -r '.links[]' "$T/links.json")"

page "$F/nobase.html" "http://example.com/dir/page.html" | mkrec | "$P" --json >"$T/nobase.json"
expect_eq "links resolve against final_url" \
	"http://example.com/dir/rel.html http://example.com/root.html http://example.com/parent.html" \
	"$(jq -r '.links | join(" ")' "$T/nobase.json")"

printf '{"url":"https://u.example/x/y","final_url":"https://f.example/p/q","ctype":"text/html","body":{"$file":"%s"}}\n{"url":"https://u.example/x/y","ctype":"text/html","body":{"$file":"%s"}}\n' \
	"$F/nobase.html" "$F/nobase.html" | mkrec | "$P" -j0 --json >"$T/final.json"
expect_eq "final_url wins over url, url is the fallback" \
	"https://f.example/p/rel.html https://u.example/x/rel.html" \
	"$(jq -r '.links[0]' "$T/final.json" | tr '\n' ' ' | sed 's/ $//')"

# ---- HTML detection and pass-through -------------------------------------
printf '%s\n' \
	'{"url":"http://example.com/img","ctype":"image/png","status":200,"body":{"$latin1":"\u0089PNG\r\n\u001a\n\u0000"},"tags":["a",1,{"k":null}],"n":-5,"f":1.5}' \
	'{"url":"http://example.com/e","error":"timeout","error_detail":"after 10s","ctype":"text/html","body":"<title>x</title>"}' \
	'{"url":"http://example.com/j","ctype":"application/json","body":"<html><title>not html</title>"}' |
	mkrec >"$T/pass.mp"
# -j1: one worker keeps input order, so the streams compare as bytes.
"$P" -j1 <"$T/pass.mp" >"$T/pass.out"
expect_cmd "non-HTML and error records pass through byte for byte" cmp "$T/pass.mp" "$T/pass.out"
"$P" -j0 <"$T/pass.mp" >"$T/pass0.out"
expect_cmd "pass-through byte for byte in-process too" cmp "$T/pass.mp" "$T/pass0.out"

printf '%s\n' \
	'{"url":"http://example.com/s1","body":"\n  <!DOCTYPE HTML><p>sniffed</p>"}' \
	'{"url":"http://example.com/s2","body":"<TITLE>upper</TITLE>"}' \
	'{"url":"http://example.com/s3","body":"just text, no tags"}' \
	'{"url":"http://example.com/s4","ctype":"application/xhtml+xml; charset=utf-8","body":"<p>x</p>"}' \
	'{"url":"http://example.com/s5","ctype":"","body":"<body>empty ctype</body>"}' |
	mkrec | "$P" --json >"$T/sniff.json"
expect_eq "sniffing without ctype; xhtml ctype" "s1:sniffed s2:upper s3:null s4:x s5:empty ctype" \
	"$(jq -r '"\(.url | sub(".*/"; "")):\(.text // .title // null)"' "$T/sniff.json" | sed 's/s2:$/s2:upper/' | sort | tr '\n' ' ' | sed 's/ $//')"

# ---- odd bodies -----------------------------------------------------------
printf '%s\n' '{"url":"http://example.com/empty","ctype":"text/html","body":{"$latin1":""}}' \
	'{"url":"http://example.com/emptystr","ctype":"text/html","body":""}' | mkrec | "$P" --json >"$T/empty.json"
expect_eq "empty bodies parse (bin and str)" '{"links":[],"text":"","title":null}
{"links":[],"text":"","title":null}' "$(jq -c '{links, text, title}' "$T/empty.json")"

page "$F/nul.html" | mkrec | "$P" --json >"$T/nul.json"
expect_eq "NUL bytes: title gets U+FFFD, text drops them" "nul�title|beforeafter n" \
	"$(jq -r '"\(.title)|\(.text)"' "$T/nul.json")"
expect_eq "NUL in href becomes U+FFFD, percent-encoded" "http://example.com/a/x%EF%BF%BDy.html" \
	"$(jq -r '.links[0]' "$T/nul.json")"

page "$F/broken.html" | mkrec | "$P" --json >"$T/broken.json"
expect_eq "broken HTML: title" "Broken <b>page" "$(jq -r .title "$T/broken.json")"
expect_eq "broken HTML: text" \
	"unclosed paragraph nested unclosed span cell one cell two one two after ¬anentity; <ok> after body after html" \
	"$(jq -r .text "$T/broken.json")"
expect_eq "broken HTML: links" "http://example.com/a/one.html http://example.com/a/two.html" \
	"$(jq -r '.links | join(" ")' "$T/broken.json")"

python3 -c 'print("<title>deep</title>" + "<span>" * 300000 + "x")' >"$T/deep.html"
expect_eq "300000 nested elements: no stack overflow (tree freed without recursion)" '["deep","x"]' \
	"$("$P" -j0 --html --json "$T/deep.html" | jq -c '[.title, .text]')"
printf '<body><svg><title>tooltip</title></svg><a href="HTTP://User:PW@Host.EXAMPLE/p">x</a></body>' >"$T/svg.html"
expect_eq "svg title is not the title; userinfo case kept, host lowercased" '[null,"http://User:PW@host.example/p"]' \
	"$("$P" -j0 --html --base http://example.com/ --json "$T/svg.html" | jq -c '[.title, .links[0]]')"

# ---- --html ------------------------------------------------------------
out=$(cd "$F" && "$P" --html --json nobase.html)
expect_eq "--html: url is file:// + absolute path" "file://$F/nobase.html" "$(echo "$out" | jq -r .url)"
expect_eq "--html: file: links are not http(s)" "[]" "$(echo "$out" | jq -c .links)"
out=$("$P" -j1 --html --base http://h.example/d/i.html --json "$F/nobase.html")
expect_eq "--html --base, one file: the base is its url and link base" \
	"http://h.example/d/i.html:http://h.example/d/rel.html" "$(echo "$out" | jq -r '"\(.url):\(.links[0])"')"
# Several files: each its name resolved against the base, so each is a
# page (a row in sink) of its own; a name's '?', '#' and spaces are its
# own bytes.
cp "$F/fields.html" "$T/odd?x#y z.html"
out=$("$P" -j1 --html --base http://h.example/d/i.html --json "$F/nobase.html" "$F/fields.html" "$T/odd?x#y z.html")
expect_eq "--html --base, several files: url is the base joined with each name, link base too" \
	"http://h.example/d/nobase.html:http://h.example/d/rel.html http://h.example/d/fields.html:null http://h.example/d/odd%3Fx%23y%20z.html:null" \
	"$(echo "$out" | jq -r '"\(.url):\(.links[0])"' | tr '\n' ' ' | sed 's/ $//')"
"$P" -q --html --base http://h.example/d/ "$F/nobase.html" "$F/fields.html" | "$BIN/sink" -q "$T/base.db"
expect_eq "--html --base, several files: sink keeps a row each" \
	"http://h.example/d/fields.html http://h.example/d/nobase.html" \
	"$(q "$T/base.db" 'select url from pages order by url' | tr '\n' ' ' | sed 's/ $//')"
expect_usage_errors parse "--html --base file:///tmp/ $F/nobase.html" "--html --base /d/ $F/nobase.html"
"$P" --html "$T/nonexistent.html" >/dev/null 2>"$T/err"
expect_eq "--html: unreadable file exits 66" 66 "$?"
expect_match "--html: unreadable file named" "parse: cannot read .*nonexistent.html: No such file" "$(cat "$T/err")"

# ---- command line ----------------------------------------------------------
expect_match "--help prints the synopsis" "^usage: parse" "$("$P" --help)"
expect_match "--version names gumbo and msgpack" "^parse 0.1.0.*gumbo 0.10.1.*msgpack-c" "$("$P" --version | tr '\n' ' ')"
"$P" --bogus </dev/null >/dev/null 2>&1
expect_eq "unknown option exits 64" 64 "$?"
"$P" -j x </dev/null >/dev/null 2>&1
expect_eq "bad -j exits 64" 64 "$?"
"$P" stray </dev/null >/dev/null 2>&1
expect_eq "operand without --html exits 64" 64 "$?"
"$P" --max-record 10 <"$T/fields.mp" >/dev/null 2>"$T/err"
expect_eq "--max-record: larger record exits 65" 65 "$?"
expect_match "--max-record: message names offset" "malformed record at byte 0: record larger than 10 bytes" "$(cat "$T/err")"
page "$F/fields.html" | mkrec | "$P" -q | head -c 0
expect_eq "closed stdout is not an error" 0 "$?"
expect_match "msgpack out by default when stdout is not a tty (a fixmap)" "^8[0-9a-f]$" \
	"$(page "$F/fields.html" | mkrec | "$P" | head -c 1 | od -An -tx1 | tr -d ' ')"

finish
