#!/bin/sh
# parse: sitemaps.org XML (urlset, sitemapindex, gzip) into links and
# sitemap; the protocol's limits; XML bombs and external entities; and a
# crawl that reaches pages only its sitemaps name (sink --follow).
. "${TESTS:-$(dirname "$0")}/lib.sh"
F=$TESTS/fixtures/sitemap
P=$BIN/parse
server_start --root "$T/site" --robots "$T/robots.txt"

# rec FILE [URL [CTYPE]]: a fetch-shaped record whose body is FILE.
rec() {
	printf '{"url":"%s","status":200,"ctype":"%s","job":"j1","body":{"$file":"%s"}}\n' \
		"${2:-http://example.com/sitemap.xml}" "${3:-application/xml}" "$1"
}
# sm FILE [URL [CTYPE]]: that record through parse -j0, as JSON.
sm() { rec "$@" | mkrec | "$P" -j0 --json 2>"$T/err"; }

# ---- urlset and index ---------------------------------------------------
sm "$F/urlset.xml" >"$T/u.json"
expect_eq "urlset: locs resolved like page links, http(s) only, de-duplicated" \
'http://example.com/a.html
http://example.com/rel?x=1&y=2
http://example.com/b%20c.html
https://xn--caf-dma.example/x' "$(jq -r '.links[]' "$T/u.json")"
expect_eq "urlset: kind, latest lastmod across zones, entries with a loc" \
	'{"kind":"urlset","lastmod":"2024-03-01T09:30:00Z","urls":6}' \
	"$(jq -c '.sitemap | del(.lastmods)' "$T/u.json")"
expect_eq "urlset: lastmods parallel to links, first entry wins" \
	'["2024-01-02","2024-03-01T10:00:00+02:00","2024-03-01T09:30:00Z","not a date"]' \
	"$(jq -c .sitemap.lastmods "$T/u.json")"
expect_eq "urlset: extension elements (image:loc) are not links" 0 \
	"$(jq '[.links[] | select(test("img"))] | length' "$T/u.json")"
expect_eq "urlset: parser names libxml2, body dropped, input keys kept" \
	"parse/0.1.0 libxml2/$(pkg-config --modversion libxml-2.0) null j1" \
	"$(jq -r '"\(.parser) \(.body) \(.job)"' "$T/u.json")"
expect_eq "urlset: no title, no text" "null null" "$(jq -r '"\(.title) \(.text)"' "$T/u.json")"

sm "$F/index.xml" >"$T/i.json"
expect_eq "index: kind index, latest lastmod, the child sitemaps as links" \
	'{"kind":"index","lastmod":"2023-12-31T23:00:00-02:00","urls":3} http://example.com/sitemaps/a.xml http://example.com/sitemaps/b.xml.gz http://example.com/sitemaps/c.xml' \
	"$(jq -r '"\(.sitemap | del(.lastmods) | tojson) \(.links | join(" "))"' "$T/i.json")"
expect_eq "no namespace is a sitemap too" '["http://example.com/plain"] urlset' \
	"$(sm "$F/nons.xml" | jq -rc '"\(.links | tojson) \(.sitemap.kind)"')"
expect_eq "text/xml with a charset is read" "urlset" \
	"$(sm "$F/urlset.xml" http://example.com/s.xml 'text/xml; charset=UTF-8' | jq -r .sitemap.kind)"
expect_eq "--keep-body keeps the body" "$(wc -c <"$F/urlset.xml" | tr -d ' ')" \
	"$(rec "$F/urlset.xml" | mkrec | "$P" -j0 --json --keep-body | jq -r '.body | @base64d | length')"
rec "$F/urlset.xml" >"$T/two.jsonl"
rec "$F/index.xml" >>"$T/two.jsonl"
mkrec <"$T/two.jsonl" >"$T/two.mp"
expect_eq "workers give what -j0 gives (in completion order)" \
	"$("$P" -j0 --json <"$T/two.mp" | jq -c 'del(.parse_ms)' | sort)" \
	"$("$P" -j2 --json <"$T/two.mp" | jq -c 'del(.parse_ms)' | sort)"

# ---- gzip ----------------------------------------------------------------
gzip -c "$F/urlset.xml" >"$T/u.xml.gz"
expect_eq "gzip by magic bytes under application/xml" "$(jq -c .links "$T/u.json")" \
	"$(sm "$T/u.xml.gz" http://example.com/s.xml.gz application/xml | jq -c .links)"
expect_eq "gzip under application/x-gzip" "6" \
	"$(sm "$T/u.xml.gz" http://example.com/s application/x-gzip | jq .sitemap.urls)"
expect_eq "a .xml.gz URL without ctype" "6" \
	"$(sm "$T/u.xml.gz" http://example.com/s.xml.gz '' | jq .sitemap.urls)"
expect_eq "a .xml.gz URL whose body fetch already gunzipped" "6" \
	"$(sm "$F/urlset.xml" http://example.com/s.xml.gz '' | jq .sitemap.urls)"
# Three members, as pigz, bgzip or cat a.gz b.gz c.gz write them: one file.
python3 -c '
import sys
xml = open(sys.argv[1], "rb").read()
third = len(xml) // 3
parts = [xml[:third], xml[third:2 * third], xml[2 * third:]]
import gzip
sys.stdout.buffer.write(b"".join(gzip.compress(p) for p in parts))' "$F/urlset.xml" >"$T/multi.xml.gz"
expect_eq "a gzip body of three members: all its links" "$(jq -c .links "$T/u.json")" \
	"$(sm "$T/multi.xml.gz" http://example.com/s.xml.gz application/gzip | jq -c .links)"
head -c 100 "$T/u.xml.gz" >"$T/cut.gz"
expect_eq "a cut gzip body: bad_gzip, the record kept with its body" \
	"bad_gzip|gzip: the body ends early|true|null" \
	"$(sm "$T/cut.gz" http://example.com/s.xml.gz application/gzip |
		jq -r '"\(.parse_error)|\(.parse_error_detail)|\(.body != null)|\(.links)"')"

# 60 MiB of XML in 90 KB of gzip: stopped at 50 MiB, never held whole.
python3 -c '
import gzip, sys
sys.stdout.buffer.write(gzip.compress(b"<urlset>" + b"<url/>" * (10 << 20) + b"</urlset>"))' >"$T/bomb.gz"
rec "$T/bomb.gz" http://example.com/bomb.xml.gz application/x-gzip | mkrec >"$T/bomb.mp"
/usr/bin/time -f %M -o "$T/rss" "$P" -j0 --json <"$T/bomb.mp" >"$T/bomb.json" 2>"$T/err"
expect_eq "a gzip bomb: too_large past 50 MiB" "too_large|sitemap over 50 MiB of XML after gunzip" \
	"$(jq -r '"\(.parse_error)|\(.parse_error_detail)"' "$T/bomb.json")"
expect_eq "and parse says so, naming the URL" \
	"parse: http://example.com/bomb.xml.gz: too_large: sitemap over 50 MiB of XML after gunzip" \
	"$(tail -1 "$T/err")"
expect_cmd "in bounded memory (under 40 MB; was $(cat "$T/rss") KB)" test "$(cat "$T/rss")" -lt 40000

# ---- the 50 000 URL limit ------------------------------------------------
python3 -c '
print("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">")
for i in range(50001):
    print("<url><loc>http://example.com/p%d</loc><lastmod>2024-01-%02d</lastmod></url>" % (i, i % 28 + 1))
print("</urlset>")' >"$T/many.xml"
sm "$T/many.xml" http://example.com/many.xml >"$T/many.json"
expect_eq "50 001 URLs: the first 50 000 kept, 1 dropped" \
	"50000 http://example.com/p0 http://example.com/p49999 50000 1 50000" \
	"$(jq -r '"\(.links | length) \(.links[0]) \(.links[-1]) \(.sitemap.urls) \(.sitemap.dropped) \(.sitemap.lastmods | length)"' "$T/many.json")"
expect_eq "with a notice" "parse: http://example.com/many.xml: sitemap: 1 URLs past the protocol's 50000 dropped" \
	"$(cat "$T/err")"
expect_eq "-q silences it" "" "$(rec "$T/many.xml" | mkrec | "$P" -q -j0 2>&1 >/dev/null)"

# ---- hostile XML -----------------------------------------------------------
/usr/bin/time -f %M -o "$T/rss" sh -c 'python3 "$1/mkrec.py" | "$2" -j0 --json' sh "$TESTS" "$P" \
	>"$T/lol.json" 2>"$T/err" <<EOF
$(rec "$F/bomb.xml")
EOF
expect_eq "billion laughs: bad_xml, refused, nothing expanded" \
	"bad_xml|line 1: Detected an entity reference loop|null" \
	"$(jq -r '"\(.parse_error)|\(.parse_error_detail)|\(.links)"' "$T/lol.json")"
expect_cmd "billion laughs: in bounded memory (under 40 MB; was $(cat "$T/rss") KB)" \
	test "$(cat "$T/rss")" -lt 40000
expect_eq "billion laughs: no lol in the output" 0 "$(grep -c lollol "$T/lol.json")"

echo "SECRET-MARKER-$$" >"$T/secret.txt"
cat >"$T/xxe.xml" <<EOF
<?xml version="1.0"?>
<!DOCTYPE urlset [
  <!ENTITY passwd SYSTEM "file:///etc/passwd">
  <!ENTITY secret SYSTEM "file://$T/secret.txt">
  <!ENTITY net SYSTEM "$URL/xxe-entity">
  <!ENTITY % dtd SYSTEM "$URL/xxe-dtd">
  %dtd;
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://example.com/&passwd;</loc></url>
  <url><loc>http://example.com/&secret;</loc></url>
  <url><loc>http://example.com/&net;</loc></url>
  <url><loc>http://example.com/kept</loc><lastmod>&secret;</lastmod></url>
</urlset>
EOF
cat >"$T/xxe-dtd.xml" <<EOF
<?xml version="1.0"?>
<!DOCTYPE urlset SYSTEM "file://$T/secret.txt">
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://example.com/d</loc></url></urlset>
EOF
for x in xxe xxe-dtd; do
	rec "$T/$x.xml" | mkrec | "$P" -j0 --json >"$T/$x.json" 2>"$T/$x.err"
	expect_eq "$x: neither /etc/passwd nor a local file appears anywhere" 0 \
		"$(cat "$T/$x.json" "$T/$x.err" | grep -c "root:\|SECRET-MARKER")"
done
expect_eq "external entities: never loaded; locs holding one are skipped" \
	'["http://example.com/kept"] {"kind":"urlset","urls":1}' \
	"$(jq -c '"\(.links | tojson) \(.sitemap | tojson)"' -r "$T/xxe.json")"
expect_eq "an external DTD is not loaded either" '["http://example.com/d"]' "$(jq -c .links "$T/xxe-dtd.json")"
expect_eq "and no entity or DTD was fetched from the network" 0 "$(count '^/xxe')"

# ---- not sitemaps, and broken ones ----------------------------------------
for x in rss otherns; do
	rec "$F/$x.xml" | mkrec >"$T/$x.mp"
	"$P" -j0 <"$T/$x.mp" >"$T/$x.out"
	expect_cmd "$x: XML that is not a sitemap passes through byte for byte" cmp -s "$T/$x.mp" "$T/$x.out"
done
echo '<html><body><a href="/x">x</a></body></html>' >"$T/page.html"
expect_eq "HTML under text/html is still a page" '["http://example.com/x"] null' \
	"$(sm "$T/page.html" http://example.com/ text/html | jq -c '"\(.links | tojson) \(.sitemap)"' -r)"
sm "$F/malformed.xml" http://example.com/bad.xml >"$T/bad.json"
expect_eq "malformed: bad_xml with libxml2's line and reason, the record kept whole" \
	"bad_xml|line 4: Opening and ending tag mismatch: loc line 4 and lo|$(base64 -w0 "$F/malformed.xml")|j1|null" \
	"$(jq -r '"\(.parse_error)|\(.parse_error_detail)|\(.body)|\(.job)|\(.links)"' "$T/bad.json")"
expect_eq "malformed: a message naming the URL" \
	"parse: http://example.com/bad.xml: bad_xml: line 4: Opening and ending tag mismatch: loc line 4 and lo" \
	"$(cat "$T/err")"
printf 'not xml at all' >"$T/junk.xml"
expect_eq "not XML at all under an XML ctype: bad_xml" "bad_xml" \
	"$(sm "$T/junk.xml" | jq -r .parse_error)"

# ---- a crawl: robots.txt, an index, urlsets (one gzip), pages ---------------
# Pages only the sitemaps name are stored; an out-of-scope URL, an
# --exclude'd one and one robots.txt disallows are not fetched.
mkdir -p "$T/site/sitemaps" "$T/site/nest"
O=http://127.0.0.2:$PORT
printf 'User-agent: *\nDisallow: /private/\nSitemap: %s/sitemap_index.xml\n' "$URL" >"$T/robots.txt"
urlset() { echo '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'; for u; do echo "<url><loc>$u</loc></url>"; done; echo '</urlset>'; }
index() { echo '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'; for u; do echo "<sitemap><loc>$u</loc></sitemap>"; done; echo '</sitemapindex>'; }
index "$URL/sitemaps/a.xml" "$URL/sitemaps/b.xml.gz" "$O/sitemaps/other.xml" >"$T/site/sitemap_index.xml"
urlset "$URL/only-a1.html" "$URL/only-a2.html" "$O/out.html" "$URL/private/p.html" >"$T/site/sitemaps/a.xml"
urlset "$URL/only-b.html" | gzip -c >"$T/site/sitemaps/b.xml.gz"
for p in only-a1 only-a2 only-b linked; do
	printf '<html><head><title>%s</title></head><body><a href="/linked.html">l</a></body></html>\n' "$p" >"$T/site/$p.html"
done
echo '<html><head><title>nobody links here</title></head></html>' >"$T/site/orphan.html"

# crawl_from DB SEED [SINK-OPTIONS...]: a crawl from SEED, robots.txt
# obeyed, into DB (frontier and pages in the same file)
crawl_from() {
	db=$1 seed=$2; shift 2
	echo "$seed" >"$T/seeds.txt"
	crawl "$db" "$db" -c 8 -p 8 parse: -j2 sink: --batch-ms 50 --follow "$@"
}
: >"$LOG"
crawl_from "$T/c.db" "$URL/sitemap_index.xml"
expect_eq "crawl: the pages the sitemaps name are stored, and what they link" \
	"$URL/linked.html|1
$URL/only-a1.html|1
$URL/only-a2.html|1
$URL/only-b.html|1
$URL/sitemap_index.xml|
$URL/sitemaps/a.xml|
$URL/sitemaps/b.xml.gz|" \
	"$(q "$T/c.db" "select url, accepted from pages where error is null order by url")"
expect_eq "crawl: sitemaps, not judged by validate, are followed" \
	"index|urlset|urlset" \
	"$(q "$T/c.db" "select group_concat(k, '|') from (select json_extract(record, '\$.sitemap.kind') k
		from pages where url like '%sitemap%' order by url)")"
expect_eq "crawl: depths: index 0, urlsets 1, pages 2, their links 3" \
	"$URL/sitemap_index.xml|0
$URL/sitemaps/a.xml|1
$URL/sitemaps/b.xml.gz|1
$URL/only-a1.html|2
$URL/only-a2.html|2
$URL/only-b.html|2
$URL/private/p.html|2
$URL/linked.html|3" \
	"$(q "$T/c.db" "select url, depth from frontier order by depth, url")"
expect_eq "crawl: robots.txt still refuses a URL a sitemap names" \
	"dead|robots" "$(q "$T/c.db" "select state, substr(last_error, 1, 6) from frontier where url like '%/private/%'")"
expect_eq "crawl: the other host (out of scope) is never admitted or fetched" \
	"0 0" "$(q "$T/c.db" "select count(*) from frontier where host = '127.0.0.2'") $(jq -r .addr "$LOG" | grep -c 127.0.0.2)"
expect_eq "crawl: the orphan page is never fetched" 0 "$(count '^/orphan')"

# validate passes sitemaps through unjudged, even with --drop
rec "$T/site/sitemap_index.xml" | mkrec | "$P" -j0 | "$BIN/validate" --drop --json --summary "$T/vs.json" 2>"$T/err" >"$T/v.json"
expect_eq "validate --drop: a sitemap passes, without a verdict, counted as a sitemap" \
	"index null 1 0" "$(jq -r '"\(.sitemap.kind) \(.accepted)"' "$T/v.json") $(jq '.total.sitemaps, .total.raw' "$T/vs.json" | tr '\n' ' ' | sed 's/ $//')"
expect_match "validate: the summary line says so" "1 sitemaps" "$(cat "$T/err")"

crawl_from "$T/x.db" "$URL/sitemap_index.xml" --exclude 'only-a2' --include '/(sitemaps/|only-)'
expect_eq "--exclude and --include apply to sitemap links" \
	"$URL/only-a1.html $URL/only-b.html $URL/sitemap_index.xml $URL/sitemaps/a.xml $URL/sitemaps/b.xml.gz" \
	"$(q "$T/x.db" "select url from frontier order by url" | tr '\n' ' ' | sed 's/ $//')"

# Index nesting: nest/N.xml is an index naming nest/N+1.xml.  An index
# at depth 10 or more has its links not followed, whatever --max-depth.
for n in $(seq 0 14); do index "$URL/nest/$((n + 1)).xml" >"$T/site/nest/$n.xml"; done
crawl_from "$T/n.db" "$URL/nest/0.xml" --max-depth 50
expect_eq "index nesting stops at depth 10 even under --max-depth 50" "11|10" \
	"$(q "$T/n.db" "select count(*), max(depth) from frontier")"
expect_eq "so nest/11.xml is never fetched" 0 "$(count '^/nest/11[.]xml$')"
# ---- fetch --queue --sitemaps HOST: a crawl seeded by robots.txt -----------
# The robots.txt record's Sitemap: lines become links; standard input is
# not read (the URL in it is never fetched); --stats lists the sitemaps.
: >"$LOG"
echo "$URL/orphan.html" >"$T/stdin.txt"
timeout 60 sh -c 'db=$0
	"$BIN/fetch" -q --queue "$db" -c 8 -p 8 --sitemaps "$1" --stats "$2" <"$3" |
	"$BIN/parse" -q -j2 | "$BIN/validate" -q |
	"$BIN/sink" -q --batch-ms 50 --queue "$db" --follow "$db"' "$T/s.db" "$URL" "$T/s.json" "$T/stdin.txt"
expect_eq "--sitemaps: robots.txt 0, index 1, urlsets 2, pages 3, their links 4" \
	"$URL/robots.txt|0
$URL/sitemap_index.xml|1
$URL/sitemaps/a.xml|2
$URL/sitemaps/b.xml.gz|2
$URL/only-a1.html|3
$URL/only-a2.html|3
$URL/only-b.html|3
$URL/private/p.html|3
$URL/linked.html|4" \
	"$(q "$T/s.db" "select url, depth from frontier order by depth, url")"
expect_eq "--sitemaps: the robots.txt record is a sitemap of kind robots" "robots|1" \
	"$(q "$T/s.db" "select json_extract(record, '\$.sitemap.kind'), json_extract(record, '\$.sitemap.urls') from pages where url like '%/robots.txt'")"
expect_eq "--sitemaps: standard input is not read" 0 "$(count '^/orphan')"
expect_eq "--sitemaps: --stats lists the host's sitemaps" "$URL/sitemap_index.xml" \
	"$(jq -r '.hosts[].sitemaps // empty | .[]' "$T/s.json")"
"$BIN/fetch" -q --queue "$T/s.db" --sitemaps 'ftp://x' </dev/null 2>"$T/err"
expect_eq "--sitemaps: a value that is no host is refused" \
	"64 fetch: invalid value 'ftp://x' for --sitemaps: want a host or an origin" "$? $(head -1 "$T/err")"
"$BIN/fetch" -q --sitemaps "$URL" </dev/null 2>"$T/err"
expect_eq "--sitemaps needs --queue" "64 fetch: --sitemaps needs --queue" "$? $(head -1 "$T/err")"
printf '{"url":"http://h.example/robots.txt","status":200,"ctype":"text/plain","body":"User-agent: *\\nDisallow: /x\\n"}\n' |
	python3 "$TESTS/mkrec.py" | "$BIN/parse" -q --json >"$T/r.json"
expect_eq "a robots.txt naming no sitemap points at /sitemap.xml" \
	'robots ["http://h.example/sitemap.xml"]' "$(jq -r '.sitemap.kind + " " + (.links | tojson)' "$T/r.json")"
printf '{"url":"http://h.example/robots.txt","status":404,"ctype":"text/plain","body":"no"}\n' |
	python3 "$TESTS/mkrec.py" | "$BIN/parse" -q --json >"$T/r.json"
expect_eq "a robots.txt that is not 2xx passes through" "null null" "$(jq -r '"\(.sitemap) \(.links)"' "$T/r.json")"
finish
