# make demo: the sample site through the whole pipeline, as a newcomer
# first sees it.
. "$TESTS/lib.sh"
out=$(DEMO_DB="$T/demo.db" BIN="$BIN" sh "$TESTS/../scripts/demo.sh" 2>&1)
expect_eq "demo exits 0" 0 $?
expect_match "demo prints the row count" "^rows: +9$" "$out"
expect_match "demo prints the accepted count" "^accepted: +4$" "$out"
expect_eq "rejected by reason (the members page named by validate's signatures)" "blocked access denied
ctype image/png
fetch_error robots
js_shell 0 chars
status 404" "$(sqlite3 "$T/demo.db" 'select reason from pages where not accepted order by reason')"
expect_eq "the Latin-1 page is decoded by its meta charset" 1 \
	"$(sqlite3 "$T/demo.db" "select count(*) from pages where json_extract(record, '\$.text') like '%café and naïve%'")"
expect_eq "the index page's links are absolute" 5 \
	"$(sqlite3 "$T/demo.db" "select json_array_length(json_extract(record, '\$.links')) from pages where url like '%:%/'")"
expect_match "the summary ends with the per-host table" \
	"^  127[.]0[.]0[.]1 +9 +4 +44[.]4%" "$out"
expect_eq "and the path of its HTML report" "  charts: open $T/demo-report.html in a browser" \
	"$(printf '%s\n' "$out" | tail -1)"
expect_eq "which holds the charts" 3 "$(grep -c '<svg' "$T/demo-report.html")"

# make test and make demo install what is missing: deps-ok names the
# command when it cannot (not root) and is silent when nothing is missing.
expect_eq "deps-ok: nothing missing, nothing said" "0 " \
	"$("$TESTS/../scripts/deps-ok" sqlite3 jq 2>&1; echo $?) "
if [ "$(id -u)" != 0 ]; then
	expect_match "deps-ok: a missing package is named with the command to run" \
		"missing Debian packages: sluice-no-such-package" "$("$TESTS/../scripts/deps-ok" sluice-no-such-package 2>&1)"
else
	expect_match "deps-ok as a user: a missing package is named with the command to run" \
		"sudo make deps" "$(setpriv --reuid=65534 --regid=65534 --clear-groups "$TESTS/../scripts/deps-ok" sluice-no-such-package 2>&1)"
fi
# make test, fuzz and bench check their own lists and name their target.
user=
[ "$(id -u)" = 0 ] && user="setpriv --reuid=65534 --regid=65534 --clear-groups"
expect_eq "deps-ok --make: the target named, exit 1" "sluice: run: sudo make deps-test 1" \
	"$($user "$TESTS/../scripts/deps-ok" --make deps-test sqlite3 sluice-no-such-package 2>&1 | tail -1) $(
	$user "$TESTS/../scripts/deps-ok" --make deps-test sluice-no-such-package >/dev/null 2>&1; echo $?)"
finish
