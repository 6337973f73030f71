# The true cause of a failure, at once.  A host that cannot be reached
# at all (its name does not resolve, nothing listens, TLS or the proxy
# refuses) gives its network word and libcurl's message, with robots.txt
# on (the default) as with --no-robots; the host's other URLs end the
# same way without a request each, so 100 URLs of a dead host end within
# a second.  (A site that answers robots.txt badly, 5xx, still ends its
# URLs as robots after retrying it: t-fetch-robots.)
. "$TESTS/lib.sh"
server_start
cp=$(closed_port)
# dead BASE WORD DETAIL_REGEX [FETCH_ARGS...]: 100 URLs of BASE, timed.
dead() {
	base=$1 word=$2 detail=$3
	shift 3
	i=0
	while [ $i -lt 100 ]; do echo "$base/p$i"; i=$((i + 1)); done >"$T/urls"
	for robots in "" --no-robots; do
		t0=$(now)
		"$BIN/fetch" --json -q $robots "$@" <"$T/urls" >"$T/out.json"
		took=$(echo "$(now) - $t0" | bc)
		label="$word${robots:+ $robots}"
		expect_eq "$label: 100 records, each error $word" "100 $word" \
			"$(jq -r .error "$T/out.json" | sort | uniq -c | awk '{ print $1, $2 }')"
		expect_match "$label: error_detail is libcurl's message" "$detail" \
			"$(jq -r .error_detail "$T/out.json" | sort -u)"
		expect_eq "$label: nothing answered, so no final_url" null \
			"$(jq -s 'map(.final_url) | unique | .[0]' "$T/out.json")"
		# With robots.txt on, its request was the one made; without,
		# the -p 4 first requests were in flight at once.  A name that
		# does not resolve is known before any request.
		tried=$(jq -s 'map(select(.attempts == 1)) | length' "$T/out.json")
		unsent=$(jq -s 'map(select(.attempts == 0)) | length' "$T/out.json")
		if [ -z "$robots" ] || [ "$word" = dns ]; then want="0 100"; else want="4 96"; fi
		expect_eq "$label: no retry; URLs tried and unsent" "$want" "$tried $unsent"
		# Waiting on a down origin took 7 s a URL; under ASan on a
		# loaded machine the start and a TLS handshake took 1.03 s.
		expect_cmd "$label: all ended within 3 s (took $took s)" \
			awk -v t="$took" 'BEGIN { exit !(t < 3) }'
	done
}
dead "http://nonexistent.invalid" dns "^Could not resolve host: nonexistent.invalid$"
dead "http://127.0.0.1:$cp" connect "^Failed to connect to 127.0.0.1 port $cp"
# TLS to a server that speaks plain HTTP.
dead "https://127.0.0.1:$PORT" tls "SSL|TLS|ssl|tls"
dead "http://127.0.0.2:$PORT" proxy "^Failed to connect to 127.0.0.1 port $cp" --proxy "http://127.0.0.1:$cp"

# Nothing above was retried: no request reached the live server.
expect_eq "no request reached the server (tls is refused before one)" 0 "$(wc -l <"$LOG")"

finish
