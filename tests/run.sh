#!/bin/sh
# Runs every unit test binary in $UNIT and every tests/t-*.sh script, and
# ends with one line `N passed, N failed`.  Each test prints TAP-style
# lines: `ok - name` or `not ok - name`; a script or binary that exits
# non-zero without reporting a failure counts as one failure.  Each one
# gets at most $TEST_TIMEOUT seconds (default 600), so a hang costs one
# failure, not the whole CI run; after each, a `# N s name` line says how
# long it took, and the slowest are listed again at the end.
#
#   BIN=/abs/bin UNIT=/abs/unit-bins tests/run.sh [tests/t-foo.sh ...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${BIN:=$here/../bin}" "${UNIT:=$here/../build/release/tests}" "${TEST_TIMEOUT:=600}"
export BIN UNIT TESTS="$here"
results=$(mktemp) times=$(mktemp)
trap 'rm -f "$results" "$times"' EXIT

run_one() {
	out=$(mktemp)
	t0=$(date +%s)
	# timeout signals its own process group: the script's servers too.
	timeout -k 10 "$TEST_TIMEOUT" "$@" >"$out" 2>&1
	rc=$?
	[ $rc -eq 124 ] && echo "# timed out after $TEST_TIMEOUT s" >>"$out"
	echo "$(($(date +%s) - t0)) s $*" >>"$times"
	grep -E '^(not )?ok ' "$out" >>"$results"
	if grep -q '^not ok ' "$out" || [ $rc -ne 0 ]; then
		echo "--- $*"
		cat "$out"
		if [ $rc -ne 0 ] && ! grep -q '^not ok ' "$out"; then
			echo "not ok - $* exited $rc" | tee -a "$results"
		fi
	else
		grep -E '^ok ' "$out"
	fi
	rm -f "$out"
	echo "# $(tail -n 1 "$times")"
}

if [ $# -gt 0 ]; then
	for t in "$@"; do
		case $t in *.sh) run_one sh "$t" ;; *) run_one "$t" ;; esac
	done
else
	for t in "$UNIT"/test_*; do [ -x "$t" ] && run_one "$t"; done
	for t in "$here"/t-*.sh; do run_one sh "$t"; done
fi
echo "# slowest:"; sort -rn "$times" | head -n 5 | sed 's/^/#   /'
pass=$(grep -c '^ok ' "$results")
fail=$(grep -c '^not ok ' "$results")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
