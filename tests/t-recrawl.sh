# fetch --queue --recrawl and the stages after it: the second run sends
# the stored validators back, a 304 keeps the stored page and only marks
# it checked, a changed page is stored anew, a failed refetch never
# overwrites a good page; the unchanged pages are counted everywhere; a
# run without --recrawl (or with an age not reached) fetches nothing.
# The same on PostgreSQL (frontier and pages), and files made before the
# columns gain them.
. "$TESTS/lib.sh"
server_start
pg_start
# The Last-Modified of /cond's version 1 (tests/server.py).
LM1='Wed, 15 Nov 2023 22:13:20 GMT'

# seeds PREFIX: the job's URLs, names starting with PREFIX.  /cond keeps
# a count per name, so each job has names of its own.
seeds() {
	for s in "a?mode=same" "b?mode=lm" "e?mode=etag" "c?mode=change" \
		"d?mode=fail&status=500" "f?mode=fail&status=404"; do
		echo "$URL/cond/$1$s"
	done
	echo "$URL/hello?title=$1plain"
}

# run JOB TARGET [FETCH-OPTIONS...]: one crawl of the job, fetch's --stats
# in $T/stats.json, validate's --summary in $T/sum.json.
run() {
	job=$1 target=$2
	shift 2
	crawl "$job" "$target" --no-robots --stats "$T/stats.json" "$@" \
		validate: --summary "$T/sum.json" sink: --batch-ms 50
}

# sent: what each request of the log sent, one line each, sorted: the
# path, If-None-Match and If-Modified-Since ("-" when not sent).
sent() { jq -r '[.path, .hdrs["if-none-match"] // "-", .hdrs["if-modified-since"] // "-"] | join(" | ")' "$LOG" | sort; }

# ---- SQLite: frontier and pages in one file
J=$T/job.db
seeds "" >"$T/seeds.txt"
run "$J" "$J"
expect_eq "first crawl: seven pages stored, every URL done" "7 done|7" \
	"$(q "$J" 'select count(*) from pages') $(q "$J" 'select state, count(*) from frontier group by state')"
expect_eq "first crawl: no conditional request" 0 "$(jq 'select(.hdrs["if-none-match"] or .hdrs["if-modified-since"])' "$LOG" | grep -c path)"
expect_eq "pages hold the validators of each answer" "/cond/a?mode=same|\"a-v1\"|$LM1
/cond/b?mode=lm||$LM1
/cond/e?mode=etag|\"e-v1\"|
/hello?title=plain||" \
	"$(q "$J" "select substr(url, length('$URL') + 1), etag, last_modified from pages
		where url like '%/a?%' or url like '%/b?%' or url like '%/e?%' or url like '%plain' order by url")"
expect_eq "the frontier keeps them too" "\"a-v1\"|$LM1 |$LM1 \"e-v1\"|" \
	"$(q "$J" "select etag, last_modified from frontier where url like '%/cond/a?%'") $(q "$J" "select etag, last_modified from frontier where url like '%/cond/b?%'") $(q "$J" "select etag, last_modified from frontier where url like '%/cond/e?%'")"
q "$J" "select url, title, stored_at, last_checked from pages order by url" >"$T/run1"

# A fetch of a URL with validators but no --recrawl: none is leased.
: >"$LOG"
run "$J" "$J"
expect_eq "without --recrawl a finished job fetches nothing" "0 done|7" \
	"$(records "$LOG") $(q "$J" 'select state, count(*) from frontier group by state')"
run "$J" "$J" --recrawl 1d
expect_eq "--recrawl 1d: nothing is a day old, nothing fetched" 0 "$(records "$LOG")"

# The recrawl.
run "$J" "$J" --recrawl 0
expect_eq "--recrawl 0: every page asked once, with its validators" \
	"/cond/a?mode=same | \"a-v1\" | $LM1
/cond/b?mode=lm | - | $LM1
/cond/c?mode=change | \"c-v1\" | $LM1
/cond/d?mode=fail&status=500 | \"d-v1\" | $LM1
/cond/e?mode=etag | \"e-v1\" | -
/cond/f?mode=fail&status=404 | \"f-v1\" | $LM1
/hello?title=plain | - | -" "$(sent)"
expect_match "fetch says how many came back" "fetch: 7 URLs stored more than 0 s ago are pending again for a recrawl" \
	"$(cat "$T/fetch.err")"
expect_eq "--stats: three not_modified, three 3xx" "3 3" \
	"$(jq -r '"\(.not_modified) \(.status["3xx"])"' "$T/stats.json")"
expect_eq "validate: the 304s are unchanged, not raw" "3 4" "$(jq -r '"\(.total.unchanged) \(.total.raw)"' "$T/sum.json")"
expect_eq "sink's closing note counts unchanged pages and kept failures" \
	"sink: 7 records stored in '$J': 3 unchanged, 2 failed refetches kept their page" "$(cat "$T/sink.err")"
q "$J" "select url, title, stored_at, last_checked from pages order by url" >"$T/run2"
# recrawled PREFIX: what cmp_runs should say of the job's URLs.
recrawled() {
	p=$1
	printf '%s\n' "/cond/${p}a?mode=same same kept checked" "/cond/${p}b?mode=lm same kept checked" \
		"/cond/${p}c?mode=change ${p}c v1 -> ${p}c v2 stored checked" \
		"/cond/${p}d?mode=fail&status=500 same kept checked" "/cond/${p}e?mode=etag same kept checked" \
		"/cond/${p}f?mode=fail&status=404 same kept checked" "/hello?title=${p}plain same stored checked"
}
expect_eq "304s keep their row (title, stored_at) and are checked; c changed; d, f kept" \
	"$(recrawled "")" "$(cmp_runs "$T/run1" "$T/run2" "$URL")"
expect_eq "kept rows keep their status and content; failures say why in last_error" \
	"a?mode=same|200||a v1|1|
d?mode=fail&status=500|200||d v1|1|status 500
f?mode=fail&status=404|200||f v1|1|status 404" \
	"$(q "$J" "select substr(url, length('$URL/cond/') + 1), status, error, title, accepted, last_error from pages
		where url like '%/cond/a?%' or url like '%/cond/d?%' or url like '%/cond/f?%' order by url")"
expect_eq "the changed page has its new validators, in pages and frontier" "\"c-v2\" \"c-v2\"" \
	"$(q "$J" "select etag from pages where url like '%/cond/c?%'") $(q "$J" "select etag from frontier where url like '%/cond/c?%'")"
expect_eq "a kept failure keeps its page's validators in the frontier" "\"d-v1\"" \
	"$(q "$J" "select etag from frontier where url like '%/cond/d?%'")"
expect_eq "every URL done again, attempts counted afresh" "done|7|1" \
	"$(q "$J" 'select state, count(*), max(attempts) from frontier group by state')"
expect_eq "the yield guard counted the 7 + 4 judged records, not the 304s" "11" \
	"$(q "$J" "select stored from frontier_host where host = '127.0.0.1'")"

# A fetch error on a refetch (here a record as fetch writes one) keeps
# the good page too; a failure over a rejected row replaces it.
mkrec <<EOF | "$BIN/sink" -q "$J"
{"url": "$URL/cond/a?mode=same", "host": "127.0.0.1", "status": 0, "error": "timeout", "error_detail": "x"}
{"url": "$URL/none", "host": "127.0.0.1", "status": 200, "title": "Blocked", "accepted": false}
{"url": "$URL/none", "host": "127.0.0.1", "status": 503, "accepted": false}
EOF
expect_eq "an error keeps the good page; a failure replaces a rejected row" \
	"a v1|200||timeout 503||status 503" \
	"$(q "$J" "select title, status, error, last_error from pages where url like '%/cond/a?%'") $(q "$J" "select status, title, last_error from pages where url = '$URL/none'")"

# A recrawl that gets a block page (a 200 validate rejects: the page
# changed to "blka v2") keeps the good page too, and says why; the
# frontier keeps the good page's validators.  --replace-rejected stores
# the rejected page over it.
B=$T/block.db
echo "$URL/cond/blka?mode=change" >"$T/seeds.txt"
run "$B" "$B"
q "$B" "select stored_at, last_checked from pages" >"$T/block1"
run "$B" "$B" --recrawl 0 validate: --reject 'blka v2'
expect_eq "a rejected refetch keeps the good page, its stored_at, and notes the check and why" \
	"blka v1|1|200|rejected /blka v2/|$(cut -d'|' -f1 "$T/block1")|checked" \
	"$(q "$B" "select title, accepted, status, last_error, stored_at,
		case when last_checked > $(cut -d'|' -f2 "$T/block1") then 'checked' end from pages")"
expect_eq "sink's closing note counts it" \
	"sink: 1 records stored in '$B': 0 unchanged, 0 failed and 1 rejected refetches kept their page" \
	"$(cat "$T/sink.err")"
expect_eq "the frontier keeps the good page's validators, the URL done" "\"blka-v1\"|done" \
	"$(q "$B" "select etag, state from frontier")"
run "$B" "$B" --recrawl 0 validate: --reject 'blka v3' sink: --replace-rejected
expect_eq "--replace-rejected: the rejected page replaces the good one" "blka v3|0|rejected /blka v3/" \
	"$(q "$B" "select title, accepted, reason from pages")"

# ---- PostgreSQL: the frontier and the pages in one database
P=$PG
seeds "pg" >"$T/seeds.txt"
: >"$LOG"
run "$P" "$P"
expect_eq "pg: first crawl done, validators in pages and frontier" "7|7 \"pga-v1\"|$LM1" \
	"$(pq "$P" "select count(*), count(*) filter (where state = 'done') from frontier") $(pq "$P" "select etag, last_modified from pages where url like '%/cond/pga?%'")"
pq "$P" "select url, title, stored_at, last_checked from pages order by url" >"$T/run1"
: >"$LOG"
run "$P" "$P" --recrawl 0
expect_eq "pg: the recrawl sends the stored validators" \
	"/cond/pga?mode=same | \"pga-v1\" | $LM1
/cond/pgb?mode=lm | - | $LM1" "$(sent | grep -e pga -e pgb)"
pq "$P" "select url, title, stored_at, last_checked from pages order by url" >"$T/run2"
expect_eq "pg: 304s kept and checked, the changed page stored, failures kept" \
	"$(recrawled pg)" "$(cmp_runs "$T/run1" "$T/run2" "$URL")"
expect_eq "pg: the failure's row says why" "pgd v1|200|status 500" \
	"$(pq "$P" "select title, status, last_error from pages where url like '%/cond/pgd?%'")"
expect_eq "pg: sink's closing note" \
	"sink: 7 records stored in '$P': 3 unchanged, 2 failed refetches kept their page" "$(cat "$T/sink.err")"
expect_eq "pg: frontier done again, the changed page's new etag" "7 \"pgc-v2\"" \
	"$(pq "$P" "select count(*) from frontier where state = 'done'") $(pq "$P" "select etag from frontier where url like '%/cond/pgc?%'")"

# ---- files and tables made before the columns gain them at open
q "$T/old.db" "CREATE TABLE pages (url TEXT PRIMARY KEY, final_url TEXT, host TEXT,
	status INTEGER, error TEXT, accepted INTEGER, reason TEXT, title TEXT, fetched_at REAL,
	parser TEXT, stored_at REAL NOT NULL, record TEXT NOT NULL, body BLOB);
	CREATE TABLE frontier (id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE, host TEXT NOT NULL,
	scope TEXT NOT NULL, depth INTEGER NOT NULL DEFAULT 0, parent TEXT,
	state TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,
	next_at REAL NOT NULL DEFAULT 0, lease_until REAL, owner INTEGER, last_error TEXT,
	added_at REAL NOT NULL, updated_at REAL NOT NULL)"
echo "$URL/cond/olda?mode=same" >"$T/seeds.txt"
run "$T/old.db" "$T/old.db"
expect_eq "an old SQLite file: pages and frontier gain the columns, and hold the validators" \
	"\"olda-v1\"|$LM1|1 \"olda-v1\"|$LM1" \
	"$(q "$T/old.db" "select etag, last_modified, last_checked > 0 from pages") $(q "$T/old.db" "select etag, last_modified from frontier")"
O=$(pg_db old)
pq "$O" "CREATE TABLE pages (url text PRIMARY KEY, final_url text, host text, status integer,
	error text, accepted integer, reason text, title text, fetched_at double precision,
	parser text, stored_at double precision NOT NULL, record text NOT NULL, body bytea)"
echo '{"url": "http://x.test/", "status": 200, "headers": {"etag": "\"x\""}}' | mkrec | "$BIN/sink" -q "$O"
expect_eq "an old PostgreSQL pages table gains the columns" '"x"|t' \
	"$(pq "$O" "select etag, last_checked > 0 from pages")"
finish
