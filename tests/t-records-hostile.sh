#!/bin/sh
# Hostile and huge records: JSON of nested non-string keys stays within
# its documented bound, a 60 MB record through a slow pipe scans in linear
# time, element counts are bounded in every stage that reads records, and
# a jsonl target that runs out of room keeps only whole lines.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

# nested DEPTH: {"k": {{{...{"\"": nil}...: nil}: nil}: nil}}, DEPTH maps
# used as keys of maps: each level's key is the map below it
nested() {
	$PY -c '
import sys
d = int(sys.argv[1]); inner = b"\xa1\""
for _ in range(d):
    inner = b"\x81" + inner + b"\xc0"
sys.stdout.buffer.write(b"\x81\xa1k" + inner)' "$1"
}

# ---- JSON of non-string keys: rendered once, escaped once
nested 3 >"$T/n3.mp"
expect_eq "nested non-string keys: exact JSON" \
	'{"k":{"{{\"\\\"\":null}:null}":null}}' "$("$BIN/sink" - <"$T/n3.mp" 2>/dev/null)"
nested 22 >"$T/n22.mp"
size=$(wc -c <"$T/n22.mp" | tr -d ' ')
out=$("$BIN/sink" - <"$T/n22.mp" 2>/dev/null | wc -c | tr -d ' ')
# docs/records.md: at most 8 bytes per record byte, plus the newline
expect_eq "22 levels of map keys ($size bytes): JSON within 8x+1 bytes" ok \
	"$([ "$out" -le $((8 * size + 1)) ] && echo ok || echo "$out bytes")"
expect_eq "22 levels of map keys: valid JSON, the key one string" '"string"' \
	"$("$BIN/sink" - <"$T/n22.mp" 2>/dev/null | jq -c '.k | keys[0] | type')"

# ---- linear scan: 60 MB record of 3.75M strings, 4 KiB per read
# {"url": "http://x.test/", "links": [3750000 x 15-byte str]}
$PY -c '
import struct, sys
n = 3750000
sys.stdout.buffer.write(b"\x82\xa3url\xaehttp://x.test/\xa5links\xdd" + struct.pack(">I", n) + b"\xafhttp://x.y/abcd" * n)' >"$T/big.mp"
# slow_pipe: copies stdin to stdout through a pipe of 4 KiB, so the
# reader gets the record in about 15000 reads
slow_pipe() {
	$PY -c '
import fcntl, sys
try:
    fcntl.fcntl(1, 1031, 4096)   # F_SETPIPE_SZ
except OSError:
    pass
while True:
    b = sys.stdin.buffer.read(4096)
    if not b:
        break
    sys.stdout.buffer.write(b)
    sys.stdout.buffer.flush()'
}
t0=$(now)
slow_pipe <"$T/big.mp" | timeout -s KILL 120 "$BIN/validate" -q >"$T/big.out"
rc=$?
t=$(since "$t0")
echo "# validate of a 60 MB record through a 4 KiB pipe: ${t}s"
# The old rescan took minutes here; linear work takes about a second.
# validate adds accepted and reason (29 bytes) to the 60000031 bytes
expect_eq "60 MB record through a 4 KiB pipe: whole, within 20 s" "0 60000060 ok" \
	"$rc $(wc -c <"$T/big.out" | tr -d ' ') $(holds "$t < 20" && echo ok || echo "${t}s")"

# ---- element limit: 65536 at --max-record 1M, in every stage
# elements N: {"url": "http://x.test/N", "a": [0 x N-5]}, N elements
elements() {
	$PY -c '
import struct, sys
n = int(sys.argv[1]); url = b"http://x.test/%d" % n
sys.stdout.buffer.write(b"\x82\xa3url" + bytes([0xa0 | len(url)]) + url + b"\xa1a\xdd" + struct.pack(">I", n - 5) + b"\x00" * (n - 5))' "$1"
}
elements 65536 >"$T/el.mp"
first=$(wc -c <"$T/el.mp" | tr -d ' ')
elements 65537 >>"$T/el.mp"
for st in validate sink parse fetch; do
	case $st in
	sink) "$BIN/sink" --max-record 1M "$T/el.jsonl" <"$T/el.mp" 2>"$T/err" ;;
	fetch) "$BIN/fetch" -q --max-record 1M --no-robots --retries 0 -t 2 <"$T/el.mp" >"$T/out" 2>"$T/err" ;;
	*) "$BIN/$st" -q --max-record 1M <"$T/el.mp" >"$T/out" 2>"$T/err" ;;
	esac
	expect_eq "$st: a record over the element limit is refused, naming its offset" \
		"65 $st: malformed record at byte $first: more than 65536 elements" "$? $(tail -1 "$T/err")"
done
expect_eq "sink: the record at the limit before it is stored" 1 "$(records "$T/el.jsonl")"

# ---- a jsonl target that hits its size limit keeps whole lines
# 100 records whose JSON lines are 1050 bytes each
$PY -c '
import sys
sys.path.insert(0, sys.argv[1])
from mkrec import pack
out = bytearray()
for i in range(100):
    pack({"url": "http://x.test/%03d" % i, "text": "p" * 1012}, out)
sys.stdout.buffer.write(out)' "$TESTS" >"$T/lines.mp"
"$BIN/sink" - <"$T/lines.mp" 2>/dev/null | head -1 >"$T/one"
expect_eq "jsonl lines are 1050 bytes" 1050 "$(wc -c <"$T/one" | tr -d ' ')"
# A file size limit of 102400 bytes holds 97 lines; batches of 10 commit
# 90, and the 10th batch fails part way (a short write, then EFBIG).
# SIGXFSZ is set back to its default (Python ignores it, and exec would
# pass that on): sink must ignore it itself.
$PY -c '
import os, resource, signal, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (102400, 102400))
signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$BIN/sink" --batch 10 "$T/full.jsonl" <"$T/lines.mp" 2>"$T/err"
expect_eq "file size limit: exit 74, the error" "74 sink: cannot write '$T/full.jsonl': File too large" \
	"$? $(cat "$T/err")"
expect_eq "file size limit: the 90 committed lines, whole, in order" "94500 90 000 089" \
	"$(wc -c <"$T/full.jsonl" | tr -d ' ') $(jq -r '.url[-3:]' "$T/full.jsonl" | sed -n '1p;$p' | tr '\n' ' ' | sed 's/^/'"$(jq -c . "$T/full.jsonl" | wc -l | tr -d ' ')"' /;s/ $//')"
"$BIN/sink" "$T/full.jsonl" <"$T/lines.mp" 2>/dev/null
expect_eq "file size limit: a second run appends whole lines" "0 190 190" \
	"$? $(jq -c . "$T/full.jsonl" | wc -l | tr -d ' ') $(records "$T/full.jsonl")"
finish
