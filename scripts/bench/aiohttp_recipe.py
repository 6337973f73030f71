#!/usr/bin/python3
"""The usual asyncio scraping recipe, as a yardstick for bench-pipeline.sh.

    /usr/bin/python3 scripts/bench/aiohttp_recipe.py URLS OUT.jsonl

One aiohttp ClientSession; a global asyncio.Semaphore(64) bounds the
requests in flight, and the connector allows 4 connections per host (like
fetch's defaults, -c 64 -p 4).  For each URL: GET the body, parse it with
BeautifulSoup (lxml when installed, else html.parser), take the title and
the links (a[href] and area[href], absolute, fragment dropped, http(s)
only, de-duplicated in order, as parse does), and write one JSON line of
url, status, title, links to OUT.  A failed request is a line with status
null and an error.  Prints the count of lines to stderr.  Needs Debian's
python3-aiohttp and python3-bs4 (run it with /usr/bin/python3).
"""
import asyncio
import json
import sys
import warnings
from urllib.parse import urldefrag, urljoin

import aiohttp
from bs4 import BeautifulSoup

# the PostgreSQL manual is XHTML with an <?xml?> prolog: parse it as HTML
# anyway, as parse and Scrapy do, without a warning per page
try:
    from bs4.builder import XMLParsedAsHTMLWarning
    warnings.filterwarnings("ignore", category=XMLParsedAsHTMLWarning)
except ImportError:
    pass

try:
    import lxml  # noqa: F401
    FEATURES = "lxml"
except ImportError:
    FEATURES = "html.parser"

CONCURRENCY = 64
PER_HOST = 4


def extract(url, html):
    soup = BeautifulSoup(html, FEATURES)
    title = None
    if soup.title is not None and soup.title.string is not None:
        title = soup.title.string.strip()
    links, seen = [], set()
    for tag in soup.find_all(["a", "area"], href=True):
        link = urldefrag(urljoin(url, tag["href"].strip()))[0]
        if link.startswith(("http://", "https://")) and link not in seen:
            seen.add(link)
            links.append(link)
    return title, links


async def one(session, sem, url, out):
    async with sem:
        try:
            async with session.get(url) as resp:
                status = resp.status
                body = await resp.text(errors="replace")
                ctype = resp.content_type
        except (aiohttp.ClientError, asyncio.TimeoutError) as e:
            out.write(json.dumps({"url": url, "status": None, "error": repr(e)}) + "\n")
            return
    title, links = (None, [])
    if ctype == "text/html":
        title, links = extract(url, body)
    out.write(json.dumps({"url": url, "status": status, "title": title,
                          "links": links}) + "\n")


async def main(urls_path, out_path):
    with open(urls_path) as f:
        urls = [line.strip() for line in f if line.strip()]
    sem = asyncio.Semaphore(CONCURRENCY)
    conn = aiohttp.TCPConnector(limit=CONCURRENCY, limit_per_host=PER_HOST)
    timeout = aiohttp.ClientTimeout(total=30)
    with open(out_path, "w") as out:
        async with aiohttp.ClientSession(connector=conn, timeout=timeout) as session:
            await asyncio.gather(*(one(session, sem, u, out) for u in urls))
    print("aiohttp_recipe: %d lines (%s)" % (len(urls), FEATURES), file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: aiohttp_recipe.py URLS OUT.jsonl")
    asyncio.run(main(sys.argv[1], sys.argv[2]))
