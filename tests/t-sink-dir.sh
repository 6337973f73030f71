#!/bin/sh
# sink DIR/: one Markdown file per accepted page, named from its URL,
# with a YAML front matter; exact content, dup_of, atomic reruns that
# leave the same files, render's screenshot and pdf beside it, hostile
# URLs and a planted symlink kept inside DIR, and --queue acks.
. "${TESTS:-$(dirname "$0")}/lib.sh"
mkdir -p "$T/site"
python3 "$TESTS/fixtures/dedup/gen.py" "$T/site" 2000
server_start --root "$T/site"
H=127.0.0.1_$PORT
# tree DIR: every file under DIR but the index, with its md5.
tree() { (cd "$1" && find . -type f ! -name .sluice.db | sort | xargs md5sum); }

# The pipeline, with its records kept for the exact comparison.
printf '%s\n' "$URL/a.html" >"$T/u1"
printf '%s\n' "$URL/b.html" "$URL/d.html" >"$T/u2"
"$BIN/fetch" -q <"$T/u1" | "$BIN/parse" -q --main >"$T/r.mp"
"$BIN/fetch" -q <"$T/u2" | "$BIN/parse" -q --main >>"$T/r.mp"
"$BIN/sink" -q "$T/out/" <"$T/r.mp"
expect_eq "one file per page, named from the URL" "./$H/a.html.md
./$H/b.html.md
./$H/d.html.md" "$(cd "$T/out" && find . -type f ! -name .sluice.db | sort)"
# The file as docs/sink.md says, from the record's own values.
"$BIN/sink" - <"$T/r.mp" 2>/dev/null | head -n 1 | python3 -c '
import json, sys, time
r = json.loads(sys.stdin.readline())
t = r["fetched_at"]
iso = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(t))) + ".%03dZ" % (int((t - int(t)) * 1000) % 1000)
meta = "".join("%s: %s\n" % (k, "[%s]" % ", ".join(map(json.dumps, r[k])) if isinstance(r[k], list)
                            else json.dumps(r[k]))
               for k in ("author", "published", "modified", "site_name", "lang", "description",
                         "image", "keywords", "page_kind") if k in r)
sys.stdout.write("---\nurl: %s\ntitle: %s\n%sfetched_at: \"%s\"\ncontent_hash: \"%s\"\n---\n\n%s\n" % (
    json.dumps(r["url"]), json.dumps(r["title"]), meta, iso, r["content_hash"], r["main_text"]))' >"$T/a.want"
expect_eq "a.html.md: front matter and main_text, exactly" "$(md5sum <"$T/a.want")" "$(md5sum <"$T/out/$H/a.html.md")"
expect_eq "b.html.md (the same article, other menus): dup_of a" "dup_of: \"$URL/a.html\"" \
	"$(grep '^dup_of:' "$T/out/$H/b.html.md")"
expect_eq "d.html.md (another article): no dup_of" 0 "$(grep -c '^dup_of:' "$T/out/$H/d.html.md")"
before=$(tree "$T/out")
"$BIN/sink" -q "$T/out/" <"$T/r.mp"
expect_eq "a rerun leaves the same files" "$before" "$(tree "$T/out")"
expect_eq "... and no temporary file behind" 0 "$(find "$T/out" -name '.sluice-tmp*' | wc -l)"

# The body: markdown first, then main_text, then text; YAML that a YAML
# parser reads back to the very strings, whatever they hold.
cd "$T" || exit 1
python3 -c "import sys; sys.stdout.buffer.write(b'\x89PNG\r\n\x1a\n\x00\xff' + bytes(range(256)))" >"$T/shot.png"
printf '%%PDF-1.4\n%%%%EOF\n' >"$T/page.pdf"
mkrec >"$T/b.mp" <<'JSON'
{"url":"http://x.test/p","status":200,"title":"He said \"hi\"\\ \n--- \u2028 #: [x] &a *b","markdown":"# P\n\nbody","main_text":"no","text":"no","screenshot":{"$file":"shot.png"},"pdf":{"$file":"page.pdf"}}
{"url":"http://x.test/m","status":200,"main_text":"main only","text":"no"}
{"url":"http://x.test/t","status":200,"text":"text only"}
{"url":"http://x.test/r","status":200,"accepted":false,"text":"rejected"}
{"url":"http://x.test/f","status":503,"text":"failed"}
JSON
"$BIN/sink" -q "$T/b/" <"$T/b.mp"
expect_eq "markdown, main_text, text: the first there is" "body|main only|text only" \
	"$(tail -n 1 "$T/b/x.test/p.md")|$(tail -n 1 "$T/b/x.test/m.md")|$(tail -n 1 "$T/b/x.test/t.md")"
expect_eq "rejected and failed pages: no file" "" "$(ls "$T/b/x.test" | grep -E '^(r|f)\.')"
expect_eq "the title read back by a YAML parser" "$(printf 'He said "hi"\\ \n--- \342\200\250 #: [x] &a *b' | od -c)" \
	"$(python3 -c 'import sys, yaml; f = open(sys.argv[1]).read().split("---\n")[1]; sys.stdout.write(yaml.safe_load(f)["title"])' "$T/b/x.test/p.md" | od -c)"
expect_eq "screenshot and pdf beside the .md, exactly" "$(md5sum <"$T/shot.png") $(md5sum <"$T/page.pdf")" \
	"$(md5sum <"$T/b/x.test/p.png") $(md5sum <"$T/b/x.test/p.pdf")"
# The page's metadata in the front matter (only the keys the record
# has), read back by a YAML parser exactly, however hostile its values.
cat >"$T/meta.jsonl" <<'JSON'
{"url":"http://x.test/meta","status":200,"title":"- # Title: \"quoted\"\n---\nnext","author":"- Jane: Doe, #1","published":"2024-05-01","modified":"2024-05-02T08:15:00+02:00","site_name":"&anchor *alias !tag","lang":"en","description":"line\u2028sep\u0085nel\ttab \\ back","image":"http://x.test/a.jpg?x=1#y","keywords":["a: b","- c","#d","e\"f","g\nh","[x], {y}",""],"page_kind":"article","jsonld":[{"@type":"NewsArticle"}],"markdown":"body"}
{"url":"http://x.test/bare","status":200,"author":"Only Author","markdown":"body"}
JSON
mkrec <"$T/meta.jsonl" | "$BIN/sink" -q "$T/b/"
frontmatter() {
	python3 -c '
import json, sys, yaml
f = open(sys.argv[1], encoding="utf-8").read().split("---\n")
print(json.dumps(yaml.safe_load(f[1]), sort_keys=True))' "$1"
}
expect_eq "front matter: every metadata key read back exactly, jsonld not in it" \
	"$(head -n 1 "$T/meta.jsonl" | jq -cS 'del(.status, .jsonld, .markdown)' | python3 -c 'import json, sys; print(json.dumps(json.loads(sys.stdin.read()), sort_keys=True))')" \
	"$(frontmatter "$T/b/x.test/meta.md")"
expect_eq "front matter: only the keys the record has" '{"author": "Only Author", "url": "http://x.test/bare"}' \
	"$(frontmatter "$T/b/x.test/bare.md")"
expect_eq "front matter: the body after it untouched" "body" "$(tail -n 1 "$T/b/x.test/meta.md")"

mkrec <<'JSON' | "$BIN/sink" -q "$T/b/"
{"url":"http://x.test/p","status":200,"markdown":"again"}
JSON
expect_eq "a page stored again without them loses the stale .png and .pdf" "p.md" \
	"$(ls "$T/b/x.test" | grep '^p\.')"

# Hostile URLs: every file lands inside DIR, under a safe name.
mkdir -p "$T/h" "$T/canary"
python3 - >"$T/h.jsonl" <<'PY'
import json
urls = ["http://ex.test/../../../../canary/x", "http://ex.test/%2e%2e/%2e%2e/canary/y",
        "../../canary/z", "/etc/passwd", "http://../canary/w", "http://ex.test/a\nb\x01\x7f/c",
        "http://ex.test/" + "a" * 5000, "http://ex.test/" + "d/" * 200 + "e",
        "http://ex.test/x/..", "http://..:80/..", "http://ex.test/.sluice.db", "http://.sluice.db/q",
        "http://ex.test/%00/x", "http://u:secret@ex.test/s", "file:///etc/passwd", "http://ex.test/x.md/y"]
for u in urls:
    print(json.dumps({"url": u, "status": 200, "text": u}))
PY
mkrec "$T/h.jsonl" | "$BIN/sink" -q "$T/h/out/"
expect_eq "every hostile URL made one file" 16 "$(find "$T/h/out" -type f -name '*.md' | wc -l)"
expect_eq "nothing written outside DIR" "out" "$(ls "$T/h")"
expect_eq "nothing in the canary" "" "$(ls "$T/canary")"
expect_eq "no part is '..' or starts with a dot; no control characters" "" \
	"$(cd "$T/h/out" && find . -mindepth 1 ! -name .sluice.db | grep -E '/\.|[[:cntrl:]]')"
expect_eq "names stay under 1100 bytes" "" "$(cd "$T/h/out" && find . | awk 'length($0) > 1100')"
expect_eq "no password in a file name" "" "$(find "$T/h/out" | grep secret)"
expect_eq "the index is not overwritten by a page" "SQLite" "$(head -c 6 "$T/h/out/.sluice.db")"
expect_eq "a deep URL: the host and a hash" 1 "$(ls "$T/h/out/ex.test/_long" | grep -cE '^[0-9a-f]{16}\.md$')"
expect_eq "a long part: cut to 80 bytes and its hash" 1 "$(ls "$T/h/out/ex.test" | grep -cE '^a{80}~[0-9a-f]{16}\.md$')"
expect_eq "not a URL (a path): _other and a hash" 2 "$(ls "$T/h/out/_other" | grep -cE '^[0-9a-f]{16}\.md$')"
expect_eq "a directory never takes a .md file's name" "y.md" "$(ls "$T/h/out/ex.test/x.md_")"

# A symlink planted in DIR is not followed out of it.
mkdir -p "$T/s/out"
ln -s "$T/canary" "$T/s/out/ex.test"
mkrec <<'JSON' | "$BIN/sink" -q "$T/s/out/" 2>"$T/s/err"
{"url":"http://ex.test/planted","status":200,"text":"x"}
JSON
expect_eq "a symlinked directory: exit 74, nothing written through it" "74|" "$?|$(ls "$T/canary")"
expect_match "... and says where" "^sink: cannot write '$T/s/out/': ex.test: (Not a directory|Too many levels of symbolic links)\$" "$(cat "$T/s/err")"

# --queue: the URLs are acknowledged once their files are written.
printf '%s\n' "$URL/a.html" "$URL/d.html" >"$T/seeds"
timeout 20 "$BIN/fetch" -q --queue "$T/job.db" --no-robots "$T/seeds" | "$BIN/parse" -q --main |
	timeout 20 "$BIN/sink" -q --queue "$T/job.db" "$T/q/"
expect_eq "--queue: every URL done" "done|2" "$(q "$T/job.db" 'select state, count(*) from frontier group by state')"
expect_eq "--queue: their files written" 2 "$(find "$T/q" -name '*.md' | wc -l)"

# robots.txt and sitemaps (parse's `sitemap` key) are no pages: no file
# for them, whatever validate said (it passes them unjudged); a page
# beside them gets its own.
mkrec <<'JSON' | "$BIN/sink" -q "$T/sm/"
{"url":"http://ex.test/robots.txt","status":200,"links":["http://ex.test/sitemap.xml"],"sitemap":{"kind":"robots","urls":1}}
{"url":"http://ex.test/sitemap.xml","status":200,"ctype":"application/xml","links":["http://ex.test/p"],"sitemap":{"kind":"urlset","urls":1}}
{"url":"http://ex.test/index.xml","status":200,"links":["http://ex.test/sitemap.xml"],"sitemap":{"kind":"index","urls":1}}
{"url":"http://ex.test/p","status":200,"accepted":true,"text":"a page"}
JSON
expect_eq "robots.txt and sitemaps write no file; the page does" "./ex.test/p.md" \
	"$(cd "$T/sm" && find . -type f ! -name .sluice.db)"
expect_usage_errors sink "--body $T/x/" "--links $T/x/"
finish
