#!/bin/sh
# make fuzz: runs each fuzz target (build/fuzz/fuzz_NAME, libFuzzer under
# ASan + UBSan) for SECONDS, from a working copy of its seed corpus and its
# past findings.  Fails when any target finds a crash, a leak, a sanitizer
# report or an input over 10 s or 2 GB; the input is kept as
# build/fuzz/NAME-crash-... and belongs in fuzz/regress/NAME/ once fixed.
#
#   scripts/fuzz.sh SECONDS NAME...
set -u
seconds=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
failed=
for name in "$@"; do
	work=$root/build/fuzz/corpus/$name
	mkdir -p "$work"
	cp "$root"/fuzz/corpus/"$name"/* "$root"/fuzz/regress/"$name"/* "$work"/ 2>/dev/null
	echo "fuzz: $name for ${seconds} s"
	if ! "$root/build/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix="$root/build/fuzz/$name-" "$work" \
		>"$root/build/fuzz/$name.log" 2>&1; then
		echo "fuzz: $name found a defect; see build/fuzz/$name.log and build/fuzz/$name-*"
		tail -30 "$root/build/fuzz/$name.log"
		failed="$failed $name"
	else
		grep -E '^stat::number_of_executed_units' "$root/build/fuzz/$name.log" |
			sed "s/^stat::number_of_executed_units: */fuzz: $name: /; s/$/ inputs, nothing found/"
	fi
done
[ -z "$failed" ] || { echo "fuzz: defects in:$failed"; exit 1; }
