#!/usr/bin/python3
"""Scrapy as a yardstick for bench-pipeline.sh (a CrawlerProcess script).

    /usr/bin/python3 scripts/bench/scrapy_spider.py list URLS OUT.jsonl
    /usr/bin/python3 scripts/bench/scrapy_spider.py crawl SEED PREFIX OUT.jsonl

list: one request per line of URLS.  crawl: start at SEED and follow every
a[href] / area[href] of HTML responses that starts with PREFIX, to depth 5
(sluice's default --max-depth, and wget's default -l).  Each response
becomes one item of url, status, title (title::text) and links
(response.urljoin of the hrefs, fragment dropped, http(s) only, de-duplicated
in order, as parse does), written as JSON lines to OUT.

Settings: CONCURRENT_REQUESTS 64, CONCURRENT_REQUESTS_PER_DOMAIN 4 and
CONCURRENT_REQUESTS_PER_IP 4 (Scrapy keys its download slots by hostname,
so 127.0.0.1 is one "domain"; with PER_IP set the slot is the IP, the same
here), ROBOTSTXT_OBEY False, every HTTP status kept (HTTPERROR_ALLOW_ALL),
LOG_LEVEL WARNING, no telnet console.  Needs Debian's python3-scrapy.
"""
import sys
from urllib.parse import urldefrag

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.http import HtmlResponse, TextResponse


def item_of(response):
    title, links, seen = None, [], set()
    if isinstance(response, TextResponse):
        t = response.css("title::text").get()
        title = t.strip() if t is not None else None
        for href in response.css("a::attr(href), area::attr(href)").getall():
            link = urldefrag(response.urljoin(href.strip()))[0]
            if link.startswith(("http://", "https://")) and link not in seen:
                seen.add(link)
                links.append(link)
    return {"url": response.url, "status": response.status, "title": title,
            "links": links}


class ListSpider(scrapy.Spider):
    name = "bench_list"

    def __init__(self, urls_path, **kw):
        super().__init__(**kw)
        self.urls_path = urls_path

    def start_requests(self):
        with open(self.urls_path) as f:
            for line in f:
                if line.strip():
                    yield scrapy.Request(line.strip(), dont_filter=True)

    def parse(self, response):
        yield item_of(response)


class CrawlSpider(scrapy.Spider):
    name = "bench_crawl"

    def __init__(self, seed, prefix, **kw):
        super().__init__(**kw)
        self.seed = seed
        self.prefix = prefix

    def start_requests(self):
        # not dont_filter (start_urls' default): the seed is linked from
        # its own pages and must not be fetched twice
        yield scrapy.Request(self.seed, callback=self.parse)

    def parse(self, response):
        item = item_of(response)
        yield item
        if isinstance(response, HtmlResponse):
            for link in item["links"]:
                if link.startswith(self.prefix):
                    yield scrapy.Request(link, callback=self.parse)


def main(argv):
    if len(argv) == 4 and argv[1] == "list":
        spider, args, out = ListSpider, {"urls_path": argv[2]}, argv[3]
    elif len(argv) == 5 and argv[1] == "crawl":
        spider, args, out = CrawlSpider, {"seed": argv[2], "prefix": argv[3]}, argv[4]
    else:
        sys.exit("usage: scrapy_spider.py list URLS OUT.jsonl | crawl SEED PREFIX OUT.jsonl")
    process = CrawlerProcess(settings={
        "CONCURRENT_REQUESTS": 64,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        "CONCURRENT_REQUESTS_PER_IP": 4,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "HTTPERROR_ALLOW_ALL": True,
        "DEPTH_LIMIT": 5,
        "LOG_LEVEL": "WARNING",
        "TELNETCONSOLE_ENABLED": False,
        "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
        "FEEDS": {out: {"format": "jsonlines", "overwrite": True}},
    })
    process.crawl(spider, **args)
    process.start()


if __name__ == "__main__":
    main(sys.argv)
