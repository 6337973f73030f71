#!/bin/sh
# Keep-alive connections the server closed after its answer (as servers do
# when their keep-alive timeout runs out): the next request on such a
# connection meets a reset, and libcurl must retry it on a fresh connection
# by itself, so not one URL is lost even with --retries 0.
. "$(dirname "$0")/lib.sh"

server_start
F() { "$BIN/fetch" --json --no-robots -q --retries 0 -p 1 "$@"; }

# run QUERY: 40 URLs of /close-after?QUERY&i=N, one connection at a time
run() {
	: >"$LOG"
	urls "$URL/close-after?$1i=" 40 | F >"$T/out.json"
}
# outcome: "records statuses-200 errors requests distinct-urls connections"
outcome() {
	echo "$(records "$T/out.json") $(jq -s '[.[] | select(.status == 200 and .body != null)] | length' "$T/out.json")" \
		"$(jq -s '[.[] | select(.error != null)] | length' "$T/out.json")" \
		"$(count '^/close-after')" "$(jq -s '[.[].path] | unique | length' "$LOG")" \
		"$(jq -s '[.[].conn] | unique | length' "$LOG")"
}

# Each answer's connection is closed right after it; the next request
# comes on the cached connection unless libcurl already saw it close.
run ""
expect_eq "close after each answer, 40 URLs -p 1 --retries 0: 40 x 200, 0 errors, 40 requests on 40 connections" \
	"40 40 0 40 40 40" "$(outcome)"

# race=1: the server closes only once the next request is on the wire, so
# every reuse meets a reset (the old code lost 10-15 of 40 here, as
# "select/poll returned error" and as curl's retry count ran out over a
# reused handle's life)
run "race=1&"
expect_eq "close as the next request arrives, 40 URLs: 40 x 200, 0 errors, each URL requested once, 40 connections" \
	"40 40 0 40 40 40" "$(outcome)"
expect_eq "the lost requests were libcurl's to retry: every record says attempts 1" \
	"[1]" "$(jq -sc '[.[].attempts] | unique' "$T/out.json")"

finish
