#!/bin/sh
# Runs every unit test binary in $UNIT and every tests/t-*.sh script, and
# ends with one line `N passed, N failed`.  Each test prints TAP-style
# lines: `ok - name` or `not ok - name`; a script or binary that exits
# non-zero without reporting a failure counts as one failure.
#
# $TEST_JOBS tests run at once (default 2: most of the suite waits on
# pacing and servers, not on a core).  A script with a line
# `# run.sh: alone` has checks that a second test's load would blur (time
# between requests at its test server, a signal racing its input): those
# run after the others, one at a time.  Each gets at most $TEST_TIMEOUT
# seconds (default 600), so a hang costs one failure, not the whole CI
# run.  A test's lines are printed together when it ends, followed by
# `# N s name`; the slowest are listed again at the end.
#
#   BIN=/abs/bin UNIT=/abs/unit-bins tests/run.sh [tests/t-foo.sh ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${BIN:=$here/../bin}" "${UNIT:=$here/../build/release/tests}"
: "${TEST_TIMEOUT:=600}" "${TEST_JOBS:=2}"
export BIN UNIT TESTS="$here" TEST_TIMEOUT

# run.sh --one DIR TEST: runs one test, appends its ok/not ok lines to
# DIR/results and its time to DIR/times, and prints its report.
if [ "${1-}" = --one ]; then
	dir=$2 t=$3
	case $t in *.sh) set -- sh "$t" ;; *) set -- "$t" ;; esac
	out=$(mktemp)
	t0=$(date +%s)
	# timeout signals its own process group: the script's servers too.
	timeout -k 10 "$TEST_TIMEOUT" "$@" >"$out" 2>&1
	rc=$?
	[ $rc -eq 124 ] && echo "# timed out after $TEST_TIMEOUT s" >>"$out"
	took="$(($(date +%s) - t0)) s $t"
	if grep -q '^not ok ' "$out" || [ $rc -ne 0 ]; then
		grep -q '^not ok ' "$out" || echo "not ok - $t exited $rc" >>"$out"
		{ echo "--- $t"; cat "$out"; } >"$out.report"
	else
		grep -E '^ok ' "$out" >"$out.report"
	fi
	echo "# $took" >>"$out.report"
	# One test's report at a time, however many run at once.
	flock "$dir/lock" sh -c 'grep -E "^(not )?ok " "$1" >>"$2/results"
		echo "$3" >>"$2/times"; cat "$1.report"' sh "$out" "$dir" "$took"
	rm -f "$out" "$out.report"
	exit 0
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
: >"$dir/results"
: >"$dir/times"
if [ $# -eq 0 ]; then
	for t in "$UNIT"/test_*; do [ -x "$t" ] && set -- "$@" "$t"; done
	set -- "$@" "$here"/t-*.sh
fi
for t in "$@"; do
	case $t in *.sh) grep -qx '# run.sh: alone' "$t" && echo "$t" >>"$dir/alone" && continue ;; esac
	echo "$t" >>"$dir/together"
done
[ -s "$dir/together" ] && xargs -P "$TEST_JOBS" -I '{}' sh "$0" --one "$dir" '{}' <"$dir/together"
[ -s "$dir/alone" ] && xargs -P 1 -I '{}' sh "$0" --one "$dir" '{}' <"$dir/alone"
echo "# slowest:"; sort -rn "$dir/times" | head -n 5 | sed 's/^/#   /'
pass=$(grep -c '^ok ' "$dir/results")
fail=$(grep -c '^not ok ' "$dir/results")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
