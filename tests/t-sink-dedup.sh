#!/bin/sh
# Duplicates through the real pipeline, fetch | parse --main | sink, into
# SQLite and PostgreSQL: two URLs with the same article under different
# menus share content_hash and the later is dup_of the first; a copy
# with one sentence rewritten is within 3 bits and dup_of the first; a
# different article is not; a page is never its own duplicate, not on a
# recrawl either; the lookup uses the band indexes, not a scan.
. "${TESTS:-$(dirname "$0")}/lib.sh"
mkdir -p "$T/site"
python3 "$TESTS/fixtures/dedup/gen.py" "$T/site" 2000
server_start --root "$T/site"

# through TARGET PAGE...: the pages through the pipeline into TARGET.
through() {
	_t=$1; shift
	for p in "$@"; do echo "$URL/$p.html"; done |
		"$BIN/fetch" -q | "$BIN/parse" -q --main | "$BIN/sink" -q "$_t"
}
# distance HEX HEX: the bits two simhashes differ in.
distance() { python3 -c "import sys; print(bin(int(sys.argv[1], 16) ^ int(sys.argv[2], 16)).count('1'))" "$1" "$2"; }

# check NAME QUERY TARGET: the tests on one target, QUERY (q or pq)
# running its SQL.
check() {
	_n=$1 _q=$2 _t=$3
	# The first page alone, so it is the first stored.
	through "$_t" a
	through "$_t" b c d
	expect_eq "$_n: four rows" 4 "$($_q "$_t" 'select count(*) from pages')"
	expect_eq "$_n: a and b (other menus) share content_hash, c and d have others" \
		"1|3" "$($_q "$_t" "select count(distinct content_hash) filter (where url like '%/a.html' or url like '%/b.html'), count(distinct content_hash) from pages")"
	expect_match "$_n: content_hash is 64 hex digits" '^[0-9a-f]{64}$' \
		"$($_q "$_t" "select content_hash from pages where url like '%/a.html'")"
	expect_match "$_n: simhash is 16 hex digits" '^[0-9a-f]{16}$' \
		"$($_q "$_t" "select simhash from pages where url like '%/a.html'")"
	sa=$($_q "$_t" "select simhash from pages where url like '%/a.html'")
	sc=$($_q "$_t" "select simhash from pages where url like '%/c.html'")
	sd=$($_q "$_t" "select simhash from pages where url like '%/d.html'")
	expect_cmd "$_n: c's simhash within 3 bits of a's ($(distance "$sa" "$sc"))" [ "$(distance "$sa" "$sc")" -le 3 ]
	expect_cmd "$_n: d's simhash more than 3 bits from a's ($(distance "$sa" "$sd"))" [ "$(distance "$sa" "$sd")" -gt 3 ]
	expect_eq "$_n: b and c are dup_of a, a and d of nothing" \
		"$URL/a.html|
$URL/b.html|$URL/a.html
$URL/c.html|$URL/a.html
$URL/d.html|" "$($_q "$_t" 'select url, dup_of from pages order by url')"
	expect_eq "$_n: the fingerprints are columns, not in record" "0" \
		"$($_q "$_t" "select count(*) from pages where record like '%content_hash%' or record like '%simhash%'")"
	# A recrawl of everything, a first: a stays the original.
	through "$_t" a b c d
	expect_eq "$_n: a recrawl changes nothing (a is not its own dup)" \
		"$URL/a.html|
$URL/b.html|$URL/a.html
$URL/c.html|$URL/a.html
$URL/d.html|" "$($_q "$_t" 'select url, dup_of from pages order by url')"
}

check sqlite q "$T/p.db"
# sink's lookup (sinker/cols.c, cols_dups), planned on the file it made.
plan=$(q "$T/p.db" "explain query plan SELECT url, content_hash, simhash, stored_at FROM pages WHERE (sim0 = 1 OR sim1 = 2 OR sim2 = 3 OR sim3 = 4) AND url <> 'x' AND dup_of IS NULL AND (status IS NULL OR status BETWEEN 200 AND 299) AND error IS NULL AND coalesce(accepted, 1) != 0")
expect_match "sqlite: the candidates come from the four band indexes" "MULTI-INDEX OR" "$plan"
expect_eq "sqlite: and no scan of pages" 0 "$(echo "$plan" | grep -c 'SCAN pages')"

# An old file, made before the columns: gains them and the indexes.
sqlite3 "$T/old.db" "create table pages (url text primary key, final_url text, host text, status integer, error text, accepted integer, reason text, title text, fetched_at real, parser text, stored_at real not null, record text not null, body blob);"
through "$T/old.db" a b
# fetch does not keep input order: whichever page sink stored first is
# the original, the other its copy.
expect_eq "an old file gains the columns and marks one of a and b the other's copy" \
	"$URL/a.html $URL/b.html" \
	"$(sqlite3 "$T/old.db" 'select url, dup_of from pages where dup_of is not null' | tr '|' '\n' | sort | tr '\n' ' ' | sed 's/ $//')"
expect_eq "... and the band indexes" 4 \
	"$(sqlite3 "$T/old.db" "select count(*) from sqlite_master where type = 'index' and name like 'pages_sim%'")"

pg_start
check postgresql pq "$PG"
expect_eq "postgresql: the four band indexes" 4 \
	"$(pq "$PG" "select count(*) from pg_indexes where tablename = 'pages' and indexname like 'pages_sim%'")"
finish
