# make demo: the sample site through the whole pipeline, as a newcomer
# first sees it.
. "$TESTS/lib.sh"
out=$(DEMO_DB="$T/demo.db" BIN="$BIN" sh "$TESTS/../scripts/demo.sh" 2>&1)
expect_eq "demo exits 0" 0 $?
expect_match "demo prints the row count" "^rows: +9$" "$out"
expect_match "demo prints the accepted count" "^accepted: +4$" "$out"
expect_eq "rejected by reason" "ctype image/png
fetch_error robots
js_shell 0 chars
rejected /Access Denied/
status 404" "$(sqlite3 "$T/demo.db" 'select reason from pages where not accepted order by reason')"
expect_eq "the Latin-1 page is decoded by its meta charset" 1 \
	"$(sqlite3 "$T/demo.db" "select count(*) from pages where json_extract(record, '\$.text') like '%café and naïve%'")"
expect_eq "the index page's links are absolute" 5 \
	"$(sqlite3 "$T/demo.db" "select json_array_length(json_extract(record, '\$.links')) from pages where url like '%:%/'")"
finish
