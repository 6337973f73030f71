#!/usr/bin/env python3
"""mdtree — the block structure Debian's cmark-gfm reads in Markdown.

Usage: mdtree.py < page.md

Runs `cmark-gfm -e table -t xml` on stdin and prints one line per block,
indented two spaces a level: `heading N: INLINE`, `paragraph: INLINE`,
`list bullet|ordered START`, `item`, `block_quote`, `code_block INFO:
REPR` (the exact contents, Python repr), `thematic_break`, `table`,
`header: CELL | CELL`, `row: CELL | CELL`.  INLINE is the inline
content with its structure made visible: {em:...}, {strong:...},
{link DEST:...}, {image DEST:...}, {code:...}, {br}; text as it reads.
The tests compare these lines exactly, so a Markdown writer's output is
checked by what a CommonMark parser makes of it, not by its spelling.
"""
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://commonmark.org/xml/1.0}"


def inline(e):
    out = []
    for c in e:
        tag = c.tag[len(NS):]
        if tag == "text":
            out.append(c.text or "")
        elif tag == "softbreak":
            out.append(" ")
        elif tag == "linebreak":
            out.append("{br}")
        elif tag == "code":
            out.append("{code:%s}" % (c.text or ""))
        elif tag == "emph":
            out.append("{em:%s}" % inline(c))
        elif tag == "strong":
            out.append("{strong:%s}" % inline(c))
        elif tag in ("link", "image"):
            out.append("{%s %s:%s}" % (tag, c.get("destination"), inline(c)))
        else:
            out.append("{%s:%s}" % (tag, inline(c)))
    return "".join(out)


def block(e, depth, lines):
    tag = e.tag[len(NS):]
    pad = "  " * depth
    if tag == "heading":
        lines.append("%sheading %s: %s" % (pad, e.get("level"), inline(e)))
    elif tag == "paragraph":
        lines.append("%sparagraph: %s" % (pad, inline(e)))
    elif tag == "code_block":
        lines.append("%scode_block %s: %r" % (pad, e.get("info") or "", e.text or ""))
    elif tag == "thematic_break":
        lines.append(pad + tag)
    elif tag == "list":
        kind = e.get("type")
        lines.append("%slist %s%s" % (pad, kind, " " + e.get("start") if kind == "ordered" else ""))
        for c in e:
            block(c, depth + 1, lines)
    elif tag == "table_header" or tag == "table_row":
        cells = [inline(c) for c in e]
        lines.append("%s%s: %s" % (pad, "header" if tag == "table_header" else "row", " | ".join(cells)))
    else:
        lines.append(pad + tag)
        for c in e:
            block(c, depth + 1, lines)


def main():
    md = sys.stdin.buffer.read()
    x = subprocess.run(["cmark-gfm", "-e", "table", "-t", "xml"], input=md,
                       stdout=subprocess.PIPE, check=True).stdout
    root = ET.fromstring(x)
    lines = []
    for c in root:
        block(c, 0, lines)
    sys.stdout.write("".join(l + "\n" for l in lines))


if __name__ == "__main__":
    main()
