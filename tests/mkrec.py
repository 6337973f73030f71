#!/usr/bin/env python3
"""mkrec.py — turn JSON lines into a msgpack record stream (stdlib only).

Usage:
    python3 tests/mkrec.py [--bin KEY]... [--delay S] [--hold S] [FILE...] > records.mp

Reads JSON objects, one per line (blank lines and lines starting with `#`
are skipped), from FILEs or stdin, and writes each as one msgpack map on
stdout, back to back: the stream every sluice stage reads.

Types map the obvious way: null, true/false, int (fixint..int64/uint64),
float (always float64), str, list -> array, object -> map.  msgpack `bin`
has no JSON form, so mark bin values in one of these ways:

    {"body": {"$bin": "<p>hi</p>"}}      the UTF-8 bytes of the string
    {"body": {"$bin64": "PHA+aGk8L3A+"}} base64-decoded bytes
    {"body": {"$latin1": "caf\\u00e9"}}  the string encoded as latin-1 (any
                                         byte 0-255, one per character)
    {"body": {"$file": "a.html"}}        the bytes of a file (path relative
                                         to the current directory)
    --bin body                           every top-level "body" string

and a str whose bytes need not be valid UTF-8:

    {"body": {"$str_file": "a.html"}}    str: a file's bytes, as they are

Raw bytes can be spliced into the stream (to build malformed input):

    {"$raw64": "wQ=="}                   writes the decoded bytes as is

--delay S sleeps S seconds after each record and flushes, for tests that
need a slow producer (e.g. killing a stage mid-stream).  --hold S keeps
stdout open S seconds after the last record, so the reader sees no EOF
(e.g. to signal a stage while it waits for input); it prints `mkrec:
holding` on stderr once every record is written, for a test to wait on.

Also importable: `from mkrec import pack` gives the encoder.
"""
import base64
import json
import struct
import sys
import time


def header(out, n, fix, fixmax, c8, c16, c32):
    """Appends the header of a str, bin, array or map of length n: the
    fix form (fix | n) up to fixmax, else the first of the 8-, 16- and
    32-bit length forms (type bytes c8, c16, c32; None: no such form)
    that holds n."""
    if fix is not None and n <= fixmax:
        out.append(fix | n)
    elif c8 is not None and n <= 0xFF:
        out += bytes([c8, n])
    elif n <= 0xFFFF:
        out += bytes([c16]) + struct.pack(">H", n)
    else:
        out += bytes([c32]) + struct.pack(">I", n)


def pack(v, out=None):
    """Appends the msgpack encoding of v to bytearray out and returns it."""
    if out is None:
        out = bytearray()
    if v is None:
        out.append(0xC0)
    elif v is True:
        out.append(0xC3)
    elif v is False:
        out.append(0xC2)
    elif isinstance(v, int):
        if 0 <= v <= 0x7F:
            out.append(v)
        elif -32 <= v < 0:
            out.append(v & 0xFF)
        elif 0 <= v <= 0xFF:
            out += b"\xcc" + struct.pack(">B", v)
        elif 0 <= v <= 0xFFFF:
            out += b"\xcd" + struct.pack(">H", v)
        elif 0 <= v <= 0xFFFFFFFF:
            out += b"\xce" + struct.pack(">I", v)
        elif 0 <= v:
            out += b"\xcf" + struct.pack(">Q", v)
        elif v >= -0x80:
            out += b"\xd0" + struct.pack(">b", v)
        elif v >= -0x8000:
            out += b"\xd1" + struct.pack(">h", v)
        elif v >= -0x80000000:
            out += b"\xd2" + struct.pack(">i", v)
        else:
            out += b"\xd3" + struct.pack(">q", v)
    elif isinstance(v, float):
        out += b"\xcb" + struct.pack(">d", v)
    elif isinstance(v, str):
        b = v.encode("utf-8", "surrogateescape")
        header(out, len(b), 0xA0, 31, 0xD9, 0xDA, 0xDB)
        out += b
    elif isinstance(v, (bytes, bytearray)):
        header(out, len(v), None, -1, 0xC4, 0xC5, 0xC6)
        out += v
    elif isinstance(v, (list, tuple)):
        header(out, len(v), 0x90, 15, None, 0xDC, 0xDD)
        for x in v:
            pack(x, out)
    elif isinstance(v, dict):
        header(out, len(v), 0x80, 15, None, 0xDE, 0xDF)
        for k, x in v.items():
            pack(k, out)
            pack(x, out)
    else:
        raise TypeError("cannot pack %r" % (v,))
    return out


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


# The one-key marker objects: key -> what the value becomes.  A bytes
# result packs as bin; a str packs as str (its bytes given back exactly by
# surrogateescape, see pack).
MARKERS = {
    "$bin": lambda s: s.encode("utf-8"),
    "$bin64": base64.b64decode,
    "$latin1": lambda s: s.encode("latin-1"),
    "$file": read_file,
    "$str_file": lambda p: read_file(p).decode("utf-8", "surrogateescape"),
}


def unmark(v, binkeys=(), top=True):
    """Replaces the marker objects ({"$bin": s}, {"$file": path}, ...)
    with the bytes or str they stand for."""
    if isinstance(v, dict):
        if len(v) == 1:
            (k, x), = v.items()
            if k in MARKERS:
                return MARKERS[k](x)
        return {k: (x.encode("utf-8") if top and k in binkeys and isinstance(x, str)
                    else unmark(x, binkeys, False)) for k, x in v.items()}
    if isinstance(v, list):
        return [unmark(x, binkeys, False) for x in v]
    return v


def main(argv):
    binkeys, files, delay, hold = [], [], 0.0, 0.0
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--bin":
            i += 1
            binkeys.append(argv[i])
        elif a == "--delay":
            i += 1
            delay = float(argv[i])
        elif a == "--hold":
            i += 1
            hold = float(argv[i])
        elif a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        else:
            files.append(a)
        i += 1
    out = sys.stdout.buffer
    streams = [open(f, encoding="utf-8") for f in files] or [sys.stdin]
    for s in streams:
        for line in s:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            v = json.loads(line)
            if isinstance(v, dict) and len(v) == 1 and "$raw64" in v:
                out.write(base64.b64decode(v["$raw64"]))
            else:
                out.write(pack(unmark(v, binkeys)))
            if delay:
                out.flush()
                time.sleep(delay)
    out.flush()
    if hold:
        print("mkrec: holding", file=sys.stderr, flush=True)
        time.sleep(hold)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.exit(0)
