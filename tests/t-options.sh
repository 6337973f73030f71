#!/bin/sh
# Each program's options, as its --help lists them (from its option
# table, lib/opt.h), against the OPTIONS section of man/PROG.1 and the
# Options table of docs/PROG.md: a name missing on either side fails,
# so the man page and docs cannot fall behind the program.  The man
# page's section must also be exactly what `make man` generates from
# the table (scripts/man-options).  Last, a bad value of each kind of
# row gets its exact message.
. "$(dirname "$0")/lib.sh"
ROOT=$TESTS/..

# The long names in the option column of --help: rows start with
# blanks and a dash; a row may name two (`--help, --version`).
help_opts() {
	"$BIN/$1" --help | grep -oE '^ +(-[a-zA-Z0-9], )?--[a-z0-9-]+(, --[a-z0-9-]+)*' |
		grep -oE -- '--[a-z0-9-]+' | sort -u
}

# The long names on each .TP tag line of the OPTIONS section.
man_opts() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$ROOT/man/$1.1" |
		awk 'tag { print; tag = 0 } /^\.TP/ { tag = 1 }' |
		sed 's/\\-/-/g' | grep -oE -- '--[a-z0-9-]+' | sort -u
}

# The long names in the first cell of each row of the Options table.
doc_opts() {
	sed -n '/^## Options/,/^## [^O]/p' "$ROOT/docs/$1.md" |
		grep '^| `' | cut -d'|' -f2 | grep -oE -- '--[a-z0-9-]+' | sort -u
}

# diff_opts HELP OTHER: the names OTHER lacks and the ones it adds.
diff_opts() {
	missing=$(comm -23 "$1" "$2" | tr '\n' ' ')
	extra=$(comm -13 "$1" "$2" | tr '\n' ' ')
	printf '%s%s' "${missing:+missing: $missing}" "${extra:+extra: $extra}" | sed 's/ $//'
}

for p in validate sink fetch parse render; do
	help_opts "$p" >"$T/$p.help"
	man_opts "$p" >"$T/$p.man"
	doc_opts "$p" >"$T/$p.doc"
	man=$(diff_opts "$T/$p.help" "$T/$p.man")
	doc=$(diff_opts "$T/$p.help" "$T/$p.doc")
	case $p in
	validate|sink|parse|fetch|render)
		expect_eq "$p: --help lists options" yes "$([ -s "$T/$p.help" ] && echo yes)"
		expect_eq "$p: man/$p.1 names each option of --help" "" "$man"
		expect_eq "$p: docs/$p.md names each option of --help" "" "$doc"
		# The OPTIONS section is generated from the option table:
		# `make man` must leave the committed page as it is.
		cp "$ROOT/man/$p.1" "$T/$p.1"
		gen=$("$ROOT/scripts/man-options" "$BIN/$p" "$T/$p.1" 2>&1) || gen="make man fails: $gen"
		expect_eq "$p: man/$p.1 OPTIONS is what make man writes" "" \
			"$gen$(diff "$ROOT/man/$p.1" "$T/$p.1")"
		;;
	esac
done

# A bad value: exit 64 and the one message, its WHAT from the row's
# kind and bounds (or the row's own want), as before the rows read the
# values themselves.
expect_bad() {
	prog=$1 args=$2 want=$3
	# shellcheck disable=SC2086
	"$BIN/$prog" $args </dev/null >/dev/null 2>"$T/err"
	expect_eq "$prog $args: the bad-value message" "64 $prog: $want" "$? $(head -1 "$T/err")"
}
expect_bad fetch "-c 0" "invalid value '0' for --concurrency: want a whole number from 1 to 100000"
expect_bad fetch "--delay -1" "invalid value '-1' for --delay: want seconds, 0 or more"
expect_bad fetch "--timeout 0" "invalid value '0' for --timeout: want seconds, more than 0"
expect_bad fetch "--burst 0.5" "invalid value '0.5' for --burst: want a number of 1 or more"
expect_bad fetch "--max-body 5T" "invalid value '5T' for --max-body: want a size, K/M/G suffixes"
expect_bad fetch "--buffer 1023" "invalid value '1023' for --buffer: want a size of 1K or more, K/M/G suffixes"
expect_bad fetch "--max-record 63" "invalid value '63' for --max-record: want a size of 64 or more, K/M/G suffixes"
expect_bad fetch "--pace-by domain" "invalid value 'domain' for --pace-by: want host, site or ip"
expect_bad fetch "--redirects Any" "invalid value 'Any' for --redirects: want any, same-site or same-host"
expect_bad fetch "--min-yield 1.5" "invalid value '1.5' for --min-yield: want a fraction from 0 to 1"
expect_bad fetch "--recrawl 1w" "invalid value '1w' for --recrawl: want an age: seconds, or a number with s, m, h or d"
expect_bad fetch "--retry-on 429,600" "invalid value '429,600' for --retry-on: want up to 32 HTTP statuses from 100 to 599, comma-separated"
expect_bad fetch "--sync maybe" "invalid value 'maybe' for --sync: want normal or full"
expect_bad fetch "--robots-agent a/b" "invalid value 'a/b' for --robots-agent: want a product token of letters, '_' and '-'"
expect_bad render "--wait selector:" "invalid value 'selector:' for --wait: want load, networkidle or selector:CSS"
expect_bad render "--viewport 99x100" "invalid value '99x100' for --viewport: want WIDTHxHEIGHT, each from 100 to 10000"
expect_bad parse "-j 257" "invalid value '257' for --jobs: want a whole number from 0 to 256"
expect_bad parse "--max-parse-memory x" "invalid value 'x' for --max-parse-memory: want bytes (K, M, G), 0 for no limit"
expect_bad validate "--max-record 0" "invalid value '0' for --max-record: want a size of 1 or more, K/M/G suffixes"
expect_bad sink "--scope world x.db" "invalid value 'world' for --scope: want host, domain or any"
expect_match "fetch --help: --queue takes a PostgreSQL frontier too" \
	"--queue DB +take URLs from the frontier DB, an SQLite file or a postgresql:// URI" \
	"$("$BIN/fetch" --help | grep -A1 -e '--queue DB' | tr -s ' \n' ' ')"
finish
