# sink into PostgreSQL: the pages table as in SQLite, upserts, --links
# and --body, and what PostgreSQL's typed columns and strict text make of
# careless records (NUL, invalid UTF-8, a string status): nothing lost.
. "$TESTS/lib.sh"
pg_start

# The records, as raw msgpack so strings may hold any bytes.
python3 - "$T/in.mp" <<'EOF'
import struct, sys

def enc(v):
    if v is None:
        return b"\xc0"
    if isinstance(v, bool):
        return b"\xc3" if v else b"\xc2"
    if isinstance(v, int):
        return b"\xd3" + struct.pack(">q", v)
    if isinstance(v, float):
        return b"\xcb" + struct.pack(">d", v)
    if isinstance(v, str):
        v = v.encode()
    if isinstance(v, bytes):
        return b"\xdb" + struct.pack(">I", len(v)) + v
    if isinstance(v, list):
        return b"\xdd" + struct.pack(">I", len(v)) + b"".join(enc(x) for x in v)
    if isinstance(v, dict):
        return b"\xdf" + struct.pack(">I", len(v)) + b"".join(enc(k) + enc(x) for k, x in v.items())
    raise TypeError(v)

# A dead letter whose reason holds bytes PostgreSQL's text refuses.
open(sys.argv[1] + ".dead", "wb").write(enc({"url": "http://a.test/9", "host": "a.test",
    "error": "http", "error_detail": b"bad \xff\x00 bytes", "status": 500}))
recs = [
    {"url": "http://a.test/1", "host": "a.test", "status": 200, "title": "One",
     "fetched_at": 1764680000.25, "accepted": True, "links": ["http://a.test/2", "http://a.test/3"],
     "body": b"<p>one\x00\xff</p>", "job": "j1"},
    {"url": "http://a.test/2", "host": "a.test", "status": "abc", "accepted": "yes",
     "fetched_at": "now", "title": b"T\x00w\xffo\xe2\x82", "links": "none"},
    {"host": "a.test", "title": "no url"},
    {"url": "http://a.test/3", "host": "a.test", "status": 404, "error": "http", "title": None},
]
open(sys.argv[1], "wb").write(b"".join(enc(r) for r in recs))
EOF

"$BIN/sink" --links --body "$PG" <"$T/in.mp" 2>"$T/err"
expect_eq "three rows (the record without url skipped and said so)" "3 1" \
	"$(pq "$PG" 'select count(*) from pages') $(grep -c 'has no url: skipped' "$T/err")"
expect_eq "typed columns hold the record's values" "200|One|1764680000.25|1" \
	"$(pq "$PG" "select status, title, fetched_at, accepted from pages where url = 'http://a.test/1'")"
expect_eq "other keys are the record JSON" '"j1"' \
	"$(pq "$PG" "select record from pages where url = 'http://a.test/1'" | jq -c .job)"
expect_eq "--body keeps the bytes, NUL and all" \
	"$(printf '<p>one\000\377</p>' | md5sum | cut -d' ' -f1)" \
	"$(pq "$PG" "select md5(body) from pages where url = 'http://a.test/1'")"
expect_eq "--links: one row per link" "http://a.test/2
http://a.test/3" "$(pq "$PG" "select dst from links where src = 'http://a.test/1' order by dst")"
expect_eq "values that do not fit a typed column are NULL there and kept in record" \
	'|| {"status":"abc","accepted":"yes","fetched_at":"now"}' \
	"$(pq "$PG" "select status, accepted, fetched_at from pages where url = 'http://a.test/2'") $(pq "$PG" "select record from pages where url = 'http://a.test/2'" | jq -c '{status, accepted, fetched_at}')"
expect_eq "NUL and invalid UTF-8 in text become U+FFFD" "T�w�o�" \
	"$(pq "$PG" "select title from pages where url = 'http://a.test/2'")"
expect_eq "a non-array links is no links" 0 "$(pq "$PG" "select count(*) from links where src = 'http://a.test/2'")"
before=$(pq "$PG" 'select stored_at from pages order by url' | md5sum)
"$BIN/sink" -q --links --body "$PG" <"$T/in.mp"
expect_eq "the same input again: upserts, still three rows, new stored_at" "3 changed" \
	"$(pq "$PG" 'select count(*) from pages') $([ "$(pq "$PG" 'select stored_at from pages order by url' | md5sum)" != "$before" ] && echo changed)"

# parse's metadata: a column each (published and modified timestamptz,
# a bare date its midnight UTC; keywords jsonb), out of record; jsonld
# stays in it.  Values a typed column does not take (a month, a day its
# month has not, a keyword with NUL) are NULL there and kept in record.
META='"author":"Jane Doe, John Roe","published":"2024-03-05T10:00:00+01:00","modified":"2024-03-06","site_name":"Example News","lang":"en-GB","description":"What: \"happened\"","image":"http://m.test/a.jpg","keywords":["one","two, three"],"page_kind":"article"'
{
	echo "{\"url\":\"http://m.test/1\",\"status\":200,$META,\"jsonld\":[{\"@type\":\"NewsArticle\"}]}"
	echo '{"url":"http://m.test/2","status":200,"published":"2024-05","modified":"2024-02-30","keywords":["a","b\u0000"],"author":"A"}'
} | mkrec >"$T/meta.mp"
META_COLS="author, to_char(published at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS'),
	to_char(modified at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS'), site_name, lang, description,
	image, keywords, page_kind"
M=$(pg_db meta)
"$BIN/sink" -q "$M" <"$T/meta.mp"
expect_eq "metadata: each key in its column, times in UTC, keywords jsonb" \
	'Jane Doe, John Roe|2024-03-05T09:00:00|2024-03-06T00:00:00|Example News|en-GB|What: "happened"|http://m.test/a.jpg|["one", "two, three"]|article|t|{"jsonld":[{"@type":"NewsArticle"}]}' \
	"$(pq "$M" "select $META_COLS, keywords ? 'one', record from pages where url = 'http://m.test/1'")"
expect_eq "metadata that does not fit: NULL in the column, kept in record" \
	'A||||{"published":"2024-05","modified":"2024-02-30","keywords":["a","b\u0000"]}' \
	"$(pq "$M" "select author, published, modified, keywords from pages where url = 'http://m.test/2'")|$(pq "$M" "select record from pages where url = 'http://m.test/2'" | jq -c '{published, modified, keywords}')"

# A table made by the sink before the metadata columns (as it was):
# gains them once, keeps its rows, takes the new keys.
O=$(pg_db old)
pq "$O" "CREATE TABLE pages (url text PRIMARY KEY, final_url text, host text, status integer,
	error text, accepted integer, reason text, title text, fetched_at double precision,
	parser text, stored_at double precision NOT NULL, record text NOT NULL, body bytea,
	etag text, last_modified text, last_checked double precision, last_error text,
	content_hash text, simhash text, dup_of text, sim0 integer, sim1 integer, sim2 integer,
	sim3 integer, screenshot bytea, pdf bytea);
	INSERT INTO pages (url, title, stored_at, record) VALUES ('http://old.test/', 'Old', 1, '{}')"
"$BIN/sink" -q "$O" <"$T/meta.mp"
"$BIN/sink" -q "$O" </dev/null
expect_eq "an old table gains the metadata columns once, keeps its row, takes the keys" \
	"35|http://old.test/|Old|t
Jane Doe, John Roe|2024-03-05T09:00:00|2024-03-06T00:00:00|Example News|en-GB|What: \"happened\"|http://m.test/a.jpg|[\"one\", \"two, three\"]|article" \
	"$(pq "$O" "select count(*) from information_schema.columns where table_name = 'pages'")|$(pq "$O" "select url, title, author is null from pages where url = 'http://old.test/'")
$(pq "$O" "select $META_COLS from pages where url = 'http://m.test/1'")"

# sink --queue on the same database: the acknowledgement of a dead
# letter with such a reason is stored, cleaned, not refused (the reason
# is a C string to the frontier, so it ends at the NUL, as in SQLite).
timeout 20 "$BIN/fetch" -q --queue "$PG" --report </dev/null >/dev/null   # the frontier tables
pq "$PG" "INSERT INTO frontier(url, host, scope, state, added_at, updated_at)
	VALUES ('http://a.test/9', 'a.test', 'a.test', 'leased', 0, 0)"
"$BIN/sink" -q --queue "$PG" "$PG" <"$T/in.mp.dead"
expect_eq "a dead letter's reason with NUL and invalid UTF-8 is acknowledged" "0 dead|http: bad �" \
	"$? $(pq "$PG" "select state, last_error from frontier where url = 'http://a.test/9'")"

# As many rows as records, in batches, across several commits.
python3 -c "
import sys; sys.path.insert(0, '$TESTS'); from mkrec import pack
out = bytearray()
for i in range(2500): pack({'url': 'http://b.test/%d' % i, 'host': 'b.test', 'status': 200}, out)
sys.stdout.buffer.write(out)" >"$T/many.mp"
"$BIN/sink" -q --batch 1000 "$PG" <"$T/many.mp"
expect_eq "2500 records in batches of 1000: 2500 rows" 2500 "$(pq "$PG" "select count(*) from pages where host = 'b.test'")"

err=$("$BIN/sink" "postgresql:///postgres?host=$T/none&user=sluice" </dev/null 2>&1; echo "rc=$?")
expect_match "no server: sink says so and exits 74" "sink: cannot open 'postgresql:.*/none&user=sluice': connection to server on socket .*rc=74" "$(echo "$err" | tr '\n' ' ')"
expect_eq "a target that is neither a file nor a URI is a usage error" 64 \
	"$("$BIN/sink" "mysql://x" </dev/null 2>/dev/null; echo $?)"

# A rejected refetch (a 200 block page validate rejected) keeps a good
# row: only last_checked and last_error change, and sink counts it.
# --replace-rejected stores it over the good row.
echo '{"url": "http://c.test/1", "host": "c.test", "status": 200, "title": "Article", "accepted": true}' |
	mkrec | "$BIN/sink" -q "$PG"
echo '{"url": "http://c.test/1", "host": "c.test", "status": 200, "title": "Access Denied",
	"accepted": false, "reason": "rejected /Access Denied/"}' | tr -d '\n' | mkrec >"$T/blocked.mp"
before=$(pq "$PG" "select stored_at, last_checked from pages where url = 'http://c.test/1'")
"$BIN/sink" "$PG" <"$T/blocked.mp" 2>"$T/err"
expect_eq "a rejected refetch keeps the good page, checked, with the reason" \
	"Article|1|rejected /Access Denied/|kept|checked" \
	"$(pq "$PG" "select title, accepted, last_error, case when stored_at = ${before%|*} then 'kept' end,
		case when last_checked > ${before#*|} then 'checked' end from pages where url = 'http://c.test/1'")"
expect_eq "sink's closing note counts it" \
	"sink: 1 records stored in '$PG': 0 unchanged, 0 failed and 1 rejected refetches kept their page" \
	"$(cat "$T/err")"
"$BIN/sink" -q --replace-rejected "$PG" <"$T/blocked.mp"
expect_eq "--replace-rejected stores it over the good page" "Access Denied|0|rejected /Access Denied/" \
	"$(pq "$PG" "select title, accepted, reason from pages where url = 'http://c.test/1'")"

# libpq's keyword form is a PostgreSQL target too, and its password is
# shown nowhere (trust authentication lets it through unused): not in
# the closing note, not when the database or the queue is not there,
# not when the string is no connection string after all.
kw() { echo "host=$PGDIR dbname=$1 user=sluice password=hunter2"; }
echo '{"url": "http://k.test/1", "host": "k.test", "status": 200}' | mkrec | "$BIN/sink" "$(kw postgres)" 2>"$T/kw1"
expect_eq "a keyword target: the row stored, the note with *** for the password" \
	"0 1 sink: 1 records stored in 'host=$PGDIR dbname=postgres user=sluice password=***'" \
	"$? $(pq "$PG" "select count(*) from pages where url = 'http://k.test/1'") $(cat "$T/kw1")"
"$BIN/sink" "$(kw nodb)" </dev/null 2>"$T/kw2"
expect_eq "a database that is not there: exit 74, the password hidden" \
	"74 sink: cannot open 'host=$PGDIR dbname=nodb user=sluice password=***': connection to server on socket \"$PGDIR/.s.PGSQL.5432\" failed: FATAL:  database \"nodb\" does not exist" \
	"$? $(cat "$T/kw2")"
"$BIN/sink" --queue "$(kw nodb)" "$T/kw.jsonl" </dev/null 2>"$T/kw3"
expect_match "a --queue that is not there: exit 74, the password hidden" \
	"^74 sink: cannot open 'host=$PGDIR dbname=nodb user=sluice password=\*\*\*': " "$? $(cat "$T/kw3")"
"$BIN/sink" "hots=db password=hunter2" </dev/null 2>"$T/kw4"
expect_eq "not a connection string: a usage error, the password hidden" \
	"64 sink: unknown target 'hots=db password=***': want FILE.db, a postgresql:// URI, FILE.jsonl, -, DIR/, FILE.warc, FILE.warc.gz or FILE.wacz" \
	"$? $(head -1 "$T/kw4")"
expect_eq "hunter2 appears in no message" "" "$(grep -l hunter2 "$T"/kw[1-4])"
finish
