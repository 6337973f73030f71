#!/bin/sh
# parse --main: main_text is the article's text, without navigation,
# cookie banner, share bar, related links, comments and footer; a page
# that is not an article gives its body's text; strong hints (<article>,
# role=main) bound the article; a non-UTF-8 page is decoded first.
. "${TESTS:-$(dirname "$0")}/lib.sh"
F=$TESTS/fixtures/main
P=$BIN/parse

# main FILE [CTYPE]: main_text of FILE served as a fetch record.
main() {
	printf '{"url":"http://example.com/a","status":200,"ctype":"%s","body":{"$file":"%s"}}\n' \
		"${2:-text/html}" "$F/$1" | mkrec | "$P" -j0 --main --json | jq -r .main_text
}

expect_eq "article: only the article's title and paragraphs" \
	"Otters return to the river After an absence of more than forty years, otters have been seen again along the upper reaches of the river, volunteers said on Tuesday. The animals, once common in the valley, disappeared in the 1970s when pesticides and drained wetlands left them with little food and no shelter. Cleaner water, restored reed beds and a ban on the worst chemicals have slowly brought the fish back, and with them, the otters. “We saw two of them playing by the old mill,” said one volunteer, who has counted wildlife on the river every spring since 1998." \
	"$(main article.html)"
# The boilerplate is still in text: main_text left it out, not the parser.
r=$(printf '{"url":"http://example.com/a","ctype":"text/html","body":{"$file":"%s"}}\n' "$F/article.html" |
	mkrec | "$P" -j0 --main --json)
for s in "We use cookies" "Share on Twitter" "Beavers spotted" "What wonderful news" "Copyright 2024" "Sport"; do
	expect_eq "'$s' in text" "true" "$(echo "$r" | jq --arg s "$s" '.text | contains($s)')"
	expect_eq "'$s' not in main_text" "false" "$(echo "$r" | jq --arg s "$s" '.main_text | contains($s)')"
done
expect_eq "listing: falls back to the body's text (navigation out)" \
	"Archive: March Spring cleaning for the garden 3 March A new bench by the pond 9 March Seedlings on the windowsill 17 March The first tulips 28 March" \
	"$(main listing.html)"
expect_eq "<article>: its heading and paragraphs, not the menu or the aside" \
	"Bread at home Good bread needs only flour, water, salt and time, and a little patience. Mix, rest, fold, shape, and bake in the hottest oven you have. A loaf made this way keeps for three days, wrapped in a cloth, and makes the best toast on the fourth." \
	"$(main article-tag.html)"
expect_eq "role=main: its heading and paragraphs, not contentinfo" \
	"Opening hours The library is open from nine to six on weekdays, and from ten to four on Saturdays. On public holidays it stays closed, but the book return box outside is always open. During the summer holidays the reading room closes an hour earlier, at five, so that the staff can run the children's reading club." \
	"$(main role-main.html)"
expect_eq "windows-1252 page (meta): decoded, euro and quotes right" \
	"The café on the square reopened on Monday, and the first coffee cost one €, as it did in 2002. “We wanted to thank our regulars,” the owner said, pouring the naïve visitors a second cup." \
	"$(main win1252.html)"
expect_eq "windows-1252 from ctype (latin1 label) too" \
	"The café on the square reopened on Monday, and the first coffee cost one €, as it did in 2002. “We wanted to thank our regulars,” the owner said, pouring the naïve visitors a second cup." \
	"$(main win1252.html 'text/html; charset=latin1')"

# The edges of the content: a date and a "last updated" line before the
# first prose are dropped, the title heading and the ingredients list
# (items, not prose) stay; after the last prose, a question, a
# "more recipes" heading and a rating line are dropped.  The whole
# page sits in a wrapper called "above-footer": a name holding over half
# the page's text is layout, not a footer, so the article is found
# rather than the site's note below it.
expect_eq "edges: short lines before and after the prose out, title and list in" \
	"Lentil soup for a cold evening 250 g red lentils 1 onion 2 carrots Rinse the lentils, chop the onion and the carrots, and soften them in a little oil for ten minutes. Add the lentils and a litre of water, then simmer for twenty minutes, until the lentils fall apart. Red lentils need no soaking, which is why this soup is ready in half an hour on a weekday. A spoon of cumin or smoked paprika, fried with the onion, gives it a warmer taste in winter. It keeps for three days in the fridge and thickens as it stands, so add water when you heat it. Season with salt, pepper and a squeeze of lemon, and serve it with warm bread on the side." \
	"$(main edges.html)"
# Trailing link-heavy blocks after the article (a "read more" list) are
# dropped, and so are short lines without a sentence's end around them;
# a last sentence of 30 characters or more stays.
printf '<html><body><div class="post"><p>%s</p><p>%s</p><p>%s</p><p>Thanks for reading, and see you soon.</p><p>Tags: %s</p><ul><li><a href="/1">%s</a></li><li><a href="/2">%s</a></li></ul><p>Share this</p></div></body></html>' \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read." \
	"A second paragraph, just as long, so that the block is the article without any doubt at all." \
	"A third paragraph closes the story, with one more comma, and a full stop at the very end." \
	"<a href=/t/a>walks</a> <a href=/t/b>rivers</a>" "Ten walks along the river this summer" \
	"Council votes on a new wetland reserve" >"$T/trail.html"
expect_eq "trailing tags, link list and share line out; the closing sentence in" \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read. A second paragraph, just as long, so that the block is the article without any doubt at all. A third paragraph closes the story, with one more comma, and a full stop at the very end. Thanks for reading, and see you soon." \
	"$("$P" --html -j0 --main --json "$T/trail.html" | jq -r .main_text)"

# Page builders name every block a widget (Elementor's
# elementor-widget-container): the word says nothing of furniture.
one="A first paragraph long enough to count as prose, with a comma, and some more words to read."
two="A widget's paragraph, just as long, so that the block is the article without any doubt at all."
{
printf '<html><body><div class="post">'
for i in 1 2 3 4 5 6; do printf '<p>%s</p>' "$one"; done
printf '<div class="elementor-widget elementor-widget-container"><p>%s</p><p>%s</p></div></div><footer>Site by us</footer></body></html>' "$two" "$two"
} >"$T/widget.html"
expect_eq "blocks named widget are the article's" \
	"$one $one $one $one $one $one $two $two" \
	"$("$P" --html -j0 --main --json "$T/widget.html" | jq -r .main_text)"

# Text only a screen reader reads is no text a person sees: the CSS
# frameworks' sr-only and visually-hidden (a library's prefix, a BEM
# modifier too) leave main_text; md:not-sr-only shows it again, and
# WordPress's screen-reader-text (WooCommerce's prices in words) stays.
{
	printf '<html><head><meta property="og:type" content="article"></head><body><div class="post"><h1>Mugs</h1><p>%s</p><p>%s</p>' "$one" "$two"
	printf '<p><span class="visually-hidden visually-hidden--inline">Regular price</span> <span>$19.99</span> <span class="tw-sr-only">Unit price</span></p>'
	printf '<p><span class="sr-only md:not-sr-only">Shown on wide screens</span> <span class="screen-reader-text">Original price was: $30.00.</span> <span class="sr-only">Skip</span></p></div></body></html>'
} >"$T/sronly.html"
expect_eq "sr-only and visually-hidden text out; not-sr-only and screen-reader-text in" \
	"Mugs $one $two \$19.99 Shown on wide screens Original price was: \$30.00." \
	"$("$P" --html -j0 --main --json "$T/sronly.html" | jq -r .main_text)"
expect_eq "... and out of the main content's Markdown" "false true" \
	"$("$P" --html -j0 --main --markdown --json "$T/sronly.html" | jq -r '[(.markdown | contains("Regular price")), (.markdown | contains("$19.99"))] | map(tostring) | join(" ")')"

# A box of teasers under the story, each an excerpt cut short with an
# ellipsis under its linked headline ("Latest news"), is other pages'
# text: out, though long and full of commas; the story's own "and
# then..." is a pause, and stays.  On a listing, teasers are entries.
{
	printf '<html><head>%s</head><body><div class="content"><h1>Clerk returns</h1><div class="body"><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p></div><h2>Latest news</h2><div class="more">' \
		'<meta property="og:type" content="article">' "$one" "$two" "$one" "$two" "$one" "The clerk said she had waited, and waited, and then..."
	for i in 1 2 3 4; do
		printf '<article><div class="title"><a href="/n%s">Story %s</a></div><div class="body">Front Page, December 1%s, 2025: the festival was launched on Sunday, with a parade, music and a market through the streets of the town, and the crowd watched as the lights were turned on by the mayor and the choi...</div></article>' "$i" "$i" "$i"
	done
	printf '</div></div></body></html>'
} >"$T/teasers.html"
expect_eq "a box of teasers cut short with an ellipsis out; the story's own ellipsis in" \
	"$one $two $one $two $one The clerk said she had waited, and waited, and then..." \
	"$("$P" --html -j0 --main --json "$T/teasers.html" | jq -r .main_text)"
sed 's|<meta property="og:type" content="article">||' "$T/teasers.html" >"$T/teasers-list.html"
expect_eq "on a listing, the teasers are its entries" "listing 4" \
	"$("$P" --html --base http://example.com/list/news -j0 --main --json "$T/teasers-list.html" |
		jq -r '.page_kind + " " + ([.main_text | scan("Front Page, December 1[1-4]")] | length | tostring)')"

# A word naming a part of the layout (menu, sidebar, footer, ...) on a
# paragraph names no furniture: a script's "contextmenu" class on every
# paragraph of an article; the same word on a block still does.
{
printf '<html><body><article><h1>Bay laurel</h1>'
for i in 1 2 3 4 5 6; do printf '<p>%s</p>' "$one"; done
for i in 1 2 3 4 5 6; do printf '<p class="contextmenu body">%s</p>' "$two"; done
printf '<div class="contextmenu"><p>Right-click to copy this text, or to share it with a friend.</p></div></article></body></html>'
} >"$T/para-menu.html"
expect_eq "paragraphs named menu are the article's, a block named so is not" \
	"Bay laurel $one $one $one $one $one $one $two $two $two $two $two $two" \
	"$("$P" --html -j0 --main --json "$T/para-menu.html" | jq -r .main_text)"

# "print" in a class says how a block prints (Bootstrap's
# d-print-none, Wikipedia's noprint, Stack Overflow's prettyprint code),
# not that it is a print button.
{
printf '<html><body><div class="post">'
for i in 1 2 3 4 5 6; do printf '<p>%s</p>' "$one"; done
printf '<pre class="lang-py prettyprint-override">print("hello")</pre><p class="d-print-none">%s</p></div></body></html>' "$two"
} >"$T/print.html"
expect_eq "blocks named for printing are the article's" \
	"$one $one $one $one $one $one print(\"hello\") $two" \
	"$("$P" --html -j0 --main --json "$T/print.html" | jq -r .main_text)"

# After the last prose, the author's sign-off right after it stays; a
# line with a colon (what follows is a contact or "more on this") ends
# the article.
printf '<html><body><div class="post"><p>%s</p><p>%s</p><p>Euer Hans</p><p>x Franzi</p><p>Kontakt: Presse</p><p>Bis bald</p></div></body></html>' \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read." \
	"A second paragraph, just as long, so that the block is the article without any doubt at all." >"$T/signoff.html"
expect_eq "a sign-off stays, a line with a colon and what follows go" \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read. A second paragraph, just as long, so that the block is the article without any doubt at all. Euer Hans x Franzi" \
	"$("$P" --html -j0 --main --json "$T/signoff.html" | jq -r .main_text)"

# The page's own article is under the heading that names it, even when a
# story of the feed above scores higher: the heading matches the <title>
# through a no-break space, an entity and straight for curly quotes, or
# else the og:title; the standfirst between heading and body joins, as
# it does under the last h1 when no heading names the page.
O="Another report in the feed, longer and with more commas, so that it scores higher, and then some, and more, and more, and more."
B="Otters were seen again on the upper river this spring, volunteers said, after forty years in which none had been counted there."
L="Otters are back on the upper river, volunteers say, after forty years away."
feed="<div class=x><div class=y><p>$O</p><p>$O</p><p>$O</p><p>$O</p><p>$O</p></div></div>"
body="<div class=b><p>$B</p><p>$B</p><p>$B</p><p>$B</p></div>"
printf '<html><head><title>Rivers &amp; otters: the \342\200\234return\342\200\235 | Daily</title></head><body>%s<div class=c><h1>Rivers&nbsp;&amp; otters: the "return"</h1><div class=s><p>%s</p></div>%s</div></body></html>' \
	"$feed" "$L" "$body" >"$T/title.html"
printf '<html><head><title>Otters back | Daily</title><meta property="og:title" content="Otters are back on the upper river"></head><body>%s<div class=c><h1>Otters are back on the upper river</h1>%s</div></body></html>' \
	"$feed" "$body" >"$T/og.html"
printf '<html><head><title>Daily</title></head><body><div class=h><h1>Otters on the river</h1><div class=s><p>%s</p></div></div><div class=w>%s<div class=n><p>Photos by the volunteers.</p></div></div></body></html>' \
	"$L" "$body" >"$T/h1.html"
expect_eq "the article under the title heading, with its lead, not the feed's" \
	"$L $B $B $B $B" "$("$P" --html -j0 --main --json "$T/title.html" | jq -r .main_text)"
expect_eq "the heading named by og:title" \
	"$B $B $B $B" "$("$P" --html -j0 --main --json "$T/og.html" | jq -r .main_text)"
expect_eq "no heading names the page: the lead under the last h1" \
	"$L $B $B $B $B" "$("$P" --html -j0 --main --json "$T/h1.html" | jq -r .main_text)"

# A utility class's variant ("lg:has-[[data-slot=banner]]:pt-0") says
# how a block looks under a condition, not what it is: the sections
# that carry one are content like the one that does not.
{
printf '<html><body><div class="top"><a href="/">Home</a> <a href="/news">News</a></div><section class="stack"><h2>Rivers</h2><p>%s</p><p>%s</p><p>%s</p><p>%s</p></section>' "$B" "$B" "$B" "$B"
for s in Otters Voles Herons; do printf '<section class="stack lg:has-[[data-slot=banner]]:pt-0"><h2>%s</h2><p>%s</p><p>%s</p></section>' $s "$B" "$B"; done
printf '</body></html>'
} >"$T/variant.html"
expect_eq "class variants name nothing" "Rivers $B $B $B $B Otters $B $B Voles $B $B Herons $B $B" \
	"$("$P" --html -j0 --main --json "$T/variant.html" | jq -r .main_text)"

# A landing page's hero ("hero-banner") is its lead, not a banner ad:
# "hero" is a content word, and a weak furniture word yields to it.
printf '<html><body><div class="top"><a href="/">Home</a> <a href="/news">News</a></div><div class="hero-banner"><h1>River tours</h1><p>%s</p></div><section class="stack"><h2>Boats</h2><p>%s</p><p>%s</p><p>%s</p></section></body></html>' \
	"$B" "$B" "$B" "$B" >"$T/hero.html"
expect_eq "a hero banner is content" "River tours $B Boats $B $B $B" \
	"$("$P" --html -j0 --main --json "$T/hero.html" | jq -r .main_text)"

# A comment section named in German is furniture, as one named in
# English; so are an affiliate disclaimer and an ad box in the article.
printf '<html><body><div class="post"><p>%s</p><p>%s</p><div class="tl-ad-box"><p>%s</p></div><p>%s</p><p class="aawp-disclaimer">%s</p><p>%s</p><div id="kommentare"><h2>Kommentar schreiben</h2><p>%s</p></div></div></body></html>' \
	"$B" "$B" "Advertisement: a sponsor's long message, with commas, that is no part of the story at all." "$B" \
	"We earn a commission, at no cost to you, when you buy through the links in this article." "$B" \
	"Ein Leser schreibt einen langen Kommentar, mit Kommas, und mit vielen Worten." >"$T/kommentare.html"
expect_eq "id=kommentare, a disclaimer and an ad box out" "$B $B $B $B" \
	"$("$P" --html -j0 --main --json "$T/kommentare.html" | jq -r .main_text)"

# Preformatted text is content at the edges too: the command that ends a
# how-to stays, the short line after it does not.
printf '<html><body><div class="post"><p>%s</p><p>%s</p><pre>make install</pre><p>Share this</p></div></body></html>' \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read." \
	"A second paragraph, just as long, so that the block is the article without any doubt at all, and then a third sentence that ends with the command:" >"$T/pre.html"
expect_eq "a trailing <pre> stays" \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read. A second paragraph, just as long, so that the block is the article without any doubt at all, and then a third sentence that ends with the command: make install" \
	"$("$P" --html -j0 --main --json "$T/pre.html" | jq -r .main_text)"

# A list in the article whose items link a name (a third of their text)
# stays; a list that is mostly links (a "related" list) goes.
printf '<html><body><div class="post"><p>%s</p><p>%s</p><ul><li><a href="/kp">Kathy Pham</a>, computer scientist at Mozilla</li><li><a href="/hk">Heidy Khlaaf</a>, research consultant at Adelard</li></ul><p>%s</p><ul><li><a href="/r1">Ten walks along the river this summer</a></li><li><a href="/r2">Council votes on a new wetland reserve</a></li></ul></div></body></html>' \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read." \
	"A second paragraph, just as long, introduces the people who spoke at the meeting this year:" \
	"A third paragraph closes the story, with one more comma, and a full stop at the very end." >"$T/names.html"
expect_eq "a list linking a name in each item stays, a list of links goes" \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read. A second paragraph, just as long, introduces the people who spoke at the meeting this year: Kathy Pham, computer scientist at Mozilla Heidy Khlaaf, research consultant at Adelard A third paragraph closes the story, with one more comma, and a full stop at the very end." \
	"$("$P" --html -j0 --main --json "$T/names.html" | jq -r .main_text)"

# Hidden elements are never content.
printf '<html><body><div class="post"><p>%s</p><p style="display: none">secret hidden words</p><p hidden>more hidden words</p><p>%s</p></div></body></html>' \
	"A first paragraph long enough to count as prose, with a comma, and some more words to read." \
	"A second paragraph, just as long, so that the block is the article without any doubt at all." >"$T/hidden.html"
expect_eq "hidden and display:none out" "false" \
	"$("$P" --html -j0 --main --json "$T/hidden.html" | jq '.main_text | contains("hidden")')"

# A page built by scripts shows nothing but serves its posts in a
# <noscript> (for browsers without scripts, and crawlers): main_text and
# the Markdown read it as such a browser does.  A noscript that only
# asks for JavaScript is no content.
printf '<html><body><div id="app">Loading</div><script>start()</script><noscript><header><a href="/">The forum</a></header><div class="thread"><div class="post"><p>%s</p></div><div class="post"><p>%s</p></div><div class="post"><p>%s</p></div></div><footer>Powered by a forum engine</footer></noscript></body></html>' \
	"$B" "$L" "$B" >"$T/noscript.html"
expect_eq "noscript: the posts of a page built by scripts" \
	"$B $L $B" "$("$P" --html -j0 --main --json "$T/noscript.html" | jq -r .main_text)"
expect_eq "noscript: its Markdown too" \
	"$B

$L

$B" "$("$P" --html -j0 --main --markdown --json "$T/noscript.html" | jq -r .markdown)"
printf '<html><body><div id="app"><p>Our shop</p></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>' >"$T/noscript-msg.html"
expect_eq "noscript: a line asking for JavaScript is no content" \
	"Our shop" "$("$P" --html -j0 --main --json "$T/noscript-msg.html" | jq -r .main_text)"

# A manual's tabs: every panel is content, the hidden ones too (a click
# shows them); a hidden element that is not a panel stays out.
{
printf '<html><body><main><h1>Install</h1><p>%s</p><div role="tablist"><button role="tab">Python</button><button role="tab">Go</button></div>' "$B"
printf '<div role="tabpanel"><pre><code>pip install otter</code></pre></div><div role="tabpanel" hidden style="display:none"><pre><code>go get otter</code></pre></div><p hidden>Not shown</p><p>%s</p></main></body></html>' "$L"
} >"$T/tabs.html"
expect_eq "tabs: every panel's code, hidden or not" "Install $B pip install otter go get otter $L" \
	"$("$P" --html -j0 --main --json "$T/tabs.html" | jq -r .main_text)"
expect_eq "tabs: every panel's code block in the Markdown" true \
	"$("$P" --html -j0 --main --markdown --json "$T/tabs.html" | jq '.markdown | contains("```\npip install otter\n```\n\n```\ngo get otter\n```")')"

# An accordion: a panel hidden until its button (aria-controls naming
# it) is pressed is content, as a tab's panel is, and so is one hidden
# by a wrapper of its own (a UI kit's collapse animating its height); a
# hidden element no button controls stays out, and so does a controlled
# panel inside a hidden block holding more than it.
{
printf '<html><body><main><h1>Questions</h1><p>%s</p>' "$B"
printf '<h3><button aria-controls="a1 x" aria-expanded="false">Where are they?</button></h3><div id="a1" role="region" aria-hidden="true"><p>On the upper river, above the old mill.</p></div>'
printf '<h3><button aria-controls="a4" aria-expanded="false">How many?</button></h3><div class="collapse" style="display:none"><div id="a4" role="region"><p>Two, and a cub.</p></div></div>'
printf '<h3><button aria-controls="a5">Who?</button></h3><div style="display:none"><p>Hidden note</p><div id="a5"><p>The volunteers.</p></div></div>'
printf '<h3><button aria-controls="a6">Since?</button></h3><div class="collapse" style="display:none"><div id="a6" hidden><p>Since last March.</p></div></div>'
printf '<h3><button aria-controls="a2" aria-expanded="false">When?</button></h3><div id="a2" hidden><p>In the early morning, in spring.</p></div><div id="a3" hidden><p>Not controlled</p></div><p>%s</p></main></body></html>' "$L"
} >"$T/accordion.html"
expect_eq "accordion: every collapsed answer, not an uncontrolled hidden block" \
	"Questions $B Where are they? On the upper river, above the old mill. How many? Two, and a cub. Since? Since last March. When? In the early morning, in spring. $L" \
	"$("$P" --html -j0 --main --json "$T/accordion.html" | jq -r .main_text)"
expect_eq "accordion: the answers in the Markdown too" true \
	"$("$P" --html -j0 --main --markdown --json "$T/accordion.html" | jq '.markdown | contains("### When?\n\nIn the early morning, in spring.") and (contains("Not controlled") | not)')"

# A button's hidden panel that holds a form field (a search drawer) or
# mostly links (a menu's dropdown) stays hidden.
{
printf '<html><body><main><h1>Questions</h1><p>%s</p>' "$B"
printf '<button aria-controls="s">Search</button><div id="s" hidden><p>Type a word to search the whole site now</p><input name="q"></div>'
printf '<button aria-controls="m">Menu</button><div id="m" hidden><a href="/a">Rivers and lakes</a> <a href="/b">Woods and hills</a></div><p>%s</p></main></body></html>' "$L"
} >"$T/drawers.html"
expect_eq "a search drawer and a menu's dropdown stay hidden" "Questions $B $L" \
	"$("$P" --html -j0 --main --json "$T/drawers.html" | jq -r .main_text)"

# A hidden wrapper holding more text than the page shows, not mostly
# links, is the content a script will show (a shop's lock-down app, an
# anti-flicker wrapper): it is read as shown, in the text and in the
# Markdown; a smaller hidden block (a sign-up box) and a hidden menu's
# many links stay hidden.
{
printf '<html><head><title>Coffee</title></head><body><header><p>Free delivery on every order over forty euros, to any address in the country, this month.</p><p>Join the club and get a tenth of every order back as credit for the next one.</p><p>Our roastery is open to visitors on Saturdays, from nine in the morning to one, with tastings.</p></header>'
printf '<div hidden><p>Sign up now and never miss a roast or a discount again, ever.</p></div><div style="display:none"><ul>'
for i in $(seq 1 30); do printf '<li><a href="/c/%d">Roast number %d</a></li>' $i $i; done
printf '</ul></div><div class="lockdown-content" style="display:none"><h1>Coffee</h1><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p></div></body></html>' "$B" "$L" "$B" "$L" "$B" "$L"
} >"$T/reveal.html"
expect_eq "a hidden wrapper holding most of the page's text is shown" \
	"Coffee $B $L $B $L $B $L" "$("$P" --html -j0 --main --json "$T/reveal.html" | jq -r .main_text)"
expect_eq "a hidden wrapper holding most of the page's text: its Markdown" "# Coffee

$B

$L

$B

$L

$B

$L" "$("$P" --html -j0 --main --markdown --json "$T/reveal.html" | jq -r .markdown)"

# A block of text the page shows twice (once for phones, once for
# desktops) is content once; two blocks alike but for a word (terms for
# two countries) and a short line said twice ("Read more") stay.
T1="Receive a fifth off three skincare products of your choice and a free cleanser with any order of forty pounds or more, shipping excluded."
T2="Receive a fifth off three skincare products of your choice and a free cleanser with any order of fifty dollars or more, shipping excluded."
printf '<html><head><title>Offer</title></head><body><article><h1>Offer</h1><div class="mobile"><p>%s %s</p></div><div class="desktop"><p>%s %s</p></div><p>%s</p><p>%s</p><p>Read more</p><p>%s</p><p>Read more</p></article></body></html>' \
	"$B" "$L" "$B" "$L" "$T1" "$T2" "$L" >"$T/twice.html"
expect_eq "a block shown twice: once; alike blocks and a short line: each" \
	"Offer $B $L $T1 $T2 Read more $L Read more" "$("$P" --html -j0 --main --json "$T/twice.html" | jq -r .main_text)"
expect_eq "a block shown twice: once in the Markdown too" 1 \
	"$("$P" --html -j0 --main --markdown --json "$T/twice.html" | jq -r .markdown | grep -c "^$B")"
# Code and a long inline quote shown twice stay twice: a manual's
# example repeats, and a paragraph quoting a line is another paragraph.
printf '<html><head><title>Loops</title></head><body><article><h1>Loops</h1><p>%s %s</p><pre>for (int i = 0; i < n; i++) total += weights[i] * values[i]; /* the weighted sum of every value the sensor gave */</pre><p>%s</p><pre>for (int i = 0; i < n; i++) total += weights[i] * values[i]; /* the weighted sum of every value the sensor gave */</pre><p>As we said: <em>%s %s</em> And so on.</p></article></body></html>' \
	"$B" "$L" "$L" "$B" "$L" >"$T/twice-code.html"
expect_eq "code and an inline quote shown twice: twice" "2 2" \
	"$("$P" --html -j0 --main --json "$T/twice-code.html" | jq -r '"\([.main_text | scan("the weighted sum")] | length) \([.main_text | scan("Otters were seen again")] | length)"')"
# A long thread: its paragraphs' looks for repeats leave its quotes
# theirs (64 each), so the last post's quote of the first is left out.
{
printf '<html><head><title>Which oak should I buy</title></head><body><h1>Which oak should I buy</h1><div class="thread">'
printf '<div class="post" itemscope itemtype="https://schema.org/DiscussionForumPosting"><p>Which oak should I buy for a workbench top that must stay flat for twenty years, in a damp workshop, with no heating?</p></div>'
i=2; while [ $i -le 70 ]; do printf '<div class="post" itemscope itemtype="https://schema.org/DiscussionForumPosting"><p>Reply %d: any quartersawn white oak, dried slowly over two summers, will stay flat for decades, in a damp and cold shop too, if you seal both of its faces alike and let it rest a month.</p></div>' $i; i=$((i+1)); done
printf '<div class="post" itemscope itemtype="https://schema.org/DiscussionForumPosting"><blockquote>Which oak should I buy for a workbench top that must stay flat for twenty years, in a damp workshop, with no heating?</blockquote><p>Last reply: beech, not oak.</p></div></div></body></html>'
} >"$T/thread-long.html"
expect_eq "a long thread's quote of its first post: once" 1 \
	"$("$P" --html -j0 --main --json "$T/thread-long.html" | jq -r '[.main_text | scan("Which oak should I buy for a workbench")] | length')"
# The hidden element holding the most text is shown only when it is
# not mostly links: a hidden mega-menu larger than the page stays so.
{
printf '<html><head><title>Opening hours</title></head><body><div style="display:none"><ul>'
for i in $(seq 1 60); do printf '<li><a href="/d/%d">Department number %d, on the second floor</a></li>' $i $i; done
printf '</ul></div><main><h1>Opening hours</h1><p>%s</p><p>%s</p></main></body></html>' "$B" "$L"
} >"$T/reveal-menu.html"
expect_eq "a hidden menu holding most of the page's text stays hidden" \
	"Opening hours $B $L" "$("$P" --html -j0 --main --json "$T/reveal-menu.html" | jq -r .main_text)"

# A heading of other pages marks its box only when it starts with the
# phrase ("Bread: next steps" holds "read next"), is not the page's
# title heading, and nothing in the box comes before it.
{
printf '<html><head><title>Related posts in a blog</title></head><body><div class="post"><h2>Related posts in a blog</h2><p>%s</p><p>%s</p>' "$B" "$B"
printf '<div class="steps"><h3>Bread: next steps</h3><p>%s</p></div>' "$L"
printf '<div class="more">%s<h3>Related articles</h3><p>%s</p></div></div></body></html>' "$L" "$B"
} >"$T/phrases.html"
expect_eq "phrases: at a heading's start, not the title heading, nothing before it in its box" \
	"Related posts in a blog $B $B Bread: next steps $L $L Related articles $B" \
	"$("$P" --html -j0 --main --json "$T/phrases.html" | jq -r .main_text)"

# Never empty where the page has text, step by step: the page's text
# without furniture when every block is named so (a page of menus and
# a "sidebar" holding the only words), without its tags' furniture
# (nav, footer) only; then, when all of it is hidden, the rules again
# with hidden elements shown (a framework streams the content into a
# hidden <div> for a script to move), the shown body without
# furniture, and at last all of the body's text.
printf '<html><body><nav><a href="/">Home</a></nav><div class="sidebar">Opening hours: nine to six</div><footer>Copyright</footer></body></html>' >"$T/fb-named.html"
expect_eq "fallback: every block named furniture, its tags' furniture out" 	"Opening hours: nine to six" "$("$P" --html -j0 --main --json "$T/fb-named.html" | jq -r .main_text)"
printf '<html><body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav><template id="B:0"></template><div hidden id="S:0"><article><h1>Streamed</h1><p>%s</p><p>%s</p></article></div><footer>Copyright</footer></body></html>' \
	"$B" "$L" >"$T/fb-stream.html"
expect_eq "fallback: content streamed into a hidden <div>, the rules again" \
	"Streamed $B $L" "$("$P" --html -j0 --main --json "$T/fb-stream.html" | jq -r .main_text)"
expect_eq "fallback: its Markdown too" "# Streamed

$B

$L" "$("$P" --html -j0 --main --markdown --json "$T/fb-stream.html" | jq -r .markdown)"
printf '<html><body><a href="#main">Skip to main content</a><div style="display:none"><article><h1>Moved</h1><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p></article></div></body></html>' \
	"$B" "$B" "$B" "$B" "$B" "$L" >"$T/fb-moved.html"
expect_eq "fallback: a line shown, the rest hidden for a script to move: the rules again" \
	"Moved $B $B $B $B $B $L" "$("$P" --html -j0 --main --json "$T/fb-moved.html" | jq -r .main_text)"
{
printf '<html><body><nav>'
for i in $(seq 1 40); do printf '<a href="/s/%d">Section number %d</a> ' $i $i; done
printf '</nav><div class="sidebar-layout">Opening hours: nine to six, every day but Sunday, at the shop.</div><footer>'
for i in $(seq 1 40); do printf '<a href="/f/%d">Footer link %d</a> ' $i $i; done
printf '</footer></body></html>'
} >"$T/fb-nothing-hidden.html"
expect_eq "fallback: little shown and nothing hidden: the shown text, not the whole body" \
	"Opening hours: nine to six, every day but Sunday, at the shop." \
	"$("$P" --html -j0 --main --json "$T/fb-nothing-hidden.html" | jq -r .main_text)"
printf '<html><body><nav><a href="/">Home</a></nav><div style="visibility:hidden"><div class="menu"><a href="/a">Shop</a></div><span>Open today</span></div></body></html>' >"$T/fb-shown.html"
expect_eq "fallback: the shown body without furniture" \
	"Open today" "$("$P" --html -j0 --main --json "$T/fb-shown.html" | jq -r .main_text)"
printf '<html><body><nav><a href="/">Home</a> <a href="/help">Help</a></nav><footer>Copyright</footer></body></html>' >"$T/fb-all.html"
expect_eq "fallback: a page of furniture only gives all its text" \
	"Home Help Copyright" "$("$P" --html -j0 --main --json "$T/fb-all.html" | jq -r .main_text)"

# A table inside the article whose cells link what they list (laureates
# and their countries) is data, not a menu; a list of links is one.
{
printf '<html><body><article><h1>Laureates</h1><p>%s</p><table><tr><th>Year</th><th>Laureate</th><th>Country</th></tr>' "$B"
for y in 1901 1902 1903; do printf '<tr><td>%d</td><td><a href="/p/%d">Laureate of %d</a></td><td><a href="/c/%d">Country of %d</a></td></tr>' $y $y $y $y $y; done
printf '</table><ul><li><a href="/r/1">Related one</a></li><li><a href="/r/2">Related two</a></li></ul><p>%s</p></article></body></html>' "$L"
} >"$T/table-links.html"
expect_eq "a table of linked names is kept, a list of links is not" \
	"Laureates $B Year Laureate Country 1901 Laureate of 1901 Country of 1901 1902 Laureate of 1902 Country of 1902 1903 Laureate of 1903 Country of 1903 $L" \
	"$("$P" --html -j0 --main --json "$T/table-links.html" | jq -r .main_text)"

# React's streamed parts (Suspense): the server sends a fallback in place
# and the part later in a <div hidden id="S:n">, which a script moves
# into place.  parse does what the script does: a boundary's part
# replaces its fallback (the <template id="B:n"> up to <!--/$-->), a
# segment's replaces its <template id="P:n">, a part holding another's
# template takes it along; text, main_text and Markdown read them in
# place.  A part whose template is inside it, or that has none, stays
# where it is, hidden (text, which reads hidden elements, holds it).
printf '<html><body><article><h1>Streamed parts</h1><p>%s</p><!--$?--><template id="B:0"></template><p>Loading paragraph...</p><!--/$--><h2>Later</h2><template id="P:1"></template></article><div hidden id="S:0"><p>Second: %s</p><template id="P:2"></template></div><div hidden id="S:1"><p>Third: %s</p></div><div hidden id="S:2"><p>Nested: the part inside the second.</p></div><div hidden id="S:3"><p>Orphan part</p></div><div hidden id="S:4"><template id="P:4"></template><p>Self part</p></div></body></html>' \
	"$B" "$L" "$L" >"$T/react-stream.html"
r=$("$P" --html -j0 --main --markdown --json "$T/react-stream.html")
expect_eq "react streaming: each part in place of its fallback or template" \
	"Streamed parts $B Second: $L Nested: the part inside the second. Later Third: $L" \
	"$(printf '%s' "$r" | jq -r .main_text)"
expect_eq "react streaming: text reads the parts in place, not the fallback; those left stay at the end" \
	"Streamed parts $B Second: $L Nested: the part inside the second. Later Third: $L Orphan part Self part" \
	"$(printf '%s' "$r" | jq -r .text)"
expect_eq "react streaming: Markdown in page order" "# Streamed parts

$B

Second: $L

Nested: the part inside the second.

## Later

Third: $L" "$(printf '%s' "$r" | jq -r .markdown)"
# A boundary's part whose number is not the boundary's: the page's
# $RC("B:1","S:2") call says where it goes, and S:1 goes to its segment
# P:1 (React numbers segments and boundaries apart); a part sent inside
# its own boundary's fallback goes in place, whole, and the rest of the
# fallback goes.
printf '<html><body><article><h1>Oak bench</h1><p>%s</p><!--$?--><template id="B:1"></template><p>Loading reviews...</p><!--/$--><h2>Specs</h2><template id="P:1"></template><!--$?--><template id="B:3"></template><p>Loading more...</p><div hidden id="S:3"><p>Care: oil it twice a year.</p><p>Keep it dry.</p></div><!--/$--></article><div hidden id="S:1"><p>Specs: 2 kg, oak and brass.</p></div><script>$RS("S:1","P:1")</script><div hidden id="S:2"><p>Reviews: sturdy and well made.</p></div><script>$RC("B:1","S:2");$RC("B:3","S:3")</script></body></html>' \
	"$B" >"$T/react-calls.html"
expect_eq "react streaming: parts where the page's calls put them" \
	"Oak bench $B Reviews: sturdy and well made. Specs Specs: 2 kg, oak and brass. Care: oil it twice a year. Keep it dry." \
	"$("$P" --html -j0 --main --json "$T/react-calls.html" | jq -r .main_text)"

# A ticker: a marquee repeating one phrase is furniture, as is a row of
# placeholders; a table's column and a list's items that repeat a word
# are content.
{
printf '<html><body><h1>Oak benches made to order</h1><p>%s</p><div class="marquee">' "$B"
i=0; while [ $i -lt 20 ]; do printf '<span>Book now <span>*</span></span>'; i=$((i+1)); done
printf '</div><table><tr><th>Size</th><th>Oiled</th></tr>'
i=1; while [ $i -le 8 ]; do printf '<tr><td>%d m</td><td>Yes</td></tr>' $i; i=$((i+1)); done
printf '</table><ul>'
i=0; while [ $i -lt 8 ]; do printf '<li>Oak</li>'; i=$((i+1)); done
printf '</ul><p>%s</p></body></html>' "$B"
} >"$T/ticker.html"
expect_eq "a ticker is left out; repeats in a table and a list are kept" \
	"Oak benches made to order $B Size Oiled 1 m Yes 2 m Yes 3 m Yes 4 m Yes 5 m Yes 6 m Yes 7 m Yes 8 m Yes Oak Oak Oak Oak Oak Oak Oak Oak $B" \
	"$("$P" --html -j0 --main --json "$T/ticker.html" | jq -r .main_text)"

# Without --main there is no main_text; with --main and --no-text, only main_text.
expect_eq "no --main: no main_text" "null" \
	"$("$P" --html -j0 --json "$F/article.html" | jq -c .main_text)"
expect_eq "--main --no-text: main_text without text" "true null" \
	"$("$P" --html -j0 --main --no-text --json "$F/article.html" | jq -r '(.main_text | startswith("Otters")|tostring) + " " + (.text|tostring)')"
# Workers give the same main_text as in-process.
expect_eq "-j2 equals -j0" \
	"$("$P" --html -j0 --main --json "$F"/*.html | jq -r .main_text)" \
	"$("$P" --html -j2 --main --json "$F"/*.html | jq -sr 'sort_by(.url) | .[].main_text')"
finish
