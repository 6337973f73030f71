#!/bin/sh
# sink durability: batches commit by count and by time, SIGTERM and
# SIGINT commit the last batch, and kill -9 at any moment leaves a valid
# database holding every committed row.
# run.sh: alone
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

# wait_rows DB N: waits up to 5 s until DB has at least N rows
wait_rows() {
	i=0
	while [ "$(q "$1" 'select count(*) from pages' 2>/dev/null || echo 0)" -lt "$2" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
}

# fed N: waits up to 10 s until the producer has written its N bytes of
# records and the sink has read them all from the fifo (a fixed sleep
# loses that race on a loaded machine).
fed() {
	python3 - "$PROD" "$fifo" "$1" <<'PY'
import fcntl, os, struct, sys, termios, time
pid, fifo, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
def wrote():
    with open(f"/proc/{pid}/io") as f:
        return int(next(l for l in f if l.startswith("wchar:")).split()[1])
def waiting():
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
end = time.time() + 10
while time.time() < end and (wrote() < want or waiting() > 0):
    time.sleep(0.02)
PY
	sleep 0.1
}

recs 5 >"$T/five.jsonl"
five=$(mkrec "$T/five.jsonl" | wc -c)

# SIGTERM while sink waits for input: the batch is committed, not lost.
start_sink term --hold 30 "$T/five.jsonl" -- -q --batch-ms 600000 "$T/term.db"
fed "$five"
expect_eq "before the signal nothing is committed (batch not full, timer far)" 0 \
	"$(q "$T/term.db" 'select count(*) from pages')"
kill -TERM "$SINK"; wait "$SINK"; rc=$?
expect_eq "SIGTERM: sink dies of the signal after committing" 143 "$rc"
expect_eq "SIGTERM commits the last batch" 5 "$(q "$T/term.db" 'select count(*) from pages')"
kill "$PROD" 2>/dev/null

start_sink int --hold 30 "$T/five.jsonl" -- -q --batch 1000 --batch-ms 600000 "$T/int.db"
fed "$five"
kill -INT "$SINK"; wait "$SINK"; rc=$?
expect_eq "SIGINT commits the last batch too" "130 5" "$rc $(q "$T/int.db" 'select count(*) from pages')"
kill "$PROD" 2>/dev/null

start_sink jl --hold 30 "$T/five.jsonl" -- -q --batch-ms 600000 "$T/term.jsonl"
fed "$five"
kill -TERM "$SINK"; wait "$SINK"
expect_eq "SIGTERM flushes JSON lines" 5 "$(wc -l <"$T/term.jsonl" | tr -d ' ')"
kill "$PROD" 2>/dev/null

# Batches by count and by time, observed while sink is still running.
start_sink count --hold 30 "$T/five.jsonl" -- -q --batch 2 --batch-ms 600000 "$T/count.db"
wait_rows "$T/count.db" 4; sleep 0.3
expect_eq "--batch 2: 4 of 5 committed while input is open" 4 "$(q "$T/count.db" 'select count(*) from pages')"
kill -TERM "$SINK"; wait "$SINK"
expect_eq "...and the fifth at SIGTERM" 5 "$(q "$T/count.db" 'select count(*) from pages')"
kill "$PROD" 2>/dev/null

start_sink time --hold 30 "$T/five.jsonl" -- -q --batch-ms 200 "$T/time.db"
wait_rows "$T/time.db" 5
expect_eq "--batch-ms 200: a partial batch commits while input is idle" 5 \
	"$(q "$T/time.db" 'select count(*) from pages')"
expect_cmd "...and sink is still running" kill -0 "$SINK"
kill -TERM "$SINK"; wait "$SINK"
kill "$PROD" 2>/dev/null

# kill -9 mid-stream: a slow producer, small batches, then SIGKILL.
recs 400 >"$T/many.jsonl"
start_sink k9 --delay 0.004 "$T/many.jsonl" -- -q --batch 7 --batch-ms 50 "$T/k9.db"
wait_rows "$T/k9.db" 30
sleep 0.2
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
