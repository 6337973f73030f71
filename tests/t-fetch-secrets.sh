# Secrets follow origins and robots.txt carries none.  An input URL at
# one address redirects to a second address (and, for the credentials
# of the input's origin, to another path of the first); robots.txt is on
# (the default), so both robots.txt files are fetched.  Judged at the
# servers, from every request's headers: the input's origin gets each
# secret on every hop, the other address none, and no robots.txt
# request, of either address, any: not -u, a password in the URL,
# --netrc-file, -H Authorization, -H X-Api-Key, --secret-header, nor a
# cookie of --cookies.
. "$TESTS/lib.sh"
server_start
KEY=k3y-$$
B64=$(printf 'me:%s' "$KEY" | base64)
# hdr PATH_REGEX ADDR NAME: NAME's value in each request to ADDR whose
# path matches, one a line ("-" when absent).
hdr() {
	jq -r --arg p "$1" --arg a "$2" --arg n "$3" \
		'select(.addr == $a and (.path | test($p))) | .hdrs[$n] // "-"' "$LOG"
}
# run WHAT CHECK_HEADER WANT FETCH_ARGS...: fetches the input (and a hop
# at its own origin), then checks every request's CHECK_HEADER.
run() {
	what=$1 name=$2 want=$3
	shift 3
	: >"$LOG"
	printf '%s\n' "${INPUT:-$U1}/redirect-to?url=$U2/away" "${INPUT:-$U1}/redirect-to?url=$U1/home" |
		"$BIN/fetch" --json "$@" >"$T/out.json" 2>"$T/err"
	expect_eq "$what: the input's origin gets it on the first request and a hop home" \
		"$want $want" "$(hdr '^/(redirect-to|home)' 127.0.0.1 "$name" | sort -u | tr '\n' ' ' | sed 's/ $//') $(hdr '^/home' 127.0.0.1 "$name")"
	expect_eq "$what: the other address gets none" "-" "$(hdr '^/away' 127.0.0.2 "$name")"
	expect_eq "$what: robots.txt of either address gets none (2 requests)" "- -" \
		"$( (hdr '^/robots.txt' 127.0.0.1 "$name"; hdr '^/robots.txt' 127.0.0.2 "$name") | tr '\n' ' ' | sed 's/ $//')"
	expect_eq "$what: no secret in records or stderr" 0 "$(cat "$T/out.json" "$T/err" | grep -c -- "$KEY\|$B64")"
}
run "--user" authorization "Basic $B64" -u "me:$KEY"
printf 'machine 127.0.0.1 login me password %s\n' "$KEY" >"$T/netrc"
run "--netrc-file" authorization "Basic $B64" --netrc-file "$T/netrc"
INPUT=http://me:$KEY@127.0.0.1:$PORT run "a password in the input URL" authorization "Basic $B64"
run "-H Authorization" authorization "Bearer $KEY" -H "Authorization: Bearer $KEY"
run "-H X-Api-Key (a secret by name)" x-api-key "$KEY" -H "X-Api-Key: $KEY"
run "--secret-header X-Mine" x-mine "$KEY" -H "X-Mine: $KEY" --secret-header X-Mine
printf '127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\t%s\n' "$KEY" >"$T/jar"
run "--cookies" cookie "session=$KEY" --cookies "$T/jar"
finish
