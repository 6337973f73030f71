# A host that turns to challenges: after 5 good pages it answers every
# request 200 with a bot-check page.  validate names them `blocked`,
# sink --queue stores the outcome as blocked (a 2 in the host's recent
# outcomes), and the yield guard slows the host, then pauses it, like
# any host whose pages are rejected, with --on-alert's rule `blocked`
# beside `yield` and `paused`; the healthy host goes on.  A host whose
# rejections are not blocked (404s) gets no `blocked` alert.  On SQLite
# and PostgreSQL.
. "$TESTS/lib.sh"
server_start
urls "$U1/ok?n=" 10 "$U2/challenge?key=c&after=5&n=" 40 "$U3/status/404?n=" 40 >"$T/seeds.txt"
db=$T/job.db
cmd="printf '%s|%s|%s\n' \"\$SLUICE_RULE\" \"\$SLUICE_HOST\" \"\$SLUICE_VALUE\" >>'$T/alerts'"
crawl "$db" "$db" --no-robots -d 0.1 --no-adapt --min-yield 0.5 --yield-window 5 --alert-grace 5 \
	--on-alert "$cmd"
expect_eq "the crawl ends" 0 $?
expect_eq "the healthy host: all 10 done" 10 \
	"$(q "$db" "select count(*) from frontier where host = '127.0.0.1' and state = 'done'")"
expect_eq "validate named the challenges blocked" "blocked captcha" \
	"$(q "$db" "select distinct reason from pages where host = '127.0.0.2' and not accepted")"
expect_eq "sink stored them as blocked: the host's last outcomes" "127.0.0.2|5|22222" \
	"$(q "$db" "select host, accepted, substr(recent, -5) from frontier_host where host = '127.0.0.2'")"
expect_eq "the 404 host's rejections are not blocked" "00000" \
	"$(q "$db" "select substr(recent, -5) from frontier_host where host = '127.0.0.3'")"
expect_eq "both failing hosts paused" "127.0.0.2|1
127.0.0.3|1" "$(q "$db" "select host, paused from frontier_host where host != '127.0.0.1' order by host")"
# Which window a heartbeat judges first depends on timing: its blocked
# share is over half of it, all of its rejections.
expect_eq "the alerts: yield and paused for both, blocked for the challenged one only" \
"blocked|127.0.0.2
paused|127.0.0.2
paused|127.0.0.3
yield|127.0.0.2
yield|127.0.0.3" "$(cut -d'|' -f1,2 "$T/alerts" | sort)"
expect_cmd "the rule's value is the window's blocked share" \
	awk -F'|' '$1 == "blocked" && $3 > 0.5 && $3 <= 1 { ok = 1 } END { exit !ok }' "$T/alerts"
expect_match "fetch says the rule and why" \
	"alert blocked: 127.0.0.2: [0-9]+% of the last 5 stored were blocked" "$(cat "$T/fetch.err")"

# The same on a PostgreSQL job (its own statement stores the outcome).
pg_start
J=$(pg_db blocked)
urls "$U2/challenge?key=p&after=5&n=" 40 >"$T/seeds.txt"
: >"$T/alerts"
crawl "$J" "$T/pg.db" --no-robots -d 0.1 --no-adapt --min-yield 0.5 --yield-window 5 --alert-grace 5 \
	--on-alert "$cmd"
expect_eq "PostgreSQL: stored as blocked, paused, rule blocked run" "5|22222|1 blocked|127.0.0.2" \
	"$(pq "$J" "select accepted, right(recent, 5), paused from frontier_host where host = '127.0.0.2'") $(grep '^blocked' "$T/alerts" | cut -d'|' -f1,2)"
finish
