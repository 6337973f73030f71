#!/usr/bin/env python3
"""eval-extract — score parse's main-content extraction (stdlib only).

Usage:
    scripts/eval-extract.py [--set both|articles|types] [--field main_text|text]
                            [--bin DIR] [--dev DIR] [--types DIR] [--list N]
                            [--half even|odd] [--save FILE] [-- PARSE_ARGS...]

Scores FIELD on two development sets, each with its own metric, from one
`bin/parse -j0 --json --main` run over each (PARSE_ARGS replace --main;
with --field text the default is no option: the baseline):

articles: trafilatura's 990 annotated pages (default ../shared/extraction-dev
  next to the checkout, or $EXTRACT_DEV), the metric as its README gives
  it: whitespace normalized on both sides, a `with` segment found as a
  substring is a true positive (else a false negative), a `without`
  segment found is a false positive; counts summed over the pages.
  Prints tp, fp, fn, precision, recall, F and parse's pages/s.

types: WCXB's development split, 1497 pages of seven kinds (default
  ../shared/extraction-dev-types, or $EXTRACT_DEV_TYPES), its own metric:
  per page, token F1 of the lowercased `\\w+` tokens of FIELD against
  `main_content` (multiset overlap; an empty reference scores 1 only
  against an empty prediction), P, R and F averaged over the pages of
  each type and of all; `with` and `without` as the share of snippets
  found (case-insensitive), averaged the same way; how many pages got an
  empty FIELD though their `text` is not empty; rs-trafilatura's
  published F beside each type; with --main, the share of pages whose
  `page_kind` is their type, and each type's pages by page_kind.

Both print the even and odd halves (pages at even or odd positions of
the set's file) from the same run: tune on one half, report the other
too.  --half keeps one half only.  --list N also prints the N pages with
the most misses (articles) or the lowest F (types), for reading, not
fitting.  --save FILE writes parse's output records (JSON lines), the
types set's after the articles'.
"""
import argparse
import collections
import gzip
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from mkrec import pack  # noqa: E402

WS = re.compile(r"\s+")
WORD = re.compile(r"\w+")

# WCXB's README: rs-trafilatura's F on the development split, the
# issue's target for each type.
TYPES = ["article", "documentation", "service", "forum", "collection", "listing", "product"]
RS_TRAFILATURA = {"all": 0.859, "article": 0.932, "documentation": 0.932, "service": 0.844,
                  "forum": 0.808, "collection": 0.716, "listing": 0.707, "product": 0.641}


def norm(s):
    """Runs of whitespace to one space, trimmed: the metric's rule."""
    return WS.sub(" ", s).strip()


def default_dev():
    """The development set: $EXTRACT_DEV, else ../shared/extraction-dev."""
    return os.environ.get(
        "EXTRACT_DEV", os.path.join(os.path.dirname(ROOT), "shared", "extraction-dev"))


def default_types():
    """WCXB's split: $EXTRACT_DEV_TYPES, else ../shared/extraction-dev-types."""
    return os.environ.get(
        "EXTRACT_DEV_TYPES",
        os.path.join(os.path.dirname(ROOT), "shared", "extraction-dev-types"))


def load(dev):
    """The cases of the set in dev, and each page's bytes by URL."""
    with open(os.path.join(dev, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    pages = {}
    for url, c in cases.items():
        with gzip.open(os.path.join(dev, c["file"]), "rb") as f:
            pages[url] = f.read()
    return cases, pages


def load_types(dev):
    """The truth of WCXB's split in dev by page id, and each page's bytes
    by id."""
    cases, pages = {}, {}
    with gzip.open(os.path.join(dev, "truth.jsonl.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            c = json.loads(line)
            cases[c["id"]] = c
            with gzip.open(os.path.join(dev, "html", c["id"] + ".html.gz"), "rb") as h:
                pages[c["id"]] = h.read()
    return cases, pages


def run_parse(bindir, pages, args, urls=None, save=None):
    """Runs parse -j0 over the pages (bytes by key) as fetch records;
    returns each output record by key and the wall time in seconds.
    urls: each page's URL by key (else the key is its URL), for pages
    stored as UTF-8, which their records' headers then say."""
    stream = bytearray()
    for key, body in pages.items():
        r = {"url": key, "final_url": key, "status": 200, "ctype": "text/html",
             "body": body, "eval_key": key}
        if urls:
            r.update(url=urls[key], final_url=urls[key],
                     headers={"content-type": "text/html; charset=utf-8"})
        pack(r, stream)
    t0 = time.monotonic()
    p = subprocess.run([os.path.join(bindir, "parse"), "-j0", "-q", "--json"] + args,
                       input=bytes(stream), stdout=subprocess.PIPE, check=True)
    secs = time.monotonic() - t0
    if save:
        save.write(p.stdout)
    recs = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        recs[r.pop("eval_key")] = r
    return recs, secs


def score(cases, got):
    """The metric over texts by URL: tp, fp, fn summed over the pages,
    and per page (misses, fn, fp, url)."""
    tp = fp = fn = 0
    per = []
    for url, c in cases.items():
        t = norm(got.get(url) or "")
        ptp = sum(norm(s) in t for s in c["with"])
        pfn = len(c["with"]) - ptp
        pfp = sum(norm(s) in t for s in c["without"])
        tp, fp, fn = tp + ptp, fp + pfp, fn + pfn
        per.append((pfn + pfp, pfn, pfp, url))
    return tp, fp, fn, per


def prf(tp, fp, fn):
    """Precision, recall and F of the counts."""
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
    return prec, rec, f1


def tokens(s):
    """WCXB's tokens: lowercase \\w+ runs, as a multiset."""
    return collections.Counter(WORD.findall(s.lower()))


def page_prf(pred, ref):
    """WCXB's P, R and F1 of one page."""
    r = tokens(ref)
    p = tokens(pred)
    if not r:
        return (1.0, 1.0, 1.0) if not p else (0.0, 0.0, 0.0)
    if not p:
        return 0.0, 0.0, 0.0
    common = sum((p & r).values())
    if not common:
        return 0.0, 0.0, 0.0
    prec, rec = common / sum(p.values()), common / sum(r.values())
    return prec, rec, 2 * prec * rec / (prec + rec)


def snippets(pred, snips):
    """The share of snips found in pred, case-insensitive; None: none."""
    if not snips:
        return None
    low = pred.lower()
    return sum(s.lower() in low for s in snips) / len(snips)


def score_types(cases, recs, field):
    """Per page of WCXB's split: (id, type, P, R, F, with, without,
    empty where the page has text)."""
    rows = []
    for pid, c in cases.items():
        r = recs.get(pid, {})
        pred = r.get(field) or ""
        p, rc, f = page_prf(pred, c["main_content"])
        empty = not pred.strip() and bool((r.get("text") or "").strip())
        rows.append((pid, c["type"], p, rc, f, snippets(pred, c.get("with")),
                     snippets(pred, c.get("without")), empty))
    return rows


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else 0.0


def report_articles(a, save):
    cases, pages = load(a.dev)
    keys = sel_half(list(cases), a.half)
    cases = {k: cases[k] for k in keys}
    recs, secs = run_parse(a.bin, {k: pages[k] for k in keys}, a.args, save=save)
    got = {url: r.get(a.field) for url, r in recs.items()}
    print("articles (%s, %d pages): field %s, %.0f pages/s"
          % (os.path.basename(os.path.normpath(a.dev)), len(cases), a.field, len(cases) / secs))
    print("       tp    fp    fn      P     R     F")
    for half in ["all"] + ([] if a.half else ["even", "odd"]):
        sub = {k: cases[k] for k in (keys if half == "all" else sel_half(keys, half))}
        tp, fp, fn, _ = score(sub, got)
        print("%-5s %5d %5d %5d  %.3f %.3f %.3f" % ((half, tp, fp, fn) + prf(tp, fp, fn)))
    worst = score(cases, got)[3]
    worst.sort(reverse=True)
    for miss, pfn, pfp, url in worst[:a.list]:
        print("  fn %d fp %d  %s" % (pfn, pfp, url))


def sel_half(keys, half):
    """keys, or those at even or odd positions."""
    if not half:
        return keys
    return [k for i, k in enumerate(keys) if i % 2 == (half == "odd")]


def report_types(a, save):
    cases, pages = load_types(a.types)
    pos = {k: i for i, k in enumerate(cases)}
    keys = sel_half(list(cases), a.half)
    cases = {k: cases[k] for k in keys}
    pages = {k: pages[k] for k in keys}
    recs, secs = run_parse(a.bin, pages, a.args, {k: c["url"] for k, c in cases.items()}, save)
    rows = score_types(cases, recs, a.field)
    print("types (%s, %d pages): field %s, %.0f pages/s"
          % (os.path.basename(os.path.normpath(a.types)), len(cases), a.field,
             len(cases) / secs))
    print("%-13s %5s  %5s %5s %5s  %5s %5s  %5s %5s  %5s  %7s"
          % ("type", "pages", "P", "R", "F", "with", "w/o", "even", "odd", "empty",
             "rs-traf"))
    for t in TYPES + ["all"]:
        sel = [r for r in rows if t == "all" or r[1] == t]
        ev = [r[4] for r in sel if pos[r[0]] % 2 == 0]
        od = [r[4] for r in sel if pos[r[0]] % 2 == 1]
        print("%-13s %5d  %.3f %.3f %.3f  %.3f %.3f  %.3f %.3f  %5d  %7.3f"
              % (t, len(sel), mean(r[2] for r in sel), mean(r[3] for r in sel),
                 mean(r[4] for r in sel), mean(r[5] for r in sel), mean(r[6] for r in sel),
                 mean(ev), mean(od), sum(r[7] for r in sel), RS_TRAFILATURA[t]))
    kinds = [recs.get(k, {}).get("page_kind") for k in cases]
    if any(kinds):
        # page_kind against the set's type: documentation is "docs".
        words = ["article", "docs", "service", "forum", "collection", "listing", "product",
                 "other"]
        print("page_kind by type (right: %.3f)"
              % mean(int(k == ("docs" if c["type"] == "documentation" else c["type"]))
                     for k, c in zip(kinds, cases.values())))
        print("%-13s" % "" + "".join("%11s" % w for w in words))
        for t in TYPES:
            n = collections.Counter(k for k, c in zip(kinds, cases.values()) if c["type"] == t)
            print("%-13s" % t + "".join("%11d" % n[w] for w in words))
    rows.sort(key=lambda r: r[4])
    for r in rows[:a.list]:
        print("  F %.3f P %.3f R %.3f  %s %s  %s" % (r[4], r[2], r[3], r[0], r[1],
                                                   cases[r[0]]["url"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", choices=["both", "articles", "types"], default="both")
    ap.add_argument("--field", default="main_text")
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin"))
    ap.add_argument("--dev", default=default_dev())
    ap.add_argument("--types", default=default_types())
    ap.add_argument("--list", type=int, default=0)
    ap.add_argument("--half", choices=["even", "odd"])
    ap.add_argument("--save")
    ap.add_argument("parse_args", nargs="*")
    a = ap.parse_args()
    a.args = a.parse_args or ([] if a.field == "text" else ["--main"])
    save = open(a.save, "wb") if a.save else None
    if a.set in ("both", "articles"):
        report_articles(a, save)
    if a.set in ("both", "types"):
        report_types(a, save)
    if save:
        save.close()


if __name__ == "__main__":
    main()
