#!/usr/bin/python3
"""eval-markdown — parse --markdown beside Debian's python3-readability and
python3-html2text on the extraction development set: pages/s and F.

Usage:
    scripts/eval-markdown.py [--bin DIR] [--dev DIR] [--runs N]

Debian's Python (/usr/bin/python3), where the two packages are.  Each
system turns every page of the set (eval-extract.py's, its metric) into
text or Markdown:

  parse --main              main_text
  parse --main --markdown   markdown
  parse --markdown          markdown of the whole body
  readability               Document(page).summary(): the main content's HTML, as text
  html2text                 the whole page as Markdown
  readability + html2text   the main content as Markdown (the pair doing
                            what parse --main --markdown does)

Markdown is scored on its plain text (cmark-gfm -e table -t plaintext:
the words without the syntax), so F measures what was kept, not how it
was spelt.  pages/s: parse's wall time over all pages in one process
(decoding, parsing, everything it writes; -j0); the Python systems'
time in the extraction calls, decoding included, in this process.
Best of --runs (default 1).
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_spec = importlib.util.spec_from_file_location("eval_extract", os.path.join(HERE, "eval-extract.py"))
ev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ev)


def plaintext(md):
    """The plain text of Markdown, as cmark-gfm reads it."""
    return subprocess.run(["cmark-gfm", "-e", "table", "-t", "plaintext", "--width", "0"],
                          input=md.encode(), stdout=subprocess.PIPE, check=True).stdout.decode()


def decode(body):
    """The page as str, in the encoding readability finds (meta, else a
    guess), as both Python systems take it."""
    from readability.encoding import get_encoding
    enc = get_encoding(body) or "utf-8"
    try:
        return body.decode(enc, "replace")
    except LookupError:
        return body.decode("utf-8", "replace")


def py_readability(body):
    import lxml.html
    from readability import Document
    html = Document(decode(body)).summary()
    return lxml.html.fromstring(html).text_content()


def py_html2text(body):
    import html2text
    h = html2text.HTML2Text(bodywidth=0)
    return h.handle(decode(body))


def py_both(body):
    import html2text
    from readability import Document
    h = html2text.HTML2Text(bodywidth=0)
    return h.handle(Document(decode(body)).summary())


def timed(fn, pages):
    """fn over every page: its outputs by URL and the seconds taken."""
    out = {}
    t0 = time.monotonic()
    for url, body in pages.items():
        try:
            out[url] = fn(body)
        except Exception:   # an extractor that fails on a page gives nothing
            out[url] = ""
    return out, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin"))
    ap.add_argument("--dev", default=ev.default_dev())
    ap.add_argument("--runs", type=int, default=1)
    a = ap.parse_args()
    cases, pages = ev.load(a.dev)
    n = len(pages)
    rows = []

    def parse_row(name, args, field, md):
        best, recs = None, None
        for _ in range(a.runs):
            recs, secs = ev.run_parse(a.bin, pages, args)
            best = secs if best is None or secs < best else best
        got = {u: r.get(field) or "" for u, r in recs.items()}
        if md:
            got = {u: plaintext(t) for u, t in got.items()}
        rows.append((name, n / best) + ev.prf(*ev.score(cases, got)[:3]))

    def py_row(name, fn, md):
        best, got = None, None
        for _ in range(a.runs):
            got, secs = timed(fn, pages)
            best = secs if best is None or secs < best else best
        if md:
            got = {u: plaintext(t) for u, t in got.items()}
        rows.append((name, n / best) + ev.prf(*ev.score(cases, got)[:3]))

    parse_row("parse --main (main_text)", ["--main"], "main_text", False)
    parse_row("parse --main --markdown", ["--main", "--markdown"], "markdown", True)
    parse_row("parse --markdown (body)", ["--markdown"], "markdown", True)
    py_row("readability (text)", py_readability, False)
    py_row("html2text (body)", py_html2text, True)
    py_row("readability + html2text", py_both, True)

    print("%d pages (%s), best of %d" % (n, os.path.basename(os.path.normpath(a.dev)), a.runs))
    print("| system | pages/s | P | R | F |")
    print("|---|---:|---:|---:|---:|")
    for name, ps, p, r, f in rows:
        print("| %s | %.0f | %.3f | %.3f | %.3f |" % (name, ps, p, r, f))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
