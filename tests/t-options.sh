#!/bin/sh
# Each program's options, as its --help lists them (from its option
# table, lib/opt.h), against the OPTIONS section of man/PROG.1 and the
# Options table of docs/PROG.md: a name missing on either side fails,
# so the man page and docs cannot fall behind the program.  The man
# page's section must also be exactly what `make man` generates from
# the table (scripts/man-options).
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
finish
