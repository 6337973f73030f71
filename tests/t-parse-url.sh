#!/bin/sh
# parse: links resolved and serialized as the WHATWG URL standard says
# for http(s) (lib/wurl), one case per class the standard's test data
# found wrong before: IDNA, IPv4 forms, invalid hosts, dot segments with
# %2e, http:foo, backslashes, slash runs, percent-encoding sets, ports.
# And fetch names its input URLs with the same code.
. "${TESTS:-$(dirname "$0")}/lib.sh"
P=$BIN/parse

# link BASE HREF: the link parse writes for <a href=HREF> on page BASE,
# or "none".
link() {
	jq -nc --arg u "$1" --arg h "$2" '{url: $u, ctype: "text/html",
		body: ("<a href=\"" + ($h | gsub("&"; "&amp;") | gsub("\""; "&quot;")) + "\">x</a>")}' |
		mkrec | "$P" -j0 --json | jq -r '.links[0] // "none"'
}
B=http://example.com/a/b/c

# ---- hosts
expect_eq "IDN to punycode" "http://xn--caf-dma.example/" "$(link $B 'http://café.example/')"
expect_eq "UTS 46 mapping: fullwidth letters, ideographic full stop" "http://go.com/" "$(link $B 'http://Ｇｏ。com/')"
expect_eq "percent-encoded host decoded, then lowercased" "http://example.com/" "$(link $B 'http://%45xample.com/')"
expect_eq "IPv4: hex and short form" "http://127.0.0.1/" "$(link $B 'http://0x7f.1/')"
expect_eq "IPv4: one decimal number" "http://192.168.0.1/" "$(link $B 'http://3232235521/')"
expect_eq "IPv4: octal parts" "http://10.0.0.8/" "$(link $B 'http://012.0.0.010/')"
expect_eq "IPv4: a part over 255 fails: no link" none "$(link $B 'http://256.0.0.1/')"
expect_eq "IPv4: five parts fail" none "$(link $B 'http://1.2.3.4.5/')"
expect_eq "a last label of digits is IPv4, bad: no link" none "$(link $B 'http://foo.09/')"
expect_eq "IPv6 compressed, lowercase, IPv4 tail in hex" "http://[::ffff:102:304]/" "$(link $B 'http://[0:0:0:0:0:FFFF:1.2.3.4]/')"
expect_eq "bad IPv6: no link" none "$(link $B 'http://[::1::2]/')"
expect_eq "forbidden host code point (%7f decodes to DEL)" none "$(link $B 'http://a%7fb/')"
expect_eq "forbidden host code point (<)" none "$(link $B 'http://a<b/')"
expect_eq "a space in the host" none "$(link $B 'http://exa mple.org/')"
expect_eq "a NUL in the host (%00)" none "$(link $B 'http://ab%00c/')"
expect_eq "an emoji A-label is kept (UTS 46 allows it)" "http://xn--ls8h.la/" "$(link $B 'http://XN--LS8H.la/')"
expect_eq "a host not valid UTF-8 (%ff)" none "$(link $B 'http://a%ffb/')"
expect_eq "an A-label that does not decode" none "$(link $B 'http://xn--a.com/')"
expect_eq "empty host after userinfo" none "$(link $B 'http://user@/x')"
expect_eq "port out of range" none "$(link $B 'http://example.com:65536/')"
expect_eq "port not a number" none "$(link $B 'http://example.com:8o/')"
expect_eq "default port dropped, leading zeros read" "http://example.com/ https://example.com:8443/" \
	"$(link $B 'http://example.com:0080/') $(link $B 'https://example.com:8443/')"

# ---- relative forms
expect_eq "http:foo on an http base is relative" "http://example.com/a/b/foo" "$(link $B 'http:foo')"
expect_eq "http:/x on an http base is a path" "http://example.com/example.org/" "$(link $B 'http:/example.org/')"
expect_eq "http:foo on an https base is a host" "http://foo/" "$(link https://example.com/ 'http:foo')"
expect_eq "scheme-relative takes the base's scheme" "https://other.org/x" "$(link https://example.com/ '//other.org/x')"
expect_eq "backslashes are slashes" "http://example.com/x/y" "$(link $B '\x\y')"
expect_eq "a run of slashes after the scheme" "http://other.org/p" "$(link $B 'http:////other.org/p')"
expect_eq "backslashes after the scheme" "http://other.org/p" "$(link https://example.com/ 'http:\\other.org\p')"
expect_eq "dot segments, %2e and %2E included" "http://example.com/a/x" "$(link $B '%2e%2E/./%2e/x')"
expect_eq "dot segments do not climb above the root" "http://example.com/x" "$(link $B '../../../../x')"
expect_eq "a final .. leaves a directory" "http://example.com/a/" "$(link $B '..')"
expect_eq "query only: the base's path" "http://example.com/a/b/c?q" "$(link $B '?q')"
expect_eq "tabs and newlines inside are removed" "http://example.com/a/b/xy" "$(link $B "$(printf 'x\ty\n')")"

# ---- percent-encoding sets
expect_eq "path: space, quote, <, >, backtick, braces, non-ASCII encoded; ' kept" \
	"http://example.com/%20%22%3C%3E%60%7B%7D'%C3%A9" "$(link http://example.com/ '/ "<>`{}'"'"'é')"
expect_eq "query: space, quote, ' encoded; backtick and braces kept" \
	"http://example.com/?%20%22%27\`{}" "$(link http://example.com/ '?'" \"'\`{}")"
expect_eq "userinfo: @ and : after the first encoded" "http://a%40b:c%3Ad@example.com/" "$(link $B 'http://a@b:c:d@example.com/')"
expect_eq "an escape already there stays, %zz too" "http://example.com/%41%zz" "$(link $B '/%41%zz')"

# ---- fetch names input URLs the same way, so one host has one name
server_start
port=$PORT
printf '%s\n' "http://0x7f.1:$port/ok" "http://127.0.0.1:$port/a/%2e%2e/ok2" "http://$(printf 'caf\303\251').invalid/" \
	"http://256.1.1.1/" | "$BIN/fetch" -q --json --no-robots >"$T/f.json"
expect_eq "fetch: 0x7f.1 requested as 127.0.0.1; %2e%2e resolved; IDN in punycode; bad IPv4 bad_url" \
	"$URL/ok 200|$URL/ok2 404|http://256.1.1.1/ bad_url|http://xn--caf-dma.invalid/ -" \
	"$(jq -r '"\(.url) \(if .error == "bad_url" then "bad_url" elif .status > 0 then .status else "-" end)"' "$T/f.json" | sort | paste -sd'|' -)"
expect_eq "fetch: the server saw /ok and /ok2" "/ok /ok2" "$(jq -r .path "$LOG" | sort | paste -sd' ' -)"
finish
