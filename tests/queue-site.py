#!/usr/bin/env python3
"""Writes a tree-shaped test site for crawl tests.

    queue-site.py DIR N [OTHER_HOST_URL]

Page pI.html links to p(10I+1) .. p(10I+10) (those below N) and back to
p0.html#top, so N=1111 gives depths 0..3.  With OTHER_HOST_URL, p0 also
links there (a link out of scope).  p2.html carries meta robots nofollow.
"""
import os
import sys

d, n = sys.argv[1], int(sys.argv[2])
other = sys.argv[3] if len(sys.argv) > 3 else None
os.makedirs(d, exist_ok=True)
for i in range(n):
    kids = " ".join('<a href="p%d.html">p%d</a>' % (k, k)
                    for k in range(10 * i + 1, 10 * i + 11) if k < n)
    meta = '<meta name="robots" content="nofollow">' if i == 2 else ""
    out = '<a href="%s">elsewhere</a>' % other if other and i == 0 else ""
    with open(os.path.join(d, "p%d.html" % i), "w") as f:
        f.write("<html><head><title>Page %d</title>%s</head><body><p>page %d"
                " of the tree</p>%s %s <a href=\"p0.html#top\">home</a>"
                "</body></html>" % (i, meta, i, kids, out))
