# Pages that stalled parse: a selector of descendant combinators over a
# page nested 800 deep (62 s before memoizing), and a record a worker
# cannot finish within --max-parse-time (replaced, the record marked).
. "$TESTS/lib.sh"
/usr/bin/python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
deep = "<html><body><section>" + "<div>" * 800 + "<span>deep</span>" + "</div>" * 800 + "</section></body></html>"
big = "<html><body>" + "<p>word <b>bold</b> <a href='/x'>link</a></p>\n" * 400000 + "</body></html>"
with open(t + "/deep.jsonl", "w") as f:
    f.write(json.dumps({"url": "http://a.test/deep", "status": 200, "ctype": "text/html", "body": {"$bin": deep}}) + "\n")
with open(t + "/big.jsonl", "w") as f:
    for name, body in (("first", "<title>1</title>"), ("big", big), ("after", "<title>3</title>")):
        f.write(json.dumps({"url": "http://a.test/" + name, "status": 200, "ctype": "text/html", "body": {"$bin": body}}) + "\n")
EOF
python3 "$TESTS/mkrec.py" "$T/deep.jsonl" >"$T/deep.mp"
python3 "$TESTS/mkrec.py" "$T/big.jsonl" >"$T/big.mp"

t0=$(now)
timeout 60 "$BIN/parse" -q --json -f 'x=section div div span' -F 'all=div div div span' <"$T/deep.mp" >"$T/deep.out"
expect_eq "the deep page's fields are found" '{"x":"deep","all":["deep"]}' "$(jq -c .fields "$T/deep.out")"
expect_cmd "in well under the 62 s it took ($(echo "$(now) - $t0" | bc) s)" test "$(echo "$(now) - $t0 < 10" | bc)" = 1

# An 18 MB page takes a worker about a second: with --max-parse-time 0.2
# it is killed and replaced; the records around it are parsed in order.
timeout 60 "$BIN/parse" --json -j1 --max-parse-time 0.2 <"$T/big.mp" >"$T/big.out" 2>"$T/big.err"
expect_eq "parse exits 0" 0 $?
expect_eq "every record once, in order; the slow one marked timeout, its body kept" \
	"http://a.test/first - 1 false
http://a.test/big timeout null true
http://a.test/after - 3 false" \
	"$(jq -r '"\(.url) \(.parse_error // "-") \(.title) \(.body != null and (.parse_error != null))"' "$T/big.out")"
expect_match "and says so" "http://a.test/big: timeout: still parsing after 0.2 s [(]--max-parse-time[)], worker killed" \
	"$(cat "$T/big.err")"
timeout 60 "$BIN/parse" -q --json -j2 <"$T/big.mp" >"$T/big2.out"
expect_eq "the default limit (30 s) lets it finish" "- - -" \
	"$(jq -r '.parse_error // "-"' "$T/big2.out" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "--max-parse-time with -j0 is a usage error" 64 \
	"$("$BIN/parse" -j0 --max-parse-time 1 </dev/null >/dev/null 2>&1; echo $?)"
expect_eq "a bad value is a usage error" 64 \
	"$("$BIN/parse" --max-parse-time soon </dev/null >/dev/null 2>&1; echo $?)"
finish
