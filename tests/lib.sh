# Sourced by every tests/t-*.sh.  Gives each script its own scratch
# directory ($T), its own test server with its own request log, and
# assertion helpers that print `ok - name` / `not ok - name`.
#
#   . "$TESTS/lib.sh"
#   server_start            # sets $PORT, $URL (http://127.0.0.1:$PORT), $LOG
#   out=$(echo "$URL/ok" | "$BIN/fetch" --json)
#   expect_eq "fetch sets status" 200 "$(echo "$out" | jq .status)"
#   finish

set -u
: "${TESTS:=$(cd "$(dirname "$0")" && pwd)}"
: "${BIN:=$TESTS/../bin}"
T=$(mktemp -d "${TMPDIR:-/tmp}/sluice-test.XXXXXX")
SERVER_PID=
NAME=$(basename "$0" .sh)
FAILS=0

cleanup() {
	[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

ok()   { echo "ok - $NAME: $1"; }
fail() { echo "not ok - $NAME: $1"; shift; for l in "$@"; do echo "#   $l"; done; FAILS=$((FAILS + 1)); }

# expect_eq NAME EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1" "expected: $2" "actual:   $3"; fi
}

# expect_cmd NAME CMD... : passes when CMD exits 0
expect_cmd() {
	n=$1; shift
	if "$@" >/dev/null 2>&1; then ok "$n"; else fail "$n" "command failed: $*"; fi
}

# expect_match NAME REGEX ACTUAL
expect_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then ok "$1"; else fail "$1" "no match for: $2" "actual: $3"; fi
}

# server_start [ARGS...]: starts tests/server.py on 127.0.0.1, .2 and .3 at
# one free port; extra ARGS go to the server (e.g. --robots FILE).
server_start() {
	LOG=$T/requests.log
	: >"$LOG"
	python3 "$TESTS/server.py" --port-file "$T/port" --log "$LOG" \
		--addr 127.0.0.1 --addr 127.0.0.2 --addr 127.0.0.3 "$@" \
		>"$T/server.out" 2>&1 &
	SERVER_PID=$!
	i=0
	while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	PORT=$(cat "$T/port")
	URL=http://127.0.0.1:$PORT
}

# requests PATH-REGEX: the request log lines whose path matches
requests() { jq -c "select(.path | test(\"$1\"))" "$LOG"; }

# count PATH-REGEX: how many requests matched
count() { requests "$1" | wc -l | tr -d ' '; }

finish() { exit "$FAILS"; }
