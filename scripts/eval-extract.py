#!/usr/bin/env python3
"""eval-extract — score parse's main-content extraction (stdlib only).

Usage:
    scripts/eval-extract.py [--field main_text|text] [--bin DIR] [--dev DIR]
                            [--list N] [--half even|odd] [-- PARSE_ARGS...]

Builds one fetch-shaped record (url, final_url, status 200, ctype
text/html, body as bin) per page of the extraction development set
(default ../shared/extraction-dev next to the checkout, or $EXTRACT_DEV),
runs `bin/parse -j0 --json --main` over them (PARSE_ARGS replace --main;
with --field text the default is no option: the baseline),
and scores FIELD with the set's metric as its README gives it: whitespace
normalized on both sides, a `with` segment found as a substring is a true
positive (else a false negative), a `without` segment found is a false
positive; counts summed over every page (with --half, over the pages
at even or odd positions of cases.json only: tune on one half, report
the other too).  Prints tp, fp, fn, precision,
recall, F and parse's pages/s (wall time of the parse run).  --list N
also prints the N pages with the most misses, for reading, not fitting.
"""
import argparse
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


def norm(s):
    """Runs of whitespace to one space, trimmed: the metric's rule."""
    return WS.sub(" ", s).strip()


def default_dev():
    """The development set: $EXTRACT_DEV, else ../shared/extraction-dev."""
    return os.environ.get(
        "EXTRACT_DEV", os.path.join(os.path.dirname(ROOT), "shared", "extraction-dev"))


def load(dev):
    """The cases of the set in dev, and each page's bytes by URL."""
    with open(os.path.join(dev, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    pages = {}
    for url, c in cases.items():
        with gzip.open(os.path.join(dev, c["file"]), "rb") as f:
            pages[url] = f.read()
    return cases, pages


def run_parse(bindir, pages, args):
    """Runs parse -j0 over the pages as fetch records; returns each
    output record by URL and the wall time in seconds."""
    stream = bytearray()
    for url, body in pages.items():
        pack({"url": url, "final_url": url, "status": 200,
              "ctype": "text/html", "body": body}, stream)
    t0 = time.monotonic()
    p = subprocess.run([os.path.join(bindir, "parse"), "-j0", "-q", "--json"] + args,
                       input=bytes(stream), stdout=subprocess.PIPE, check=True)
    secs = time.monotonic() - t0
    recs = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        recs[r["url"]] = r
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--field", default="main_text")
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin"))
    ap.add_argument("--dev", default=default_dev())
    ap.add_argument("--list", type=int, default=0)
    ap.add_argument("--half", choices=["even", "odd"])
    ap.add_argument("parse_args", nargs="*")
    a = ap.parse_args()
    cases, pages = load(a.dev)
    if a.half:
        keep = 0 if a.half == "even" else 1
        cases = {u: c for i, (u, c) in enumerate(cases.items()) if i % 2 == keep}
        pages = {u: pages[u] for u in cases}
    args = a.parse_args or ([] if a.field == "text" else ["--main"])
    recs, secs = run_parse(a.bin, pages, args)
    got = {url: r.get(a.field) for url, r in recs.items()}
    tp, fp, fn, worst = score(cases, got)
    prec, rec, f1 = prf(tp, fp, fn)
    print("field %s: tp %d fp %d fn %d  P %.3f R %.3f F %.3f  %.0f pages/s"
          % (a.field, tp, fp, fn, prec, rec, f1, len(cases) / secs))
    worst.sort(reverse=True)
    for miss, pfn, pfp, url in worst[:a.list]:
        print("  fn %d fp %d  %s" % (pfn, pfp, url))


if __name__ == "__main__":
    main()
