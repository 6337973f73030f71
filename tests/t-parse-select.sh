#!/bin/sh
# parse: -f/-F selectors into `fields`, and bad selectors as usage errors.
. "${TESTS:-$(dirname "$0")}/lib.sh"
F=$TESTS/fixtures/parse
P=$BIN/parse

# fields ARGS...: the fields map for select.html, compact JSON.
fields() { "$P" --html --json "$F/select.html" "$@" | jq -c .fields; }

expect_eq "-f class: first match's text" '{"a":"12.50"}' "$(fields -f a=.price)"
expect_eq "-f text is whitespace-collapsed and includes inline children" '{"t":"Product One"}' "$(fields -f t=h2)"
expect_eq "-F type.class: every match in document order" '{"b":["12.50","15.00","99"]}' "$(fields -F b=p.price)"
expect_eq "-F descendant combinator" '{"c":["12.50","15.00"]}' "$(fields -F 'c=#main .price')"
expect_eq "-F child combinator" '{"d":["12.50"]}' "$(fields -F 'd=#main > .price')"
expect_eq "-F child combinator without spaces" '{"d":["12.50"]}' "$(fields -F 'd=#main>.price')"
expect_eq "-F [attr]@ATTR" '{"e":["/tag/red","/tag/blue"]}' "$(fields -F 'e=a[rel]@href')"
expect_eq "-F [attr=bare]" '{"f":["red"]}' "$(fields -F 'f=a[rel=tag]')"
expect_eq "-F [attr=\"quoted\"]" '{"f":["red"]}' "$(fields -F 'f=a[rel="tag"]')"
expect_eq "-F [attr~=word]" '{"g":["blue"]}' "$(fields -F 'g=a[rel~=nofollow]')"
expect_eq "-F [attr^=prefix]" '{"h":["red","blue"]}' "$(fields -F 'h=a[href^="/tag/"]')"
expect_eq "-F [attr\$=suffix]@alt" '{"i":["first image"]}' "$(fields -F 'i=img[src$=".png"]@alt')"
expect_eq "-F [attr*=substring] single quotes" '{"j":["external"]}' "$(fields -F "j=a[href*='ext']")"
expect_eq "-F selector list" '{"k":["One","external"]}' "$(fields -F 'k=h2 span, li a.ext')"
expect_eq "-F custom element and data attribute" '{"l":["custom"]}' "$(fields -F 'l=my-widget@data-x')"
expect_eq "-f script content (JSON-LD)" '{"m":"{\"@type\": \"Product\"}"}' "$(fields -f 'm=script[type="application/ld+json"]')"
expect_eq "-f no match: name absent; -F no match: []" '{"o":[]}' "$(fields -f n=.nomatch -F o=.nomatch)"
expect_eq "type selectors case-insensitive, ids not" '{"p":["99"],"p2":[]}' "$(fields -F 'p=DIV#side P' -F 'p2=div#SIDE p')"
expect_eq "universal, compound, child then descendant" '{"q":["red","blue","external"]}' "$(fields -F 'q=*.wide > ul.tags li')"
expect_eq "compound a.x[href]" '{"r":"https://ext.example/x"}' "$(fields -f 'r=a.ext[href]@href')"
expect_eq "@ATTR missing on a match gives null" '{"s":[null,null]}' "$(fields -F 's=img@nosuch')"
expect_eq "fields in command-line order, -f and -F mixed" '{"z":"12.50","y":["99"],"x":"Product One"}' \
	"$(fields -f z=.price -F 'y=#side p' -f x=h2)"
expect_eq "@ inside a quoted value is not ATTR" '{"at":["a@b"]}' \
	"$(printf '<p data-m="a@b">a@b</p>' >"$T/at.html"; "$P" --html --json "$T/at.html" -F 'at=p[data-m*="@"]' | jq -c .fields)"

# bad SELECTOR: usage error naming the 0-based position.
bad() { "$P" -f "x=$1" </dev/null 2>&1 >/dev/null | head -1; }
expect_eq "bad selector: trailing combinator" "parse: bad selector 'div >' at position 5: expected a selector" "$(bad 'div >')"
expect_eq "bad selector: empty" "parse: bad selector '' at position 0: expected a selector" "$(bad '')"
expect_eq "bad selector: empty list item" "parse: bad selector 'a,,b' at position 2: expected a selector" "$(bad 'a,,b')"
expect_eq "bad selector: unclosed bracket" "parse: bad selector 'a[href' at position 6: expected ']'" "$(bad 'a[href')"
expect_eq "bad selector: unterminated string" "parse: bad selector 'a[href=\"x]' at position 10: unterminated string" "$(bad 'a[href="x]')"
expect_eq "bad selector: unsupported character" "parse: bad selector 'a:hover' at position 1: unexpected character" "$(bad 'a:hover')"
expect_eq "bad selector: name missing after ." "parse: bad selector 'p.' at position 2: expected a name" "$(bad 'p.')"
"$P" -f 'x=div >' </dev/null >/dev/null 2>&1
expect_eq "bad selector exits 64" 64 "$?"
"$P" -F 'noequals' </dev/null >/dev/null 2>&1
expect_eq "-F without NAME= exits 64" 64 "$?"
"$P" -f a=p -F a=div </dev/null >/dev/null 2>&1
expect_eq "duplicate field name exits 64" 64 "$?"
"$P" -f 'a=p@' </dev/null >/dev/null 2>&1
expect_eq "empty @ATTR exits 64" 64 "$?"

finish
