# No answer stalls a host: 20 URLs of one host that each answer 429 once,
# with Retry-After 0, 1 or an HTTP-date already past, end in bounded time
# with the records the rules say, whatever -p and --retries: with
# --retries 0 every one is retries_exhausted (status 429); by default
# every one is retried and ends 200.  Retry-After 0 or a past date holds
# the host not at all (before, it was taken for no Retry-After: the
# interval doubled up to --max-delay, and URLs waited a minute each).
. "$TESTS/lib.sh"
server_start
k=0
# case PATH_AND_QUERY P RETRIES WANT MAX_S
case_() {
	k=$((k + 1))
	i=0
	while [ $i -lt 20 ]; do echo "$URL/$1&key=c$k-$i"; i=$((i + 1)); done >"$T/urls"
	t0=$(now)
	timeout 60 "$BIN/fetch" --json -q --no-robots -p "$2" --retries "$3" <"$T/urls" >"$T/out.json"
	took=$(echo "$(now) - $t0" | bc)
	label="$1 -p $2 --retries $3"
	expect_eq "$label: 20 records, $4" "20 $4" \
		"$(jq -r '"\(.status) \(.error)"' "$T/out.json" | sort | uniq -c | awk '{ print $1, $2, $3 }')"
	expect_cmd "$label: within $5 s (took $took s)" awk -v t="$took" -v m="$5" 'BEGIN { exit !(t < m) }'
}
for p in 1 4; do
	case_ "retry-after?s=0" $p 0 "429 retries_exhausted" 5
	case_ "retry-after?s=0" $p 3 "200 null" 5
	case_ "retry-after-date?s=-60" $p 0 "429 retries_exhausted" 5
	case_ "retry-after-date?s=-60" $p 3 "200 null" 5
done
# Retry-After 1 holds the host a second at each 429.
case_ "retry-after?s=1" 4 0 "429 retries_exhausted" 10
case_ "retry-after?s=1" 4 3 "200 null" 30
finish
