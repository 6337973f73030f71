#!/bin/sh
# make demo: serve the sample site in scripts/demo-site on 127.0.0.1, run
# the whole pipeline over it into demo.db, and summarize what was stored.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$root/bin}
tmp=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

python3 "$root/tests/server.py" --port-file "$tmp/port" --log "$tmp/requests.log" \
	--addr 127.0.0.1 --root "$root/scripts/demo-site" \
	--robots "$root/scripts/demo-site/robots.txt" >"$tmp/server.out" 2>&1 &
server=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
site=http://127.0.0.1:$(cat "$tmp/port")
echo "demo: serving scripts/demo-site at $site"

cat >"$tmp/urls.txt" <<URLS
$site/
$site/articles/canals.html
$site/articles/locks.html
$site/articles/weirs.html
$site/members.html
$site/app.html
$site/logo.png
$site/missing.html
$site/private/plans.html
URLS

db=${DEMO_DB:-$root/demo.db}
rm -f "$db"
echo "demo: fetch < urls.txt | parse | validate --reject 'Access Denied' --min-text 40 | sink demo.db"
"$bin/fetch" -q -d 0.05 --stats "$tmp/fetch.json" <"$tmp/urls.txt" |
	"$bin/parse" -q |
	"$bin/validate" -q --reject 'Access Denied' --min-text 40 |
	"$bin/sink" -q "$db"
echo
echo "rows:     $(sqlite3 "$db" 'select count(*) from pages')"
echo "accepted: $(sqlite3 "$db" 'select count(*) from pages where accepted')"
echo "rejected by reason:"
sqlite3 -separator '  ' "$db" \
	"select '  ' || count(*), reason from pages where not accepted group by reason order by count(*) desc, reason"
echo
echo "accepted pages:"
sqlite3 -separator '  ' "$db" "select '  ' || url, title from pages where accepted order by url"
echo
echo "the database is $db; try: sqlite3 $db 'select url, status, reason from pages'"
echo
echo "per host (scripts/report):"
html=${db%.db}-report.html
"$root/scripts/report" "$db" --stats "$tmp/fetch.json" --html "$html" |
	sed -e 's/^report: \(.*\)/charts: open \1 in a browser/' -e 's/^/  /'
