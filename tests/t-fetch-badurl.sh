# URLs fetch refuses keep the input's own text in `url`: refused schemes
# (file:/// used to come out as "file://(nil)") and malformed URLs, with
# the right error word and nothing requested.
. "$TESTS/lib.sh"
server_start
cat >"$T/in.txt" <<EOF
file:///
file:///etc/passwd
  FTP://Example.COM/x  
mailto:someone@example.org
javascript:alert(1)
data:text/html,<p>hi
gopher://example.org/
http://
http://exa mple.org/
http://a%7fb/
$URL/ok
EOF
"$BIN/fetch" -q --json --no-robots <"$T/in.txt" >"$T/out"
expect_eq "every refused URL keeps its text, with its word" "file:/// scheme
file:///etc/passwd scheme
FTP://Example.COM/x scheme
mailto:someone@example.org scheme
javascript:alert(1) scheme
data:text/html,<p>hi scheme
gopher://example.org/ scheme
http:// bad_url
http://exa mple.org/ bad_url
http://a%7fb/ bad_url
$URL/ok -" "$(jq -r '"\(.url) \(.error // "-")"' "$T/out")"
expect_eq "none of them was requested" "/ok" "$(jq -r .path "$LOG")"
expect_eq "and the --queue seeding refuses them the same way" "file:/// scheme" \
	"$(echo 'file:///' | "$BIN/fetch" -q --json --queue "$T/job.db" | jq -r '"\(.url) \(.error)"')"
expect_eq "nothing of them entered the frontier" 0 "$(q "$T/job.db" 'select count(*) from frontier')"
finish
