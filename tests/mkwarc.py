#!/usr/bin/env python3
"""mkwarc.py — write a WARC file from JSON lines, good or broken on purpose.

Usage:
    python3 tests/mkwarc.py [--gzip member|whole|none] OUT < records.jsonl

One JSON object a line (blank lines and lines starting with `#` are
skipped), one record each, written as WARC/1.1 (or `version`), CRLF
line ends, sha1 digests in base32 as wget and Common Crawl write them:

    {"type": "response", "url": "http://a.test/", "status": 200,
     "headers": [["Content-Type", "text/html"]], "body": "<p>hi</p>",
     "ce": "gzip", "chunked": true}

Keys: type (response, resource, request, metadata, revisit, warcinfo,
...), url, status, reason, headers ([name, value] pairs of the HTTP
answer), body (str), ce (gzip, deflate, br or zstd: the body is encoded
so and Content-Encoding added), chunked (the body is sent in 3 chunks
and Transfer-Encoding: chunked added), ctype (the record's
Content-Type; default application/http;msgtype=response for response
and request records), http_version ("1.1"), block (str: the whole block,
no HTTP made), fields ({name: value} added to the WARC header; a null
value drops a field written by default), bad_digest (the payload digest
of other bytes), cl_delta (added to the Content-Length written),
header_pad (bytes of a field X-Pad: a huge header block), raw (str
written as is instead of a record).

--gzip member (the default) writes each record as its own gzip member;
whole one gzip stream; none plain text.
"""
import base64
import gzip
import hashlib
import json
import subprocess
import sys
import uuid
import zlib


def encode(body, ce):
    if ce == "gzip":
        return gzip.compress(body, compresslevel=1)
    if ce == "deflate":
        return zlib.compress(body)
    if ce in ("br", "zstd"):
        cmd = ["brotli", "-c"] if ce == "br" else ["zstd", "-q", "-c"]
        return subprocess.run(cmd, input=body, stdout=subprocess.PIPE, check=True).stdout
    return body


def digest(b):
    return "sha1:" + base64.b32encode(hashlib.sha1(b).digest()).decode()


def record(r):
    if "raw" in r:
        return r["raw"].encode()
    t = r.get("type", "response")
    payload = b""
    if "block" in r:
        block = r["block"].encode()
        payload = block
    elif t in ("response", "request", "revisit"):
        payload = encode(r.get("body", "").encode(), r.get("ce"))
        headers = list(r.get("headers", [["Content-Type", "text/html"]]))
        if r.get("ce"):
            headers.append(["Content-Encoding", r["ce"]])
        wire = payload
        if r.get("chunked"):
            headers.append(["Transfer-Encoding", "chunked"])
            third = max(1, len(payload) // 3)
            parts = [payload[i:i + third] for i in range(0, len(payload), third)]
            wire = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"
        else:
            headers.append(["Content-Length", str(len(payload))])
        if t == "request":
            head = "GET / HTTP/1.1\r\n"
        else:
            head = "HTTP/%s %d %s\r\n" % (r.get("http_version", "1.1"), r.get("status", 200),
                                           r.get("reason", "OK"))
        head += "".join("%s: %s\r\n" % (k, v) for k, v in headers) + "\r\n"
        payload = wire
        block = head.encode() + wire
    else:
        block = r.get("body", "").encode()
        payload = block
    ctype = {"response": "application/http;msgtype=response",
             "request": "application/http;msgtype=request",
             "revisit": "application/http;msgtype=response"}.get(t, "text/html")
    fields = {
        "WARC-Type": t,
        "WARC-Record-ID": "<urn:uuid:%s>" % uuid.uuid4(),
        "WARC-Date": "2024-05-01T10:00:00.5Z",
        "WARC-Target-URI": r.get("url", "http://a.test/"),
        "WARC-IP-Address": "192.0.2.7",
        "Content-Type": r.get("ctype", ctype),
        "WARC-Block-Digest": digest(block),
        "WARC-Payload-Digest": digest(payload + (b"x" if r.get("bad_digest") else b"")),
    }
    if t == "warcinfo":
        del fields["WARC-Target-URI"]
    if "header_pad" in r:
        fields["X-Pad"] = "p" * r["header_pad"]
    fields.update(r.get("fields", {}))
    fields["Content-Length"] = str(len(block) + r.get("cl_delta", 0))
    head = "WARC/%s\r\n" % r.get("version", "1.1")
    head += "".join("%s: %s\r\n" % (k, v) for k, v in fields.items() if v is not None)
    return head.encode() + b"\r\n" + block + b"\r\n\r\n"


def main():
    args = sys.argv[1:]
    mode = "member"
    if args[:1] == ["--gzip"]:
        mode, args = args[1], args[2:]
    out = args[0]
    recs = [record(json.loads(l)) for l in sys.stdin if l.strip() and not l.startswith("#")]
    with open(out, "wb") as f:
        if mode == "member":
            for r in recs:
                f.write(gzip.compress(r, compresslevel=1))
        elif mode == "whole":
            f.write(gzip.compress(b"".join(recs), compresslevel=1))
        else:
            f.write(b"".join(recs))


main()
