#!/usr/bin/env python3
"""sluice's HTTP test server: Python 3 standard library only.

    python3 tests/server.py --port-file F --log F --addr 127.0.0.1
        [--addr 127.0.0.2 ...] [--port N] [--robots FILE]
        [--robots-status N] [--root DIR] [--cert PEM --key PEM]

Binds one port number on every --addr (a free one unless --port is given)
and writes it to --port-file once every address is listening.  HTTP/1.1
with keep-alive; every response carries Content-Length unless the endpoint
says otherwise.  Each request is logged as one JSON line to --log as soon as
its headers are parsed, before the response:

    {"t", "addr", "host", "method", "path", "conn", "conns", "inflight", "ua",
     "hdrs"}

where t is when the request line was read, conn the id of the TCP
connection, conns the connections open on that local address and
inflight the requests being handled there (including this one), hdrs
every request header (names lowercase).  With --cert and --key it serves
HTTPS instead.  SIGTERM and SIGINT exit at once.

Endpoints (GET and HEAD; other methods get 501; a bad parameter is 400):

    /ok                       200 html "OK page", links /page/1, /page/2#frag
    /page/N                   200 html "Page N", links /page/N+1 and /ok
    /slow?ms=N                sleeps N ms, then /ok
    /status/N                 status N, html "Status N" (no body: 1xx 204 304)
    /hello?title=X            200 html titled X (html-escaped)
    /hang                     reads the request, never answers
    /reset                    TCP RST, no answer
    /reset-mid                Content-Length 100000, 1000 bytes, then RST
    /redirect/N               302 to /redirect/N-1; /redirect/0 to /ok
    /loop                     302 to /loop
    /redirect-to?url=U        302 to U (decoded)
    /bin /text /json          image/png, text/plain, application/json
    /headers                  a repeated header (X-Multi) and a padded one
    /garbage                  a reply that is not HTTP, then close
    /noctype                  html body, no Content-Type
    /big?bytes=N              html body of exactly N bytes, streamed
    /gzipbomb?mb=N            gzip of N MiB of zeros (default 1), cached
    /drip?bytes=N&ms=M        Content-Length N, one byte every M ms
    /flaky?key=K&fail=F&status=S         F x S (503), then 200 "Flaky K"
    /retry-after?key=K&fail=F&s=N&status=S   F x S (429) with Retry-After: N,
                                         then 200 "Retry K"
                              (both: &ms=M sleeps M ms before every answer)
    /retry-after-date?...     same with an HTTP-date N seconds ahead
    /challenge?key=K&after=N&status=S    N x 200 "Story K" (default 5), then
                                         S (200) with a bot-check page
    /robots.txt               --robots FILE (re-read), --robots-status N, or 404
    /need-header?name=H&value=V  200 when header H (x-api-key) came (with V), else 403
    /login?name=N&value=V     200 with Set-Cookie N=V (session=s3cret)
    /members?name=N&value=V   200 when cookie N=V came (session=s3cret), else 403
    /set-cookies?n=N&name=P   200 with N Set-Cookie lines (Path=/), each a new
                              cookie: P1=1, P2=2, ... numbered on across
                              answers, per P (c by default)
    /basic?user=U&pass=P      200 with Basic U:P (u:p), else 401
    /encoded?name=F&enc=E     file F under --root as is, Content-Encoding: E
    /charset?cs=NAME&title=T&how=header|meta|none   title encoded in NAME
    /status-only              exactly "HTTP/1.1 200 OK\r\n", then close
    /hugeheader?mb=N          status line, one header line X-Big of N MiB
                              (default 10) of 'a', a small body, close
    /close-after[?race=1]     200, Content-Length 5, "hello", then close
                              (no Connection: close: a keep-alive timeout);
                              race=1 closes when the next request arrives
    /cond/NAME?mode=M         a page for conditional requests, titled
                              "NAME vN", with ETag "NAME-vN" (not with
                              mode=lm) and a Last-Modified of version N
                              (not with mode=etag); a request whose
                              If-None-Match or If-Modified-Since matches
                              the current version gets 304.  mode=same,
                              etag, lm: N stays 1; change: N counts the
                              requests for NAME; fail&status=S: 200 v1 at
                              the first request, S ("Status S") after
    anything else             a file under --root DIR when given, else 404

F defaults to 1, N of s to 1; counters are per endpoint and key.
"""

import argparse
import base64
import email.utils
import gzip
import html
import http.cookies
import itertools
import json
import mimetypes
import os
import posixpath
import select
import signal
import socket
import socketserver
import ssl
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

OK_BODY = (b'<html><head><title>OK page</title></head><body><p>hello world</p>'
           b'<a href="/page/1">one</a><a href="/page/2#frag">two</a></body></html>')
HTML = "text/html; charset=utf-8"
CHUNK = 65536
# Linux's option number; Python's socket module does not name it.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def page(title, body=""):
    t = html.escape(title)
    return ("<html><head><title>%s</title></head><body>%s</body></html>"
            % (t, body)).encode("utf-8")


def make_png():
    """A valid 1x1 RGBA PNG."""
    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x00\x00\xff")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat)
            + chunk(b"IEND", b""))


PNG = make_png()


class State:
    """Everything shared between the handler threads."""

    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.log = open(args.log, "a", encoding="utf-8") if args.log else None
        # One line per accepted connection: its local address.
        self.conn_log = open(args.conn_log, "a", encoding="utf-8") if args.conn_log else None
        self.conn_ids = itertools.count(1)
        self.conns = {}      # local addr -> open connections
        self.inflight = {}   # local addr -> requests being handled
        self.counters = {}   # (endpoint, key) -> requests seen
        self.bombs = {}      # MiB -> gzip body
        self.bomb_lock = threading.Lock()
        self.stopping = threading.Event()

    def open_conn(self, addr):
        with self.lock:
            self.conns[addr] = self.conns.get(addr, 0) + 1
            if self.conn_log:
                self.conn_log.write(addr + "\n")
                self.conn_log.flush()
            return next(self.conn_ids)

    def close_conn(self, addr):
        with self.lock:
            self.conns[addr] -= 1

    def begin(self, rec):
        """Counts a request in flight and logs it, under one lock."""
        addr = rec["addr"]
        with self.lock:
            self.inflight[addr] = self.inflight.get(addr, 0) + 1
            rec["conns"] = self.conns.get(addr, 0)
            rec["inflight"] = self.inflight[addr]
            if self.log:
                self.log.write(json.dumps(rec) + "\n")
                self.log.flush()

    def end(self, addr):
        with self.lock:
            self.inflight[addr] -= 1

    def bump(self, endpoint, key):
        """Returns how many requests came before this one for key."""
        with self.lock:
            k = (endpoint, key)
            n = self.counters.get(k, 0)
            self.counters[k] = n + 1
            return n

    def bomb(self, mb):
        with self.bomb_lock:
            if mb not in self.bombs:
                z = zlib.compressobj(9, zlib.DEFLATED, 31)   # gzip framing
                zeros = bytes(1 << 20)
                parts = [z.compress(zeros) for _ in range(mb)]
                parts.append(z.flush())
                self.bombs[mb] = b"".join(parts)
            return self.bombs[mb]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server_version = "sluice-test/1"

    # ---- connection and request bookkeeping

    def setup(self):
        super().setup()
        self.st = self.server.state
        self.local = self.server.addr
        self.conn_id = self.st.open_conn(self.local)
        if not isinstance(self.connection, ssl.SSLSocket):
            self.connection.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass
        finally:
            self.st.close_conn(self.local)

    def kernel_stamp(self, flags):
        """When the first unread byte on the socket reached it, by the
        kernel's clock; None at EOF or where the kernel gave no stamp.
        Raises BlockingIOError under MSG_DONTWAIT when nothing is there."""
        data, anc, _, _ = self.connection.recvmsg(
            1, socket.CMSG_SPACE(16), socket.MSG_PEEK | flags)
        for level, kind, val in anc:
            if data and level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                sec, nsec = struct.unpack("qq", val[:16])
                return sec + nsec / 1e9
        return None

    def arrival(self):
        """When the next request reached the server, or None if only
        this thread's clock can tell. A thread a loaded machine runs late
        stamps late, and a late stamp shortens the gap after it: the
        pacing tests' floors judge fetch, so they need the kernel's time
        of arrival (on loopback, the client's time of sending)."""
        sock = self.connection
        if isinstance(sock, ssl.SSLSocket):
            return None
        try:
            return self.kernel_stamp(socket.MSG_DONTWAIT)
        except BlockingIOError:
            pass
        except OSError:
            return None
        # Nothing on the socket: the request is either read ahead into
        # rfile already (then no stamp is left to read) or still to come.
        timeout = sock.gettimeout()
        sock.setblocking(False)
        try:
            ahead = self.rfile.peek(1)
        except OSError:
            ahead = b""
        finally:
            sock.settimeout(timeout)
        if ahead:
            return None
        try:
            return self.kernel_stamp(0)
        except OSError:
            return None

    def handle_one_request(self):
        try:
            arrived = self.arrival()
            self.raw_requestline = self.rfile.readline(65537)
            if arrived is None:
                arrived = time.time()
            if len(self.raw_requestline) > 65536:
                self.requestline = self.request_version = self.command = ""
                self.send_error(414)
                return
            if not self.raw_requestline:
                self.close_connection = True
                return
            if not self.parse_request():
                return
            self.st.begin({
                "t": arrived,
                "addr": self.local,
                "host": self.headers.get("Host"),
                "method": self.command,
                "path": self.path,
                "conn": self.conn_id,
                "ua": self.headers.get("User-Agent"),
                # Every request header as received, names lowercase
                # (repeats joined with ", "): what a client sent.
                "hdrs": {k.lower(): ", ".join(self.headers.get_all(k))
                         for k in self.headers.keys()},
            })
            try:
                if self.command in ("GET", "HEAD"):
                    self.route()
                else:
                    self.send_error(501)
                self.wfile.flush()
            finally:
                self.st.end(self.local)
        except (OSError, ValueError):
            self.close_connection = True

    def log_message(self, fmt, *args):
        pass

    # ---- response helpers

    def reply(self, status, body=b"", ctype=HTML, headers=()):
        """A whole response with Content-Length (no body for HEAD)."""
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        for k, v in headers:
            self.send_header(k, v)
        no_body = status < 200 or status in (204, 304)
        if not no_body:
            self.send_header("Content-Length", str(len(body)))
        # Headers and body in one write.
        self._headers_buffer.append(b"\r\n")
        if self.command != "HEAD" and not no_body:
            self._headers_buffer.append(body)
        self.flush_headers()

    def status_page(self, status, headers=()):
        self.reply(status, page("Status %d" % status), headers=headers)

    def redirect(self, location, status=302):
        self.reply(status, page("Redirect"), headers=[("Location", location)])

    def stream(self, status, length, chunks, ctype=HTML):
        """Headers with Content-Length length, then the chunks."""
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        if self.command == "HEAD":
            return
        for c in chunks:
            self.wfile.write(c)

    def rst(self):
        """Closes the connection with a TCP RST."""
        self.close_connection = True
        self.wfile.flush()
        s = self.connection
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.rfile.close()   # drops makefile's reference so close() is real
        s.close()

    # ---- routing

    def route(self):
        u = urllib.parse.urlsplit(self.path)
        path = u.path
        q = {k: v[-1] for k, v in urllib.parse.parse_qs(u.query, keep_blank_values=True).items()}
        parts = path.strip("/").split("/")
        head = parts[0]
        arg = parts[1] if len(parts) == 2 else None
        fn = ROUTES.get(head)
        if fn and (arg is None) == (head not in WITH_ARG):
            try:
                return fn(self, arg, q)
            except BadRequest as e:
                return self.reply(400, page("Bad request: %s" % e))
        if self.st.args.root is not None:
            return self.static(path)
        self.reply(404, page("Not Found"))

    def static(self, path):
        root = os.path.realpath(self.st.args.root)
        rel = posixpath.normpath(urllib.parse.unquote(path)).lstrip("/")
        full = os.path.realpath(os.path.join(root, rel))
        if full != root and not full.startswith(root + os.sep):
            return self.reply(404, page("Not Found"))
        if os.path.isdir(full):
            full = os.path.join(full, "index.html")
        try:
            f = open(full, "rb")
        except OSError:
            return self.reply(404, page("Not Found"))
        with f:
            size = os.fstat(f.fileno()).st_size
            # No charset, as nginx serves files by default: a page's own
            # <meta charset> must then decide (the demo's Latin-1 page).
            ctype = mimetypes.guess_type(full)[0] or "application/octet-stream"
            self.stream(200, size, iter(lambda: f.read(CHUNK), b""), ctype)


class BadRequest(Exception):
    pass


def qint(q, name, default=None, lo=0, hi=1 << 40):
    v = q.get(name)
    if v is None or v == "":
        if default is None:
            raise BadRequest("missing %s" % name)
        return default
    try:
        n = int(v)
    except ValueError:
        raise BadRequest("bad %s" % name)
    if not lo <= n <= hi:
        raise BadRequest("%s out of range" % name)
    return n


def pint(arg, lo=0, hi=1 << 40):
    try:
        n = int(arg)
    except ValueError:
        raise BadRequest("bad number")
    if not lo <= n <= hi:
        raise BadRequest("number out of range")
    return n


# ---- endpoints: each is fn(handler, path argument or None, query dict)

def ep_ok(h, _, q):
    h.reply(200, OK_BODY)


def ep_page(h, arg, q):
    n = pint(arg)
    h.reply(200, page("Page %d" % n, '<p>page %d</p><a href="/page/%d">next</a>'
                      '<a href="/ok">ok</a>' % (n, n + 1)))


def ep_slow(h, _, q):
    time.sleep(qint(q, "ms", 0, hi=3600 * 1000) / 1000)
    h.reply(200, OK_BODY)


def ep_status(h, arg, q):
    h.status_page(pint(arg, 100, 999))


def ep_hello(h, _, q):
    t = q.get("title", "hello")
    h.reply(200, page(t, "<p>%s</p>" % html.escape(t)))


def ep_hang(h, _, q):
    h.close_connection = True
    s = h.connection
    while not h.st.stopping.is_set():
        r, _w, _x = select.select([s], [], [], 0.5)
        if r:
            try:
                if not s.recv(65536):
                    return          # the client closed
            except OSError:
                return


def ep_reset(h, _, q):
    h.rst()


def ep_reset_mid(h, _, q):
    h.send_response(200)
    h.send_header("Content-Type", HTML)
    h.send_header("Content-Length", "100000")
    h.end_headers()
    if h.command != "HEAD":
        h.wfile.write(b"<html><head><title>Reset</title></head><body>"
                      .ljust(1000, b"x"))
    h.wfile.flush()
    time.sleep(0.05)    # let the bytes leave before the RST discards them
    h.rst()


def ep_redirect(h, arg, q):
    n = pint(arg)
    h.redirect("/ok" if n == 0 else "/redirect/%d" % (n - 1))


def ep_loop(h, _, q):
    h.redirect("/loop")


def ep_redirect_to(h, _, q):
    if "url" not in q:
        raise BadRequest("missing url")
    h.redirect(q["url"])


def ep_bin(h, _, q):
    h.reply(200, PNG, ctype="image/png")


def ep_text(h, _, q):
    h.reply(200, b"hello text\n", ctype="text/plain; charset=utf-8")


def ep_garbage(h, _, q):
    # Not HTTP at all: a line of bytes, then close.
    h.wfile.write(b"garbage, not a status line\r\n\r\n")
    h.wfile.flush()
    h.close_connection = True


def ep_headers(h, _, q):
    # A header repeated, in two spellings, and one with padding.
    h.reply(200, page("Headers"), headers=[
        ("X-Multi", "one"), ("x-multi", "two"), ("X-Pad", "  padded  ")])


def ep_json(h, _, q):
    h.reply(200, b'{"hello": "world", "n": 1}\n', ctype="application/json")


def ep_noctype(h, _, q):
    h.reply(200, page("No content type", "<p>no content type</p>"), ctype=None)


def ep_big(h, _, q):
    n = qint(q, "bytes")
    head = b"<html><head><title>Big</title></head><body>\n"
    tail = b"</body></html>\n"
    line = b"x" * 99 + b"\n"

    def chunks():
        if n < len(head) + len(tail):
            yield (head + tail)[:n]
            return
        yield head
        left = n - len(head) - len(tail)
        block = line * (CHUNK // len(line))
        while left > 0:
            c = block[:left]
            left -= len(c)
            yield c
        yield tail
    h.stream(200, n, chunks())


def ep_gzipbomb(h, _, q):
    body = h.st.bomb(qint(q, "mb", 1, 0, 65536))
    h.reply(200, body, headers=[("Content-Encoding", "gzip")])


def ep_chunked(h, _, q):
    # A page sent with Transfer-Encoding: chunked, in chunks of 7 bytes;
    # gzip=1: its body gzip'd first (Content-Encoding: gzip).
    body = page("Chunked", "<p>%s</p>" % ("sent in chunks " * 20))
    extra = []
    if q.get("gzip"):
        body = gzip.compress(body)
        extra = [("Content-Encoding", "gzip")]
    h.send_response(200)
    h.send_header("Content-Type", HTML)
    h.send_header("Transfer-Encoding", "chunked")
    for k, v in extra:
        h.send_header(k, v)
    h.end_headers()
    for i in range(0, len(body), 7):
        c = body[i:i + 7]
        h.wfile.write(b"%x\r\n%s\r\n" % (len(c), c))
    h.wfile.write(b"0\r\n\r\n")


def ep_drip(h, _, q):
    n = qint(q, "bytes", 10)
    ms = qint(q, "ms", 100, hi=3600 * 1000)

    def chunks():
        for i in range(n):
            if i:
                time.sleep(ms / 1000)
            yield b"x"
    h.stream(200, n, chunks())


def counted(h, endpoint, q, default_status, title, headers=()):
    key = q.get("key", "")
    fail = qint(q, "fail", 1)
    status = qint(q, "status", default_status, 100, 999)
    ms = qint(q, "ms", 0, 0, 60000)
    if ms:
        time.sleep(ms / 1000)
    if h.st.bump(endpoint, key) < fail:
        h.status_page(status, headers=headers)
    else:
        h.reply(200, page("%s %s" % (title, key)))


def ep_flaky(h, _, q):
    counted(h, "flaky", q, 503, "Flaky")


def ep_retry_after(h, _, q):
    s = qint(q, "s", 1)
    counted(h, "retry-after", q, 429, "Retry", [("Retry-After", str(s))])


def ep_retry_after_date(h, _, q):
    # s < 0: a date already past
    s = qint(q, "s", 1, -86400)
    when = email.utils.formatdate(time.time() + s, usegmt=True)
    counted(h, "retry-after-date", q, 429, "Retry",
            [("Retry-After", when)])


def ep_robots(h, _, q):
    a = h.st.args
    if a.robots:
        try:
            with open(a.robots, "rb") as f:
                body = f.read()
        except OSError:
            return h.reply(404, b"no robots file\n", ctype="text/plain")
        h.reply(200, body, ctype="text/plain")
    elif a.robots_status is not None:
        h.reply(a.robots_status, b"robots status %d\n" % a.robots_status,
                ctype="text/plain")
    else:
        h.reply(404, page("Not Found"))


def ep_charset(h, _, q):
    cs = q.get("cs", "utf-8")
    t = q.get("title", "caf\u00e9")
    how = q.get("how", "header")
    if how not in ("header", "meta", "none"):
        raise BadRequest("bad how")
    meta = '<meta charset="%s">' % html.escape(cs) if how == "meta" else ""
    text = ("<html><head>%s<title>%s</title></head><body><p>%s</p></body></html>"
            % (meta, html.escape(t), html.escape(t)))
    try:
        body = text.encode(cs, "xmlcharrefreplace")
    except LookupError:
        raise BadRequest("unknown charset")
    ctype = "text/html; charset=%s" % cs if how == "header" else "text/html"
    h.reply(200, body, ctype=ctype)


ROUTES = {
    "ok": ep_ok, "page": ep_page, "slow": ep_slow, "status": ep_status,
    "hello": ep_hello, "hang": ep_hang, "reset": ep_reset,
    "reset-mid": ep_reset_mid, "redirect": ep_redirect, "loop": ep_loop,
    "redirect-to": ep_redirect_to, "bin": ep_bin, "text": ep_text, "headers": ep_headers, "garbage": ep_garbage,
    "json": ep_json, "noctype": ep_noctype, "big": ep_big,
    "gzipbomb": ep_gzipbomb, "drip": ep_drip, "flaky": ep_flaky, "chunked": ep_chunked,
    "retry-after": ep_retry_after, "retry-after-date": ep_retry_after_date,
    "robots.txt": ep_robots, "charset": ep_charset,
}
WITH_ARG = {"page", "status", "redirect", "cond"}   # /name/N; the rest take no segment


# ---- replies that stop or bloat inside the headers

def ep_status_only(h, _, q):
    # A status line and nothing more: no header, no blank line, then close.
    h.close_connection = True
    h.wfile.write(b"HTTP/1.1 200 OK\r\n")
    h.wfile.flush()


def ep_hugeheader(h, _, q):
    # One header line of N MiB, written in chunks; the client is expected
    # to give up (and close) long before the end.  lines=N: N header
    # lines of 1 KiB instead, a block of N KiB.
    mb = qint(q, "mb", 10, 0, 4096)
    lines = qint(q, "lines", 0, 0, 100000)
    h.close_connection = True
    block = b"a" * CHUNK
    try:
        if lines:
            h.wfile.write(b"HTTP/1.1 200 OK\r\n")
            for i in range(lines):
                h.wfile.write(b"X-H%d: %s\r\n" % (i, b"b" * 1000))
            h.wfile.write(b"Content-Length: 0\r\n\r\n")
            h.wfile.flush()
            return
        h.wfile.write(b"HTTP/1.1 200 OK\r\nX-Big: ")
        left = mb << 20
        while left > 0:
            c = block[:left]
            h.wfile.write(c)
            left -= len(c)
        h.wfile.write(b"\r\n\r\n")
        if h.command != "HEAD":
            h.wfile.write(b"<html><head><title>Huge header</title></head></html>\n")
        h.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):
        pass


def ep_close_after(h, _, q):
    # As a server whose keep-alive timeout ran out: a whole answer that
    # promises nothing, then the connection closed.
    h.reply(200, b"hello", ctype="text/plain")
    h.close_connection = True
    if q.get("race") == "1":
        # The timeout runs out just as the client's next request arrives
        # on the connection: closed with it unread, which makes an RST.
        h.wfile.flush()
        select.select([h.connection], [], [], 1.0)


def ep_cond(h, name, q):
    mode = q.get("mode", "same")
    if mode not in ("same", "etag", "lm", "change", "fail"):
        raise BadRequest("bad mode")
    seen = h.st.bump("cond", name)
    if mode == "fail" and seen > 0:
        return h.status_page(qint(q, "status", 500, 100, 999))
    version = seen + 1 if mode == "change" else 1
    etag = '"%s-v%d"' % (name, version)
    modified = email.utils.formatdate(1700000000 + version * 86400, usegmt=True)
    headers = []
    if mode != "lm":
        headers.append(("ETag", etag))
    if mode != "etag":
        headers.append(("Last-Modified", modified))
    inm, ims = h.headers.get("If-None-Match"), h.headers.get("If-Modified-Since")
    # RFC 9110 13.1.3: If-Modified-Since is ignored when If-None-Match
    # is sent; a date is matched exactly, as the test needs no more.
    if (inm == etag and mode != "lm") if inm is not None else (ims == modified and mode != "etag"):
        return h.reply(304, ctype=None, headers=headers)
    h.reply(200, page("%s v%d" % (name, version), "<p>version %d of %s</p>" % (version, name)),
            headers=headers)


# A host whose bot management starts to answer challenges: an
# interstitial of this server's own making, with the words such pages say.
CHALLENGE = (b'<!DOCTYPE html><html><head><title>One more step</title></head><body>'
             b'<h1>Checking your browser</h1><p>Verify you are human by completing the action '
             b'below.</p><div id="check"></div><noscript>Enable JavaScript and cookies to '
             b'continue</noscript></body></html>')


def ep_challenge(h, _, q):
    key = q.get("key", "")
    after = qint(q, "after", 5)
    status = qint(q, "status", 200, 100, 999)
    if h.st.bump("challenge", key) < after:
        return h.reply(200, page("Story %s" % key, "<p>a story of %s</p>" % key))
    h.reply(status, CHALLENGE)


ROUTES.update({"status-only": ep_status_only, "challenge": ep_challenge, "hugeheader": ep_hugeheader,
               "close-after": ep_close_after, "cond": ep_cond})


# ---- what a site behind a key, a login or a password wants

def ep_need_header(h, _, q):
    # 200 when header `name` came with value `value`, else 403.
    name, want = q.get("name", "x-api-key"), q.get("value")
    got = h.headers.get(name)
    ok = got is not None and (want is None or got == want)
    h.reply(200 if ok else 403, page("Header %s" % ("ok" if ok else "missing")))


def ep_login(h, _, q):
    # Sets cookie `name` (session=s3cret by default) and says so.
    name, value = q.get("name", "session"), q.get("value", "s3cret")
    h.reply(200, page("Logged in"), headers=[
        ("Set-Cookie", "%s=%s; Path=/; HttpOnly" % (name, value))])


def ep_members(h, _, q):
    # 200 when cookie `name` came with value `value`, else 403.
    name, want = q.get("name", "session"), q.get("value", "s3cret")
    c = http.cookies.SimpleCookie(h.headers.get("Cookie", ""))
    ok = name in c and c[name].value == want
    h.reply(200 if ok else 403, page("Members" if ok else "Log in first"))


def ep_set_cookies(h, _, q):
    # n new cookies an answer: a site that would fill a jar.
    n, name = qint(q, "n", 50, 0, 10000), q.get("name", "c")
    first = h.st.bump("set-cookies", name) * n
    h.reply(200, page("Cookies"), headers=[
        ("Set-Cookie", "%s%d=%d; Path=/" % (name, i, i)) for i in range(first + 1, first + n + 1)])


def ep_basic(h, _, q):
    # HTTP Basic: 200 for user:pass (u:p by default), else 401.
    want = "%s:%s" % (q.get("user", "u"), q.get("pass", "p"))
    got = h.headers.get("Authorization", "")
    ok = got == "Basic " + base64.b64encode(want.encode()).decode()
    if ok:
        h.reply(200, page("Authorized"))
    else:
        h.reply(401, page("Unauthorized"), headers=[("WWW-Authenticate", 'Basic realm="t"')])


def ep_encoded(h, _, q):
    # A file under --root sent as is, labelled Content-Encoding: enc: a
    # body compressed by a tool the standard library lacks (zstd, br).
    root = os.path.realpath(h.st.args.root or ".")
    full = os.path.realpath(os.path.join(root, q.get("name", "")))
    if not full.startswith(root + os.sep) or not os.path.isfile(full):
        raise BadRequest("no such file under --root")
    with open(full, "rb") as f:
        body = f.read()
    h.reply(200, body, headers=[("Content-Encoding", q.get("enc", "identity"))])


ROUTES.update({"need-header": ep_need_header, "encoded": ep_encoded, "login": ep_login, "members": ep_members,
               "set-cookies": ep_set_cookies, "basic": ep_basic})


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def __init__(self, addr, port, state):
        self.address_family = socket.AF_INET6 if ":" in addr else socket.AF_INET
        self.addr = addr
        self.state = state
        super().__init__((addr, port), Handler)

    def server_bind(self):
        # HTTPServer's own looks the address up in DNS (getfqdn), which
        # takes ~0.1 s an address: too slow for the 221 of bench-adapt.
        socketserver.TCPServer.server_bind(self)
        # The kernel starts stamping a little after the first socket asks
        # (Handler.arrival): ask before the first client connects.
        self.socket.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.server_name, self.server_port = self.server_address[:2]

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


def bind_all(addrs, port, state):
    """Servers on every addr at one port: port, or the first free one."""
    for _ in range(50):
        servers = []
        try:
            first = Server(addrs[0], port, state)
            servers.append(first)
            p = first.server_address[1]
            for a in addrs[1:]:
                servers.append(Server(a, p, state))
            return servers, p
        except OSError:
            for s in servers:
                s.server_close()
            if port:
                raise
    raise OSError("no port free on every address")


def main():
    ap = argparse.ArgumentParser(description="sluice test HTTP server")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log")
    ap.add_argument("--conn-log")
    ap.add_argument("--addr", action="append")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--robots")
    ap.add_argument("--robots-status", type=int)
    ap.add_argument("--root")
    ap.add_argument("--cert", help="serve HTTPS with this PEM certificate chain")
    ap.add_argument("--key", help="... and this key")
    args = ap.parse_args()
    addrs = args.addr or ["127.0.0.1"]

    state = State(args)
    # Every thread inherits this mask, so SIGTERM/SIGINT reach only the
    # sigwait below, however busy or stuck the handler threads are.
    sigs = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, sigs)

    servers, port = bind_all(addrs, args.port, state)
    if args.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.cert, args.key)
        for s in servers:
            # The handshake runs in the thread that handles the request.
            s.socket = ctx.wrap_socket(s.socket, server_side=True,
                                       do_handshake_on_connect=False)
    for s in servers:
        threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.1},
                         daemon=True).start()
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, args.port_file)

    signal.sigwait(sigs)
    state.stopping.set()
    # Handler threads may hang forever (/hang, /drip): do not wait for them.
    with state.lock:
        if state.log:
            state.log.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
