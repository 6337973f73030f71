#!/usr/bin/env python3
"""eval-meta — score parse's page metadata on WCXB's development split
(stdlib only).

Usage:
    scripts/eval-meta.py [--bin DIR] [--dev DIR] [--half even|odd]
                         [--list FIELD] [-- PARSE_ARGS...]

Feeds each page of the split (default ../shared/extraction-dev-types next
to the checkout, or $EXTRACT_DEV_TYPES) to `bin/parse -j0 --json` as a
fetch record (url, final_url, status 200, ctype text/html, headers with
content-type, body as bin), as the set's README says, and compares the
record with the truth:

- date: `published` is right when its calendar day (its first ten
  characters, YYYY-MM-DD) is the truth's `publish_date` (a truth of
  YYYY-MM: the same month); scored over the pages that have one.  Also
  printed: how many pages without a truth date get a `published`.
- author: `author` is right when it equals the truth's `author` once
  case, spaces and punctuation are left out of both (Unicode letters and
  digits only); scored over the pages that have one.  Also printed: how
  many pages without a truth author get an `author`.
- title: `title` is right when it equals the truth's `title` by the same
  rule; scored over every page with a truth title.

Prints each figure overall and by page type.  --half even|odd scores the
pages at even or odd positions of truth.jsonl.gz only.  --list FIELD
(date, author or title) prints that field's misses, truth and record side
by side, for reading, not fitting.
"""
import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from mkrec import pack  # noqa: E402


def default_dev():
    """The split: $EXTRACT_DEV_TYPES, else ../shared/extraction-dev-types."""
    return os.environ.get("EXTRACT_DEV_TYPES", os.path.join(
        os.path.dirname(ROOT), "shared", "extraction-dev-types"))


def load(dev, half):
    """The truth rows of the split (of one half when half is set)."""
    with gzip.open(os.path.join(dev, "truth.jsonl.gz"), "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    if half:
        keep = 0 if half == "even" else 1
        rows = [r for i, r in enumerate(rows) if i % 2 == keep]
    return rows


def run_parse(bindir, dev, rows, args):
    """Runs parse -j0 over the pages as fetch records; returns each
    output record by page id (the id rides along as a user key)."""
    stream = bytearray()
    for r in rows:
        with gzip.open(os.path.join(dev, "html", r["id"] + ".html.gz"), "rb") as f:
            body = f.read()
        pack({"url": r["url"], "final_url": r["url"], "status": 200,
              "ctype": "text/html",
              "headers": {"content-type": "text/html; charset=utf-8"},
              "body": body, "wcxb_id": r["id"]}, stream)
    p = subprocess.run([os.path.join(bindir, "parse"), "-j0", "-q", "--json"] + args,
                       input=bytes(stream), stdout=subprocess.PIPE, check=True)
    recs = {}
    for line in p.stdout.splitlines():
        rec = json.loads(line)
        recs[rec["wcxb_id"]] = rec
    return recs


def letters(s):
    """s lowercased with everything but letters and digits left out."""
    return "".join(c for c in unicodedata.normalize("NFKC", s or "").casefold()
                   if unicodedata.category(c)[0] in "LN")


def date_right(truth, got):
    """Whether got (ISO 8601) is truth's calendar day (or month)."""
    return bool(got) and got[:len(truth)] == truth


def judge(field, row, rec):
    """(counted, right, spurious, truth, got) of one page for field."""
    if field == "date":
        t, g = row.get("publish_date") or "", rec.get("published") or ""
        return bool(t), bool(t) and date_right(t, g), not t and bool(g), t, g
    if field == "author":
        t, g = row.get("author") or "", rec.get("author") or ""
        ok = bool(t) and letters(t) == letters(g)
        return bool(t), ok, not t and bool(g), t, g
    t, g = row.get("title") or "", rec.get("title") or ""
    return bool(t), bool(t) and letters(t) == letters(g), False, t, g


FIELDS = ("date", "author", "title")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin"))
    ap.add_argument("--dev", default=default_dev())
    ap.add_argument("--half", choices=["even", "odd"])
    ap.add_argument("--list", choices=FIELDS)
    ap.add_argument("parse_args", nargs="*")
    a = ap.parse_args()
    rows = load(a.dev, a.half)
    recs = run_parse(a.bin, a.dev, rows, a.parse_args)
    # per field: type -> [counted, right, pages without truth, spurious]
    tally = {f: collections.defaultdict(lambda: [0, 0, 0, 0]) for f in FIELDS}
    misses = []
    for row in rows:
        rec = recs.get(row["id"], {})
        for f in FIELDS:
            counted, ok, spurious, t, g = judge(f, row, rec)
            for k in (row["type"], "all"):
                c = tally[f][k]
                c[0] += counted
                c[1] += ok
                c[2] += not counted
                c[3] += spurious
            if f == a.list and counted and not ok:
                misses.append((row["id"], row["type"], t, g))
    types = ["all"] + sorted(k for k in tally["title"] if k != "all")
    print("%-14s" % "field" + "".join("%15s" % k for k in types))
    for f in FIELDS:
        line = "%-14s" % f
        for k in types:
            n, ok = tally[f][k][0], tally[f][k][1]
            line += "%15s" % ("%.3f (%d)" % (ok / n, n) if n else "-")
        print(line)
        if f != "title":
            c = tally[f]["all"]
            print("%-14s%15s" % (f + " extra", "%d of %d" % (c[3], c[2])))
    for m in misses:
        print("%s %-13s truth %r\n%18s got   %r" % (m[0], m[1], m[2], "", m[3]))


if __name__ == "__main__":
    main()
