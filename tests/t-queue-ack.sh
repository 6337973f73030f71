# fetch --queue with a sink that does not acknowledge (no --queue): once
# every record is written, fetch waits for acknowledgements; after 10 s
# it says, once, how many URLs wait and which flag it wants, instead of
# waiting --lease seconds (--max-attempts times) in silence.
. "$TESTS/lib.sh"
server_start
urls "$URL/ok?n=" 3 >"$T/seeds"
"$BIN/fetch" --queue "$T/job.db" --no-robots --lease 60 "$T/seeds" 2>"$T/err" |
	"$BIN/sink" -q "$T/pages.db" &
pipe=$!
wait_for 30 "fetch's note about the acknowledgements" grep -q "wait for sink --queue" "$T/err"
expect_eq "the sink stored the 3 pages" 3 "$(q "$T/pages.db" 'select count(*) from pages')"
expect_match "fetch says how many URLs wait, and names sink --queue and --lease" \
	"^fetch: 3 URLs written 1[0-9] s ago wait for sink --queue to acknowledge them \(a sink without --queue never does: they are leased again after --lease 60 s\)$" \
	"$(cat "$T/err")"
pkill -f "fetch --queue $T/job.db" 2>/dev/null
wait $pipe
expect_eq "said once" 1 "$(grep -c "wait for sink --queue" "$T/err")"
finish
