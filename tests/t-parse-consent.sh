#!/bin/sh
# parse --main leaves cookie-consent notices out of main_text and
# Markdown (docs/parse.md, Main content, "Consent notices"): one named
# by its platform's container inside the article, one found by its
# answers ("Got it") in a small block about cookies; a consent wall over
# nothing is validate's `consent`; an article about cookies, with a control of its own, keeps
# its text; a page built to make the search slow parses in time.
. "${TESTS:-$(dirname "$0")}/lib.sh"
P=$BIN/parse

A="The council met on Tuesday evening, and after a long debate it voted to open the new reading room in May."
B="The room will hold two thousand books, a long table for homework, and a corner for small children to read."
C="Volunteers have offered to staff it on Saturdays, so that it can stay open for the whole weekend, said the mayor."

# main FILE: main_text, then the Markdown, of FILE
main() { "$P" --html -j0 --main --markdown --json "$T/$1" | jq -r '.main_text, .markdown'; }

printf '<html><head><title>A reading room for the town</title></head><body><main><div class="story"><h1>A reading room for the town</h1><p>%s</p><p>%s</p><div id="onetrust-banner-sdk"><div><p>We and our partners store and access information on your device, such as cookies, to personalise ads and measure audiences.</p><button>Accept All Cookies</button> <button>Cookies Settings</button></div></div><p>%s</p></div></main></body></html>' \
	"$A" "$B" "$C" >"$T/named.html"
expect_eq "a platform's container inside the article: out of main_text and Markdown" \
	"A reading room for the town $A $B $C
# A reading room for the town

$A

$B

$C" "$(main named.html)"

printf '<html><head><title>A reading room for the town</title></head><body><div class="story"><h1>A reading room for the town</h1><p>%s</p><p>%s</p><div class="bar"><span>This site uses cookies to remember your choices, as our policy says.</span> <a href="#">Got it</a> <a href="/privacy">Read more</a></div><p>%s</p></div></body></html>' \
	"$A" "$B" "$C" >"$T/answer.html"
expect_eq "a block about cookies with an answer (\"Got it\"): out" \
	"A reading room for the town $A $B $C" "$(main answer.html | head -1)"

# An answer is a link that stays on the page (a query: the server sets
# the choice); a link labelled so that goes to another page is none.
sed 's|<a href="#">Got it</a>|<a href="?cookies=ok">Got it</a>|' "$T/answer.html" >"$T/answer-query.html"
expect_eq "an answer linking to a query of the page: its notice out" \
	"A reading room for the town $A $B $C" "$(main answer-query.html | head -1)"
sed 's|<a href="#">Got it</a>|<a href="/help/got-it">Got it</a>|' "$T/answer.html" >"$T/answer-away.html"
expect_eq "a link labelled as an answer going to another page: no notice, its text and Markdown keep it" 2 \
	"$(main answer-away.html | grep -c 'This site uses cookies')"

# A control's label split by a block ("<div>Accept</div>all") reads as
# two words, as the page shows it.
printf '<html><head><title>A reading room for the town</title></head><body><div class="story"><h1>A reading room for the town</h1><p>%s</p><p>%s</p><div class="bar"><span>This site uses cookies to remember your choices, as our policy says.</span> <button><div>Accept</div>all</button></div><p>%s</p></div></body></html>' \
	"$A" "$B" "$C" >"$T/split.html"
expect_eq "a control's label split by a block: its notice out" \
	"A reading room for the town $A $B $C" "$(main split.html | head -1)"

printf '<html><head><title>Daily Example</title></head><body><div class="overlay"><div class="box"><h2>We value your privacy</h2><p>We and our partners use cookies and similar technologies to store and access information on your device.</p><button>Alle akzeptieren</button> <button>Ablehnen</button></div></div></body></html>' >"$T/wall.html"
# Nothing but the notice: main_text falls to the page's text (it is
# never empty where the page has text), and validate names the wall.
expect_eq "a consent wall over nothing: validate names it" "false consent cookie wall" \
	"$("$P" --html -j0 --main --json "$T/wall.html" | jq -c '.status = 200 | .ctype = "text/html"' | mkrec |
		"$BIN/validate" -q --json | jq -r '"\(.accepted) \(.reason)"')"

# A short article about cookies holds its heading: its own button
# ("Got it", a tip's) is no consent answer.
K="Good biscuits need cold butter, a hot oven and patience, and the cookies in this recipe are no exception to that rule."
printf '<html><head><title>Cookies for a rainy day</title></head><body><article><h1>Cookies for a rainy day</h1><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><button>Got it</button></article></body></html>' \
	"$K" "$K" "$K" "$K" "$K" "$K" "$K" "$K" "$K" "$K" "$K" "$K" "$K" "$K" >"$T/recipe.html"
expect_eq "an article about cookies with a button of its own: every paragraph kept" \
	14 "$(main recipe.html | head -1 | grep -o 'cold butter' | wc -l | tr -d ' ')"
# Quoting a banner's words in the text is no banner.
Q="Regulators say a cookie banner must offer Reject all as plainly as Accept all, and many sites still do not do so."
printf '<html><head><title>Banners under review</title></head><body><div class="story"><h1>Banners under review</h1><p>%s</p><p>%s</p><p>%s</p></div></body></html>' \
	"$A" "$Q" "$C" >"$T/quote.html"
expect_eq "an article quoting a banner's answers keeps them" \
	"Banners under review $A $Q $C" "$(main quote.html | head -1)"
# Hundreds of "OK" buttons deep in a tree of empty blocks: the search
# for their notices has a bound for the whole page, which parses in
# well under a second (without the bound, over 30 s).
awk 'BEGIN { printf "<html><body>"; for (i = 0; i < 3000; i++) printf "<div>";
	for (i = 0; i < 700; i++) printf "<button>ok</button>"; print "</body></html>" }' >"$T/buttons.html"
expect_eq "a page of buttons in a deep tree: parsed, not timed out" "none" \
	"$("$P" --html --main --json --max-parse-time 5 "$T/buttons.html" | jq -r '.parse_error // "none"')"
finish
