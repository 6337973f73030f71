#!/bin/sh
# bench-dedup.sh — how many near-duplicates the PostgreSQL manual has, by
# sink's dup_of, and what marking them costs sink.
#
#   [BIN=dir] [PGDOCS=postgresql-doc-15/html] scripts/bench-dedup.sh
#
# Serves /usr/share/doc with a private nginx (scripts/bench/nginx.sh) and
# runs every page of the manual through
#   fetch < urls | parse --main | validate > v.mp;  sink pages.db < v.mp
# then the same records into PostgreSQL (scripts/pg-tmp) and into a
# folder (sink DIR/), and counts the pages marked dup_of: copies with the
# same content_hash, and near copies (a simhash within 3 bits); it prints
# the closest pairs' titles so the figure can be judged.  Times sink with
# the fingerprints and with them stripped from the records (no bands, no
# lookups), best of 3, and SMALL (100000) small records with random
# fingerprints against the same without.  A markdown table on stdout, progress on stderr.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
BIN=${BIN:-$here/../bin}
DOCROOT=/usr/share/doc
PGDOCS=${PGDOCS:-postgresql-doc-15/html}
die() { echo "bench-dedup: $*" >&2; exit 1; }
say() { echo "bench-dedup: $*" >&2; }
for t in nginx curl sqlite3 jq psql; do
	command -v "$t" >/dev/null 2>&1 || die "$t: not found (make deps-bench)"
done
[ -d "$DOCROOT/$PGDOCS" ] || die "$DOCROOT/$PGDOCS missing: apt-get install postgresql-doc-15"
BIN=$(cd "$BIN" && pwd)
. "$here/bench/nginx.sh"
nginx_scratch bench-dedup
pgdir=
stop_pg() { [ -n "$pgdir" ] && "$here/pg-tmp" stop "$pgdir"; _nginx_cleanup; }
trap stop_pg EXIT
nginx_up "$dir" "$DOCROOT" "/$PGDOCS/index.html"
for f in "$DOCROOT/$PGDOCS"/*.html; do echo "$base/$PGDOCS/${f##*/}"; done >"$dir/urls.txt"
N=$(wc -l <"$dir/urls.txt")
say "$N pages"
"$BIN/fetch" -q <"$dir/urls.txt" | "$BIN/parse" -q --main | "$BIN/validate" -q >"$dir/v.mp"
# The same records without the fingerprints: sink as it was before them.
"$BIN/sink" -q - <"$dir/v.mp" | jq -c 'del(.content_hash, .simhash)' | python3 -c '
import json, sys
sys.path.insert(0, sys.argv[1])
from mkrec import pack
out = bytearray()
for line in sys.stdin:
    pack(json.loads(line), out)
sys.stdout.buffer.write(out)' "$here/../tests" >"$dir/plain.mp"

now() { date +%s.%N; }
# best CMD...: the best wall clock of 3 runs of CMD, each on a new target.
best() {
	b=
	for r in 1 2 3; do
		rm -rf "$dir/t.db" "$dir/t.db-wal" "$dir/t.db-shm" "$dir/out"
		t0=$(now); "$@"; t1=$(now)
		b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { s = z - a; print (b == "" || s < b) ? s : b }')
	done
	echo "$b"
}
t_dup=$(best sh -c "'$BIN/sink' -q '$dir/t.db' <'$dir/v.mp'")
t_plain=$(best sh -c "'$BIN/sink' -q '$dir/t.db' <'$dir/plain.mp'")
t_dir=$(best sh -c "'$BIN/sink' -q '$dir/out/' <'$dir/v.mp'")
"$BIN/sink" -q "$dir/t.db" <"$dir/v.mp"
db=$dir/t.db
rows=$(sqlite3 "$db" 'select count(*) from pages')
[ "$rows" = "$N" ] || die "pages.db has $rows rows, want $N"
q() { sqlite3 "$db" "$1"; }
dups=$(q 'select count(*) from pages where dup_of is not null')
exact=$(q 'select count(*) from pages p join pages o on o.url = p.dup_of where p.content_hash = o.content_hash')
near=$((dups - exact))
origs=$(q 'select count(distinct dup_of) from pages where dup_of is not null')
empty=$(q "select count(*) from pages where dup_of is not null and json_extract(record, '\$.main_text') = ''")
files=$(find "$dir/out" -name '*.md' | wc -l)
dirdups=$(grep -rl '^dup_of:' "$dir/out" | wc -l)

pgdir=$(mktemp -d "${TMPDIR:-/tmp}/bench-dedup-pg.XXXXXX")
PG=$("$here/pg-tmp" start "$pgdir")
t0=$(now); "$BIN/sink" -q "$PG" <"$dir/v.mp"; t1=$(now)
t_pg=$(awk -v a="$t0" -v z="$t1" 'BEGIN { print z - a }')
pgdups=$(psql -X -At "$PG" -c 'select count(*) from pages where dup_of is not null')
plan=$(psql -X -At "$PG" -c 'set enable_seqscan = off' -c "explain select url from pages where (sim0 = 1 or sim1 = 2 or sim2 = 3 or sim3 = 4) and url <> 'x' and dup_of is null" | grep -c 'Bitmap Index Scan on pages_sim' || true)

# Every pair's distance, to show where the manual's pages sit around 3.
hist=$(q 'select simhash from pages where simhash is not null' | python3 -c '
import sys
h = [int(l, 16) for l in sys.stdin if l.strip()]
c = [0] * 13
for i in range(len(h)):
    for j in range(i + 1, len(h)):
        d = bin(h[i] ^ h[j]).count("1")
        if d <= 12:
            c[d] += 1
print(", ".join("%d: %d" % (d, n) for d, n in enumerate(c) if n))')
say "the near copies (simhash within 3 bits, other content_hash), by title:"
q "select p.title || '  ~  ' || o.title from pages p join pages o on o.url = p.dup_of where p.content_hash <> o.content_hash order by p.title limit 15" >&2
say "the most copied originals:"
q "select count(*) || ' x ' || o.title from pages p join pages o on o.url = p.dup_of group by o.url order by count(*) desc limit 5" >&2

# Small records (scripts/bench-sink.sh's shape) with and without
# fingerprints: the cost of the band indexes where the rows are small.
small=${SMALL:-100000}
for fp in 0 1; do
	python3 - "$small" "$fp" "$here/../tests" >"$dir/small$fp.mp" <<'PY'
import hashlib, random, sys
sys.path.insert(0, sys.argv[3])
from mkrec import pack
n, fp = int(sys.argv[1]), sys.argv[2] == "1"
r = random.Random(1)
out = bytearray()
for i in range(n):
    host = "h%d.example" % (i % 50)
    rec = {"url": "http://%s/page/%d" % (host, i), "host": host, "status": 200,
           "title": "Page %d" % i, "fetched_at": 1764680000.0 + i / 1000,
           "main_text": "Some short text of page %d." % i, "accepted": True}
    if fp:
        rec["content_hash"] = hashlib.sha256(str(i).encode()).hexdigest()
        rec["simhash"] = "%016x" % r.getrandbits(64)
    pack(rec, out)
sys.stdout.buffer.write(out)
PY
done
t_small0=$(best sh -c "'$BIN/sink' -q '$dir/t.db' <'$dir/small0.mp'")
t_small1=$(best sh -c "'$BIN/sink' -q '$dir/t.db' <'$dir/small1.mp'")

rate() { awk -v n="$N" -v s="$1" 'BEGIN { printf "%.0f", n / s }'; }
echo "| PostgreSQL 15 manual, $N pages, parse --main | value |"
echo "|---|---|"
echo "| pages marked dup_of (SQLite) | $dups ($exact same content_hash, $near near: simhash within 3 bits) |"
echo "| ... of which empty main text | $empty |"
echo "| originals they copy | $origs |"
echo "| pairs of pages by simhash distance, up to 12 bits | $hist |"
echo "| pages marked dup_of (PostgreSQL) | $pgdups |"
echo "| sink DIR/: files, with dup_of | $files, $dirdups |"
echo "| PostgreSQL plan of the lookup | $plan bitmap index scans on pages_sim0..3 |"
echo "| sink pages.db, records with fingerprints | $(printf '%.3f' "$t_dup") s ($(rate "$t_dup") records/s) |"
echo "| sink pages.db, the same without them | $(printf '%.3f' "$t_plain") s ($(rate "$t_plain") records/s) |"
echo "| sink DIR/ | $(printf '%.3f' "$t_dir") s ($(rate "$t_dir") records/s) |"
echo "| sink pages.db, $small small records without fingerprints | $(printf '%.3f' "$t_small0") s ($(awk -v n="$small" -v s="$t_small0" 'BEGIN { printf "%.0f", n / s }') records/s) |"
echo "| sink pages.db, $small small records with random fingerprints | $(printf '%.3f' "$t_small1") s ($(awk -v n="$small" -v s="$t_small1" 'BEGIN { printf "%.0f", n / s }') records/s) |"
echo "| sink postgresql:// (one run) | $(printf '%.3f' "$t_pg") s ($(rate "$t_pg") records/s) |"
