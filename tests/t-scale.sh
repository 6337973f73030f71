# docs/scale.md's recipes, run as the page writes them (GNU parallel with
# --will-cite added; the machines of the several-machines recipe replaced
# by -S :, this one), against the test server: every URL stored once,
# fetched once, and a host split between jobs only where the page says so.
. "$TESTS/lib.sh"
DOC=$TESTS/../docs/scale.md
if ! command -v parallel >/dev/null; then
	fail "GNU parallel is installed (make deps-test installs it)" "parallel: not found"
	finish
fi
server_start
export PATH="$BIN:$PATH" HOME="$T/home"   # parallel's ~/.parallel goes in $T
W=$T/w
mkdir -p "$W/blocks" "$W/ran" "$HOME"

# The page's code blocks (indented 4 spaces), one file each.
python3 - "$DOC" "$W/blocks" <<'EOF'
import sys
blocks, cur, prev_blank = [], None, True
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if line.startswith("    ") and (cur is not None or prev_blank):
        cur = (cur or []) + [line[4:]]
    elif cur is not None and line == "":
        cur.append("")
    else:
        if cur is not None:
            blocks.append(cur)
        cur = None
    prev_blank = line == ""
if cur is not None:
    blocks.append(cur)
for i, b in enumerate(blocks):
    while b and b[-1] == "":
        b.pop()
    open("%s/%d" % (sys.argv[2], i), "w").write("\n".join(b) + "\n")
EOF

# recipe TEXT: checks that TEXT is one of the page's code blocks, then
# runs it in $W (stderr to $W/err) with --will-cite added to parallel and
# the example machines replaced by this one.
recipe() {
	found=no
	for b in "$W"/blocks/*; do
		[ "$(cat "$b")" = "$1" ] && found=yes && : >"$W/ran/${b##*/}"
	done
	expect_eq "docs/scale.md has the recipe: $(echo "$1" | head -1)" yes "$found"
	cmd=$(printf '%s\n' "$1" | sed 's/^parallel /parallel --will-cite /; s/-S m1,m2,m3/-S :/')
	(cd "$W" && sh -c "$cmd") 2>"$W/err"
}

# fresh: a new log and no databases from the recipe before
fresh() { : >"$LOG"; rm -f "$W"/*.db "$W"/*.db-*; }

# stored DB: the URLs of DB's rows, sorted
stored() { q "$1" "select url from pages order by url"; }

# fetched_once: "yes" when the server saw every page of urls.txt once
fetched_once() {
	want=$(grep '^http://[0-9]' "$W/urls.txt" | sed 's|^http://||; s|:[0-9]*/| /|' | sort)
	got=$(jq -r 'select(.path != "/robots.txt") | "\(.addr) \(.path)"' "$LOG" | sort)
	[ "$want" = "$got" ] && echo yes || echo "no: $(echo "$got" | uniq -d | head -3 | tr '\n' ' ')"
}

# 3 hosts x 20 pages and one URL that is not fetched.
urls "$U1/page/" 20 "$U2/page/" 20 "$U3/page/" 20 >"$W/urls.txt"
echo 'http://' >>"$W/urls.txt"
want=$(sort "$W/urls.txt")

fresh
recipe "parallel -j3 'fetch --shard {}/3 < urls.txt' ::: 1 2 3 | parse | sink pages.db"
expect_eq "--shard: 61 rows, one per input URL" "61|61" "$(q "$W/pages.db" 'select count(*), count(distinct url) from pages')"
expect_eq "--shard: the rows are the input's URLs" "$want" "$(stored "$W/pages.db")"
expect_match "--shard: sink stored 61 records: none twice" "sink: 61 records stored in 'pages.db'" "$(cat "$W/err")"
expect_eq "--shard: the server saw each URL once" yes "$(fetched_once)"
expect_eq "--shard: robots.txt once per host: each host in one fetch" 3 "$(count '^/robots[.]txt$')"
expect_eq "--shard: the bad URL has its one row" "http://|bad_url" "$(q "$W/pages.db" "select url, error from pages where host is null")"

fresh
recipe "parallel -j3 'fetch --shard {}/3 < urls.txt | parse' ::: 1 2 3 | sink pages.db"
expect_eq "--shard, parse in the job: the input's URLs, once each" "$want" "$(stored "$W/pages.db")"
expect_match "--shard, parse in the job: 61 records stored" "sink: 61 records stored in 'pages.db'" "$(cat "$W/err")"
expect_eq "--shard, parse in the job: the server saw each URL once" yes "$(fetched_once)"

fresh
recipe "fetch < urls.txt | parse -j4 | sink pages.db"
expect_eq "parse -j4: the input's URLs, once each" "$want" "$(stored "$W/pages.db")"
expect_eq "parse -j4: every page parsed (a title)" 60 "$(q "$W/pages.db" "select count(*) from pages where title like 'Page %'")"

fresh
recipe "parallel -j3 'fetch --shard {}/3 < urls.txt | parse | sink shard-{}.db' ::: 1 2 3"
for k in 1 2 3; do
	expect_eq "a database per shard: shard-$k.db holds one host's 20 rows (shard 1: and the bad URL's)" \
		"$([ $k = 1 ] && echo 21 || echo 20)|1" \
		"$(q "$W/shard-$k.db" 'select count(*), count(distinct host) from pages')"
done
expect_eq "a database per shard: no host in two" 3 \
	"$(for k in 1 2 3; do q "$W/shard-$k.db" 'select distinct host from pages where host is not null'; done | sort -u | wc -l | tr -d ' ')"
recipe "sink --schema | sqlite3 pages.db
for i in 1 2 3; do
  sqlite3 pages.db \"attach 'shard-\$i.db' as s;
    insert or replace into pages select * from s.pages;
    insert or ignore into links select * from s.links; detach s\"
done"
expect_eq "merged: 61 rows, the input's URLs" "$want" "$(stored "$W/pages.db")"
expect_eq "merged: the rows are the shards' rows, column for column" \
	"$(for k in 1 2 3; do q "$W/shard-$k.db" 'select * from pages'; done | sort | md5sum)" \
	"$(q "$W/pages.db" 'select * from pages' | sort | md5sum)"
expect_eq "merged: nothing went to stderr" "" "$(cat "$W/err")"

fresh
recipe "seq 3 | xargs -P 3 -I {} sh -c 'fetch --shard {}/3 < urls.txt | parse | sink shard-{}.db'"
expect_eq "xargs -P: a database per shard, one host each (shard 1: and the bad URL)" "21|1 20|1 20|1" \
	"$(for k in 1 2 3; do q "$W/shard-$k.db" 'select count(*), count(distinct host) from pages'; done | tr '\n' ' ' | sed 's/ $//')"
expect_eq "xargs -P: no host in two, the input's URLs once each" "3 $want" \
	"$(for k in 1 2 3; do q "$W/shard-$k.db" 'select distinct host from pages where host is not null'; done | sort -u | wc -l | tr -d ' ') $(for k in 1 2 3; do stored "$W/shard-$k.db"; done | sort)"
expect_eq "xargs -P: the server saw each URL once" yes "$(fetched_once)"
expect_eq "xargs -P: each sink said what it stored" "21 20 20" \
	"$(sed -n "s/^sink: \([0-9]*\) records stored in 'shard-[123].db'\$/\1/p" "$W/err" | sort -rn | tr '\n' ' ' | sed 's/ $//')"

fresh
recipe "parallel -j1 -S m1,m2,m3 --basefile urls.txt --return shard-{}.db --cleanup \\
  'fetch --shard {}/3 < urls.txt | parse | sink shard-{}.db' ::: 1 2 3"
expect_eq "several machines (-S :): three databases, 61 rows in all" "21 20 20" \
	"$(for k in 1 2 3; do q "$W/shard-$k.db" 'select count(*) from pages'; done | tr '\n' ' ' | sed 's/ $//')"
expect_eq "several machines (-S :): the server saw each URL once" yes "$(fetched_once)"
expect_cmd "several machines (-S :): --cleanup leaves the local list" test -s "$W/urls.txt"

# A crawl job in PostgreSQL: one worker, then three through parallel.
# Each host's /page/1 links to /page/2 and /ok, and so on: at sink's
# default --max-depth 5 that is /page/1../page/6 and /ok, 7 per host.
pg_start
printf '%s/page/1\n' "$U1" "$U2" "$U3" >"$W/seeds.txt"
# crawled: "yes" when the server saw the job's 21 pages once each
crawled() {
	n=$(jq -r 'select(.path != "/robots.txt") | "\(.addr) \(.path)"' "$LOG" | sort | uniq -c | awk '$1 == 1' | wc -l)
	[ "$n" -eq 21 ] && [ "$(grep -vc robots "$LOG")" -eq 21 ] && echo yes || echo "no ($n)"
}
fresh
recipe "JOB=postgresql://crawler@db.example/crawl"
JOB=$(pg_db crawl1)
export JOB
recipe 'fetch --queue "$JOB" seeds.txt | parse | validate | sink --queue "$JOB" --follow pages.db'
expect_eq "PostgreSQL job, one worker: 21 pages stored" 21 "$(q "$W/pages.db" 'select count(*) from pages')"
expect_eq "PostgreSQL job, one worker: every URL done" "done|21" \
	"$(pq "$JOB" 'select state, count(*) from frontier group by state')"
expect_eq "PostgreSQL job, one worker: each page fetched once" yes "$(crawled)"
JOB=$(pg_db crawl2)
fresh
recipe 'fetch --queue "$JOB" seeds.txt | parse | validate | sink --queue "$JOB" --follow "$JOB"'
expect_eq "PostgreSQL job storing into itself: 21 rows, every URL done" "21 done|21" \
	"$(pq "$JOB" 'select count(*) from pages') $(pq "$JOB" 'select state, count(*) from frontier group by state')"
expect_eq "PostgreSQL job storing into itself: each page fetched once" yes "$(crawled)"
fresh
JOB=$(pg_db crawl3)
recipe "parallel -j1 -S m1,m2,m3 --basefile seeds.txt --return worker-{}.log --cleanup \\
  \"fetch --queue '\$JOB' seeds.txt | parse | validate | sink --queue '\$JOB' --follow '\$JOB' 2>worker-{}.log\" ::: 1 2 3"
expect_eq "PostgreSQL job, three workers (-S :): 21 rows, each URL once" "21 21" \
	"$(pq "$JOB" 'select count(*), count(distinct url) from pages' | tr '|' ' ')"
expect_eq "PostgreSQL job, three workers: every URL done" "done|21" \
	"$(pq "$JOB" 'select state, count(*) from frontier group by state')"
expect_eq "PostgreSQL job, three workers: each page fetched once" yes "$(crawled)"
expect_eq "PostgreSQL job, three workers: no worker left behind" 0 \
	"$(pq "$JOB" 'select count(*) from frontier_owner')"
expect_eq "PostgreSQL job, three workers: each said how many it stored" 3 \
	"$(cat "$W"/worker-*.log | grep -c 'records stored in')"

# --pipe with 1500 URLs: three chunks of 500, each holding all 3 hosts.
urls "$U1/page/" 500 "$U2/page/" 500 "$U3/page/" 500 >"$W/urls.txt"
want=$(sort "$W/urls.txt")
fresh
recipe "parallel --pipe -N 500 -j2 fetch < urls.txt | parse | sink pages.db"
expect_eq "--pipe: 1500 rows, the input's URLs" "$want" "$(stored "$W/pages.db")"
expect_match "--pipe: sink stored 1500 records: none twice" "sink: 1500 records stored in 'pages.db'" "$(cat "$W/err")"
expect_eq "--pipe: the server saw each URL once" yes "$(fetched_once)"
expect_eq "--pipe: but each job keeps its own host state: robots.txt 3 jobs x 3 hosts" 9 "$(count '^/robots[.]txt$')"

# Every code block of the page is a recipe run above: a new one cannot
# slip in untested.
expect_eq "every code block of docs/scale.md ran" "$(ls "$W/blocks")" "$(ls "$W/ran")"
finish
