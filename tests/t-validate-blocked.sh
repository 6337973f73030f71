# validate's pages that refuse us (docs/validate.md, "Pages that refuse
# us"): challenge interstitials answered 200, 503 and 403, a captcha
# wall, login walls, a consent wall over nothing are named `blocked` or
# `consent`, through parse as a crawl feeds them; a consent banner over
# an article, and articles that talk about captchas and challenges,
# are accepted.  --refusals off and a host section turn the table off.
. "$TESTS/lib.sh"
F=$TESTS/fixtures/blocked

# page URL FINAL_URL STATUS FILE [HEADERS-JSON]: one fetch record of FILE
page() {
	jq -nc --arg u "$1" --arg f "$2" --argjson s "$3" --arg b "$F/$4" --argjson h "${5:-{\}}" \
		'{url: $u, final_url: $f, host: ($u | sub("^https?://"; "") | sub("/.*"; "")), status: $s,
		  ctype: "text/html; charset=utf-8", headers: ({"content-type": "text/html; charset=utf-8"} + $h),
		  body: {"$file": $b}}'
}
{
	page http://shop.test/item/1 http://shop.test/item/1 200 challenge-200.html
	page http://shop.test/item/2 http://shop.test/item/2 503 challenge-503.html
	page http://shop.test/item/3 http://shop.test/item/3 403 botcheck-403.html
	page http://shop.test/item/4 http://shop.test/item/4 403 denied-403.html
	page http://shop.test/item/5 http://shop.test/item/5 200 captcha.html
	page http://laden.test/artikel/6 http://laden.test/artikel/6 200 challenge-de.html
	page http://shop.test/item/7 http://shop.test/item/7 403 article-captcha.html '{"cf-mitigated": "challenge"}'
	page http://news.test/story/8 'http://news.test/login?next=%2Fstory%2F8' 200 login.html
	page http://news.test/login http://news.test/login 200 login.html
	page http://trade.test/figures/q3 http://trade.test/figures/q3 200 members.html
	page http://daily.test/news/11 http://daily.test/news/11 200 consent-wall.html
	page http://video.test/watch/12 'https://consent.youtube.com/m?continue=http://video.test/watch/12' 200 consent-wall.html
	page http://daily.test/news/13 http://daily.test/news/13 200 banner-article.html
	page http://tech.test/captchas http://tech.test/captchas 200 article-captcha.html
	page http://net.test/challenges http://net.test/challenges 200 article-cloudflare.html \
		'{"server": "cloudflare", "cf-ray": "8a1b2c3d4e5f6a7b-AMS"}'
} | mkrec >"$T/pages.mp"

# verdicts PARSE-ARGS -- VALIDATE-ARGS: `url accepted reason` per
# record, sorted (parse's workers answer in any order)
verdicts() {
	_pa=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do _pa="$_pa $1"; shift; done
	[ $# -gt 0 ] && shift
	# shellcheck disable=SC2086
	"$BIN/parse" $_pa <"$T/pages.mp" | "$BIN/validate" -q --json "$@" |
		jq -r '"\(.url | sub("^http://"; "")) \(.accepted) \(.reason // "-")"' | sort
}
expected="daily.test/news/11 false consent cookie wall
daily.test/news/13 true -
laden.test/artikel/6 false blocked captcha
net.test/challenges true -
news.test/login true -
news.test/story/8 false blocked login wall
shop.test/item/1 false blocked cloudflare challenge
shop.test/item/2 false blocked cloudflare challenge
shop.test/item/3 false blocked perimeterx block
shop.test/item/4 false blocked akamai block
shop.test/item/5 false blocked captcha
shop.test/item/7 false blocked cloudflare challenge
tech.test/captchas true -
trade.test/figures/q3 false blocked login wall
video.test/watch/12 false consent consent page"
expect_eq "parse | validate: challenges at 200, 503 and 403, a captcha, login walls, consent walls are named; a banner over an article and articles about them are accepted" \
	"$expected" "$(verdicts)"
expect_eq "the same with parse --keep-body (the HTML's markers)" \
	"$expected" "$(verdicts --keep-body)"

# Straight after fetch, with no title or text: the headers and the
# HTML's markers still name what they can, the page's length taken
# from the HTML.
"$BIN/validate" -q --json <"$T/pages.mp" | jq -r 'select(.reason | startswith("blocked")) | "\(.url) \(.reason)"' >"$T/raw"
expect_eq "without parse: the body's challenge markers and the headers" \
"http://shop.test/item/1 blocked cloudflare challenge
http://shop.test/item/3 blocked perimeterx block
http://shop.test/item/7 blocked cloudflare challenge
http://news.test/story/8 blocked login wall" "$(cat "$T/raw")"

expect_eq "a 503 that is no challenge keeps its status reason" "false status 503" \
	"$(page http://down.test/ http://down.test/ 503 members.html | jq -c '.body = {"$bin": "<title>Service Unavailable</title><p>Back soon.</p>"}' |
		mkrec | "$BIN/parse" | "$BIN/validate" -q --json | jq -r '"\(.accepted) \(.reason)"')"

# Turning the table off: for all, or for a host whose own pages read
# like a challenge.
expect_eq "--refusals off: the challenge at 200 is a page like any" "shop.test/item/1 true -" \
	"$(verdicts -- --refusals off | grep item/1)"
printf '[host shop.test]\nrefusals off\n' >"$T/rules.txt"
expect_eq "a host section's refusals off: that host only" \
	"laden.test/artikel/6 false blocked captcha|shop.test/item/1 true -" \
	"$(verdicts -- --rules "$T/rules.txt" | grep -E 'item/1 |artikel' | paste -sd'|' -)"
expect_usage_errors validate "--refusals maybe"

"$BIN/parse" <"$T/pages.mp" | "$BIN/validate" --summary "$T/sum.json" >/dev/null 2>&1
expect_eq "the summary counts blocked and consent per host" \
	'[{"blocked":6},{"consent":1},{"blocked":1}]' \
	"$(jq -c '[.hosts["shop.test", "daily.test", "news.test"].reasons]' "$T/sum.json")"
finish
