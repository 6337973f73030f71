# fetch's `headers`: the final response's, names lowercased, repeats joined.
. "$TESTS/lib.sh"
server_start
rec=$(echo "$URL/headers" | "$BIN/fetch" --no-robots --json)
expect_eq "a repeated header's values are joined in order" '"one, two"' "$(echo "$rec" | jq -c '.headers["x-multi"]')"
expect_eq "values are trimmed" '"padded"' "$(echo "$rec" | jq -c '.headers["x-pad"]')"
expect_eq "every name is lowercase" '[]' "$(echo "$rec" | jq -c '[.headers | keys[] | select(test("[A-Z]"))]')"
rec=$(echo "$URL/redirect/2" | "$BIN/fetch" --no-robots --json)
expect_eq "after redirects, only the final response's headers" 'null' "$(echo "$rec" | jq -c '.headers.location')"
finish
