#!/bin/sh
# sink: the SQLite schema and upserts, --body, --links, --schema, JSON
# lines targets, records without url, malformed input, usage errors.
# Signals and kill -9 are in t-sink-durable.sh.
. "$(dirname "$0")/lib.sh"
F=$TESTS/fixtures/sink
mkrec "$F/pages.jsonl" >"$T/pages.mp"
mkrec "$F/update.jsonl" >"$T/update.mp"

# --schema
"$BIN/sink" --schema >"$T/schema.sql"
expect_eq "--schema prints the schema" "0 CREATE TABLE IF NOT EXISTS pages (" "$? $(head -1 "$T/schema.sql")"
sqlite3 "$T/s.db" <"$T/schema.sql"
expect_eq "--schema output is valid SQLite" "links pages" "$(q "$T/s.db" "select group_concat(name, ' ') from (select name from sqlite_master where type = 'table' order by name)")"

# the pages table
"$BIN/sink" "$T/a.db" <"$T/pages.mp" 2>"$T/err"
expect_eq "sink x.db exits 0 and notes what it stored" "0 sink: 3 records stored in '$T/a.db'" "$? $(cat "$T/err")"
expect_eq "one row per record" 3 "$(q "$T/a.db" 'select count(*) from pages')"
expect_eq "columns hold the record's values" \
	"http://a.test/|http://a.test/index|a.test|200||1||A|1764680000.5|parse 0.1.0" \
	"$(q "$T/a.db" "select url, final_url, host, status, error, accepted, reason, title, fetched_at, parser from pages where url = 'http://a.test/'")"
expect_eq "column types: status integer, accepted integer, fetched_at real" "integer|integer|real|real" \
	"$(q "$T/a.db" "select typeof(status), typeof(accepted), typeof(fetched_at), typeof(stored_at) from pages where url = 'http://a.test/'")"
expect_eq "record holds every other key as JSON, without body" \
	'{"ctype":"text/html","headers":{"server":"x"},"bytes":8,"time_ms":12,"attempts":1,"links":["http://a.test/1","http://a.test/2","http://a.test/1"],"text":"A","fields":{"price":"1"},"parse_ms":0.25,"job":"j1"}' \
	"$(q "$T/a.db" "select record from pages where url = 'http://a.test/'")"
expect_eq "rejected and dead-letter rows keep error and reason" \
	"http://a.test/1|503||0|status 503
http://b.test/|0|timeout|0|fetch_error timeout" \
	"$(q "$T/a.db" "select url, status, error, accepted, reason from pages where url != 'http://a.test/' order by url")"
expect_eq "json_extract works on record" "after 30 s" \
	"$(q "$T/a.db" "select json_extract(record, '\$.error_detail') from pages where host = 'b.test'")"
now=$(date +%s)
expect_eq "stored_at is the time of storing" 1 \
	"$(q "$T/a.db" "select count(*) = 3 from pages where stored_at between $now - 60 and $now + 1")"
expect_eq "the database is in WAL mode" wal "$(q "$T/a.db" 'pragma journal_mode')"
expect_eq "without --body the body is not stored, without --links no links" "|0" \
	"$(q "$T/a.db" "select body from pages where url = 'http://a.test/'")|$(q "$T/a.db" 'select count(*) from links')"

# parse's metadata: a column each, out of record; jsonld stays in it
META='"author":"Jane Doe, John Roe","published":"2024-03-05T10:00:00+01:00","modified":"2024-03-06","site_name":"Example News","lang":"en-GB","description":"What: \"happened\"","image":"http://m.test/a.jpg","keywords":["one","two, three"],"page_kind":"article"'
echo "{\"url\":\"http://m.test/\",\"status\":200,\"title\":\"T\",$META,\"jsonld\":[{\"@type\":\"NewsArticle\"}]}" |
	mkrec >"$T/meta.mp"
"$BIN/sink" -q "$T/m.db" <"$T/meta.mp"
META_COLS="author, published, modified, site_name, lang, description, image, keywords, page_kind"
expect_eq "metadata: each key in its column, keywords a JSON array" \
	'Jane Doe, John Roe|2024-03-05T10:00:00+01:00|2024-03-06|Example News|en-GB|What: "happened"|http://m.test/a.jpg|["one","two, three"]|article' \
	"$(q "$T/m.db" "select $META_COLS from pages")"
expect_eq "metadata: keywords read by json_each" "one/two, three" \
	"$(q "$T/m.db" "select group_concat(j.value, '/') from pages, json_each(pages.keywords) j")"
expect_eq "metadata: record keeps jsonld, not the keys with a column" '{"jsonld":[{"@type":"NewsArticle"}]}' \
	"$(q "$T/m.db" "select record from pages")"

# A file made by the sink before the metadata columns (its schema as it
# was): gains them once, keeps its rows, and takes the new keys.
sqlite3 "$T/old.db" "CREATE TABLE pages (url TEXT PRIMARY KEY, final_url TEXT, host TEXT,
	status INTEGER, error TEXT, accepted INTEGER, reason TEXT, title TEXT, fetched_at REAL,
	parser TEXT, stored_at REAL NOT NULL, record TEXT NOT NULL, body BLOB, etag TEXT,
	last_modified TEXT, last_checked REAL, last_error TEXT, content_hash TEXT, simhash TEXT,
	dup_of TEXT, sim0 INTEGER, sim1 INTEGER, sim2 INTEGER, sim3 INTEGER, screenshot BLOB,
	pdf BLOB);
	INSERT INTO pages (url, title, stored_at, record) VALUES ('http://old.test/', 'Old', 1, '{}');"
"$BIN/sink" -q "$T/old.db" <"$T/meta.mp"
"$BIN/sink" -q "$T/old.db" </dev/null
expect_eq "an old file gains the metadata columns once, keeps its row, takes the keys" \
	"35|http://old.test/|Old|1
http://m.test/|T|Jane Doe, John Roe|2024-03-05T10:00:00+01:00|2024-03-06|Example News|en-GB|What: \"happened\"|http://m.test/a.jpg|[\"one\",\"two, three\"]|article" \
	"$(q "$T/old.db" "select count(*) from pragma_table_info('pages')")|$(q "$T/old.db" "select url, title, author is null from pages where url = 'http://old.test/'")
$(q "$T/old.db" "select url, title, $META_COLS from pages where url = 'http://m.test/'")"

# parse | sink: a page's JSON-LD author and dates land in the row
printf '%s' '<!DOCTYPE html><html lang="de"><head><title>Bericht | Die Zeitung</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"Bericht","author":{"@type":"Person","name":"Erika Mustermann"},"datePublished":"2024-05-01T08:15:00+02:00","dateModified":"2024-05-02","publisher":{"@type":"Organization","name":"Die Zeitung"},"keywords":["Politik","Wetter"]}</script>
</head><body><h1>Bericht</h1><p>Der Bericht hat einen langen Text, der hier steht.</p></body></html>' >"$T/page.html"
"$BIN/parse" --html --base http://z.test/bericht -j0 --main "$T/page.html" | "$BIN/sink" -q "$T/p.db"
expect_eq "parse | sink: JSON-LD's author, dates, publisher and keywords in the row" \
	'Bericht|Erika Mustermann|2024-05-01T08:15:00+02:00|2024-05-02|Die Zeitung|de|["Politik","Wetter"]|article' \
	"$(q "$T/p.db" "select title, author, published, modified, site_name, lang, keywords, page_kind from pages where url = 'http://z.test/bericht'")"

# upserts
"$BIN/sink" -q "$T/a.db" <"$T/pages.mp"
expect_eq "same input twice: same row count" 3 "$(q "$T/a.db" 'select count(*) from pages')"
"$BIN/sink" -q "$T/a.db" <"$T/update.mp"
expect_eq "a later record replaces the earlier row" "4|A2||{\"links\":[\"http://a.test/3\"]}" \
	"$(q "$T/a.db" "select (select count(*) from pages) + 1, title, final_url, record from pages where url = 'http://a.test/'")"
cat "$T/pages.mp" "$T/update.mp" | "$BIN/sink" -q "$T/b.db"
expect_eq "within one run the last record for a url wins" "3 A2" \
	"$(q "$T/b.db" 'select count(*) from pages') $(q "$T/b.db" "select title from pages where url = 'http://a.test/'")"

# --body
"$BIN/sink" -q --body "$T/c.db" <"$T/pages.mp"
expect_eq "--body stores the body as a blob" "blob 3C703E413C2F703E" \
	"$(q "$T/c.db" "select typeof(body), hex(body) from pages where url = 'http://a.test/'" | tr '|' ' ')"
expect_eq "--body: a record without body stores NULL" "null" \
	"$(q "$T/c.db" "select typeof(body) from pages where url = 'http://a.test/1'")"
expect_eq "--body: record JSON still has no body" "null" \
	"$(q "$T/c.db" "select coalesce(json_extract(record, '\$.body'), 'null') from pages where url = 'http://a.test/'")"

# --links
"$BIN/sink" -q --links "$T/d.db" <"$T/pages.mp"
expect_eq "--links fills links(src, dst), de-duplicated" \
	"http://a.test/|http://a.test/1
http://a.test/|http://a.test/2" "$(q "$T/d.db" 'select src, dst from links order by dst')"
expect_eq "--links takes links out of the record JSON" "null" \
	"$(q "$T/d.db" "select coalesce(json_extract(record, '\$.links'), 'null') from pages where url = 'http://a.test/'")"
"$BIN/sink" -q --links "$T/d.db" <"$T/update.mp"
expect_eq "--links: an upsert replaces the page's links" "http://a.test/|http://a.test/3" \
	"$(q "$T/d.db" 'select src, dst from links order by dst')"
"$BIN/sink" -q --links "$T/d.db" <"$T/update.mp"
expect_eq "--links: rerun is idempotent" 1 "$(q "$T/d.db" 'select count(*) from links')"

# records without url
mkrec "$F/nourl.jsonl" | "$BIN/sink" "$T/e.db" 2>"$T/err"
expect_eq "a record without url is skipped with a warning and counted" \
"0 sink: record at byte 28 has no url: skipped
sink: record at byte 47 has no url: skipped
sink: 2 records without url skipped
sink: 2 records stored in '$T/e.db'" "$? $(cat "$T/err")"
expect_eq "the others are stored" "http://c.test/ http://d.test/" \
	"$(q "$T/e.db" "select group_concat(url, ' ') from (select url from pages order by url)")"
mkrec "$F/nourl.jsonl" | "$BIN/sink" -q "$T/e.jsonl" 2>"$T/err"
expect_eq "JSON lines keep records without url" "4|" "$(records "$T/e.jsonl")|$(cat "$T/err")"

# JSON lines
"$BIN/sink" -q "$T/p.jsonl" <"$T/pages.mp"
"$BIN/sink" -q "$T/p.jsonl" <"$T/update.mp"
expect_eq "*.jsonl appends" "4" "$(records "$T/p.jsonl")"
expect_eq "*.jsonl: bin fields are base64, keys in order" \
	'{"url":"http://a.test/","final_url":"http://a.test/index","host":"a.test","status":200,"ctype":"text/html","headers":{"server":"x"},"body":"PHA+QTwvcD4=","bytes":8,"fetched_at":1764680000.5,"time_ms":12,"attempts":1,"title":"A","links":["http://a.test/1","http://a.test/2","http://a.test/1"],"text":"A","fields":{"price":"1"},"parser":"parse 0.1.0","parse_ms":0.25,"accepted":true,"job":"j1"}' \
	"$(head -1 "$T/p.jsonl")"
expect_eq "*.jsonl: base64 decodes to the body" "<p>A</p>" "$(head -1 "$T/p.jsonl" | jq -r .body | base64 -d)"
"$BIN/sink" - <"$T/update.mp" >"$T/out" 2>"$T/err"
expect_eq "- writes JSON lines to stdout" \
	'0 {"url":"http://a.test/","host":"a.test","status":200,"title":"A2","links":["http://a.test/3"],"accepted":true}' \
	"$? $(cat "$T/out")"
expect_eq "- notes on stderr only" "sink: 1 records stored in '-'" "$(cat "$T/err")"
for i in $(seq 1 2000); do cat "$F/pages.jsonl"; done | grep -v '^#' | mkrec >"$T/many.mp"
( "$BIN/sink" - <"$T/many.mp" 2>"$T/err"; echo $? >"$T/rc" ) | head -c 10 >/dev/null
expect_eq "- with a closed stdout exits 0 quietly" "0|" "$(cat "$T/rc")|$(cat "$T/err")"

# malformed input
size=$(wc -c <"$T/pages.mp" | tr -d ' ')
{ cat "$T/pages.mp"; printf '\301'; cat "$T/update.mp"; } >"$T/bad.mp"
"$BIN/sink" -q "$T/f.db" <"$T/bad.mp" 2>"$T/err"
expect_eq "malformed stream: exit 65 naming the offset" \
	"65 sink: malformed record at byte $size: invalid msgpack byte" "$? $(cat "$T/err")"
expect_eq "malformed stream: every good record before it is committed" "3 A" \
	"$(q "$T/f.db" 'select count(*) from pages') $(q "$T/f.db" "select title from pages where url = 'http://a.test/'")"
"$BIN/sink" -q --batch 1 "$T/g.db" <"$T/bad.mp" 2>/dev/null
expect_eq "malformed stream with --batch 1: the same rows" "65 3" "$? $(q "$T/g.db" 'select count(*) from pages')"
"$BIN/sink" -q "$T/f.jsonl" <"$T/bad.mp" 2>/dev/null
expect_eq "malformed stream into jsonl: good lines written" "65 3" "$? $(records "$T/f.jsonl")"
head -c 100000 /dev/urandom | "$BIN/sink" - >/dev/null 2>"$T/err"
expect_match "random bytes into sink - exit 65" "^65 sink: malformed record at byte [0-9]+: " "$? $(tail -1 "$T/err")"
head -c 100000 /dev/urandom | "$BIN/sink" -q "$T/r.db" >/dev/null 2>"$T/err"
expect_match "random bytes into sink x.db exit 65" "^65 sink: malformed record at byte [0-9]+: " "$? $(tail -1 "$T/err")"
expect_eq "random bytes leave a valid database" ok "$(q "$T/r.db" 'pragma integrity_check')"
"$BIN/sink" -q --max-record 50 - <"$T/pages.mp" >/dev/null 2>"$T/err"
expect_eq "--max-record refuses a larger record" "65 sink: malformed record at byte 0: record larger than 50 bytes" "$? $(cat "$T/err")"

# validate | sink: the verdicts land in their columns
mkrec "$TESTS/fixtures/validate/pages.jsonl" |
	"$BIN/validate" -q --refusals off --reject 'Access Denied' | "$BIN/sink" -q "$T/v.db"
expect_eq "validate | sink stores accepted and reason" \
"http://a.test/down|0|status 503
http://a.test/logo.png|0|ctype image/png
http://a.test/ok|1|
http://a.test/slow|0|fetch_error timeout
http://b.test/again|1|
http://b.test/app|1|
http://b.test/blocked|0|rejected /Access Denied/
http://b.test/empty|0|missing title" "$(q "$T/v.db" 'select url, accepted, reason from pages order by url')"
expect_eq "validate | sink: an old reason does not survive re-validation" "null" \
	"$(q "$T/v.db" "select coalesce(json_extract(record, '\$.reason'), 'null') from pages where url = 'http://b.test/again'")"

# errors and usage
"$BIN/sink" "$T/no/such/dir/x.db" </dev/null 2>"$T/err"
expect_eq "an unopenable database exits 74" \
	"74 sink: cannot open '$T/no/such/dir/x.db': unable to open database file" "$? $(cat "$T/err")"
echo "not a database, not at all, but long enough to look like a header..." >"$T/junk.db"
"$BIN/sink" "$T/junk.db" </dev/null 2>"$T/err"
expect_eq "a file that is not a database exits 74" \
	"74 sink: cannot open '$T/junk.db': file is not a database" "$? $(cat "$T/err")"
"$BIN/sink" "$T/no/such/dir/x.jsonl" </dev/null 2>"$T/err"
expect_eq "an unopenable jsonl file exits 74" \
	"74 sink: cannot open '$T/no/such/dir/x.jsonl': No such file or directory" "$? $(cat "$T/err")"
"$BIN/sink" </dev/null 2>"$T/err"
expect_eq "missing TARGET exits 64" "64 sink: missing TARGET" "$? $(head -1 "$T/err")"
"$BIN/sink" "$T/x.txt" </dev/null 2>"$T/err"
expect_eq "an unknown target type exits 64" \
	"64 sink: unknown target '$T/x.txt': want FILE.db, a postgresql:// URI, FILE.jsonl, -, DIR/, FILE.warc, FILE.warc.gz or FILE.wacz" "$? $(head -1 "$T/err")"
expect_usage_errors sink "--batch 0" "--batch x" "--batch-ms -5" "--max-record 1Q" "--bogus" "a.db b.db"
"$BIN/sink" --help >"$T/out"
expect_eq "--help prints the synopsis" "0 usage: sink [OPTION...] TARGET" "$? $(head -1 "$T/out")"
expect_eq "--help lists each option with its default" \
	"      --max-depth N       links followed from a seed (5)" "$(grep -e '--max-depth' "$T/out")"
"$BIN/sink" --scope site x.db </dev/null 2>"$T/err"
expect_eq "a bad value gets the one message" \
	"64 sink: invalid value 'site' for --scope: want host, domain or any" "$? $(head -1 "$T/err")"
"$BIN/sink" --version >"$T/out"
expect_match "--version names the libraries" "^0 sink [0-9.]+ .*sqlite .*msgpack-c" "$? $(tr '\n' ' ' <"$T/out")"
"$BIN/sink" -q "$T/empty.db" </dev/null
expect_eq "empty input creates an empty database" "0 0" "$? $(q "$T/empty.db" 'select count(*) from pages')"
# A 304 fetch did not ask for (no not_modified: -H If-None-Match, a
# confused server) is a failure: it never replaces a good page.
printf '%s\n' '{"url":"http://a.example/p","status":200,"title":"Good","accepted":true}' \
	'{"url":"http://a.example/p","status":304}' | mkrec | "$BIN/sink" -q "$T/c304.db"
expect_eq "a bare 304 keeps the good page, noted as a failure" "200|Good|status 304" \
	"$(q "$T/c304.db" "select status, title, last_error from pages")"
finish
