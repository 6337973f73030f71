#!/bin/sh
# parse's page metadata (parser/meta.c, parser/jsonld.c): title, author,
# published, modified, site_name, lang, description, image and keywords
# from JSON-LD (an Article, a @graph, an array, a Product, a forum
# post), OpenGraph, <meta> names, microdata and the page's byline, in
# docs/parse.md's order of trust; `jsonld` keeps the objects as they
# are; malformed, too deep and too large blocks are skipped and counted.
. "${TESTS:-$(dirname "$0")}/lib.sh"
P=$BIN/parse
BASE=http://example.com/news/story.html
KEYS='{title, author, published, modified, site_name, lang, description, image, keywords, jsonld_skipped} | with_entries(select(.value != null))'

# page NAME HEAD BODY: $T/NAME.html.
page() { printf '<!DOCTYPE html><html lang="en"><head>%s</head><body>%s</body></html>' "$2" "$3" >"$T/$1.html"; }
# meta NAME: the metadata keys parse writes for $T/NAME.html.
meta() { "$P" --html --base "$BASE" -j0 --json "$T/$1.html" | jq -c "$KEYS"; }
ld() { printf '<script type="application/ld+json">%s</script>' "$1"; }

page article "<title>The story | Example News</title>$(ld '{"@context":"https://schema.org","@type":"NewsArticle","headline":"The story","datePublished":"2024-03-05T10:00:00+01:00","dateModified":"2024-03-06T08:30:00Z","author":[{"@type":"Person","name":"Jane Doe"},{"@type":"Person","name":"John Roe"}],"publisher":{"@type":"Organization","name":"Example News"},"image":{"@type":"ImageObject","url":"/img/a.jpg"},"keywords":"one, two,one","inLanguage":"en-GB","description":"What happened."}')" \
	'<h1>The story</h1><p>Text.</p>'
expect_eq "JSON-LD Article: authors, dates with offset, publisher, image made absolute, keywords once each" \
	'{"title":"The story","author":"Jane Doe, John Roe","published":"2024-03-05T10:00:00+01:00","modified":"2024-03-06T08:30:00+00:00","site_name":"Example News","lang":"en","description":"What happened.","image":"http://example.com/img/a.jpg","keywords":["one","two"]}' \
	"$(meta article)"
expect_eq "JSON-LD Article: the object kept as it is in jsonld" \
	'["NewsArticle","Jane Doe"]' \
	"$("$P" --html --base "$BASE" -j0 --json "$T/article.html" | jq -c '[.jsonld[0]["@type"], .jsonld[0].author[0].name]')"

# JSON-LD is script text, left undecoded by HTML, but CMSs write its
# strings HTML-escaped: named and numeric references are decoded, a
# reference that does not read stays.
page escaped "<title>x</title>$(ld '{"@type":"BlogPosting","headline":"Trips &amp; tips","author":{"@type":"Person","name":"Maria &amp; Katerina"},"description":"It&#8217;s &#x263A; &lt;here&gt; &bogus; &#0; &# 65; &#-5; &#x0x41; &#1; a&#32;&#10;b &"}')" '<p>Text.</p>'
expect_eq "JSON-LD strings: their character references decoded" \
	'{"author":"Maria & Katerina","description":"It’s ☺ <here> &bogus; &#0; &# 65; &#-5; &#x0x41; &#1; a b &"}' \
	"$(meta escaped | jq -c '{author, description}')"

# A date beside the byline, in the author's box: the date of a page
# that gives no other.
page byline-date "<title>How apps are made</title>" \
	"<h1>How apps are made</h1>$(for i in 1 2 3 4 5 6; do printf '<p>Apps are planned, designed, built, tested and shipped by teams who talk to their users at every step of the way.</p>'; done)"'<div class="x"><p><a href="/blog/author/moses-kim">Moses Kim</a></p><p class="y">April 8, 2024</p></div>'
expect_eq "the date beside the author's name" '{"author":"Moses Kim","published":"2024-04-08"}' \
	"$(meta byline-date | jq -c '{author, published}')"

page graph "<title>Post</title>$(ld '{"@context":"https://schema.org","@graph":[{"@type":"WebSite","@id":"#site","name":"The Blog"},{"@type":"WebPage","@id":"#page","name":"Post page"},{"@type":"BlogPosting","headline":"Post","author":{"@id":"#me"},"datePublished":"2023-11-02"},{"@type":"Person","@id":"#me","name":"Mary Major"},{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Home"}]}]}')" \
	'<p>Text.</p>'
expect_eq "@graph: the BlogPosting's author followed by @id, the WebSite's name" \
	'{"title":"Post","author":"Mary Major","published":"2023-11-02","site_name":"The Blog","lang":"en"}' "$(meta graph)"

page array "<title>Kettle - Shop</title>$(ld '[{"@type":"Organization","name":"Shop"},{"@type":"Product","name":"Kettle","image":["/k1.jpg","/k2.jpg"],"offers":{"@type":"Offer","price":12.5}}]')" \
	'<p>A kettle.</p>'
expect_eq "an array of objects: the Product named, the Organization the site" \
	'{"title":"Kettle","site_name":"Shop","lang":"en","image":"http://example.com/k1.jpg"}' "$(meta array)"
expect_eq "an array of objects: each kept as one object of jsonld, numbers as numbers" \
	'[2,12.5]' "$("$P" --html --base "$BASE" -j0 --json "$T/array.html" | jq -c '[(.jsonld | length), .jsonld[1].offers.price]')"

page forum "<title>Why? - Forum</title>$(ld '{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Why?","author":{"@type":"Person","name":"asker42"},"datePublished":"2022-01-09T21:15:00-05:00"}')" \
	'<h1>Why?</h1>'
expect_eq "DiscussionForumPosting: its author and date" \
	'{"title":"Why?","author":"asker42","published":"2022-01-09T21:15:00-05:00","lang":"en"}' "$(meta forum)"

page og '<title>Long title - Site</title><meta property="og:title" content="Long title"><meta property="og:site_name" content="Site"><meta property="article:published_time" content="2021-07-04T12:00:00Z"><meta property="article:tag" content="x"><meta property="article:tag" content="y"><meta property="og:image" content="https://cdn.example.net/i.png"><meta property="og:locale" content="en_US">' \
	'<p>Text.</p>'
expect_eq "OpenGraph only: title without the site's name, tags as keywords" \
	'{"title":"Long title","published":"2021-07-04T12:00:00+00:00","site_name":"Site","lang":"en","image":"https://cdn.example.net/i.png","keywords":["x","y"]}' "$(meta og)"

page metaonly '<title>Notes</title><meta name="author" content="Ann Other"><meta name="DC.date" content="05.03.2019"><meta name="description" content="Some notes."><meta name="keywords" content="a,b">' \
	'<p>Text.</p>'
expect_eq "<meta> only: author, a Dublin Core date read day first" \
	'{"title":"Notes","author":"Ann Other","published":"2019-03-05","lang":"en","description":"Some notes.","keywords":["a","b"]}' "$(meta metaonly)"

page micro '<title>Recipe</title>' \
	'<article itemscope itemtype="https://schema.org/Article"><h1 itemprop="headline">Recipe</h1><span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Cook Person</span></span><time itemprop="datePublished" datetime="2020-02-29">29 Feb</time></article>'
expect_eq "microdata: itemprop author's name and datePublished" \
	'{"title":"Recipe","author":"Cook Person","published":"2020-02-29","lang":"en"}' "$(meta micro)"

page trust "<title>Ranked</title><meta name=\"author\" content=\"Meta Name\"><meta property=\"article:published_time\" content=\"2018-01-01\">$(ld '{"@type":"Article","headline":"Ranked","author":{"@type":"Person","name":"Ld Name"},"datePublished":"2018-02-02"}')" \
	'<p class="byline">By Text Name</p><h1>Ranked</h1>'
expect_eq "order of trust: JSON-LD over OpenGraph over <meta> over a byline not under the title" \
	'{"title":"Ranked","author":"Ld Name","published":"2018-02-02","lang":"en"}' "$(meta trust)"

# article:author is often a profile's address, with or without its
# scheme: a link is no name, and the next source's name is the author.
page authorlink '<title>Link</title><meta property="article:author" content="www.facebook.com/janedoe"><meta name="author" content="Jane Doe">' '<p>x</p>'
page authorpath '<title>Path</title><meta property="article:author" content="facebook.com/janedoe"><meta name="author" content="Jane Doe">' '<p>x</p>'
expect_eq "an author that is a link without its scheme is no name" \
	'Jane Doe|Jane Doe' "$(meta authorlink | jq -r .author)|$(meta authorpath | jq -r .author)"

page byline '<title>A plain page title - Blog</title>' \
	'<h1>A plain page title</h1><p>By Sam Writer | March 5, 2024</p><p>Text.</p>'
expect_eq "the byline and date under the title heading" \
	'{"title":"A plain page title","author":"Sam Writer","published":"2024-03-05","lang":"en"}' "$(meta byline)"

# A byline's name and date are often spans set apart by the stylesheet
# alone: their texts are two words.
page spans '<title>Spans</title>' \
	'<h1>A headline of some length</h1><p><span>By</span> <a href="/a">Jane Doe</a><span>Mar 5, 2024</span></p><p>Text.</p>'
expect_eq "a name and a date in adjacent spans are read apart" \
	'Jane Doe|2024-03-05' "$(meta spans | jq -r '.author + "|" + .published')"

# The text read for a byline is the title's neighbourhood, however long
# the node beside it: a date deep in one long paragraph under the title,
# or over it, is not the page's.
prose=$(python3 -c "print('Words of a story that goes on and on. ' * 24)")
page longafter '<title>Long after</title>' "<h1>A headline of some length</h1><p>$prose March 5, 2024.</p>"
page longbefore '<title>Long before</title>' "<p>March 5, 2024. $prose</p><h1>A headline of some length</h1><p>Text.</p>"
expect_eq "a date 900 bytes into the paragraph under or over the title is not read" \
	'null|null' "$(meta longafter | jq -r .published)|$(meta longbefore | jq -r .published)"

# The window ends after the word its 600th byte is in, unless that word
# is longer than a user name: then where a character starts.
pad=$(python3 -c "print(('Words of a story that goes on and on. ' * 15)[:562])")
long=$(python3 -c "print('Éé' * 40)")
page cutword '<title>Cut</title>' "<h1>A headline of some length</h1><p>$pad By Jane Doughnutson</p>"
page cutchar '<title>Cut</title>' "<h1>A headline of some length</h1><p>$pad By Jane $long</p>"
# Over the title it starts with the word its 300th byte back is in.
pad=$(python3 -c "print(('words of a story that goes on and on. ' * 15)[:290])")
page cutback '<title>Cut</title>' "<p>12/05/2024 $pad</p><h1>A headline of some length</h1><p>Text.</p>"
expect_eq "the window near the title ends after a word, or where a character starts" \
	'Jane Doughnutson|Jane É|2024-12-05' \
	"$(meta cutword | jq -r .author)|$(meta cutchar | jq -r .author)|$(meta cutback | jq -r .published)"

page label '<title>Labelled</title><meta name="author" content="By Lee Writer, ">' '<p>x</p>'
expect_eq "an author's value loses the byline label and marks around it" \
	'{"title":"Labelled","author":"Lee Writer","lang":"en"}' "$(meta label)"
page nolabel '<title>Empty</title><meta name="author" content="By "><meta name="author" content="12345">' '<p>x</p>'
expect_eq "an author of a label alone, or of digits, is none" '{"title":"Empty","lang":"en"}' "$(meta nolabel)"

page headline '<title>Search title | Site</title><meta property="og:type" content="article"><meta property="og:title" content="Search title">' \
	'<header><h2>Site</h2></header><h1>The headline as written</h1><p>Text.</p>'
expect_eq "an article's only h1 is its title, though <title> and og:title differ" \
	'{"title":"The headline as written","lang":"en"}' "$(meta headline)"
page notarticle '<title>Search title | Site</title><meta property="og:title" content="Search title">' \
	'<h1>A slogan of the service</h1><p>Text.</p>'
expect_eq "a page not an article keeps its <title> without the site's name" \
	'{"title":"Search title","lang":"en"}' "$(meta notarticle)"

page firstseg '<title>Flexbox - Learn web development | MDN</title><meta property="og:site_name" content="MDN Web Docs">' \
	'<h1>Menu</h1><h1>Flexbox</h1><p>Text.</p>'
expect_eq "a heading that is the <title>'s first segment is the title, however short" \
	'{"title":"Flexbox","site_name":"MDN Web Docs","lang":"en"}' "$(meta firstseg)"
page earliest '<title>Recoverable Errors - The Rust Book</title>' \
	'<h1>The Rust Book</h1><h2>Recoverable Errors</h2><p>Text.</p>'
expect_eq "the heading of the first segment wins over an earlier heading of a later one" \
	'{"title":"Recoverable Errors","lang":"en"}' "$(meta earliest)"
page headsite '<title>Rental news | WRAL</title><meta property="og:site_name" content="WRAL.com">' \
	'<h1>Rental news and coverage | WRAL</h1><p>Text.</p>'
expect_eq "a title heading loses the site's name as <title> does" \
	'{"title":"Rental news and coverage","site_name":"WRAL.com","lang":"en"}' "$(meta headsite)"
# A heading that holds the title and more is a label and the title, or
# a section's heading; an h1 that starts with the title is the headline
# the <title> shortens.
page thread '<title>Why fans hum | Forum</title><meta property="og:site_name" content="Forum">' '<h1>Thread: Why fans hum</h1><p>Text.</p>'
page replies '<title>A story of rivers - Blog</title><meta property="og:site_name" content="Blog">' \
	'<h1>Blog</h1><p>Text.</p><h2>3 Replies to &ldquo;A story of rivers&rdquo;</h2>'
page ogheld '<title>Buy a kettle - Shop</title><meta property="og:title" content="Buy a kettle">' \
	'<h1>Sale: Buy a kettle</h1><p>Text.</p>'
page longer '<title>Tiny house living | Site</title><meta property="og:site_name" content="Site">' '<h1>Tiny house living: why we moved</h1><p>Text.</p>'
expect_eq "a heading that holds the title after a label, or an h2 that holds it, is not the title" \
	'Why fans hum|A story of rivers|Buy a kettle|Tiny house living: why we moved' \
	"$(meta thread | jq -r .title)|$(meta replies | jq -r .title)|$(meta ogheld | jq -r .title)|$(meta longer | jq -r .title)"
page tagline '<title>Acme CDN | Content Delivery Network | Acme</title>' '<p>Text.</p>'
expect_eq "a tagline after the first ' | ' is cut with the site's name" \
	'{"title":"Acme CDN","lang":"en"}' "$(meta tagline)"
page hyphen '<title>Marietta Costs &amp; Prices - Cost Report</title>' '<p>Text.</p>'
expect_eq "so is one after the first ' - '; en and em dashes are kept" \
	'{"title":"Marietta Costs & Prices","lang":"en"}' "$(meta hyphen)"
page dash '<title>Gym Workouts &mdash; Strength Training</title>' '<p>Text.</p>'
expect_eq "an em dash joins the parts of one title" \
	'{"title":"Gym Workouts — Strength Training","lang":"en"}' "$(meta dash)"
page onlysite '<title> | Example</title><meta property="og:site_name" content="Example">' '<p>Text.</p>'
expect_eq "a <title> that is only the site's name stays the title" \
	'{"title":"| Example","site_name":"Example","lang":"en"}' "$(meta onlysite)"

# JSON-LD's datePublished is often the CMS's record of the page: the
# date under the title is the page's when no other metadata gives
# JSON-LD's day.
# dated NAME HEAD PUBLISHED SHOWN: an Article whose JSON-LD gives
# PUBLISHED, HEAD more in its head, SHOWN the line under its title.
dated() {
	page "$1" "<title>$1</title>$2$(ld "{\"@type\":\"Article\",\"headline\":\"$1\",\"datePublished\":\"$3\"}")" \
		"<h1>A headline of some length</h1><p>$4</p><p>Text.</p>"
}
og2020='<meta property="article:published_time" content="2020-01-02">'
dated shown '' 2020-01-02T10:00:00Z 'March 5, 2024'
dated agreed "$og2020" 2020-01-02T10:00:00Z 'March 5, 2024'
dated sameday '' 2024-03-05T10:00:00Z 'March 5, 2024'
expect_eq "the date under the title over JSON-LD's, unless OpenGraph agrees with JSON-LD" \
	'2024-03-05|2020-01-02T10:00:00+00:00|2024-03-05T10:00:00+00:00' \
	"$(meta shown | jq -r .published)|$(meta agreed | jq -r .published)|$(meta sameday | jq -r .published)"
# So is the update's date when the page shows no other under its title.
dated updshown '' 2020-01-02T10:00:00Z 'Updated March 5, 2024'
dated updagreed "$og2020" 2020-01-02T10:00:00Z 'Updated March 5, 2024'
expect_eq "the update's date alone under the title over JSON-LD's, unless OpenGraph agrees" \
	'2024-03-05|2024-03-05|2020-01-02T10:00:00+00:00' \
	"$(meta updshown | jq -r '.published + "|" + .modified')|$(meta updagreed | jq -r .published)"
# A date under the title that is JSON-LD's with its day and month
# swapped is JSON-LD's written month first: JSON-LD stands.
dated swapped '' 2024-09-10T16:07:00Z '09.10.2024'
expect_eq "a date under the title read in the other order is JSON-LD's" \
	'2024-09-10T16:07:00+00:00' "$(meta swapped | jq -r .published)"

# Only under the title heading: a masthead's date under a logo's h1
# (no heading names the page) leaves JSON-LD's date.
page logo "<title>Logo</title>$(ld '{"@type":"Article","headline":"Logo","datePublished":"2020-01-02T10:00:00Z"}')" \
	'<h1>Example Daily</h1><p>Monday, March 5, 2024</p><h1>Another story of some length</h1><p>Text.</p>'
expect_eq "a date under a logo's h1 is no date under the title" \
	'2020-01-02T10:00:00+00:00' "$(meta logo | jq -r .published)"

# A time in UTC that the page also gives in its own zone is written in
# that zone, whose day the page is dated by; a UTC time alone stays.
page zone '<title>Zone</title><meta property="article:published_time" content="2025-12-19T03:05:00Z">' \
	'<h1>A headline of some length</h1><p><time datetime="2025-12-18T19:05:00-08:00">Dec 18</time></p><p>Text.</p>'
page utc '<title>Utc</title><meta property="article:published_time" content="2025-12-19T03:05:00Z">' \
	'<h1>A headline of some length</h1><p><time datetime="2025-12-18T19:00:00-08:00">Dec 18</time></p><p>Text.</p>'
expect_eq "a UTC time written in the page's zone when the page gives the same instant" \
	'2025-12-18T19:05:00-08:00|2025-12-19T03:05:00+00:00' "$(meta zone | jq -r .published)|$(meta utc | jq -r .published)"

# A byline under the title naming a person the metadata does not,
# where the metadata's author is not shown there, names the writer;
# "by" and one word may be a company, and the metadata's name stands.
page bylinemeta "<title>Byline</title>$(ld '{"@type":"Article","headline":"Byline","author":{"@type":"Person","name":"Site Admin"}}')" \
	'<h1>A headline of some length</h1><p>By Jane Doe</p><p>Text.</p>'
page bycompany "<title>Company</title>$(ld '{"@type":"Article","headline":"Company","author":{"@type":"Person","name":"Site Admin"}}')" \
	'<h1>A headline of some length</h1><p>Maps by Google</p><p>Text.</p>'
page byshown "<title>Shown</title>$(ld '{"@type":"Article","headline":"Shown","author":{"@type":"Person","name":"Site Admin"}}')" \
	'<h1>A headline of some length</h1><p>By Jane Doe</p><p>Edited: Site Admin</p><p>Text.</p>'
expect_eq "the byline's person over a metadata author the page does not show there" \
	'Jane Doe|Site Admin|Site Admin' \
	"$(meta bylinemeta | jq -r .author)|$(meta bycompany | jq -r .author)|$(meta byshown | jq -r .author)"

# The <title> may name a section's heading far down the page: the date
# under the first h1 is the page's when nothing else gives one.
page sectitle '<title>How mapping works - Shop</title>' \
	"<h1>Robots that map your home</h1><h5>2024-11-06</h5><p>$prose</p><h2>How mapping works</h2><p>$prose</p>"
expect_eq "the date under the first h1 when the title heading is a later one" \
	'How mapping works|2024-11-06' "$(meta sectitle | jq -r '.title + "|" + .published')"

# An author's box often holds the name and the date: the name is most
# of what comes before the date; a weekday before a date is no name.
page authordate '<title>Box</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><div class=\"post-author\"><p>Luke Kim</p><small>December 17, 2025</small></div>"
page authorday '<title>Box</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><div class=\"post-author\"><small>Sat, December 20, 2025</small></div>"
expect_eq "an author's box of a name and a date names the author; a weekday does not" \
	'Luke Kim|' "$(meta authordate | jq -r .author)|$(meta authorday | jq -r '.author // empty')"

# "Contributors:" labels the writers as "Authors:" does.
page contrib '<title>Plants</title>' \
	'<h1>A headline of some length</h1><p>Houseplants for dim rooms</p><p><strong>Contributors:</strong> Janet Lowe</p><p>Text.</p>'
expect_eq "the name after a Contributors: label" 'Janet Lowe' "$(meta contrib | jq -r .author)"

# A byline without a label may give the name, the role and the date
# between bars: the name is the first part.
page barline '<title>Bars</title>' \
	'<h1>A headline of some length</h1><p>Aaron Reed | Senior Writer | July 2, 2025</p><p>Text.</p>'
expect_eq "a name, a role and a date between bars: the name" \
	'Aaron Reed|2025-07-02' "$(meta barline | jq -r '.author + "|" + .published')"

# "Written by" anywhere names the writer, as an author's box at the
# end of an article does, when nothing nearer the title does; not
# inside a word ("underwritten by").
page endbox '<title>End box</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><div><p>Written by Cassidy Horton</p><p>Cassidy Horton is a finance writer.</p></div>"
page insurer '<title>Insurer</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><p>Policies underwritten by Acme Insurance Company</p>"
# The name is the label's: on its line, or on the next when the label
# stands alone ("Written by" / "Cassidy Horton"); a later "by" is not
# (a photo's credit); nor is a label in the <title> or a form's field.
page nextline '<title>Next line</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><div><p>Written by</p><p>Cassidy Horton</p></div>"
page unread '<title>Unread</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><div><p>Written by our editors</p><p>Photo by Jane Doe</p></div>"
page intitle '<title>Written by Jane Doe</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><textarea>Posted by Jane Doe</textarea>"
expect_eq "a page's last resort: Written by anywhere, not underwritten by" \
	'Cassidy Horton|null|Cassidy Horton|null|null' \
	"$(for f in endbox insurer nextline unread intitle; do meta $f | jq -r .author; done | tr '\n' '|' | sed 's/|$//')"
# "Author" and "Article by" are labels too, as all of a line over the
# name (a heading of the author's box); as a phrase's last word, a
# menu's "Coaches & Authors", they are words.
page authorhead '<title>Benefits</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><div><h3>Author</h3><p> Lisa D. Ellis</p></div>"
page articleby '<title>Proofs</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><div><h2>Article by</h2><div>Matias Heikkilä</div></div>"
page authorsmenu '<title>Solutions</title>' \
	"<h1>A headline of some length</h1><p>$prose</p><ul><li><a href=/c>Creators, Coaches &amp; Authors</a></li><li><a href=/d>Digital Agencies</a></li></ul>"
expect_eq "Author or Article by over the name, not a phrase's last word" \
	'Lisa D. Ellis|Matias Heikkilä|null' \
	"$(meta authorhead | jq -r .author)|$(meta articleby | jq -r .author)|$(meta authorsmenu | jq -r .author)"

page citation '<title>A paper</title><meta name="citation_author" content="Roy, Aniruddha"><meta name="citation_author" content="Mary Major"><meta name="citation_author" content="Lee,  Ann ">' '<p>x</p>'
expect_eq "citation_author: every author, in order, each as First Last" \
	'{"title":"A paper","author":"Aniruddha Roy, Mary Major, Ann Lee","lang":"en"}' "$(meta citation)"
page role '<title>Role</title>' \
	'<h1>A headline of some length</h1><p>By <a href="/people/mr">Matt Ride</a> &sdot; Review Editor &sdot; March 5, 2024</p><p>Text.</p>'
expect_eq "a byline's name ends at a symbol such as a dot operator" \
	'{"title":"Role","author":"Matt Ride","published":"2024-03-05","lang":"en"}' "$(meta role)"
# The label on a line of its own ("Written by" over the name), "by:",
# and a title before the name ("Dr."), which ends no sentence.
page bylabel '<title>Label</title>' \
	'<h1>A headline of some length</h1><div><p>Written by</p><p>Edna Tabor</p></div><p>Text.</p>'
page bycolon '<title>Colon</title>' \
	'<h1>A headline of some length</h1><p>by: Zia Xu, Lee Ann</p><p>Text.</p>'
page bydr '<title>Doctor</title>' \
	'<h1>A headline of some length</h1><p>By Dr. Vahid Osman, March 5, 2024</p><p>Text.</p>'
page bylink '<title>Link</title>' \
	'<h1>A headline of some length</h1><div><p>Posted by</p><p><a href="#c">Leave a comment</a></p></div><p>By John Smith Jr. Smith covers rivers.</p>'
expect_eq "a byline's label on its own line, by:, a title before the name" \
	'Edna Tabor|Zia Xu, Lee Ann|Dr. Vahid Osman' \
	"$(meta bylabel | jq -r .author)|$(meta bycolon | jq -r .author)|$(meta bydr | jq -r .author)"
expect_eq "a label on its own line over one word is no byline; Jr. ends a name" \
	'John Smith Jr' "$(meta bylink | jq -r .author)"
# The label and the name are often two inline elements, without a
# space between: after a label's colon and a capital "By" the name may
# follow at once; a word ending with a hyphen ends the name.
page glued '<title>Glued</title>' \
	'<h1>A headline of some length</h1><p><b>Written by:</b><a href="/p/en">Elise Nass</a></p><p>Text.</p>'
page gluedby '<title>Glued By</title>' \
	'<h1>A headline of some length</h1><p><span>By</span><a href="/p/da">Daryl Austin</a></p><p>Text.</p>'
page hyphen '<title>Hyphen</title>' \
	'<h1>A headline of some length</h1><p>By Cort Honey, Home- and Office-Security Expert</p><p>Text.</p>'
page bytes '<title>Bytes</title>' \
	'<h1>A headline of some length</h1><p>Bytes and Bits</p><p>Text.</p>'
expect_eq "a name glued to its label's colon or to By; a hyphen ends a name; Bytes is no label" \
	'Elise Nass|Daryl Austin|Cort Honey|null' \
	"$(meta glued | jq -r .author)|$(meta gluedby | jq -r .author)|$(meta hyphen | jq -r .author)|$(meta bytes | jq -r .author)"
# A forum names the thread's starter by a label, over the first
# microdata author (often a highlighted answer's); user names are
# written as chosen.  In prose the words are no label.
page starter '<title>Fan noise | Forum</title>' \
	'<h1>Fan noise</h1><div>Thread starter<a href="/members/sean_g.5/">sean_g</a></div><div>Start date Feb 25, 2024</div><div itemprop="author" itemscope><span itemprop="name">Packard</span></div><p>Text.</p>'
page startedby '<title>Best hosts | Forum</title>' \
	'<h1>Best hosts</h1><p>Discussion in &#39;Hosting Advice&#39; started by <a href="/members/pelex.1/">pelex</a>, May 26, 2025.</p><p>Text.</p>'
page prose '<title>A shop | Blog</title>' \
	'<h1>A small shop of our town</h1><p>The shop was started by two friends, who met at school.</p>'
expect_eq "a thread's starter by its label, over microdata; not in prose" \
	'sean_g|pelex|null' \
	"$(meta starter | jq -r .author)|$(meta startedby | jq -r .author)|$(meta prose | jq -r .author)"
# "started by" counts only followed by a comma and a date, as XenForo
# writes it: in prose it names no author, above a <meta> author least
# of all.  "Thread starter" on one line with the start date ends before
# its label; a sentence after the words is no user name.
auth='<title>Fund | News</title><meta name="author" content="Jane Doe">'
page startprose "$auth" '<h1>A fund for the school</h1><p>The fund was started by local parents</p><p>Text.</p>'
page startsentence "$auth" '<h1>A fund for the school</h1><p>The fund was started by local parents. They met every week.</p><p>Text.</p>'
page starterline '<title>Fan noise | Forum</title>' \
	'<h1>Fan noise</h1><p>Thread starter sean_g Start date Feb 25 2024</p><p>Text.</p>'
page startersaid "$auth" '<h1>A fund for the school</h1><p>The thread starter said that he agrees with all of it</p><p>Text.</p>'
expect_eq "started by in prose, a line's start date, a sentence after the label's words" \
	'Jane Doe|Jane Doe|sean_g|Jane Doe' \
	"$(meta startprose | jq -r .author)|$(meta startsentence | jq -r .author)|$(meta starterline | jq -r .author)|$(meta startersaid | jq -r .author)"
# The label's words in a sentence before the label itself: the label's
# name is read still.
page starterlate '<title>Fan noise | Forum</title>' \
	'<h1>Fan noise</h1><p>Topic author guidelines for new members of this board are here</p><div>Thread starter sean_g</div><p>Text.</p>'
expect_eq "a label's words in a sentence are passed over for the label after them" \
	'sean_g' "$(meta starterlate | jq -r .author)"
# An element whose class says username holds a name as its user
# wrote it; a login form's label so named is no author.
page username '<title>LEDs | Forum</title>' \
	'<form><label class="username-label">Email address *</label><input name="username"></form><h1>Turning off the LEDs</h1><div><a class="username" href="/memberlist.php?u=4">b.scherer</a><p>Posts: 2</p></div><p>Text.</p>'
expect_eq "a user name in an element so named, not a login form's label" \
	'b.scherer' "$(meta username | jq -r .author)"
# A news site's bar shows its account link as a username: no author
# in the page's header, navigation or footer (an article's own header
# is its post's), nor what such a link says for a name.
page userbar '<title>Storm | News</title>' \
	'<header class="site"><a href="/">News</a><a class="username" href="/account">jdoe_reader</a></header><h1>A storm is coming</h1><p>Text.</p>'
page usersign '<title>Storm | News</title>' \
	'<h1>A storm is coming</h1><div class="account"><span class="username">Sign in</span><a class="username">Guest</a></div><p>Text.</p>'
page userpost '<title>Fan noise | Forum</title>' \
	'<h1>Fan noise</h1><article class="Post"><header class="Post-header"><span class="username">bob_k</span></header><p>My fan is loud.</p></article>'
expect_eq "a username in the page's header or footer, or a login link's words, is no author" \
	'null|null|bob_k' "$(meta userbar | jq -r .author)|$(meta usersign | jq -r .author)|$(meta userpost | jq -r .author)"
# "user-name" and "user_name" say username too (Flarum's
# "PostUser-name"); a link named like a byline (old Reddit's "author",
# microformats' "u-author") shows a handle as its user wrote it, and
# a login link so named is still no author.
page userdash '<title>Types of threads</title>' \
	'<h1>Types of threads</h1><div class="PostUser"><h3 class="PostUser-name">antonjw</h3></div><p>Text.</p>'
page authorlink '<title>Hair follicles | science</title>' \
	'<h1>Hair follicles grown</h1><p class="tagline"><a class="author may-blank" href="/user/snow_45">snow_45</a> 5 hours ago</p><p>Text.</p>'
page hcard '<title>Project goals</title>' \
	'<h1>Project goals</h1><div class="byline"><a class="u-author h-card" href="/~scvalex">scvalex</a></div><p>Text.</p>'
page authorlogin '<title>Project goals</title>' \
	'<h1>Project goals</h1><p><a class="author" href="/login">Log in</a></p><p>Text.</p>'
expect_eq "a handle in a user-name element or a link named author; not a login link's words" \
	'antonjw|snow_45|scvalex|null' \
	"$(meta userdash | jq -r .author)|$(meta authorlink | jq -r .author)|$(meta hcard | jq -r .author)|$(meta authorlogin | jq -r .author)"
# The name before a user's title (a forum member's rank under the
# name) is the first post's writer, as written; an account link's
# words there are none.
page usertitle '<title>ISO size | Forums</title>' \
	'<h1>ISO size</h1><div class="post"><dl><dt><strong>chunix64</strong></dt><dd class="usertitle"><strong>Member</strong></dd></dl><p>Why did the ISO grow?</p></div>'
page usertitlelogin '<title>ISO size | Forums</title>' \
	'<h1>ISO size</h1><div class="post"><dl><dt>Guest</dt><dd class="usertitle">Visitor</dd></dl><p>Why did the ISO grow?</p></div>'
expect_eq "the name over a user's title; not an account link's words" \
	'chunix64|null' "$(meta usertitle | jq -r .author)|$(meta usertitlelogin | jq -r .author)"
# A byline without a label: the name beside the date under the title,
# on its line; on an article also on the line over or under it, not
# the heading's.
page namedate '<title>Defer</title>' \
	'<h1>Defer, Panic, and Recover</h1><p>Andrew Gerrand 4 August 2010</p><p>Text.</p>'
page nameover '<title>Shared services</title><meta property="og:type" content="article">' \
	'<h1>Shared services explained</h1><p>Elliot Raba</p><p>23.07.2025 · 6 min read</p><p>Text.</p>'
page notarticle2 '<title>Shared services</title>' \
	'<h1>Shared services explained</h1><p>Company News</p><p>23.07.2025</p><p>Text.</p>'
page headname '<title>Jane Doe</title><meta property="og:type" content="article">' \
	'<h1>Jane Doe</h1><p>23.07.2025</p><p>Text.</p>'
expect_eq "the name beside the date under the title; the line over it on an article only, not the heading" \
	'Andrew Gerrand|Elliot Raba|null|null' \
	"$(meta namedate | jq -r .author)|$(meta nameover | jq -r .author)|$(meta notarticle2 | jq -r .author)|$(meta headname | jq -r .author)"
# A name ending with a letter of two bytes keeps it whole; a mark
# between the name and the date is left out.
page nameacc '<title>Defer</title>' \
	'<h1>Defer, Panic, and Recover</h1><p>José Hervé 4 August 2010</p><p>Text.</p>'
page namemark '<title>Defer</title>' \
	'<h1>Defer, Panic, and Recover</h1><p>Ann Lee &middot; 4 August 2010</p><p>Text.</p>'
expect_eq "the name beside the date ends with its last letter, not a mark" \
	'José Hervé|Ann Lee' "$(meta nameacc | jq -r .author)|$(meta namemark | jq -r .author)"
# The name after the date on its line, or (an article) on the line
# under it; a member's joining date before the post's is passed over;
# a line of a name and much else is no byline.
art='<meta property="og:type" content="article">'
page nameafter '<title>Shared</title>' \
	'<h1>Shared services explained</h1><p>23.07.2025 &middot; Elliot Raba</p><p>Text.</p>'
page nameunder "<title>Shared</title>$art" \
	'<h1>Shared services explained</h1><p>23.07.2025</p><p>Elliot Raba</p><p>Text.</p>'
page namejoined '<title>Defer</title>' \
	'<h1>Defer, Panic, and Recover</h1><p>Joined: Jan 5, 2020</p><p>Ann Lee 4 August 2021</p><p>Text.</p>'
page namemuch '<title>Defer</title>' \
	'<h1>Defer, Panic, and Recover</h1><p>Ann Lee and her team of forty volunteers 4 August 2021</p><p>Text.</p>'
expect_eq "the name after the date, under it, past a joining date; not beside much else" \
	'Elliot Raba|Elliot Raba|Ann Lee|null' \
	"$(meta nameafter | jq -r .author)|$(meta nameunder | jq -r .author)|$(meta namejoined | jq -r .author)|$(meta namemuch | jq -r .author)"
# A date's line that ends with a mark goes on on the next line, on any
# page: the name is a block of its own in the byline; a date's line
# without a mark is no byline's there.
page datemarkline '<title>Mission</title>' \
	'<h1>Mission accomplished</h1><div><span>2025-12-17</span><span>&middot;</span><a href="/"><div>Trond Teigen</div></a></div><p>Text.</p>'
page datenomark '<title>Mission</title>' \
	'<h1>Mission accomplished</h1><div><span>2025-12-17</span></div><div>Company News</div><p>Text.</p>'
expect_eq "the name on the line after a date's line ending with a mark" \
	'Trond Teigen|null' "$(meta datemarkline | jq -r .author)|$(meta datenomark | jq -r .author)"
# After a date and a mark, a name followed by lowercase words (for
# whom or where the writer wrote) is the byline's; without the mark
# the line is a sentence as often.
page datemarkname '<title>Rust</title>' \
	'<h1>What do people love about Rust?</h1><div>Dec. 19, 2025 &middot; Niko Matsakis on behalf of <a href="/t">Vision Doc group</a></div><p>Text.</p>'
page datenomarkname '<title>Rust</title>' \
	'<h1>What do people love about Rust?</h1><div>Dec. 19, 2025 Team Rust met on behalf of the users</div><p>Text.</p>'
expect_eq "the name after a date and a mark, lowercase words after it" \
	'Niko Matsakis|null' "$(meta datemarkname | jq -r .author)|$(meta datenomarkname | jq -r .author)"
# A no-break space after By; a username of three spaces is a phrase.
page bynbsp '<title>Nbsp</title>' '<h1>A headline of some length</h1><p>By&nbsp;Jane Doe</p><p>Text.</p>'
page user2 '<title>Red | Forum</title>' '<h1>Red dogs of the north</h1><div><span class="username">the red dog</span></div><p>Text.</p>'
page user3 '<title>Red | Forum</title>' '<h1>Red dogs of the north</h1><div><span class="username">the big red dog</span></div><p>Text.</p>'
expect_eq "By and a no-break space; a user name of two spaces, not three" \
	'Jane Doe|the red dog|null' \
	"$(meta bynbsp | jq -r .author)|$(meta user2 | jq -r .author)|$(meta user3 | jq -r .author)"
# "Reviewed by", "Edited by", "Photos by" name others than the writer.
page reviewed '<title>Sleep</title>' \
	'<h1>The best mattress for side sleepers</h1><p>Reviewed by Kristina Zagame</p><p>Written by: Emily Walker</p><p>Text.</p>'
expect_eq "a reviewer's by is no byline" 'Emily Walker' "$(meta reviewed | jq -r .author)"
# So does "Hero image by", an image's credit.
page imagecredit '<title>Sleep</title>' \
	'<h1>The best mattress for side sleepers</h1><p>Hero image by Nadia Gardner</p><p>By Emily Walker</p><p>Text.</p>'
expect_eq "an image's credit is no byline" 'Emily Walker' "$(meta imagecredit | jq -r .author)"
# A listing's controls ("Sort by Category") name no writer.
page sortby '<title>Tools</title>' \
	'<h1>Garden tools and supplies</h1><p>Sort by Category</p><p>Shop by Brand</p><p>Text.</p>'
expect_eq "a listing's sort and shop controls are no byline" 'null' "$(meta sortby | jq -r .author)"
# "authorization" and "authorized" hold "author" but name no writer.
page authz '<title>Keys</title>' \
	'<h1>API keys and tokens</h1><p>Text.</p><a href="/docs/authorization">Authorization</a><div class="authorized-dealer">Authorized Dealer</div>'
expect_eq "an authorization link and an authorized dealer are no byline" 'null' "$(meta authz | jq -r .author)"
# A comment form's field named author is labelled "Name": no writer.
page commentform '<title>Post</title>' \
	'<h1>A headline of some length</h1><p>Text.</p><form><p class="comment-form-author"><label for="author">Name</label> <input id="author" name="author"></p></form>'
expect_eq "a comment form's author field names no author" 'null' "$(meta commentform | jq -r .author)"
# A name's trailing no-break space is a space.
page nbspend '<title>Nbsp</title><meta name="author" content="Jane Doe&nbsp;">' '<p>x</p>'
expect_eq "an author's trailing no-break space left out" 'Jane Doe' "$(meta nbspend | jq -r .author)"
# A CMS's default account and a script's empty value name no writer;
# the next source's name is the author.
page admin '<title>Admin</title><meta property="article:author" content="admin"><meta name="author" content="Jane Doe">' '<p>x</p>'
page undef "<title>Undef</title>$(ld '{"@type":"Article","headline":"Undef","author":{"@type":"Person","name":"undefined"}}')" '<p>x</p>'
expect_eq "admin and undefined are no author" 'Jane Doe|null' "$(meta admin | jq -r .author)|$(meta undef | jq -r .author)"
# A name read from text ends where its author's role starts.
page rolename '<title>Cars</title>' \
	'<h1>Your car maintenance checklist</h1><p>By Keith Barry Senior Autos Reporter</p><p>Text.</p>'
page rolecomma '<title>Cars</title>' \
	'<h1>Your car maintenance checklist</h1><p>This post was written by Danielle Padula, Head of Marketing</p><p>Text.</p>'
expect_eq "a name read from text ends at its role" 'Keith Barry|Danielle Padula' \
	"$(meta rolename | jq -r .author)|$(meta rolecomma | jq -r .author)"
page namepart '<title>Box</title>' \
	'<p>Text.</p><div class="post-author"><span class="post-author__name">Ann Other</span><span class="post-author__role">Founder at Shop</span></div>'
expect_eq "an author box's element named name is the name, not the role run into it" \
	'{"title":"Box","author":"Ann Other","lang":"en"}' "$(meta namepart)"

# PubMed and citation_* write a year before the month's name; in text
# that is a headline's year over its date, which is read as before.
page yearfirst '<title>Paper</title><meta name="citation_publication_date" content="2023 Jan 7">' '<p>x</p>'
page yearhead '<title>Best of 2024</title>' '<h1>The best kettles of 2024</h1><p>March 5, 2023</p><p>Text.</p>'
expect_eq "a metadata date written year first; a headline's year is not a date's" \
	'2023-01-07|2023-03-05' "$(meta yearfirst | jq -r .published)|$(meta yearhead | jq -r .published)"

# A forum's post carries its member's profile: the date the member
# joined is not the page's.
page joined '<title>Help with a fan</title>' \
	'<h1>Help with a fan</h1><div class="profile"><p>fanuser</p><p>Posts: 12</p><p>Joined: Mon Jul 24, 2017 9:28 am</p></div><div class="post"><p>Sun Dec 17, 2023 11:23 am</p><p>My fan is loud.</p></div>'
expect_eq "a member's joining date is not the post's" '2023-12-17' "$(meta joined | jq -r .published)"

# The URL's slug is the title the page was filed under: the first h1
# holding all its words is the title where the <title> holds none of
# them (a site's one <title> on every page); a <title> holding some is
# the page's own, and a slug of one word tells nothing.
page slug '<title>Green Shop | The heart of gardening</title>' '<h1>How to Pot a Cactus</h1><p>Text.</p>'
page slugsome '<title>Cactus care | Green Shop</title>' '<h1>How to Pot a Cactus</h1><p>Text.</p>'
slugtitle() { "$P" --html --base "$2" -j0 --json "$T/$1.html" | jq -r .title; }
expect_eq "an h1 holding the URL's slug over a <title> holding none of it" \
	'How to Pot a Cactus|Green Shop|Cactus care|Green Shop' \
	"$(slugtitle slug http://example.com/guides/how-to-pots-a-cactus/)|$(slugtitle slug http://example.com/guides/cactus-soil.html)|$(slugtitle slugsome http://example.com/guides/how-to-pot-a-cactus)|$(slugtitle slug http://example.com/cactus?x=how-to-pot)"

# A page builder's title in a styled block, no heading: the date under
# it is the page's, as under a heading.
page shown '<title>Top 5 Garden Tools in 2026 | Shed Co</title>' \
	'<div class="nav"><a href="/">Home</a></div><p class="big">Top 5 Garden Tools in 2026</p><p>Shed Team</p><p>Feb 16, 2026</p><p>Text about tools.</p>'
expect_eq "the date under the title shown in a block that is no heading" '2026-02-16' "$(meta shown | jq -r .published)"

# An element named for its date that goes on past a byline's length
# (the date, then the post's tags) gives the date it starts with.
page datebox '<title>How journals are indexed</title>' \
	"<h1>How journals are indexed</h1>$(for i in 1 2 3 4 5 6; do printf '<p>Indexes list the journals that meet their criteria, and a journal applies to each of them once it has published for a while.</p>'; done)"'<div class="meta post-date">Posted on April 13, 2023 <span>Tags: academic journal indexing, abstracting and indexing, scholarly search engines, how to get a journal indexed, open access journals, peer review, publishing platforms</span></div>'
expect_eq "the date that starts a long element named for its date" '2023-04-13' "$(meta datebox | jq -r .published)"

# An author's box of lines, the name over the role: the name is the
# first line's, not the run of both.
page boxlines '<title>Hubs</title>' \
	'<h1>Hubs</h1><p>Text about hubs.</p><a href="/author/harry-r"><div><p>Harry Rabinowitz</p><p>Tech Reporter</p></div></a>'
expect_eq "an author's box: the name on its first line" 'Harry Rabinowitz' "$(meta boxlines | jq -r .author)"

# An author's box too long for a byline, a name over a biography that
# starts with the name's first word or over a role: the name on its
# first line; an element named author whose first line is a menu's is
# none.
bio='is a finance writer who has covered markets, banks and household budgets for twelve years, and who tests every budgeting app she writes about.'
page boxbio '<title>Hubs</title>' \
	"<h1>Hubs</h1><p>Text about hubs.</p><div class=\"author-box\"><div>Jane Roe</div><p>Jane $bio</p></div>"
page boxrole '<title>Hubs</title>' \
	"<h1>Hubs</h1><p>Text about hubs.</p><div class=\"authors-name\"><div><a href=\"/u/ann\">Ann Lee</a></div><div>Writer, Hardware</div><p>Our team $bio</p></div>"
page boxmenu '<title>Hubs</title>' \
	"<h1>Hubs</h1><p>Text about hubs.</p><div class=\"hide-author\"><div>Shop All</div><p>Gift Cards</p><p>Our team $bio</p></div>"
expect_eq "an author's box: the name over its biography or role; not a menu's first line" \
	'Jane Roe|Ann Lee|null' "$(meta boxbio | jq -r .author)|$(meta boxrole | jq -r .author)|$(meta boxmenu | jq -r .author)"

# A role after a name's comma is no second name, an expert's as a
# writer's; "&" between two bylines ends the first.
page rolecomma2 '<title>Locks</title>' \
	'<h1>Locks</h1><p>By <a href="/a/jd">Jane Doe</a><span>, Privacy and Digital Security Expert</span><span>&amp;</span><a href="/a/jr">John Roe</a><span>, Home Expert</span></p><p>Text about locks.</p>'
expect_eq "a role after the byline's comma ends the name" 'Jane Doe' "$(meta rolecomma2 | jq -r .author)"

# An h2 that starts the title and says less is a section's heading on
# its topic, not the page's title; an h2 that is the title's first
# segment still is.
page h2part '<title>The Best Kettles of 2026, Tested by Editors | Kitchen Co</title>' \
	'<h2>The best kettles of 2026</h2><p>Text about kettles.</p>'
page h2seg '<title>Kettles | Kitchen Co</title>' '<h2>Kettles</h2><p>Text about kettles.</p>'
expect_eq "an h2 that starts the title is no title; one that is its first segment is" \
	'The Best Kettles of 2026, Tested by Editors|Kettles' \
	"$(meta h2part | jq -r .title)|$(meta h2seg | jq -r .title)"

# Remix's JSON-LD descriptor written as a <meta>: its content is a
# JSON-LD block like a script's.
page remixld '<title>EV guide | Cars Co</title><meta name="script:ld+json" content="{&quot;@context&quot;:&quot;https://schema.org&quot;,&quot;@type&quot;:&quot;Article&quot;,&quot;headline&quot;:&quot;EV guide&quot;,&quot;datePublished&quot;:&quot;2025-11-17&quot;,&quot;author&quot;:{&quot;@type&quot;:&quot;Person&quot;,&quot;name&quot;:&quot;Ann Lee&quot;}}">' '<p>Text.</p>'
expect_eq "JSON-LD in a <meta name=script:ld+json>" '{"author":"Ann Lee","published":"2025-11-17","ld":"Article"}' \
	"$("$P" --html --base "$BASE" -j0 --json "$T/remixld.html" | jq -c '{author, published, ld: .jsonld[0]["@type"]}')"

# A thread's "Last post" date over its first post is the thread's
# latest activity, no date of the page.
page lastpost '<title>Fan noise</title>' \
	'<h1>Fan noise</h1><p>13 answers / Last post: Dec 1, 2025 at 6:49 pm</p><div class="post"><p>fanuser</p><p>Nov 28, 2025 at 7:07 pm</p><p>My fan is loud.</p></div>'
expect_eq "a thread's last post date is not the page's" '2025-11-28' "$(meta lastpost | jq -r .published)"

# A "Founded" date (a member's, an organization's) is when something
# began, not when the page was written.
page founded '<title>Football season</title>' \
	'<h1>Football season</h1><div class="profile"><p>Outer Land</p><p>Posts: 4032</p><p>Founded: Dec 11, 2021</p></div><div class="post"><p>by Outer Land &raquo; Tue Aug 27, 2019 1:47 am</p><p>The league is back.</p></div>'
expect_eq "a founding date is not the page's" '2019-08-27' "$(meta founded | jq -r .published)"

# A heading that is a label's element, then the metadata title, is the
# label and the title (a forum's thread prefix); the same words in one
# run of text are the title's own.
page labelhead "<title>Help - My fan is too loud | Forum</title>$(ld '{"@type":"DiscussionForumPosting","headline":"My fan is too loud"}')" \
	'<h1><span class="label">Help</span><span>&nbsp;</span>My fan is too loud</h1><p>It hums.</p>'
page labelrun "<title>The fan is too loud | Forum</title>$(ld '{"@type":"DiscussionForumPosting","headline":"fan is too loud"}')" \
	'<h1>The fan is too loud</h1><p>It hums.</p>'
expect_eq "a label's element before the metadata title in a heading is left out" \
	'My fan is too loud|The fan is too loud' "$(meta labelhead | jq -r .title)|$(meta labelrun | jq -r .title)"

# The site's name after the author's, past a comma, a dash or a bar,
# is the publication the writer writes for, no writer; another part
# after a comma (a role) stays.
page sitesuffix '<title>Heat</title><meta property="og:site_name" content="The Daily Star"><meta name="author" content="Ann Lee and Bo Roe, The Daily Star">' '<p>x</p>'
page sitedash '<title>Heat</title><meta property="og:site_name" content="FullStack"><meta name="author" content="Jane Doe - FullStack Editorial Team">' '<p>x</p>'
page siterole '<title>Heat</title><meta property="og:site_name" content="The Daily Star"><meta name="author" content="Jane Doe, Senior Editor">' '<p>x</p>'
expect_eq "the site's name after the author's is left out, a role is not" \
	'Ann Lee and Bo Roe|Jane Doe|Jane Doe, Senior Editor' \
	"$(meta sitesuffix | jq -r .author)|$(meta sitedash | jq -r .author)|$(meta siterole | jq -r .author)"

# A metadata author that is the site's own name gives way to the
# person a link to the author's page shows; one the byline's name holds
# (the site's name misread with more) stays, and so does one without
# a byline.
page siteauthor '<title>Flaws</title><meta property="og:site_name" content="Rapid7"><meta name="author" content="Rapid7">' \
	'<h1>Flaws of the week</h1><p>Text.</p><p><a href="/author/spencer">Spencer McIntyre</a></p>'
page siteholds '<title>Flaws</title><meta property="og:site_name" content="Heather Handmade"><meta name="author" content="Heather Handmade">' \
	'<h1>Flaws of the week</h1><p>Text.</p><p><a href="/author/heather">Heather Handmade Team</a></p>'
page sitealone '<title>Flaws</title><meta property="og:site_name" content="Rapid7"><meta name="author" content="Rapid7">' \
	'<h1>Flaws of the week</h1><p>Text.</p>'
expect_eq "the person an author's link names over the site's name as author" \
	'Spencer McIntyre|Heather Handmade|Rapid7' \
	"$(meta siteauthor | jq -r .author)|$(meta siteholds | jq -r .author)|$(meta sitealone | jq -r .author)"

# A name starting with a comma is a template's, its name left empty
# before the publication's suffix: no author.
page emptyname "<title>Film</title><meta name=\"author\" content=\"Jane Doe\">$(ld '{"@type":"NewsArticle","headline":"Film","author":{"@type":"Person","name":", Daily Paper"}}')" '<p>x</p>'
expect_eq "a template's author with its name left empty is none" 'Jane Doe' "$(meta emptyname | jq -r .author)"

# A publication date's <meta> name after a vendor's prefix.
page prefdate '<title>Costs</title><meta name="w-published-date" content="2025-05-27T06:03:43.274Z"><meta name="w-publish-status" content="2020-01-01">' '<p>x</p>'
expect_eq "a prefixed publication date's <meta>" '2025-05-27T06:03:43+00:00' "$(meta prefdate | jq -r .published)"

# A title's bar between no-break spaces, as templates write it
# ("&nbsp;|&nbsp;"), cuts it as one between spaces does.
page nbspbar '<title>Access overview &nbsp;|&nbsp; Identity and Access &nbsp;|&nbsp; Cloud Docs</title><meta property="og:site_name" content="Cloud Docs">' '<p>x</p>'
expect_eq "a bar between no-break spaces cuts the title" 'Access overview' "$(meta nbspbar | jq -r .title)"

page future '<title>Later</title><meta property="article:published_time" content="2099-01-01">' '<p>x</p>'
expect_eq "a date after the fetch is not believed" '{"title":"Later","lang":"en"}' "$(meta future)"

deep=$(python3 -c "print('{\"a\":' * 20 + '1' + '}' * 20)")
big=$(python3 -c "print('{\"@type\":\"Article\",\"text\":\"' + 'x' * (1100 * 1024) + '\"}')")
page bad "<title>Bad</title>$(ld '{"@type":"Article",')$(ld '<!-- {"@type":"Article","headline":"Fine","author":"Ok Author"} -->')$(ld "$deep")$(ld "$big")$(ld '   ')" \
	'<p>x</p>'
expect_eq "malformed, too deep (20) and too large (1.1 MB) blocks skipped and counted; a commented one kept" \
	'{"title":"Bad","author":"Ok Author","lang":"en","jsonld_skipped":3}' "$(meta bad)"
expect_eq "malformed blocks: only the good one in jsonld" \
	'1' "$("$P" --html --base "$BASE" -j0 --json "$T/bad.html" | jq '.jsonld | length')"

bomb=$(python3 -c "print('[' * 100000 + ']' * 100000)")
page bomb "<title>Bomb</title>$(ld "$bomb")" '<p>x</p>'
expect_eq "a JSON-LD bomb nested 100000 deep: skipped, the page still parsed" \
	'{"title":"Bomb","lang":"en","jsonld_skipped":1}' "$(meta bomb)"

finish
