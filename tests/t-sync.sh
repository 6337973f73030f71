# --sync full: every commit of sink (SQLite, JSON lines) and of fetch's
# frontier reaches the disk before the program goes on; the default
# syncs only at checkpoints.  Counted from the sync calls strace sees.
. "$TESTS/lib.sh"

if ! strace -f -o /dev/null true 2>/dev/null; then
	ok "skipped: strace cannot trace here"
	finish
fi

# traced NAME CMD...: runs CMD under strace, noting its syncs
traced() {
	name=$1; shift
	strace -f -e trace=fsync,fdatasync -o "$T/$name.trace" "$@"
}
# nsync NAME: how many fsync and fdatasync calls the traced CMD made
nsync() { grep -cE '^[0-9]+ +f(data)?sync\(' "$T/$1.trace"; }
# syncs NAME CMD...: traced, then nsync
syncs() { traced "$@"; nsync "$1"; }

python3 - "$TESTS" >"$T/in.mp" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from mkrec import pack
out = bytearray()
for i in range(2000):
    pack({"url": "http://h.test/p%d" % i, "host": "h.test", "status": 200, "title": "p%d" % i}, out)
sys.stdout.buffer.write(out)
PY

# 2000 records in batches of 100: 20 commits.
normal=$(syncs normal "$BIN/sink" -q --batch 100 "$T/normal.db" <"$T/in.mp")
full=$(syncs full "$BIN/sink" -q --batch 100 --sync full "$T/full.db" <"$T/in.mp")
expect_cmd "sink --sync full syncs each of 20 commits ($full syncs)" test "$full" -ge 20
expect_cmd "sink's default syncs fewer times than it commits ($normal syncs)" test "$normal" -lt 20
expect_eq "both store every record" "2000 2000" \
	"$(q "$T/normal.db" 'select count(*) from pages') $(q "$T/full.db" 'select count(*) from pages')"
jl=$(syncs jl "$BIN/sink" -q --batch 100 --sync full "$T/full.jsonl" <"$T/in.mp")
expect_cmd "a JSON lines file is synced at each of 20 commits ($jl syncs)" test "$jl" -ge 20

# fetch's frontier: the same job with and without; full syncs each
# commit (admission, leases, heartbeats), normal at checkpoints only.
# The whole pipeline is traced: the job's last checkpoint syncs in
# whichever of fetch and sink closes the database last, and counting
# one of them only would make that race the test's outcome.
server_start
echo "$URL/ok" >"$T/seed.txt"
for mode in normal full; do
	traced "fetch-$mode" sh -c '"$1/fetch" -q --queue "$2/$3-job.db" --sync "$3" --no-robots \
		"$2/seed.txt" | "$1/sink" -q --queue "$2/$3-job.db" "$2/$3-pages.db"' sh "$BIN" "$T" "$mode"
done
fn=$(nsync fetch-normal) ff=$(nsync fetch-full)
expect_cmd "fetch --sync full syncs the frontier more than the default ($ff > $fn)" test "$ff" -gt "$fn"

expect_usage_errors sink "--sync maybe x.db"
expect_usage_errors fetch "--sync maybe"
finish
