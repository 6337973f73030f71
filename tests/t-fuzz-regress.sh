# Every fuzz target replays its seed corpus and every past finding
# (fuzz/regress/NAME/) through the same entry point `make fuzz` drives,
# built like the rest of this run (so under ASan in make test-asan).
. "$TESTS/lib.sh"
root=$TESTS/..
# Every target has a seed corpus: its directory names the target, so a
# new one is replayed without being listed here.
for dir in "$root"/fuzz/corpus/*/; do
	name=$(basename "$dir")
	n=$(ls "$root/fuzz/corpus/$name" "$root/fuzz/regress/$name" 2>/dev/null | grep -cv ':$\|^$')
	timeout 120 "$UNIT/replay_$name" "$root"/fuzz/corpus/"$name"/* $(ls -d "$root"/fuzz/regress/"$name"/* 2>/dev/null)
	expect_eq "fuzz target $name: its $n inputs replay cleanly" 0 $?
done
finish
