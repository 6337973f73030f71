#!/bin/sh
# Calls go down the module lists of fetcher/fetch.h and renderer/render.h,
# never up, every module is placed in its list, and no program includes
# another program's files (scripts/check-layers; docs/hacking.md,
# "Layers").  A copy of fetcher/ with one call up the list, and one with
# an unlisted file, must fail it, naming file and line.
. "$(dirname "$0")/lib.sh"
ROOT=$TESTS/..

out=$("$ROOT/scripts/check-layers" "$ROOT" 2>&1)
expect_eq "no call goes up a layer, no program uses another's files" "" "$out"

# The same check on a tree with faults put in: it must see them.
mkdir -p "$T/tree"
cp -r "$ROOT/lib" "$ROOT/fetcher" "$ROOT/parser" "$ROOT/validator" "$ROOT/sinker" \
	"$ROOT/renderer" "$T/tree/"
printf '\nvoid\npool_up(void)\n{\n\tsched_pump();\n}\n' >>"$T/tree/fetcher/pool.c"
out=$("$ROOT/scripts/check-layers" "$T/tree" 2>&1)
expect_match "a call from pool.c (data) up to sched.c (policy) is named, with its line" \
	"fetcher/pool\.c:[0-9]+: pool\.c calls sched_pump of sched\.c" "$out"
printf 'int stray;\n' >"$T/tree/fetcher/stray.c"
printf '#include "../parser/page.h"\n' >>"$T/tree/sinker/jsonl.c"
out=$("$ROOT/scripts/check-layers" "$T/tree" 2>&1)
expect_match "a file missing from fetch.h's list is named" "fetcher/stray\.c:1: not in fetch\.h" "$out"
expect_match "an include of another program's header is named" \
	"sinker/jsonl\.c:[0-9]+: includes \"\.\./parser/page\.h\"" "$out"
"$ROOT/scripts/check-layers" "$T/tree" >/dev/null 2>&1
expect_eq "and it exits 1" 1 "$?"
finish
