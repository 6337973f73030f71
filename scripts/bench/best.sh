# scripts/bench/best.sh: best of RUNS timed runs (sourced, POSIX sh)
#
#   . "$here/bench/best.sh"
#   best_of LABEL CMD              # sets $best and $bestcpu
#
# Needs $dir (a scratch directory), $RUNS, GNU /usr/bin/time, awk, and
# the caller's die, say and now (the wall clock in seconds).
# best_of LABEL CMD: run CMD (a shell string) RUNS times, keep the least
# wall clock in $best and that run's user+sys CPU seconds (of CMD and its
# children, so a pipe's `cat` counts) in $bestcpu
best_of() {
	label=$1 cmd=$2
	best= bestcpu=
	r=0
	while [ $r -lt "$RUNS" ]; do
		t0=$(now)
		/usr/bin/time -f '%U %S' -o "$dir/cpu.out" sh -c "$cmd" ||
		    die "$label: exited $?"
		t1=$(now)
		s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
		c=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/cpu.out")
		say "$label run $((r + 1)): $s s wall, $c s cpu"
		if [ -z "$best" ] || [ "$(awk -v x="$s" -v y="$best" 'BEGIN { print (x < y) }')" = 1 ]; then
			best=$s bestcpu=$c
		fi
		r=$((r + 1))
	done
}
