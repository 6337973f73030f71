#!/bin/sh
# sink durability: batches commit by count and by time, SIGTERM and
# SIGINT commit the last batch, and kill -9 at any moment leaves a valid
# database holding every committed row.
. "$(dirname "$0")/lib.sh"
PIDS=
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; cleanup' EXIT

# recs N: N small records as JSON lines
recs() { i=1; while [ "$i" -le "$1" ]; do echo "{\"url\":\"http://a.test/$i\",\"host\":\"a.test\",\"title\":\"t$i\"}"; i=$((i + 1)); done; }

# start_sink NAME PRODUCER-ARGS -- SINK-ARGS: runs `mkrec PRODUCER-ARGS |
# sink SINK-ARGS` through a fifo, setting $SINK and $PROD to their pids.
start_sink() {
	fifo=$T/$1.fifo; shift
	mkfifo "$fifo"
	pargs=
	while [ "$1" != -- ]; do pargs="$pargs $1"; shift; done; shift
	"$BIN/sink" "$@" <"$fifo" 2>"$T/sink.err" &
	SINK=$!
	# shellcheck disable=SC2086
	python3 "$TESTS/mkrec.py" $pargs >"$fifo" &
	PROD=$!
	PIDS="$PIDS $SINK $PROD"
}

# start_held NAME SINK-ARGS: runs `sink SINK-ARGS` on a fifo whose write
# end this script holds as fd 3 (sink sees no EOF until `exec 3>&-`) and
# writes the five records into it; sets $SINK.  The script writes them
# itself, so when it goes on they are in the pipe: no producer to race.
start_held() {
	fifo=$T/$1.fifo; shift
	mkfifo "$fifo"
	"$BIN/sink" "$@" <"$fifo" 2>"$T/sink.err" &
	SINK=$!
	PIDS="$PIDS $SINK"
	exec 3>"$fifo"
	cat "$T/five.mp" >&3
}

# rows_ge DB N: DB has at least N rows
rows_ge() { [ "$(q "$1" 'select count(*) from pages' 2>/dev/null || echo 0)" -ge "$2" ]; }
# wait_rows DB N: waits up to 20 s until DB has at least N rows
wait_rows() { wait_for 20 "$2 rows in $1" rows_ge "$1" "$2"; }

# waiting: waits up to 10 s until sink has read every byte written to
# the fifo (none is left unread in the pipe), no signal is pending for it
# and it sleeps in poll() for more input; fails otherwise.  sink only
# polls once it has put every record it read, and it takes signals only
# there, so from then on a signal finds all of them read.
waiting() { poll_until 10 idle_reader "$SINK" "$fifo"; }

recs 10 >"$T/ten.jsonl"
head -n 5 "$T/ten.jsonl" >"$T/five.jsonl"
mkrec "$T/five.jsonl" >"$T/five.mp"
tail -n 5 "$T/ten.jsonl" | mkrec >"$T/next5.mp"

# SIGTERM while sink waits for input: every record it read is committed,
# not lost.  (What the contract promises is the records sink has read: a
# SIGTERM stops the reading, so bytes still in the pipe are not stored.)
start_held term -q --batch-ms 600000 "$T/term.db"
expect_cmd "sink has read the five records and waits for more" waiting
expect_eq "before the signal nothing is committed (batch not full, timer far)" 0 \
	"$(q "$T/term.db" 'select count(*) from pages')"
kill -TERM "$SINK"; wait "$SINK"; rc=$?
expect_eq "SIGTERM: sink dies of the signal after committing" 143 "$rc"
expect_eq "SIGTERM commits the last batch" 5 "$(q "$T/term.db" 'select count(*) from pages')"
exec 3>&-

# SIGINT reaches every stage at once: sink takes it, keeps reading what
# upstream still flushes until EOF, commits it all, then dies of it.
start_held int -q --batch 1000 --batch-ms 600000 "$T/int.db"
expect_cmd "sink has read the five records and waits for more" waiting
kill -INT "$SINK"
expect_cmd "SIGINT: sink has taken it and waits for more input" waiting
cat "$T/next5.mp" >&3
exec 3>&-
wait "$SINK"; rc=$?
expect_eq "SIGINT: records up to EOF are committed, then sink dies of it" "130 10" \
	"$rc $(q "$T/int.db" 'select count(*) from pages')"

start_held jl -q --batch-ms 600000 "$T/term.jsonl"
expect_cmd "sink has read the five records and waits for more" waiting
kill -TERM "$SINK"; wait "$SINK"
expect_eq "SIGTERM flushes JSON lines" 5 "$(records "$T/term.jsonl")"
exec 3>&-

# Batches by count and by time, observed while sink is still running.
start_held count -q --batch 2 --batch-ms 600000 "$T/count.db"
expect_cmd "sink has read the five records and waits for more" waiting
expect_eq "--batch 2: 4 of 5 committed while input is open" 4 "$(q "$T/count.db" 'select count(*) from pages')"
kill -TERM "$SINK"; wait "$SINK"
expect_eq "...and the fifth at SIGTERM" 5 "$(q "$T/count.db" 'select count(*) from pages')"
exec 3>&-

start_held time -q --batch-ms 200 "$T/time.db"
wait_rows "$T/time.db" 5
expect_eq "--batch-ms 200: a partial batch commits while input is idle" 5 \
	"$(q "$T/time.db" 'select count(*) from pages')"
expect_cmd "...and sink is still running" kill -0 "$SINK"
kill -TERM "$SINK"; wait "$SINK"
exec 3>&-

# kill -9 mid-stream: a slow producer, small batches, then SIGKILL.
recs 400 >"$T/many.jsonl"
start_sink k9 --delay 0.004 "$T/many.jsonl" -- -q --batch 7 --batch-ms 50 "$T/k9.db"
wait_rows "$T/k9.db" 30
before=$(q "$T/k9.db" 'select count(*) from pages')
kill -9 "$SINK"; wait "$SINK" 2>/dev/null
kill "$PROD" 2>/dev/null
after=$(q "$T/k9.db" 'select count(*) from pages')
expect_cmd "kill -9: rows were committed before the kill ($before)" test "$before" -gt 0
expect_cmd "kill -9: it was mid-stream ($after < 400)" test "$after" -lt 400
expect_eq "kill -9: the database passes integrity_check" ok "$(q "$T/k9.db" 'pragma integrity_check')"
expect_cmd "kill -9: row count $after >= $before committed before" test "$after" -ge "$before"
expect_eq "kill -9: every committed row is intact" "$after" \
	"$(q "$T/k9.db" "select count(*) from pages where json_valid(record) and title = 't' || substr(url, 15) and stored_at > 0")"
expect_eq "kill -9: the committed rows are a prefix of the input" "$after" \
	"$(q "$T/k9.db" 'select max(cast(substr(url, 15) as integer)) from pages')"
mkrec "$T/many.jsonl" | "$BIN/sink" -q "$T/k9.db"
expect_eq "kill -9: rerunning the input completes the database" 400 "$(q "$T/k9.db" 'select count(*) from pages')"
finish
