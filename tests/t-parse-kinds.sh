#!/bin/sh
# parse --main: page_kind says what kind of page a document is, from its
# schema.org types (JSON-LD @type, microdata itemtype), its og:type and
# the code it shows; pages of our own making, one per kind.
. "${TESTS:-$(dirname "$0")}/lib.sh"
P=$BIN/parse

# kind FILE: page_kind of FILE.
kind() {
	"$P" --html -j0 --main --json "$T/$1" | jq -r .page_kind
}
# main FILE: main_text of FILE.
main() {
	"$P" --html -j0 --main --json "$T/$1" | jq -r .main_text
}
# tree FILE: the blocks cmark-gfm reads in the Markdown of FILE's main
# content (tests/mdtree.py).
tree() {
	"$P" --html -j0 --main --markdown --json "$T/$1" | jq -j .markdown | python3 "$TESTS/mdtree.py"
}
nl='
'
# A thread of 12 posts, each a microdata DiscussionForumPosting with its
# author, date and a quote of the post before.
{
printf '<html><head><title>Which wood for a workbench top?</title></head><body><nav><a href="/">Forum</a> <a href="/woodwork">Woodwork</a></nav><h1>Which wood for a workbench top?</h1><div class="thread">'
i=1; while [ $i -le 12 ]; do
	printf '<div class="message" itemscope itemtype="https://schema.org/DiscussionForumPosting"><div class="user"><a href="/u/%d">member%d</a> <time datetime="2024-03-%02d">March %d, 2024</time></div><div class="body">' $i $i $i $i
	[ $i -gt 1 ] && printf '<blockquote>member%d said: post %d asked about oak.</blockquote>' $((i-1)) $((i-1))
	printf '<p>Post %d: I built mine from beech, and after ten years of planing, sawing and gluing it is still flat enough for fine work.</p></div></div>' $i
	i=$((i+1)); done
printf '</div><footer>Forum rules</footer></body></html>'
} >"$T/thread.html"
expect_eq "a thread of 12 posts (microdata DiscussionForumPosting): forum" forum "$(kind thread.html)"
expect_eq "the thread: each post's author line and date" 12 \
	"$("$P" --html -j0 --main --json "$T/thread.html" | jq -r '[.main_text | scan("member[0-9]+ March [0-9]+, 2024 ")] | length')"
expect_eq "the thread: its 12 posts and their quotes" "12 11" \
	"$("$P" --html -j0 --main --json "$T/thread.html" | jq -r '.main_text | "\([scan("Post [0-9]+: I built")] | length) \([scan("said: post")] | length)"')"
# Its Markdown (docs/parse.md "Markdown"): each post a section, a
# thematic break between two, its author line, the quotes block quotes.
want="heading 1: Which wood for a workbench top?"
i=1; while [ $i -le 12 ]; do
	[ $i -gt 1 ] && want="$want${nl}thematic_break"
	want="$want${nl}paragraph: member$i March $i, 2024"
	[ $i -gt 1 ] && want="$want${nl}block_quote${nl}  paragraph: member$((i-1)) said: post $((i-1)) asked about oak."
	want="$want${nl}paragraph: Post $i: I built mine from beech, and after ten years of planing, sawing and gluing it is still flat enough for fine work."
	i=$((i+1)); done
expect_eq "the thread's Markdown: 12 posts, a thematic break between two, quotes" "$want" "$(tree thread.html)"
expect_eq "the thread's Markdown: the breaks spelt ___" 11 \
	"$("$P" --html -j0 --main --markdown --json "$T/thread.html" | jq -j .markdown | grep -c '^___$')"

# A thread whose answer the page also shows above the posts (a solved
# topic's best answer): each paragraph once, the second copy left out
# as a quote repeating an earlier post is; a short line ("+1") repeated
# stays.
{
printf '<html><head><title>Which Qt for Ubuntu 24.04?</title></head><body><h1>Which Qt for Ubuntu 24.04?</h1><div class="thread">'
printf '<div class="best"><p>Ubuntu 24.04 ships Qt 6.4 in its archive; for anything newer, use the online installer, which puts 6.7 beside it without trouble, and keep the archive version for the programs that need it.</p></div>'
for i in 1 2 3 4; do
	printf '<div class="message" itemscope itemtype="https://schema.org/DiscussionForumPosting"><div class="user">member%d</div><div class="body">' $i
	case $i in
	1) printf '<p>Which Qt version will the new Ubuntu release give me, and is it stable enough for an application I ship to customers?</p>' ;;
	2) printf '<p>Ubuntu 24.04 ships Qt 6.4 in its archive; for anything newer, use the online installer, which puts 6.7 beside it without trouble, and keep the archive version for the programs that need it.</p>' ;;
	*) printf '<p>+1</p><p>Thanks, member2: the installer worked for me too, on two machines, and the archive version stays for other programs.</p>' ;;
	esac
	printf '</div></div>'
done
printf '</div></body></html>'
} >"$T/thread-best.html"
expect_eq "a thread's answer shown twice: once; a short line twice: twice" "forum|1|2" \
	"$("$P" --html -j0 --main --json "$T/thread-best.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Ubuntu 24.04 ships Qt 6.4")] | length)|\([.main_text | scan("[+]1 ")] | length)"')"

# A thread whose replies sit in a wrapper beside each post (XenForo's
# nested replies): a box of few commas, over a fifth links (each reply's
# author, Like, Reply, Report), yet holding sentences: its replies are
# posts, not teasers.
{
printf '<html><head><title>LED liftgate lights</title></head><body><h1>LED liftgate lights</h1><div class="thread">'
for i in 1 2 3; do
	printf '<article class="message" itemscope itemtype="https://schema.org/DiscussionForumPosting"><div class="user"><a href="/m/%d">member%d</a> Mar %d, 2025</div><div class="body"><p>Post %d: I fitted the lights to my car in an hour, and they work: plug and play, no tools, no cutting. The wiring is the same as on the older model.</p></div></article>' $i $i $i $i
	printf '<div class="children">'
	for j in 1 2; do printf '<article class="reply"><a href="/m/r%d%d">replier%d%d</a> <a href="/like">Like</a> <a href="/reply">Reply</a> <a href="/report">Report</a><p>Reply %d.%d: mine too. Thanks. Great tip.</p></article>' $i $j $i $j $i $j; done
	printf '</div>'
done
printf '</div></body></html>'
} >"$T/nested.html"
expect_eq "a thread's nested replies kept" "forum|6|3" \
	"$("$P" --html -j0 --main --json "$T/nested.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Reply [0-9].[0-9]: mine too")] | length)|\([.main_text | scan("Post [0-9]:")] | length)"')"

# A thread whose opening post holds the title, and whose replies sit in a
# comment-named block beside it (Vanilla's discussion, then its
# CommentsWrap): the replies are the thread, though readability's
# scores know only the opening post.
{
printf '<html><head><title>The project is ending</title><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"The project is ending"}</script></head><body><nav><a href="/">Home</a> <a href="/categories">Categories</a></nav><main class="content">'
printf '<div class="messagelist discussion"><div class="pagetitle"><h1>The project is ending</h1></div><div class="item"><div class="meta"><a href="/profile/linc">linc</a> March 2025</div><div class="message">'
for i in 1 2 3 4 5 6; do printf '<p>Opening post, paragraph %d: the company has decided to stop updating the open source version, and it will keep hosting the site, so the community keeps what it has, for now.</p>' $i; done
printf '</div></div></div><div class="commentswrap"><h2>Comments</h2><ul class="messagelist comments">'
for i in 1 2 3; do printf '<li class="item itemcomment"><div class="comment"><div class="meta"><a href="/profile/m%d">member%d</a> March 2025</div><div class="message">Reply %d: really sad, but I think we all saw it coming. Good luck to you too, and thanks for the years.</div></div></li>' $i $i $i; done
printf '</ul></div><div class="foot"><a href="/discussions">Back to discussions</a></div></main><footer><a href="/about">About</a></footer></body></html>'
} >"$T/vanilla.html"
expect_eq "a thread's replies named comments beside its opening post: kept" "forum|6|3" \
	"$("$P" --html -j0 --main --json "$T/vanilla.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Opening post, paragraph")] | length)|\([.main_text | scan("Reply [0-9]: really sad")] | length)"')"

# A listing of 30 cards with prices, a JSON-LD ItemList.
{
printf '<html><head><title>Used bikes for sale</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[]}</script></head><body><nav><a href="/">Home</a></nav><h1>Used bikes for sale</h1><ul class="results">'
i=1; while [ $i -le 30 ]; do
	printf '<li class="card"><a href="/bike/%d"><h3>Touring bike number %d</h3></a><p>Steel frame, 28 inch wheels, serviced last spring.</p><span class="price">%d EUR</span></li>' $i $i $((100+i))
	i=$((i+1)); done
printf '</ul></body></html>'
} >"$T/listing.html"
expect_eq "a listing of 30 cards (JSON-LD ItemList): listing" listing "$(kind listing.html)"
expect_eq "the listing: its 30 cards with their prices" 30 \
	"$("$P" --html -j0 --main --json "$T/listing.html" | jq -r '[.main_text | scan("[0-9]+ EUR")] | length')"

# The same listing with each card's author line named "author" (a
# list of papers or books): on a listing the name says whose the item
# is, content; on an article the same line is furniture.
sed 's|<span class="price">|<div class="list-authors">Ada Byron, Charles Babbage</div><span class="price">|g' \
	"$T/listing.html" >"$T/listing-authors.html"
expect_eq "a listing's cards keep their author lines" 30 \
	"$("$P" --html -j0 --main --json "$T/listing-authors.html" | jq -r '[.main_text | scan("Ada Byron, Charles Babbage")] | length')"

# A listing's cards that are no run of alike siblings (a featured one,
# a result after a line of prose): each is a link of a title and a
# line, mostly link text, yet a card (a menu's links hold a word or
# two): both stay.
{
printf '<html><head><title>Tech conferences online</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","name":"Tech conferences online"}</script></head><body><nav><a href="/">Home</a> <a href="/d">Discover</a></nav><main><h1>Tech conferences online</h1><p>Every conference below streams its talks live, and most of them are free, so pick one, register, and join from home.</p>'
printf '<div class="tile"><a href="/e/1">Rust and WebAssembly summit</a><p>Sat, 5 Apr · Online</p></div><p>More, all of them free, and all of them online, this week and next.</p><section class="result"><a href="/e/2">Observability for small teams</a><p>Tue, 8 Apr · Online</p></section>'
printf '</main><footer><a href="/about">About</a></footer></body></html>'
} >"$T/listing-cards.html"
expect_eq "a listing's cards, mostly link text, kept" \
	"listing|Tech conferences online Every conference below streams its talks live, and most of them are free, so pick one, register, and join from home. Rust and WebAssembly summit Sat, 5 Apr · Online More, all of them free, and all of them online, this week and next. Observability for small teams Tue, 8 Apr · Online" \
	"$("$P" --html -j0 --main --json "$T/listing-cards.html" | jq -r '"\(.page_kind)|\(.main_text)"')"

# A collection's grid of products: few commas, a link to each product
# and to its colours, over a fifth link text, as a box of teasers is;
# on a listing or a collection it is the content, beside the buying
# guide below it; the sort bar's links are not.
{
printf '<html><head><title>Desk lamps</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"CollectionPage","name":"Desk lamps"}</script></head><body><nav><a href="/">Shop</a> <a href="/lights">Lights</a></nav><main><h1>Desk lamps</h1><div class="results"><div class="sort">Sort by <a href="?s=p">price</a> <a href="?s=n">name</a></div><div class="grid">'
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do printf '<div class="tile"><a href="/p/%d">Desk lamp %d</a> <a href="/p/%d?c=red">Red</a> <a href="/p/%d?c=oak">Oak</a> <span>%d EUR</span> <span>Steel arm and linen shade</span></div>' $i $i $i $i $((20+i)); done
printf '</div></div><div class="guide"><h2>How to choose a desk lamp</h2><p>A good desk lamp lights your page, not your eyes: pick one with a shade that turns, a warm bulb, and a heavy base, and your evenings of reading, writing or drawing will be longer.</p><p>Measure your desk first, then the height of your eyes above it, and choose an arm that reaches the far corner, so that the light falls where you work, not where you sit.</p></div></main><footer><a href="/legal">Legal</a></footer></body></html>'
} >"$T/grid.html"
expect_eq "a collection's grid kept, with its guide, not its sort bar" "collection|12|1|0" \
	"$("$P" --html -j0 --main --json "$T/grid.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Desk lamp [0-9]+ Red Oak [0-9]+ EUR")] | length)|\([.main_text | scan("Measure your desk")] | length)|\([.main_text | scan("Sort by")] | length)"')"

# The same grid whose cards' text sits in a "product-caption": on a
# listing or a collection a caption is the item's name and price, not
# an image's caption.
sed 's|<div class="tile">|<div class="tile"><div class="product-caption">|g; s|</span></div>|</span></div></div>|g' "$T/grid.html" >"$T/caption.html"
expect_eq "a collection's cards in captions kept" "collection|12" \
	"$("$P" --html -j0 --main --json "$T/caption.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Desk lamp [0-9]+ Red Oak [0-9]+ EUR")] | length)"')"

# A product page: its JSON-LD Product in an @graph, @type an array.
printf '<html><head><title>Trail 2 hiking boot</title><script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"BreadcrumbList"},{"@type":["Product"],"name":"Trail 2 hiking boot","offers":{"@type":"Offer","price":"129.00"}}]}</script></head><body><nav><a href="/">Shop</a> <a href="/boots">Boots</a></nav><main><h1>Trail 2 hiking boot</h1><p class="price">129.00 EUR</p><div class="description"><p>A leather boot for long days on rocky paths, with a stiff sole that keeps your feet fresh after twenty kilometres.</p><p>The lining is waterproof and breathes, so your socks stay dry in wet grass and in summer heat alike.</p></div><table class="specs"><tr><th>Weight</th><td>640 g</td></tr><tr><th>Upper</th><td>Nubuck leather</td></tr><tr><th>Sole</th><td>Rubber, 5 mm lugs</td></tr></table></main><footer>Shipping and returns</footer></body></html>' >"$T/product.html"
expect_eq "a product (JSON-LD @graph, @type an array): product" product "$(kind product.html)"
# A page of parts: its content holds its title, and its edges are parts
# too (the price before the description, the specifications after).
expect_eq "the product: title, price, description and specification table" \
	"Trail 2 hiking boot 129.00 EUR A leather boot for long days on rocky paths, with a stiff sole that keeps your feet fresh after twenty kilometres. The lining is waterproof and breathes, so your socks stay dry in wet grass and in summer heat alike. Weight 640 g Upper Nubuck leather Sole Rubber, 5 mm lugs" \
	"$("$P" --html -j0 --main --json "$T/product.html" | jq -r .main_text)"
# Its customers' reviews (class "review") are not its description; an
# article whose body is named "review" keeps it.
more='<p>The sole is stitched to the upper, so a cobbler can replace it when it wears out, and the laces are waxed cotton.</p><p>Each pair is made in Portugal, in a workshop that has made walking boots since 1952, by hand.</p>'
sed "s|</div><table|$more</div><table|" "$T/product.html" >"$T/product-long.html"
sed 's|</main>|<div class="reviews"><h2>What buyers say</h2><div class="review-item"><p>Comfortable from the first day, and dry after a whole day of rain on the hills.</p></div><div class="review-item"><p>A little narrow for my feet, so I went up half a size, and now they fit well.</p></div></div></main>|' \
	"$T/product-long.html" >"$T/product-reviews.html"
expect_eq "a product's reviews out" \
	"$("$P" --html -j0 --main --json "$T/product-long.html" | jq -r .main_text)" \
	"$("$P" --html -j0 --main --json "$T/product-reviews.html" | jq -r .main_text)"
# A carousel (aria-roledescription, WAI-ARIA's carousel pattern) on a
# product's page shows other products; on an article it is the
# article's own slides.
car='<div role="region" aria-roledescription="carousel" aria-label="Similar boots"><ul><li><h3>Ridge 3 mountain boot</h3><p>A stiff boot in brown leather for scree and snow, with a sole that takes crampons.</p><p>149.00 EUR</p></li><li><h3>Meadow walking shoe</h3><p>A low shoe in grey suede for paths and parks, light enough to pack for a city trip.</p><p>99.00 EUR</p></li></ul></div>'
sed "s|</main>|$car</main>|" "$T/product-long.html" >"$T/product-carousel.html"
expect_eq "a product's carousel out" \
	"$("$P" --html -j0 --main --json "$T/product-long.html" | jq -r .main_text)" \
	"$("$P" --html -j0 --main --json "$T/product-carousel.html" | jq -r .main_text)"
R0="We walked from Abisko to Nikkaluokta in ten days, sleeping in the huts, and met reindeer every morning."
printf '<html><head><title>Ten days on the Kungsleden</title><meta property="og:type" content="article"></head><body><article><h1>Ten days on the Kungsleden</h1><p>%s</p><div role="region" aria-roledescription="carousel"><div class="slide"><p>Day one: the birch forest above Abisko, still wet from the night.</p></div><div class="slide"><p>Day four: the pass at Tjäktja, snow in July.</p></div></div><p>%s</p></article></body></html>' \
	"$R0" "$R0" >"$T/article-carousel.html"
expect_eq "an article's carousel kept" \
	"Ten days on the Kungsleden $R0 Day one: the birch forest above Abisko, still wet from the night. Day four: the pass at Tjäktja, snow in July. $R0" \
	"$("$P" --html -j0 --main --json "$T/article-carousel.html" | jq -r .main_text)"
# A product of variants (a ProductGroup whose hasVariant lists three
# Products) is one product, not a collection of three.
printf '<html><head><title>Trail 2 hiking boot</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"ProductGroup","name":"Trail 2 hiking boot","hasVariant":[{"@type":"Product","size":"41"},{"@type":"Product","size":"42"},{"@type":"Product","size":"43"}],"isRelatedTo":[{"@type":"Product","name":"Ridge 3"}]}</script></head><body><main><h1>Trail 2 hiking boot</h1><p>A leather boot for long days on rocky paths.</p></main></body></html>' >"$T/product-group.html"
expect_eq "a ProductGroup of three variants: product" product "$(kind product-group.html)"
R="We walked two hundred kilometres in these boots, over rock, mud and wet grass, and they kept our feet dry."
printf '<html><head><title>Trail 2 boot review</title><meta property="og:type" content="article"></head><body><div class="review-body"><h1>Trail 2 boot review</h1><p>%s</p><p>%s</p></div></body></html>' \
	"$R" "$R" >"$T/review-article.html"
expect_eq "an article named review keeps its text" "Trail 2 boot review $R $R" \
	"$("$P" --html -j0 --main --json "$T/review-article.html" | jq -r .main_text)"
# What comes before its title is not its content (a page of parts
# starts at its title heading): a delivery offer above the name.
sed 's|<main><h1>|<main><div class="strip"><p>Free delivery on every order over fifty euros, this week only.</p></div><h1>|' \
	"$T/product.html" >"$T/product-strip.html"
expect_eq "the product: nothing before its title heading" \
	"$("$P" --html -j0 --main --json "$T/product.html" | jq -r .main_text)" \
	"$("$P" --html -j0 --main --json "$T/product-strip.html" | jq -r .main_text)"
expect_eq "the product's Markdown: its title, price and specification table" "# Trail 2 hiking boot
129\\.00 EUR
| Weight | 640 g |
| --- | --- |
| Upper | Nubuck leather |
| Sole | Rubber, 5 mm lugs |" \
	"$("$P" --html -j0 --main --markdown --json "$T/product.html" | jq -r '.markdown | split("\n") | map(select(startswith("#") or startswith("|") or startswith("129"))) | join("\n")')"
expect_eq "the listing: its title" true \
	"$("$P" --html -j0 --main --json "$T/listing.html" | jq -r '.main_text | startswith("Used bikes for sale Touring bike number 1 ")')"
# Its Markdown: one list of 30 items, each card's blocks in its item
# (its cards are <li>s, items already: no list inside the items).
want="heading 1: Used bikes for sale${nl}list bullet"
i=1; while [ $i -le 30 ]; do
	want="$want${nl}  item${nl}    heading 3: Touring bike number $i${nl}    paragraph: Steel frame, 28 inch wheels, serviced last spring.${nl}    paragraph: $((100+i)) EUR"
	i=$((i+1)); done
expect_eq "the listing's Markdown: a list of its 30 cards, each with its title and price" "$want" "$(tree listing.html)"

# A collection whose grid sits inside wrappers (a row inside its
# container), each card mostly links (its name, "Details"): the grid is
# found as the content's parts, looked for through the wrappers, and
# kept under the title without the site's box after it.
{
printf '<html><head><title>Automatic watches - Stauer</title><meta property="og:type" content="product.group"></head><body><nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/help">Help</a></nav><div class="container"><h1>Automatic watches</h1><div class="wrap"><div class="row">'
for w in Griffin Ritorno Graves Dashtronic Skeleton Guitar Ranger Pilot Diver Explorer Mariner Falcon; do
	printf '<div class="col"><div class="name"><a href="/w/%s">Stauer %s automatic watch</a></div><span>Item# 17475 $399.00 $199.00</span> <a href="/d/%s">Details</a></div>' $w $w $w
done
printf '</div></div></div><div class="about"><p>Stauer was founded in 1994, sells watches, jewelry and knives by mail, and ships from Minnesota to every state.</p></div><footer>Shipping</footer></body></html>'
} >"$T/nested-grid.html"
r=$(main nested-grid.html)
expect_eq "a grid inside wrappers: its 12 cards" 12 "$(printf '%s' "$r" | grep -o 'automatic watch Item# 17475 \$399.00 \$199.00 Details' | wc -l | tr -d ' ')"
expect_eq "a grid inside wrappers: under its title, without the box after it" "Automatic watches Stauer Griffin|every state: no" \
	"$(printf '%s' "$r" | cut -c1-32)|every state: $(case $r in *"every state"*) echo yes;; *) echo no;; esac)"

# A product's sections, alike, one of them holding most of the text:
# they are a run of parts (each section's link kept) before that one is
# a wrapper to look into.
long3='This sentence describes the product in detail, with care, and at length.'
{
printf '<html><head><title>Widget</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Widget"}</script></head><body><div itemprop="articleBody"><section class="s"><h2>Part</h2><p>'
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do printf '%s ' "$long3"; done
printf '</p><div><a href="/first">Download the first guide here</a></div></section>'
for w in second third; do printf '<section class="s"><h2>Part</h2><p>Short text about the %s thing, it is fine.</p><div><a href="/%s">Download the %s guide here</a></div></section>' $w $w $w; done
printf '</div></body></html>'
} >"$T/parts-big.html"
expect_eq "alike sections, one holding most of the text: all three are parts" 3 \
	"$(main parts-big.html | grep -o 'Download the [a-z]* guide here' | wc -l | tr -d ' ')"

# A collection whose grid is not the block the rules chose (its
# category's prose is), each card mostly short links (its name, "Add to
# cart", "Wish list") inside wrappers: a run of alike cards, each
# holding blocks, is a grid and content however much of it is links; a
# list of links beside it (each item a link alone) stays a menu.
{
tools='Good tools last a lifetime, and these are the ones we use ourselves, in our own gardens, every week of the year, in rain or sun.'
printf '<html><head><title>Garden tools</title><meta property="og:type" content="product.group"></head><body><main><h1>Garden tools</h1><div class="intro"><p>%s</p><p>%s</p></div><div class="products wrapper"><ol class="items">' "$tools" "$tools"
for t in Trug Dibber Hoe Rake Spade Fork Sieve Twine Gloves Kneeler Shears Trowel; do
	printf '<li class="item"><div class="name"><a href="/p/%s">%s</a></div><div class="price">$24</div><div class="actions"><a href="/cart/%s">Add to cart</a> <a href="/wish/%s">Wish list</a></div></li>' $t $t $t $t
done
printf '</ol></div><ul class="also">'
for t in Seeds Pots Soil Hoses; do printf '<li><a href="/c/%s">%s and more %s</a></li>' $t $t $t; done
printf '</ul></main></body></html>'
} >"$T/grid-beside.html"
r=$(main grid-beside.html)
expect_eq "a grid of cards of short links beside the chosen block: its 12 cards, not the menu" "12 0" \
	"$(printf '%s' "$r" | grep -o '\$24 Add to cart Wish list' | wc -l | tr -d ' ') $(printf '%s' "$r" | grep -o 'and more' | wc -l | tr -d ' ')"

# The same page saying nothing of its kind (no og:type, no schema.org
# type, no word of its URL): a grid whose cards show prices is a shop's,
# content; the same grid without prices is links to other pages (an
# article's "read next"), not content.
sed 's|<meta property="og:type" content="product.group">||' "$T/grid-beside.html" >"$T/grid-unsaid.html"
sed 's|\$24|24,00 €|g' "$T/grid-unsaid.html" >"$T/grid-euro.html"
sed 's|<div class="price">$24</div>||g' "$T/grid-unsaid.html" >"$T/grid-unpriced.html"
expect_eq "a grid of priced cards on a page of no kind: kept (dollars, euros); unpriced: not" \
	"other 12 other 12 other 0" \
	"$(for f in grid-unsaid grid-euro grid-unpriced; do "$P" --html -j0 --main --json "$T/$f.html" | jq -r '.page_kind + " " + ([.main_text | scan("Wish list")] | length | tostring)'; done | tr '\n' ' ' | sed 's/ $//')"

# The same grid whose cards' names and prices sit in a "caption": on a
# priced grid, as on a collection, a card's caption is the item's name
# and price, not a figure's caption.
sed 's|<div class="name">\(<a [^>]*>[A-Za-z]*</a>\)</div><div class="price">\$24</div>|<div class="card-caption">\1 <span>$24</span></div>|g' \
	"$T/grid-unsaid.html" >"$T/grid-caption.html"
expect_eq "a priced grid's cards with captions on a page of no kind: names and prices kept" "other 12" \
	"$("$P" --html -j0 --main --json "$T/grid-caption.html" | jq -r '.page_kind + " " + ([.main_text | scan("[A-Z][a-z]+ [$]24 Add to cart")] | length | tostring)')"

# The same shop's page saying og:type article (a CMS's default) and no
# schema.org type: an article by its og:type alone, whose priced grid is
# a shop's; the same page whose JSON-LD says Article keeps it out.
{
printf '<html><head><title>Garden tools</title><meta property="og:type" content="article"></head><body><main><h1>Garden tools</h1><p>%s</p><p>%s</p><div class="products"><ol class="items">' "$tools" "$tools"
for t in Trug Dibber Hoe Rake Spade Fork Sieve Twine Gloves Kneeler Shears Trowel; do
	for m in Acme Bolt; do
		printf '<li class="item"><div class="name"><a href="/p/%s%s">%s %s</a></div><div class="price">$24</div><div class="actions"><a href="/cart/%s">Add to cart</a> <a href="/wish/%s">Wish list</a></div></li>' $m $t $m $t $t $t
	done
done
printf '</ol></div></main></body></html>'
} >"$T/grid-ogart.html"
sed 's|<meta property="og:type" content="article">|<script type="application/ld+json">{"@type":"Article","headline":"Garden tools"}</script>|' \
	"$T/grid-ogart.html" >"$T/grid-ldart.html"
expect_eq "a priced grid on a page og:type calls an article: kept; on a typed Article: not" \
	"article 24 article 0" \
	"$(for f in grid-ogart grid-ldart; do "$P" --html -j0 --main --json "$T/$f.html" | jq -r '.page_kind + " " + ([.main_text | scan("Wish list")] | length | tostring)'; done | tr '\n' ' ' | sed 's/ $//')"

# A grid of priced cards whose links are a short name each, under half
# of its text (a maker's line beside each): a box that the cleaning of
# step 6 drops (over a fifth links, few commas), yet a shop's grid.
{
printf '<html><head><title>Garden tools</title></head><body><main><h1>Garden tools</h1><div class="intro"><p>%s</p><p>%s</p></div><div class="products"><div class="grid">' "$tools" "$tools"
for t in Trug Dibber Hoe Rake Spade Fork Sieve Twine Gloves Kneeler Shears Trowel; do
	printf '<div class="card"><a href="/p/%s">%s</a><div>Maker: Acme</div><div class="price">$24</div></div>' $t $t
done
printf '</div></div></main></body></html>'
} >"$T/grid-named.html"
expect_eq "a grid of priced cards under half links on a page of no kind: kept" "other 12" \
	"$("$P" --html -j0 --main --json "$T/grid-named.html" | jq -r '.page_kind + " " + ([.main_text | scan("Maker: Acme [$]24")] | length | tostring)')"

# The same page saying og:type product, as shops say on their category
# pages too: a product by its og:type alone, whose grid is content; the
# same grid on a page whose JSON-LD says Product stays a box of links.
sed 's|content="product.group"|content="product"|' "$T/grid-beside.html" >"$T/grid-og.html"
sed 's|<meta property="og:type" content="product.group">|<script type="application/ld+json">{"@type":"Product","name":"Garden tools"}</script>|' \
	"$T/grid-beside.html" >"$T/grid-typed.html"
expect_eq "a grid on a page og:type calls a product: kept; on a typed Product: not" "product 12 product 0" \
	"$(for f in grid-og grid-typed; do "$P" --html -j0 --main --json "$T/$f.html" | jq -r '.page_kind + " " + ([.main_text | scan("Add to cart")] | length | tostring)'; done | tr '\n' ' ' | sed 's/ $//')"

# The same product with a carousel of other products under "You may
# also like" (its cards alike, each a link, a blurb and a price): the box a
# heading of other pages titles is furniture.
{
sed 's|</main>|<div class="rail"><div class="rail-head"><h2>You may also like</h2></div><div class="cards">|' "$T/product.html" | sed 's|<footer>.*||'
for b in Summit Ridge; do printf '<div class="card"><a href="/b/%s">%s 3</a><p>A walking boot, soft, light and warm, for winter walks, in brown, black or grey leather, with a rubber sole.</p><span>99.00 EUR</span></div>' $b $b; done
printf '</div></div></main><footer>Shipping and returns</footer></body></html>'
} >"$T/product-rail.html"
expect_eq "a product's \"You may also like\" carousel out" \
	"$("$P" --html -j0 --main --json "$T/product.html" | jq -r .main_text)" \
	"$("$P" --html -j0 --main --json "$T/product-rail.html" | jq -r .main_text)"

# A service page of five sections, JSON-LD Service.
{
printf '<html><head><title>Garden design</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Service","name":"Garden design"}</script></head><body><header><nav><a href="/">Home</a> <a href="/contact">Contact</a></nav></header>'
for s in Planning Planting Paving Lighting Care; do
	printf '<section><h2>%s</h2><p>Our team takes care of %s for gardens of every size, from a city courtyard to a country estate.</p></section>' $s $s
done
printf '<footer>Call us</footer></body></html>'
} >"$T/service.html"
expect_eq "a service page (JSON-LD Service): service" service "$(kind service.html)"
expect_eq "the service page: its five sections" 5 \
	"$("$P" --html -j0 --main --json "$T/service.html" | jq -r '[.main_text | scan("Our team takes care")] | length')"

# The same page with its legal fine print under a "Disclaimers" heading:
# the box that heading titles is furniture.
sed 's|<footer>|<div class="notes"><h3>Disclaimers</h3><p>Prices shown are estimates, exclude taxes and may change without notice; results vary, and past results do not promise future ones.</p></div><footer>|' \
	"$T/service.html" >"$T/service-fine.html"
expect_eq "the service page's disclaimers out" \
	"$("$P" --html -j0 --main --json "$T/service.html" | jq -r .main_text)" \
	"$("$P" --html -j0 --main --json "$T/service-fine.html" | jq -r .main_text)"

# A service page whose sections are cards (a link around a title and a
# line): the rules keep its introduction, one part, and the page shows
# more, its cards: the content is all of it, without the menus.
{
printf '<html><head><title>Cloud backup for small firms</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Service","name":"Cloud backup"}</script></head><body><header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/login">Log in</a></nav></header><main><h1>Cloud backup for small firms</h1><div class="intro"><p>We back up every laptop, server and shared drive of your firm each night, encrypt it on your premises, and keep thirty days of versions in two data centres, so that a stolen laptop, a failed disk or a ransomware attack costs you an afternoon, not your business.</p><p>Restores take minutes: pick a file, a folder or a whole machine, and a date, and we bring it back where it was, or to a new machine of yours.</p></div><div class="grid">'
for f in Laptops Servers Mailboxes Databases Phones Websites; do printf '<a class="tile" href="/%s"><h3>Backup for %s</h3><p>Nightly, encrypted, thirty days of versions kept, restored in minutes.</p></a>' $f $f; done
printf '</div></main><footer><a href="/legal">Legal</a></footer></body></html>'
} >"$T/service-cards.html"
expect_eq "a service page's cards are its sections" \
	"service|Cloud backup for small firms We back up|6|0" \
	"$("$P" --html -j0 --main --json "$T/service-cards.html" | jq -r '"\(.page_kind)|\(.main_text[0:39])|\([.main_text | scan("Backup for [A-Z][a-z]+ Nightly")] | length)|\([.main_text | scan("Pricing|Legal")] | length)"')"

# A page that says it is an article by its og:type only (a CMS's
# default) and whose rules keep its introduction, under 0.3 of what it
# shows, kept one part: its content is all it shows. A page whose
# schema.org type says so (an Article in JSON-LD) keeps the rules' text
# down to 0.2.
# gardens HEAD: the page, HEAD in its <head>.
gardens() {
	printf '<html><head><title>Gardens by Rowan</title>%s</head><body><nav><a href="/">Home</a> <a href="/contact">Contact</a></nav><div class="intro"><h1>Gardens by Rowan</h1>' "$1"
	printf '<p>We plan, build and look after gardens in the city and around it, from a courtyard of a few square metres to a park, and we have done so, season after season, for thirty years.</p>'
	printf '<p>Every garden starts with a visit, a walk, a cup of tea and a sketch, then a plan, a price, and a date, and we keep to all three, whatever the weather, the soil or the neighbours say.</p></div><div class="offer">'
	for s in Planting Paving Lighting Ponds Lawns Hedges Trees Walls Fences Decks Beds Paths; do
		printf '<div class="box"><h3>%s</h3><p>Our team does %s for every garden we make: ask us for a visit and a plan</p></div>' $s $s
	done
	printf '</div></body></html>'
}
gardens '<meta property="og:type" content="article">' >"$T/gardens-og.html"
gardens '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Gardens by Rowan"}</script>' >"$T/gardens-ld.html"
expect_eq "og:type article only, a fourth kept: all the page shows, not its menu" "article|12|0" \
	"$("$P" --html -j0 --main --json "$T/gardens-og.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Our team does")] | length)|\([.main_text | scan("Contact")] | length)"')"
expect_eq "a JSON-LD Article, a fourth kept: the rules' text" "article|0" \
	"$("$P" --html -j0 --main --json "$T/gardens-ld.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Our team does")] | length)"')"

# A manual page with three code blocks and no schema.org type.
{
printf '<html><head><title>sort - sort lines</title></head><body><nav><a href="/">Manual</a></nav><div class="doc"><h1>sort</h1><p>sort writes the lines of its input in order; several options change the order.</p>'
for o in -n -r -u; do printf '<h2>%s</h2><p>The option %s changes what sort compares.</p><pre>sort %s file.txt</pre>' $o $o $o; done
printf '</div></body></html>'
} >"$T/docs.html"
expect_eq "a manual page with code: docs" docs "$(kind docs.html)"
expect_eq "the manual page: its code" 3 \
	"$("$P" --html -j0 --main --json "$T/docs.html" | jq -r '[.main_text | scan("sort -[nru] file.txt")] | length')"

# A manual's page of alike sections (AsciiDoc's sect1, no <main>): its
# options, many paragraphs, outweigh each other section, yet every
# section is the page.
{
printf '<html><head><title>tar(1)</title></head><body><nav><a href="/">Manual</a> <a href="/man1">Section 1</a></nav><div id="content"><h1>tar(1)</h1>'
printf '<div class="sect1"><h2>DESCRIPTION</h2><div class="sectionbody"><p>tar saves many files together into a single archive, and can restore them from it.</p><pre>tar -cf archive.tar foo bar</pre></div></div>'
printf '<div class="sect1"><h2>OPTIONS</h2><div class="sectionbody">'
for o in create extract list append update delete compare; do printf '<p><code>--%s</code>: the %s operation works on the archive named by the file option, and reads the members named after it.</p>' $o $o; done
printf '<pre>tar --list -f archive.tar</pre></div></div>'
printf '<div class="sect1"><h2>SEE ALSO</h2><div class="sectionbody"><p>cpio(1), gzip(1), and the full manual in info tar.</p><pre>info tar</pre></div></div>'
printf '</div><footer>Last change 2024</footer></body></html>'
} >"$T/docs-sections.html"
expect_eq "a manual of alike sections: each of its three" \
	"docs|DESCRIPTION tar saves|OPTIONS --create|SEE ALSO cpio(1)" \
	"$("$P" --html -j0 --main --json "$T/docs-sections.html" | jq -r '[.page_kind, (.main_text | scan("DESCRIPTION tar saves|OPTIONS --create|SEE ALSO cpio\\(1\\)"))] | join("|")')"

# A manual's overview links to its chapters: the list of links in its
# text is content (as a listing's cards are), the menu beside it not.
{
printf '<html><head><title>Data types</title></head><body><nav><a href="/">Docs</a> <a href="/a">API</a> <a href="/b">Blog</a></nav><div class="doc"><h1>Data types</h1><p>The store holds five kinds of value; each chapter below covers one, with its commands.</p><pre>SET key value</pre><p>A string holds up to 512 megabytes of bytes, text or binary, and the commands read, write, count and append.</p><pre>LPUSH key value</pre><p>A list keeps its values in the order they came, and a client blocks on it, waiting, as on a queue.</p><pre>SADD key member</pre><p>A set holds each member once, and the store intersects, unites and subtracts sets on the server.</p><h2>Chapters</h2><ul>'
for t in strings lists sets hashes streams; do printf '<li><a href="/%s">Overview of the store'"'"'s %s</a> - <a href="/%s/cmd">The %s command reference</a></li>' $t $t $t $t; done
printf '</ul></div></body></html>'
} >"$T/docs-links.html"
expect_eq "a manual's list of links to its chapters kept" "docs 5" \
	"$("$P" --html -j0 --main --json "$T/docs-links.html" | jq -r '"\(.page_kind) \([.main_text | scan("Overview of the store.s [a-z]+ - The [a-z]+ command reference")] | length)"')"

# A manual repeats a parameter's line wherever it is taken: both stay,
# unlike a block a page shows twice.
A="amount: a positive integer, the sum to charge in the smallest unit of the currency (100 cents to charge 1.00 dollar), at least 50 cents, at most eight digits, and never a fraction."
printf '<html><head><title>Charges</title></head><body><div class="doc"><h1>Charges</h1><h2>Create a charge</h2><pre>POST /v1/charges</pre><p>%s</p><h2>Update a charge</h2><pre>POST /v1/charges/:id</pre><p>%s</p><h2>Capture a charge</h2><pre>POST /v1/charges/:id/capture</pre><p>Captures the payment of a charge created before with capture set to false.</p></div></body></html>' \
	"$A" "$A" >"$T/docs-repeat.html"
expect_eq "a manual's repeated parameter line: twice" "docs 2" \
	"$("$P" --html -j0 --main --json "$T/docs-repeat.html" | jq -r '"\(.page_kind) \([.main_text | scan("amount: a positive integer")] | length)"')"

# A manual's page is its <main> whole: the introduction in its header
# scores above the reference sections of its body (a term and a line
# each), which join it; a term that is a link is no menu.
I="The socket object gives the interface for making and managing a connection to a server, and for sending and receiving data on it, with events for each change of state."
I2="Each socket holds one connection, from the handshake to the close, and queues what you send until the server has read it."
D="Returns a new socket, open to the address it is given, once the server has answered and agreed to talk."
{
printf '<html><head><title>Socket</title></head><body><div class="top"><a href="/">Home</a> <a href="/docs">Docs</a></div><main><div class="header"><h1>Socket</h1><section><p>%s</p><p>%s</p></section></div><div class="body">' "$I" "$I2"
for s in Constructor Properties Methods; do printf '<section><h2>%s</h2><dl><dt><a href="/x"><code>Socket.%s()</code></a></dt><dd>%s</dd></dl></section>' $s $s "$D"; done
printf '</div></main><footer><a href="/about">About</a></footer></body></html>'
} >"$T/docs-main.html"
expect_eq "a manual's page: its <main> whole, introduction and reference" \
	"docs|Socket $I $I2 Constructor Socket.Constructor() $D Properties Socket.Properties() $D Methods Socket.Methods() $D" \
	"$("$P" --html --base https://example.com/docs/api/socket -j0 --main --json "$T/docs-main.html" | jq -r '"\(.page_kind)|\(.main_text)"')"

# A listing whose parts are quotes: each keeps its own form, a quote,
# as only plain containers become items.
{
printf '<html><head><title>What readers say</title><script type="application/ld+json">{"@type":"ItemList"}</script></head><body><h1>What readers say</h1><div class="quotes">'
for w in oak beech ash elm; do printf '<blockquote class="q"><p>Reader of the %s chapter: %s</p></blockquote>' $w "$(printf '%s ' $w $w $w $w $w $w $w $w $w $w $w $w $w $w $w $w $w $w)"; done
printf '</div></body></html>'
} >"$T/quote-parts.html"
expect_eq "a listing's parts that are quotes stay quotes in the Markdown" "4 0" \
	"$("$P" --html -j0 --main --markdown --json "$T/quote-parts.html" | jq -r '.markdown | "\([scan("(?m)^> Reader of")] | length) \([scan("(?m)^- ")] | length)"')"

# A product's alike sections stay sections in the Markdown, not a list
# (a listing's cards are one).
{
printf '<html><head><title>Wool runner</title><meta property="og:type" content="product"></head><body><main><h1>Wool runner</h1>'
for f in Details Materials Care; do printf '<div class="feature"><h2>%s</h2><p>Soft merino wool that keeps its shape, washes well and stays fresh through a long summer of walking.</p></div>' $f; done
printf '</main></body></html>'
} >"$T/product-sections.html"
expect_eq "a product's alike sections: sections in the Markdown, no list" "## Details|## Materials|## Care" \
	"$("$P" --html -j0 --main --markdown --json "$T/product-sections.html" | jq -r '[.markdown | scan("(?m)^[-*]? ?## [^\n]*")] | join("|")')"

# og:type says article, or a group of products; an FAQ's questions are
# not a forum's; a JSON-LD block that is not JSON says nothing (the
# metadata reader skips it); a page saying nothing is other.
printf '<html><head><title>A walk</title><meta property="og:type" content="article"></head><body><p>We walked along the river on Sunday, and the otters were out again, to everyone'"'"'s joy.</p></body></html>' >"$T/article.html"
printf '<html><head><title>Boots</title><meta property="og:type" content="product.group"></head><body><h1>Boots</h1><p>Trail 2, Trail 3, City walker</p></body></html>' >"$T/collection.html"
printf '<html><head><title>Welcome</title><script type="application/ld+json">{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Open?"}]}</script></head><body><p>Welcome to our shop.</p></body></html>' >"$T/faq.html"
printf '<html><head><title>Broken</title><script type="application/ld+json">{"@type": [ "Product" , "Thing", "unterminated</script></head><body><p>A page.</p></body></html>' >"$T/broken.html"
printf '<html><head><title>Plain</title></head><body><p>Hello.</p></body></html>' >"$T/plain.html"
expect_eq "og:type article: article" article "$(kind article.html)"
expect_eq "og:type product.group: collection" collection "$(kind collection.html)"
expect_eq "an FAQPage's Question: not forum" other "$(kind faq.html)"
expect_eq "a broken JSON-LD block: says nothing" other "$(kind broken.html)"
expect_eq "nothing said: other" other "$(kind plain.html)"
# Pages of parts, docs/parse.md.  Alike siblings: the chosen block is
# one card of five (same tag, same first class word); the content is all
# of them, each card's linked title too (not a box of teasers).
{
printf '<html><head><title>Cabins to rent</title><script type="application/ld+json">{"@type":"ItemList"}</script></head><body><nav><a href="/">Home</a> <a href="/cabins">Cabins</a></nav><div class="list">'
printf '<div class="entry e1"><h2><a href="/c/1">Cabin by the lake</a></h2><p>A wooden cabin on the shore, with a sauna, a rowing boat and a stove, for four people, open all year, quiet, far from the road, with a jetty for swimming and fishing.</p></div>'
for i in 2 3 4 5; do printf '<div class="entry e%d"><h2><a href="/c/%d">Cabin number %d</a></h2><p><a href="/c/%d">Two rooms</a>, 80 EUR a night.</p></div>' $i $i $i $i; done
printf '</div><aside><a href="/about">About us</a></aside></body></html>'
} >"$T/cards.html"
want="Cabin by the lake A wooden cabin on the shore, with a sauna, a rowing boat and a stove, for four people, open all year, quiet, far from the road, with a jetty for swimming and fishing."
for i in 2 3 4 5; do want="$want Cabin number $i Two rooms, 80 EUR a night."; done
expect_eq "alike siblings: every card with its linked title" "$want" \
	"$(main cards.html)"
want="heading 1: Cabins to rent${nl}list bullet${nl}  item${nl}    heading 2: Cabin by the lake${nl}    paragraph: A wooden cabin on the shore, with a sauna, a rowing boat and a stove, for four people, open all year, quiet, far from the road, with a jetty for swimming and fishing."
for i in 2 3 4 5; do want="$want${nl}  item${nl}    heading 2: Cabin number $i${nl}    paragraph: Two rooms, 80 EUR a night."; done
expect_eq "alike siblings: each card an item of a list in the Markdown, its heading in it" "$want" "$(tree cards.html)"
# A list right after the cards takes the other marker, so that it stays
# a list of its own.
sed 's|</div><aside>|<ul><li>Pets welcome</li><li>Linen included</li></ul></div><aside>|' "$T/cards.html" >"$T/cards-list.html"
expect_eq "alike siblings: a list after the cards' list stays apart" \
	"$want${nl}list bullet${nl}  item${nl}    paragraph: Pets welcome${nl}  item${nl}    paragraph: Linen included" \
	"$(tree cards-list.html)"
# An article with alike sections: no page of parts, its Markdown as
# ever, sections under their headings.
{
printf '<html><head><title>Three walks</title><meta property="og:type" content="article"></head><body><h1>Three walks</h1>'
for w in river hill forest; do printf '<div class="walk"><h2>By the %s</h2><p>We set out early along the %s, stopped for lunch at noon, and came back before dark, tired and happy.</p></div>' $w $w; done
printf '</body></html>'
} >"$T/walks.html"
want="heading 1: Three walks"
for w in river hill forest; do want="$want${nl}heading 2: By the $w${nl}paragraph: We set out early along the $w, stopped for lunch at noon, and came back before dark, tired and happy."; done
expect_eq "an article of alike sections: article, its Markdown sections, no list" "article|$want" \
	"$(kind walks.html)|$(tree walks.html)"

# Threads: the replies are in "comment" elements, furniture elsewhere,
# posts on a forum page.
long='I use a coarse stone first, then a fine one, and a strop with green paste at the end, and I keep the angle with a guide.'
{
printf '<html><head><title>Sharpening a plane iron</title><script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Sharpening a plane iron"}</script></head><body><h1>Sharpening a plane iron</h1><div class="post"><span class="who">member0</span>'
for i in 1 2 3 4 5; do printf '<p>%s</p>' "$long"; done
printf '</div>'
for i in 1 2 3 4; do printf '<div class="comment"><span class="who">member%d</span><p>Reply %d: a diamond plate keeps flat, and a strop with green paste does the rest.</p></div>' $i $i; done
printf '<footer>Forum rules</footer></body></html>'
} >"$T/comments.html"
want="Sharpening a plane iron member0 $long $long $long $long $long"
for i in 1 2 3 4; do want="$want member$i Reply $i: a diamond plate keeps flat, and a strop with green paste does the rest."; done
expect_eq "a thread: its comments are its posts" "$want" \
	"$(main comments.html)"

# Comments on posts: a question and two answers, each with a list of
# short comments under it (Stack Exchange's shape), give the posts
# without the comments; one post whose replies are named "comment" in
# a wrapper beside it keeps them (the rule needs two posts, and a
# sidebar's box of recent comments is none).
q='Which finish keeps a workbench top from staining, yet stays easy to renew when it wears through after years of use?'
a='Boiled linseed oil, three thin coats a day apart, wiped off after ten minutes; renew it with one more coat each spring.'
{
printf '<html><head><title>Workbench finish</title><script type="application/ld+json">{"@type":"QAPage"}</script></head><body><h1>Workbench finish</h1>'
for p in "$q" "$a" "$a"; do
	printf '<div class="post"><div class="body"><p>%s</p><p>%s</p></div><div class="comments"><ul>' "$p" "$p"
	for i in 1 2 3; do printf '<li class="comment">Comment %d: good point, thanks.</li>' $i; done
	printf '</ul></div></div>'
done
printf '</body></html>'
} >"$T/qa.html"
expect_eq "a Q&A thread: comments on its posts are left out" \
	"Workbench finish $q $q $a $a $a $a" "$(main qa.html)"
# The same by schema.org alone (Stack Exchange's microdata): a Comment
# inside a Question or an Answer is a comment on it, whatever its weight
# beside the post (a short question under a long discussion), and
# leaves; a Comment inside a DiscussionForumPosting is a reply, and
# stays.
long_c='I tried exactly this on my own bench, and after two winters in a cold shed the oil went sticky, so I would not recommend it.'
{
printf '<html><head><title>Workbench finish</title></head><body><h1>Workbench finish</h1><div itemscope itemtype="https://schema.org/QAPage">'
for t in Question Answer Answer; do
	[ $t = Question ] && p="$q" || p="$a"
	printf '<div itemprop="mainEntity" itemscope itemtype="https://schema.org/%s"><div itemprop="text"><p>%s</p><p>%s</p></div><ul>' $t "$p" "$p"
	for i in 1 2 3 4; do printf '<li itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="text">%s</span> <a href="/u/%d">member%d</a></li>' "$long_c" $i $i; done
	printf '</ul></div>'
done
printf '</div></body></html>'
} >"$T/qa-micro.html"
expect_eq "a Q&A thread by microdata: comments on its question and answers are left out" \
	"Workbench finish $q $q $a $a $a $a" "$(main qa-micro.html)"
# The posts short, under the length for which the rules try again
# without names: the schema is no name, and the comments stay out.
sed 's|</p><p>[^<]*</p></div><ul>|</p></div><ul>|g' "$T/qa-micro.html" >"$T/qa-short.html"
expect_eq "a short Q&A thread by microdata: still without its comments" \
	"Workbench finish $q $a $a" "$(main qa-short.html)"
sed 's|schema.org/QAPage|schema.org/WebPage|; s|schema.org/Question|schema.org/DiscussionForumPosting|; s|schema.org/Answer|schema.org/DiscussionForumPosting|g' \
	"$T/qa-micro.html" >"$T/dfp-micro.html"
expect_eq "a forum thread by microdata: its Comments are replies, kept" 12 \
	"$(main dfp-micro.html | grep -o 'went sticky' | wc -l | tr -d ' ')"
sed 's|<h1>|<div class="topic"><h1>|; s|<footer>|<div class="comment">member9 adds: a wax over the oil helps.</div></div><aside><h2>Recent comments on other threads</h2><div class="comment">Oak or ash for a mallet head?</div></aside><footer>|' \
	"$T/comments.html" >"$T/onepost.html"
expect_eq "one post with comments beside it: they are its replies" \
	"$want member9 adds: a wax over the oil helps." "$(main onepost.html)"
# Replies named "comment" under header lines of links (Hacker News's):
# each header is no post the reply comments on; nor is a sidebar's box
# of recent comments, which makes no second post.
{
printf '<html><head><title>Show: a plane of my own</title><script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script></head><body><h1>Show: a plane of my own</h1><p>%s</p><p>%s</p><p>%s</p><table class="tree">' "$long" "$long" "$long"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do printf '<tr><td class="default"><span class="comhead"><a href="/u/%d">member%d</a> <a href="/i/%d">3 hours ago</a> | <a href="/p/%d">parent</a> | <a href="/n/%d">next</a></span><div class="comment">Reply %d: nice work, what steel?</div></td></tr>' $i $i $i $i $i $i; done
printf '</table><aside><h2>Recent</h2><div class="comment">member13 on another thread</div></aside></body></html>'
} >"$T/hn.html"
want="Show: a plane of my own $long $long $long"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do want="$want member$i 3 hours ago | parent | next Reply $i: nice work, what steel?"; done
expect_eq "replies named comment under header lines of links: kept" "$want" "$(main hn.html)"

# A reply of one sentence in a card of links (the poster's menu) is
# kept when schema.org says it is a post's text; the card's reaction
# box, without the text, is still a box of links.
{
printf '<html><head><title>Liftgate lights</title></head><body><h1>Liftgate lights</h1><div class="thread" itemscope itemtype="https://schema.org/DiscussionForumPosting"><div class="first"><p>%s</p><p>%s</p></div>' "$q" "$q"
for i in 1 2 3; do
	printf '<div class="card" itemscope itemprop="comment" itemtype="https://schema.org/Comment"><div class="box"><span class="who"><a href="/u/%d">member%d</a> <a href="/u/%d/posts">posts</a> March %d, 2025</span><div itemprop="text">Reply %d: the lights went in within an hour, no wires cut</div><div class="reacts"><a href="/r/%d/like">Like</a> <a href="/r/%d/quote">Quote</a></div></div></div>' $i $i $i $i $i $i $i
done
printf '</div></body></html>'
} >"$T/cards.html"
replies=; for i in 1 2 3; do replies="$replies member$i posts March $i, 2025 Reply $i: the lights went in within an hour, no wires cut"; done
expect_eq "a thread: a short reply in a card of links is kept, its reactions not" \
	"forum|Liftgate lights $q $q$replies" \
	"$(kind cards.html)|$(main cards.html)"

# Old Reddit wraps each comment's text in a form (to edit it) with a
# hidden input, replies nested in their parent: a form without a field to fill or a button is text; the
# form to add one more holds a textarea and a button, and stays out.
{
printf '<html><head><title>Hair cells regrown</title></head><body><h1>Hair cells regrown</h1><div class="self"><p>%s</p><p>%s</p><p>%s</p><p>%s</p><p>%s</p></div><div class="commentarea">' "$a" "$a" "$a" "$a" "$a"
printf '<form class="usertext"><textarea name="text"></textarea><button>save</button></form>'
for i in 1 2 3 4 5; do printf '<div class="thing"><div class="entry"><p class="tagline"><a href="/u/%d">user%d</a> 12 points</p><form class="usertext"><input type="hidden" name="thing_id" value="t1_%d"><div class="md"><p>Comment %d: %s</p></div></form></div><div class="child">' $i $i $i $i "$q"; done
printf '</div></div></div></div></div></div></div></div></div></div></div></body></html>'
} >"$T/reddit.html"
want="Hair cells regrown $a $a $a $a $a"
for i in 1 2 3 4 5; do want="$want user$i 12 points Comment $i: $q"; done
expect_eq "a thread: comments in forms without fields are kept, the reply box not" \
	"forum|$want" \
	"$("$P" --html -j0 --main --json --base https://www.reddit.com/r/x/comments/1/y/ "$T/reddit.html" | jq -r '.page_kind + "|" + .main_text')"

# A page's questions and answers below its content are content; when
# the rules chose the answers themselves, they chose one part of a
# page of many: the content is the body's text without furniture.
para='Soak the part in white vinegar overnight, scrub it with steel wool, rinse it, dry it at once and oil it before the rust comes back.'
{
printf '<html><head><title>Removing rust from tools</title></head><body><nav><a href="/">Home</a> <a href="/tools">Tools</a></nav><h1>Removing rust from tools</h1><div class="entry">'
for i in 1 2 3 4; do printf '<p>%s</p>' "$para"; done
printf '</div><div class="questions"><h2>Frequently asked questions</h2><h3>Does cola work?</h3><p>Slowly.</p><h3>Is sanding better?</h3><p>For heavy rust, yes.</p></div><footer><a href="/about">About us</a></footer></body></html>'
} >"$T/faq.html"
expect_eq "a page's questions and answers below its content: kept" \
	"$para $para $para $para Frequently asked questions Does cola work? Slowly. Is sanding better? For heavy rust, yes." \
	"$(main faq.html)"
# The box's answers in an element named like a menu (an FAQ widget's
# tabs): the heading says what the box is, and the name makes none of
# it furniture.
sed 's|<h3>Does cola work?</h3><p>Slowly.</p>|<div class="faq_tabs-menu"><h3>Does cola work?</h3><p>Slowly.</p></div>|' \
	"$T/faq.html" >"$T/faqmenu.html"
expect_eq "a page's questions and answers in a box named menu: kept" \
	"$para $para $para $para Frequently asked questions Does cola work? Slowly. Is sanding better? For heavy rust, yes." \
	"$(main faqmenu.html)"
# A kicker over the heading (a landing page's label over each section's
# heading) leaves the box the page's questions and answers; a paragraph
# there does not.
sed 's|<div class="questions"><h2>|<div class="questions"><span>Rust help</span><h2>|' \
	"$T/faq.html" >"$T/faqkick.html"
expect_eq "a page's questions and answers under a kicker: kept" \
	"$para $para $para $para Rust help Frequently asked questions Does cola work? Slowly. Is sanding better? For heavy rust, yes." \
	"$(main faqkick.html)"
sed 's|<div class="questions"><h2>|<div class="questions"><p>We answer every question about rust that readers send us.</p><h2>|' \
	"$T/faq.html" >"$T/faqpara.html"
expect_eq "a paragraph over the heading: no box of questions" \
	"$para $para $para $para" "$(main faqpara.html)"
# The phrase as words only: "Uncommon questions" is no FAQ.
sed 's|Frequently asked questions|Uncommon questions|' "$T/faq.html" >"$T/nofaq.html"
expect_eq "a heading holding the phrase inside a word: no FAQ" \
	"$para $para $para $para" "$(main nofaq.html)"
{
printf '<html><head><title>Tool sharpening service</title></head><body><nav><a href="/">Home</a> <a href="/services">Services</a></nav><h1>Tool sharpening service</h1>'
for w in Chisels Planes Saws Knives; do printf '<div class="tile"><h2>%s</h2><p>%s sharpened in two days.</p></div>' $w $w; done
printf '<div class="questions"><h2>FAQs</h2>'
for i in 1 2 3 4; do printf '<h3>Question %d?</h3><p>Answer %d: %s</p><p>Then %d: %s</p>' $i $i "$para" $i "$para"; done
printf '</div><footer><a href="/about">About us</a></footer></body></html>'
} >"$T/faqpart.html"
want="Tool sharpening service"
for w in Chisels Planes Saws Knives; do want="$want $w $w sharpened in two days."; done
want="$want FAQs"
for i in 1 2 3 4; do want="$want Question $i? Answer $i: $para Then $i: $para"; done
expect_eq "the rules chose a page's answers: the page's text instead" "$want" "$(main faqpart.html)"

# Quoted replies once: a reply quoting the first post whole (under a
# "said:" line) gives the first post once; each member's signature is
# furniture.
first='Oak is hard and heavy, beech is cheaper and almost as stable, and both take a finish well if you plane them first.'
{
printf '<html><head><title>Oak or beech?</title><script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script></head><body><h1>Oak or beech?</h1><div class="posts">'
printf '<div class="post"><p>%s</p><div class="signature">Sent from my workshop</div></div>' "$first"
printf '<div class="post"><blockquote><cite>member1 said:</cite><p>%s</p></blockquote><p>Beech it is, then: thank you for the advice on planing.</p><div class="signature">Sent from my workshop</div></div>' "$first"
printf '<div class="post"><blockquote>member2 said: Beech it is</blockquote><p>Mine is beech too, and after ten years it is still flat and true.</p><p>%s</p><p>%s</p></div>' "$long" "$long"
printf '</div></body></html>'
} >"$T/quotes.html"
expect_eq "a thread: a quote of an earlier post once, a short quote kept, no signatures" \
	"Oak or beech? $first Beech it is, then: thank you for the advice on planing. member2 said: Beech it is Mine is beech too, and after ten years it is still flat and true. $long $long" \
	"$(main quotes.html)"

# A thread's posts with their poster's facts beside them, as phpBB (a
# name over short definitions) and XenForo (a label and a value in each
# list) show them: the facts go, the names stay; a glossary in a post
# (terms of their own) stays.
{
printf '<html><head><title>Oak or ash?</title><script type="application/ld+json">{"@type":"DiscussionForumPosting"}</script></head><body><h1>Oak or ash?</h1><div class="posts">'
printf '<div class="post"><dl class="postprofile"><dt><a href="/u/1">member1</a></dt><dd><strong>Posts:</strong> 524</dd><dd><strong>Joined:</strong> Mon Jul 24, 2017</dd></dl><p>%s</p></div>' "$first"
printf '<div class="post"><div class="user"><h4>member2</h4><div class="extras"><dl><dt>Joined</dt><dd>Jun 29, 2016</dd></dl><dl><dt>Messages</dt><dd>11</dd></dl></div></div><p>%s</p><dl><dt>Oak</dt><dd>hard</dd><dt>Ash</dt><dd>springy</dd></dl></div>' "$long"
printf '<div class="post"><dl class="postprofile"><dt><a href="/u/3">member3</a></dt><dd><strong>Posts:</strong> 2</dd><dd><strong>Joined:</strong> Sun Dec 17, 2023</dd></dl><p>Ash for the legs, oak for the top.</p></div>'
printf '</div></body></html>'
} >"$T/facts.html"
expect_eq "a thread: posters' facts left out, their names kept" \
	"member1 $first member2 $long Oak hard Ash springy member3 Ash for the legs, oak for the top." \
	"$(main facts.html)"
# A thread as Discourse serves it to crawlers: each post's meta line
# (its author and date) stays with it, though "-meta" names furniture
# on other pages.
{
printf '<html><head><title>Oak or ash?</title></head><body><h1>Oak or ash?</h1><div id="main-outlet"><div itemscope itemtype="http://schema.org/DiscussionForumPosting">'
for i in 1 2 3; do
	[ $i = 1 ] && c='' || c='itemprop="comment" itemscope itemtype="http://schema.org/Comment" '
	printf '<div %sclass="topic-body crawler-post"><div class="crawler-post-meta"><span class="creator" itemprop="author"><a href="/u/%d"><span itemprop="name">member%d</span></a></span> <span class="crawler-post-infos"><time>March %d, 2024</time></span></div><div class="post" itemprop="text"><p>Post %d: %s</p></div></div>' "$c" $i $i $i $i "$first"
done
printf '</div></div></body></html>'
} >"$T/postmeta.html"
expect_eq "a thread: each post's meta line kept" \
	"member1 March 1, 2024 Post 1: $first member2 March 2, 2024 Post 2: $first member3 March 3, 2024 Post 3: $first" \
	"$(main postmeta.html)"

# A page saying nothing of itself whose sections are alike, each under
# its heading: its longest section is one of them, and the content is
# all.
{
printf '<html><head><title>Acme Backup</title></head><body><div class="top"><a href="/">Home</a> <a href="/pricing">Pricing</a></div><main>'
printf '<section class="feature"><h2>Every night, every file</h2>'
for i in 1 2 3 4 5 6; do printf '<p>Backup number %d of the night copies every file that changed, encrypts it on your machine, and sends it to two data centres, far apart, so that a fire or a flood takes nothing.</p>' $i; done
printf '</section>'
for f in Restores Versions Sharing; do printf '<section class="feature"><h2>%s</h2><p>%s work from any browser, on any machine, for anyone you allow, at no extra cost.</p></section>' $f $f; done
printf '</main><footer><a href="/legal">Legal</a></footer></body></html>'
} >"$T/features.html"
expect_eq "alike headed sections on a page saying nothing: all of them" "other|3|6" \
	"$("$P" --html -j0 --main --json "$T/features.html" | jq -r '"\(.page_kind)|\([.main_text | scan("(Restores|Versions|Sharing) work from")] | length)|\([.main_text | scan("Backup number")] | length)"')"

# A page saying nothing of itself whose templates are cards of a link,
# a line of short sentences and a "Use it" link: few commas, over a
# fifth links, as a box of teasers has, but sentences: what it shows,
# and with its introduction the content, not its menu.
{
printf '<html><head><title>Tasks app</title></head><body><nav><a href="/">Home</a> <a href="/login">Log in</a></nav><main><h1>Organise your work and life</h1>'
printf '<div class="intro"><p>Become focused, organised, and calm with the task manager that millions of people trust, on every device, with reminders that arrive when you need them, and lists that sort themselves.</p><p>Capture a task in seconds, in plain words, and the app reads the date, the project and the priority for you, so that nothing slips.</p></div>'
printf '<div class="templates"><h2>Start from a template</h2>'
for t in Work Home Study Travel Garden Health Money Family; do printf '<div class="tpl"><a href="/t/%s">%s</a><p>Plan the week. Share it. Done.</p><a href="/t/%s">Use it</a></div>' $t $t $t; done
printf '</div></main><footer><a href="/legal">Legal</a></footer></body></html>'
} >"$T/templates.html"
expect_eq "a box of cards holding sentences on a page saying nothing: kept" "other|8|0" \
	"$("$P" --html -j0 --main --json "$T/templates.html" | jq -r '"\(.page_kind)|\([.main_text | scan("Plan the week")] | length)|\([.main_text | scan("Log in|Legal")] | length)"')"

# One part kept: a page saying nothing of itself, no heading naming it,
# whose rules keep its opening prose, a third of what it shows, gives
# its body (its six sections of lists) instead.
hero='We plan, plant and look after gardens, small and large, for homes and firms across the county, and we have done so since 1998.'
items='A visit and a survey of the site in spring Drawings and a planting plan on paper A quote within a week of the visit Work done by our own team only'
{
printf '<html><head><title>Green Ltd</title></head><body><div class="hero"><h1>Garden design</h1>'
for i in 1 2 3 4; do printf '<p>%s</p>' "$hero"; done
printf '</div>'
for s in Planning Planting Care Ponds Paths Contact; do printf '<div class="row"><div class="col"><h2>%s</h2><ul><li>A visit and a survey of the site in spring</li><li>Drawings and a planting plan on paper</li><li>A quote within a week of the visit</li><li>Work done by our own team only</li></ul></div></div>' $s; done
printf '<footer><a href="/privacy">Privacy</a></footer></body></html>'
} >"$T/sections.html"
want="Garden design $hero $hero $hero $hero"
for s in Planning Planting Care Ponds Paths Contact; do want="$want $s $items"; done
expect_eq "one part kept: the body without furniture instead" "other|$want" \
	"$("$P" --html -j0 --main --json "$T/sections.html" | jq -r '"\(.page_kind)|\(.main_text)"')"

# The same with a heading naming the page (its <title>'s first part):
# not an article in a feed, so one part kept still gives the body; its
# cards (a title and a blurb inside each link) stay, its menu of short
# links goes.
{
printf '<html><head><title>Garden design | Green Ltd</title></head><body><div class="top"><a href="/">Home</a> <a href="/work">Work</a> <a href="/team">Team</a> <a href="/jobs">Jobs</a></div><div class="hero"><h1>Garden design</h1>'
for i in 1 2 3 4; do printf '<p>%s</p>' "$hero"; done
printf '</div>'
for s in Planning Planting Care Ponds Paths Contact; do printf '<div class="row"><div class="col"><h2>%s</h2><ul><li>A visit and a survey of the site in spring</li><li>Drawings and a planting plan on paper</li><li>A quote within a week of the visit</li><li>Work done by our own team only</li></ul></div></div>' $s; done
printf '<div class="grid">'
for c in Oak Yew Elm; do printf '<a class="tile" href="/work/%s"><h3>The %s garden</h3><span>A walled garden replanted in a season</span></a>' $c $c; done
printf '</div><footer><a href="/privacy">Privacy</a></footer></body></html>'
} >"$T/sections-cards.html"
want="Garden design $hero $hero $hero $hero"
for s in Planning Planting Care Ponds Paths Contact; do want="$want $s $items"; done
for c in Oak Yew Elm; do want="$want The $c garden A walled garden replanted in a season"; done
expect_eq "one part kept under a heading naming the page: the body, its cards, not its menu" \
	"other|$want" \
	"$("$P" --html -j0 --main --json "$T/sections-cards.html" | jq -r '"\(.page_kind)|\(.main_text)"')"

# The same inside a layout wrapper: a form holding the whole page
# (ASP.NET), or a script's root of few commas and a fifth of its text in
# links (a menu of many links inside it), is judged by its parts, not
# dropped whole from the body's text.
# sectioned OPEN CLOSE HERO MENU: the page of sections in OPEN ... CLOSE.
sectioned() {
	printf '<html><head><title>Green Ltd</title></head><body>%s<div class="top">%s</div><div class="hero"><h1>Garden design</h1>' "$1" "$4"
	for i in 1 2 3 4; do printf '<p>%s</p>' "$3"; done
	printf '</div>'
	for s in Planning Planting Care Ponds Paths Contact; do printf '<div class="row"><div class="col"><h2>%s</h2><ul><li>A visit and a <a href="/survey">survey</a> of the site in spring</li><li>Drawings and a planting plan on paper</li><li>A quote within a week of the visit</li><li>Work done by our own team only</li></ul></div></div>' $s; done
	printf '%s</body></html>' "$2"
}
sectioned '<form id="form1" method="post" action="/garden.aspx">' '</form>' "$hero" \
	'<a href="/">Home</a> <a href="/work">Our work</a>' >"$T/form-page.html"
want="Garden design $hero $hero $hero $hero"
for s in Planning Planting Care Ponds Paths Contact; do want="$want $s $items"; done
expect_eq "one part kept, the page in a form: the body without furniture" "$want" \
	"$(main form-page.html)"
# The same on a page of parts (JSON-LD Service), whose body is read
# without lists of cards: the form is judged by its parts all the same.
sed 's|<head>|<head><script type="application/ld+json">{"@type":"Service","name":"Garden design"}</script>|' \
	"$T/form-page.html" >"$T/form-service.html"
expect_eq "one part kept, a service page in a form: the body without furniture" "service|$want" \
	"$("$P" --html -j0 --main --json "$T/form-service.html" | jq -r '"\(.page_kind)|\(.main_text)"')"
plain='We plan and plant gardens, small and large, for homes and firms across the county and have done so since 1998.'
menu=
for m in Home Work Team Jobs Blog Shop Press Awards Events Clients Partners Careers Contact \
	Privacy Terms Tools Plants Trees Ponds Paths; do
	menu="$menu<a href=\"/$m\">$m of our firm</a> "
done
sectioned '<div id="root">' '</div>' "$plain" "$menu" >"$T/wrapper-page.html"
want="Garden design $plain $plain $plain $plain"
for s in Planning Planting Care Ponds Paths Contact; do want="$want $s $items"; done
expect_eq "one part kept, the page in a link-heavy wrapper: its parts, not its menu" "$want" \
	"$(main wrapper-page.html)"

# An article in a feed is the text under its title heading; a short one
# (a product's list of features under its name, og:type article) is one
# part of the page, which gives its body instead.
lead='Notes for ten users, up to a thousand pages, sync with your mail, and a calendar, free.'
sec='Write, link and find your notes from any device, and share them with your team in one click, for free.'
{
printf '<html><head><meta property="og:type" content="article"><title>Free notes for teams | Acme</title></head><body><div class="top"><a href="/">Home</a> <a href="/price">Pricing</a></div>'
printf '<div class="hero"><h1>Free notes for teams</h1><div class="lead"><p>%s</p><p>%s</p><p>%s</p></div></div><div class="page">' "$lead" "$lead" "$lead"
for s in Write Link Find Share Sync; do printf '<div class="sec"><h2>%s</h2><p>%s</p><p>%s</p></div>' $s "$sec" "$sec"; done
printf '</div><footer><a href="/privacy">Privacy</a></footer></body></html>'
} >"$T/feed-short.html"
want="Free notes for teams $lead $lead $lead"
for s in Write Link Find Share Sync; do want="$want $s $sec $sec"; done
expect_eq "a short text under the title heading: the body instead" "article|$want" \
	"$("$P" --html -j0 --main --json "$T/feed-short.html" | jq -r '"\(.page_kind)|\(.main_text)"')"

# A page of cards whose rules keep its one paragraph of prose: the
# cards (each a link) are most of what it shows, so it gives them too.
{
printf '<html><head><title>Green Ltd</title></head><body><div class="top"><a href="/">Home</a> <a href="/work">Work</a></div><div class="hero"><p>%s</p><p>%s</p></div><div class="grid">' "$hero" "$hero"
for c in Oak Yew Elm Ash Fir Box Bay Lime; do printf '<a class="tile" href="/work/%s"><h3>The %s garden</h3><span>A walled garden replanted in a season</span></a>' $c $c; done
printf '</div></body></html>'
} >"$T/hero-cards.html"
want="$hero $hero"
for c in Oak Yew Elm Ash Fir Box Bay Lime; do want="$want The $c garden A walled garden replanted in a season"; done
expect_eq "one part kept: a page of cards counts them" "$want" "$(main hero-cards.html)"

# A blog's index that says it is an article (og:type article, a CMS's
# default): the rules keep one teaser, under a fifth of what it shows,
# so it gives every teaser.
{
printf '<html><head><title>Our blog</title><meta property="og:type" content="article"></head><body><nav><a href="/">Home</a></nav><div class="posts">'
printf '<div class="teaser"><h2><a href="/p/1">Planting a hedge in winter</a></h2><p>%s %s</p></div>' "$hero" "$hero"
for i in $(seq 2 20); do printf '<div class="teaser"><h2><a href="/p/%d">Garden notes from the walled garden, part %d</a></h2><p>What we planted this week, and why the soil matters more than the plants.</p></div>' $i $i; done
printf '</div></body></html>'
} >"$T/blog-index.html"
want="Planting a hedge in winter $hero $hero"
for i in $(seq 2 20); do want="$want Garden notes from the walled garden, part $i What we planted this week, and why the soil matters more than the plants."; done
expect_eq "an index saying article, one teaser kept: every teaser" "article|$want" \
	"$("$P" --html -j0 --main --json "$T/blog-index.html" | jq -r '"\(.page_kind)|\(.main_text)"')"

# A page whose markup says nothing: its URL's path names its kind, by
# whole segments; the markup's word comes first.
urlkind() {
	printf '{"url":"%s","final_url":"%s","status":200,"ctype":"text/html","body":"%s"}\n' "$1" "$1" "$2" |
		python3 "$TESTS/mkrec.py" | "$P" -q -j0 --main --json | jq -r .page_kind
}
plainpage='<html><body><h2>Hello</h2><p>Some words.</p></body></html>'
got=
for u in https://forum.example/t/oak-or-beech/1555 https://example.com/community/viewtopic.php?t=5 \
	https://shop.example/products/wool-runner https://shop.example/collections/socks \
	https://example.com/docs/install https://example.com/en-us/services/audit \
	https://example.com/search?q=oak https://example.com/contact/ https://example.com/ \
	https://shop.example/collections/boots/products/trail-2; do
	got="$got $(urlkind "$u" "$plainpage")"
done
expect_eq "a page saying nothing: the kind its URL's path names, whole segments only, the deepest" \
	" forum forum product collection docs service listing other other product" "$got"
expect_eq "the markup's word before the URL's: og:type article at /products/" article \
	"$(urlkind https://shop.example/products/a-story '<html><head><meta property=\"og:type\" content=\"article\"></head><body><p>Words.</p></body></html>')"

# Several products on one page: a category page.
printf '<html><body><div itemscope itemtype="http://schema.org/Product">Boot A</div><div itemscope itemtype="http://schema.org/Product">Boot B</div></body></html>' >"$T/category.html"
expect_eq "two microdata Products: collection" collection "$(kind category.html)"
expect_eq "without --main: no page_kind" null \
	"$("$P" --html -j0 --json "$T/plain.html" | jq -c .page_kind)"
finish
