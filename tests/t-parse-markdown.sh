#!/bin/sh
# parse --markdown: each construct comes out as Markdown that Debian's
# cmark-gfm (with GitHub's tables) reads back to the expected blocks
# (tests/mdtree.py prints them); links and images are absolute; script,
# style and hidden elements stay out; under --main only the main
# content is written; a Shift_JIS page comes out as UTF-8; no runs of
# blank lines; a deep page stays bounded.
. "${TESTS:-$(dirname "$0")}/lib.sh"
F=$TESTS/fixtures/markdown
P=$BIN/parse
BASE=http://example.com/docs/guide/page.html

# md FILE [OPTION...]: the markdown of an HTML file, with $BASE as its URL.
md() {
	f=$1
	shift
	"$P" --html --base "$BASE" -j0 --json --markdown "$@" "$f" | jq -j .markdown
}
# tree FILE [OPTION...]: the blocks cmark-gfm reads in md's output.
tree() { md "$@" | python3 "$TESTS/mdtree.py"; }
# page NAME BODY: $T/NAME.html with BODY in a body and no title.
page() { printf '<!DOCTYPE html><html><head></head><body>%s</body></html>' "$2" >"$T/$1.html"; }
nl='
'

page headings '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6><h2>C #</h2><h3> </h3><h7>not a heading</h7>'
expect_eq "headings: levels 1 to 6 (ATX), a closing # kept, empty ones out" \
	"heading 1: One${nl}heading 2: Two${nl}heading 3: Three${nl}heading 4: Four${nl}heading 5: Five${nl}heading 6: Six${nl}heading 2: C #${nl}paragraph: not a heading" \
	"$(tree "$T/headings.html")"
expect_eq "headings: written as ATX" "# One" "$(md "$T/headings.html" | head -1)"

page emphasis '<p>a<em> b </em>c <strong>d</strong>e, <i>it</i> <b>bold <em>both</em></b> <em></em>x <b>Note:</b>text <em><em>once</em></em></p>'
expect_eq "emphasis: em, strong, nested, spaces moved outside, empty dropped" \
	"paragraph: a {em:b} c {strong:d}e, {em:it} {strong:bold {em:both}} x {strong:Note:} text {em:once}" \
	"$(tree "$T/emphasis.html")"

page br '<p>one<br>two<br><br>- three<br></p><h2>head<br>line</h2>'
expect_eq "br: hard line breaks, a line after one still text; a space in a heading" \
	"paragraph: one{br}two{br}- three${nl}heading 2: head line" \
	"$(tree "$T/br.html")"

page escape '<p># not a heading</p><p>1. not a list</p><p>2024) neither</p><p>* star - dash + plus</p><p>> not a quote</p><p>- dash</p><p>=</p><p>a *b* _c_ snake_case `d` [e](f) &lt;div&gt; &amp;copy; x|y ~~z~~ \back</p>'
expect_eq "escaping: text that looks like Markdown stays text" \
	"paragraph: # not a heading${nl}paragraph: 1. not a list${nl}paragraph: 2024) neither${nl}paragraph: * star - dash + plus${nl}paragraph: > not a quote${nl}paragraph: - dash${nl}paragraph: =${nl}paragraph: a *b* _c_ snake_case \`d\` [e](f) <div> &copy; x|y ~~z~~ \\back" \
	"$(tree "$T/escape.html")"

page links '<p><a href="other.html">same dir</a> <a href="../up.html#sec">up</a> <a href="//cdn.example.org/x">cdn</a> <a href="/p?q=(1)">parens</a> <a href="#top">anchor</a> <a href="mailto:a@b.c">mail</a> <a href="x.html"></a><a href="y.html"><em>em</em> <code>c</code></a></p>'
expect_eq "links: made absolute against the page; anchors and mailto: text only" \
	"paragraph: {link http://example.com/docs/guide/other.html:same dir} {link http://example.com/docs/up.html:up} {link http://cdn.example.org/x:cdn} {link http://example.com/p?q=(1):parens} anchor mail {link http://example.com/docs/guide/y.html:{em:em} {code:c}}" \
	"$(tree "$T/links.html")"
printf '<html><head><base href="https://other.example/base/"></head><body><p><a href="a.html">based</a></p></body></html>' >"$T/base.html"
expect_eq "links: <base href> is the base" \
	"paragraph: {link https://other.example/base/a.html:based}" "$(tree "$T/base.html")"

page images '<p>See <img src="img/fig.png" alt="a [figure]"> and <img src="data:image/png;base64,AAAA" alt="inline"> <img src="/logo.svg"></p>'
expect_eq "images: ![alt](absolute src), data: out" \
	"paragraph: See {image http://example.com/docs/guide/img/fig.png:a [figure]} and {image http://example.com/logo.svg:}" \
	"$(tree "$T/images.html")"

page quote '<blockquote><p>Quoted, with a list:</p><ul><li>one</li><li>two</li></ul><blockquote>nested</blockquote></blockquote><blockquote><p>another quote</p></blockquote>'
expect_eq "block quotes: nested, holding a list; two in a row stay two" \
	"block_quote${nl}  paragraph: Quoted, with a list:${nl}  list bullet${nl}    item${nl}      paragraph: one${nl}    item${nl}      paragraph: two${nl}  block_quote${nl}    paragraph: nested${nl}block_quote${nl}  paragraph: another quote" \
	"$(tree "$T/quote.html")"

page lists '<ul><li>a<ul><li>a1<ol start="7"><li>seven</li><li>eight</li></ol></li></ul></li><li></li><li>b</li></ul><ul><li>second list</li></ul><ol><li>x</li></ol><ol><li>y</li></ol>'
expect_eq "lists: nesting, start, empty items out, adjacent lists stay apart" \
	"list bullet${nl}  item${nl}    paragraph: a${nl}    list bullet${nl}      item${nl}        paragraph: a1${nl}        list ordered 7${nl}          item${nl}            paragraph: seven${nl}          item${nl}            paragraph: eight${nl}  item${nl}    paragraph: b${nl}list bullet${nl}  item${nl}    paragraph: second list${nl}list ordered 1${nl}  item${nl}    paragraph: x${nl}list ordered 1${nl}  item${nl}    paragraph: y" \
	"$(tree "$T/lists.html")"

printf '<html><body><pre class="language-c">int main(void)\n{\n\tputs("```");   \n\n    return 0;\n}\n</pre><blockquote><pre>  in a quote\n\tand tab</pre></blockquote><p>inline <code>a `b` c</code> and <code>`x</code></p><pre>   </pre></body></html>' >"$T/code.html"
expect_eq "code: fenced blocks keep whitespace and backticks, language from the class; code spans" \
	"code_block c: 'int main(void)\\n{\\n\\tputs(\"\`\`\`\");   \\n\\n    return 0;\\n}\\n'${nl}block_quote${nl}  code_block : '  in a quote\\n\\tand tab\\n'${nl}paragraph: inline {code:a \`b\` c} and {code:\`x}" \
	"$(tree "$T/code.html")"
expect_eq "code: the fence is longer than the longest backtick run" "\`\`\`\`c" "$(md "$T/code.html" | head -1)"

page tables '<table><tr><td>h1</td><td>h2</td></tr><tr><td>a|b</td><td><p>para</p> <a href="c.html">c</a></td><td>extra</td></tr></table><table><tr><td><ul><li>layout</li></ul></td><td>cell</td></tr></table><table><tr><td>single</td></tr></table>'
expect_eq "tables: first row as header, | escaped, header as wide as the widest row; layout tables are blocks" \
	"table${nl}  header: h1 | h2 | ${nl}  row: a|b | para {link http://example.com/docs/guide/c.html:c} | extra${nl}list bullet${nl}  item${nl}    paragraph: layout${nl}paragraph: cell${nl}paragraph: single" \
	"$(tree "$T/tables.html")"

page hidden '<p>shown</p><script>var s = "script text";</script><style>p { color: red }</style><template><p>template text</p></template><noscript>noscript text</noscript><p hidden>hidden text</p><div style="display: none">none text</div><span aria-hidden="true">aria text</span><p>end</p>'
expect_eq "script, style, template, noscript and hidden elements out" \
	"paragraph: shown${nl}paragraph: end" "$(tree "$T/hidden.html")"

printf '<html><head><title>The page title</title></head><body><p>Body text.</p></body></html>' >"$T/title.html"
expect_eq "title: first, as a level-1 heading" \
	"heading 1: The page title${nl}paragraph: Body text." "$(tree "$T/title.html")"
printf '<html><head><title>Story | Site</title></head><body><h2>Story</h2><p>Body text.</p></body></html>' >"$T/title2.html"
expect_eq "title: not repeated when the content starts with it" \
	"heading 2: Story${nl}paragraph: Body text." "$(tree "$T/title2.html")"

# Whole pages.
expect_eq "page whose main content is a table (--main): caption, header, cells, links" \
	"heading 1: Tide table
paragraph: High and low water at the pier, first week of May
table
  header: Day | High water | Low water | Note
  row: Monday | 06:12, 18:31 | 00:05, 12:20 | Spring tide, {em:take care} on the slipway
  row: Tuesday | 06:58, 19:15 | 00:49, 13:04 | Wind from the west | gusts
  row: Wednesday | 07:41, 19:58 | 01:32, 13:47 | {link http://example.com/docs/notices/dredging.html:Dredging} in the channel
  row: Thursday | Harbour closed, times as on Wednesday plus forty minutes |  | {code:a|b}" \
	"$(tree "$F/table-main.html" --main)"
expect_eq "page with nested lists and code (--main): structure and code exact" \
	"heading 1: Setting up the build
paragraph: The build needs three things, and it checks each of them before it starts, so a missing one is reported at once.
list ordered 1
  item
    paragraph: A compiler:
    list bullet
      item
        paragraph: GCC 12 or later, which Debian ships;
      item
        paragraph: or Clang, with its sanitizers:
        list bullet
          item
            paragraph: ASan, for memory errors;
          item
            paragraph: UBSan, for undefined behaviour.
  item
    paragraph: The libraries, installed with one command:
    code_block sh: 'sudo apt-get install \\\\\\n\\tlibgumbo-dev   libmsgpack-dev\\n'
  item
    paragraph: Make, version 4 or later.
heading 2: A first run
paragraph: Then the build is one command, and the tests another; both print what they do, line by line.
code_block : 'make -j2\\n  make test   # \`\`everything\`\`, then \`one\`\\n'" \
	"$(tree "$F/lists-code.html" --main)"
# Without --main the navigation and the related list are in; with it, out.
for s in "Related posts" "Build systems compared" "About"; do
	expect_eq "body: '$s' in" "true" "$(md "$F/lists-code.html" | grep -qF "$s" && echo true)"
	expect_eq "--main: '$s' out" "" "$(md "$F/lists-code.html" --main | grep -F "$s")"
done
expect_eq "--main: the footer of the table page out" "" "$(md "$F/table-main.html" --main | grep -F "Harbour office, open")"

sj=$(md "$F/shift_jis.html" --main)
expect_eq "Shift_JIS page: Markdown in UTF-8" \
	"heading 1: 京都の秋
paragraph: 十一月になると、嵐山の紅葉が{strong:見頃}を迎え、多くの観光客が訪れます。朝早く行くのがおすすめです。
list bullet
  item
    paragraph: 嵐山
  item
    paragraph: 東福寺
paragraph: 詳しくは{link http://example.com/docs/guide/guide.html:案内}をご覧ください。" \
	"$(printf '%s' "$sj" | python3 "$TESTS/mdtree.py")"
expect_eq "Shift_JIS page: valid UTF-8" "ok" "$(printf '%s' "$sj" | iconv -f UTF-8 -t UTF-8 >/dev/null && echo ok)"

# No run of blank lines (3 newlines in a row) anywhere outside code, and
# no blank line at the start or two newlines at the end.
bad=
for f in "$T"/headings.html "$T"/emphasis.html "$T"/br.html "$T"/escape.html "$T"/links.html \
	"$T"/images.html "$T"/quote.html "$T"/lists.html "$T"/tables.html "$T"/hidden.html "$T"/title.html \
	"$F"/table-main.html "$F"/shift_jis.html "$F"/lists-code.html "$TESTS"/fixtures/main/*.html; do
	for o in "" --main; do
		md "$f" $o | awk '$0 == "" { if (empty || NR == 1) bad = 1; empty = 1; next }
			{ empty = 0 } END { exit !(bad || empty) }' &&
			bad="$bad $f$o"
	done
done
expect_eq "no runs of blank lines" "" "$bad"

# A hostile page: 4000 nested lists and quotes.  The walk's stack is on
# the heap; containers stop nesting at 16 (a list and its item are two
# levels of mdtree's indentation); the output stops at a block boundary
# before twice the page plus 64 KiB.
python3 -c "print('<ul><li>x' * 4000 + '<blockquote>q' * 4000)" >"$T/deep.html"
md "$T/deep.html" >"$T/deep.md"
expect_eq "deep page: parsed" "0" "$?"
expect_eq "deep page: containers nest 16 deep at most" "32" \
	"$(python3 "$TESTS/mdtree.py" <"$T/deep.md" | awk '{ match($0, /^ */); if (RLENGTH / 2 > m) m = RLENGTH / 2 } END { print m }')"
expect_eq "deep page: output capped" "true" \
	"$([ "$(wc -c <"$T/deep.md")" -le $((2 * $(wc -c <"$T/deep.html") + 65536)) ] && echo true)"
expect_eq "deep page: cut after a whole block" "    q" "$(tail -n 1 "$T/deep.md" | sed 's/^ */    /')"
python3 -c "print('<p>' + '<em><strong>' * 4000 + 'deep')" >"$T/deep-em.html"
expect_eq "4000 nested em and strong: written once" "paragraph: {em:{strong:deep}}" \
	"$(tree "$T/deep-em.html")"

# No --markdown, no markdown; workers give the same as in-process.
expect_eq "no --markdown: no markdown key" "null" \
	"$("$P" --html -j0 --json "$F/table-main.html" | jq -c .markdown)"
expect_eq "-j2 equals -j0" \
	"$("$P" --html -j0 --main --markdown --json "$F"/*.html | jq -r .markdown)" \
	"$("$P" --html -j2 --main --markdown --json "$F"/*.html | jq -sr 'sort_by(.url) | .[].markdown')"
finish
