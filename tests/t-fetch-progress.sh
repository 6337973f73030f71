# fetch's status line: drawn on a terminal (not under -q), at most 4 times
# a second, finished with a newline; --progress forces it, --no-progress
# and a non-terminal stderr leave stderr clean.
. "$TESTS/lib.sh"
server_start
urls "$URL/slow?ms=100&n=" 20 "$U2/status/429?n=" 20 >"$T/urls.txt"

t0=$(now)
"$BIN/fetch" --no-robots --retries 0 --no-adapt -p 1 --progress <"$T/urls.txt" >/dev/null 2>"$T/err"
took=$(since "$t0")
draws=$(tr '\r' '\n' <"$T/err" | grep -c "done,")
expect_cmd "the status line is redrawn ($draws times in $took s)" test "$draws" -ge 3
expect_cmd "at most 4 times a second, plus the last" holds "$draws <= $took * 4 + 2"
last=$(tr '\r' '\n' <"$T/err" | grep "done," | tail -1 | sed 's/\x1b\[K//')
expect_match "its last state counts everything" \
	"^fetch: 40/40 done, [0-9.]+/s, 0 in flight, 0 hosts waiting, 0 paused, 20 errors, 20 × 429$" "$last"
expect_eq "and it ends with a newline" "" "$(tail -c 1 "$T/err" | tr -d '\n')"

echo "$URL/ok" | "$BIN/fetch" --no-robots >/dev/null 2>"$T/err2"
expect_eq "no status line when stderr is not a terminal" 0 "$(wc -c <"$T/err2" | tr -d ' ')"

# A terminal, through script(1)'s pseudo-terminal.
if command -v script >/dev/null; then
	echo "$URL/ok" >"$T/one.txt"
	script -qec "'$BIN/fetch' --no-robots '$T/one.txt' >/dev/null" /dev/null >"$T/tty" </dev/null
	expect_match "on a terminal it is drawn by default" "fetch: 1/1 done" "$(tr '\r' '\n' <"$T/tty")"
	script -qec "'$BIN/fetch' -q --no-robots '$T/one.txt' >/dev/null" /dev/null >"$T/tty-q" </dev/null
	expect_eq "-q turns it off" "" "$(tr -d '\r\n' <"$T/tty-q")"
	script -qec "'$BIN/fetch' --no-progress --no-robots '$T/one.txt' >/dev/null" /dev/null >"$T/tty-n" </dev/null
	expect_eq "--no-progress turns it off" "" "$(tr -d '\r\n' <"$T/tty-n")"
fi
finish
