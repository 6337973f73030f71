#!/usr/bin/env python3
"""The workload of issue 23's adaptive pacing benchmark, its politeness
floor, and what the test server's request log says about a run.

    adapt.py addrs                      the 221 loopback addresses, one a line
    adapt.py urls PORT TAG [clean]      the 1330 URLs (faults left out: clean)
    adapt.py floor [clean]              the politeness floor in seconds
    adapt.py check LOG                  one JSON line about the run in LOG

The workload (fixed by a seeded generator, so every run and every machine
gets the same one): 221 hosts 127.0.2.1-221, each with its own latency of
50-300 ms; host 1 has 30 URLs, hosts 2-21 15 each, the other 200 5 each
(1330 URLs, in a shuffled order).  57 URLs answer 429 with Retry-After: 1
once and 9 answer 503 (no Retry-After) once, whatever the request rate;
then 200.  Every answer comes after its host's latency (tests/server.py:
/slow?ms=, /retry-after?...&ms=, /flaky?...&ms=).

The floor, for fetch -c 64 -p 1 -d 0.5: per host, its requests (retries
included) start at least 0.5 s apart and one at a time, and after a 429's
answer nothing starts there for 1 s; the last answer of the slowest host
ends the run.  Per host that is 0.5 (R - 1) + L + sum over its 429s of
(L + 1 - 0.5), R its requests and L its latency.  (-c 64 is left out:
it only lowers the bound.)

check reads the request log (tests/server.py's JSON lines): per host, the
gaps between request starts (the least, how many are below 0.5 s, and
below 0.495 s),
and per 429 whether the host's next request came at least latency + 1 s
after it (it was held host-wide).
"""
import json
import random
import sys

INTERVAL = 0.5
RETRY_AFTER = 1
# The server stamps a request when its thread has read the request line:
# a thread that waits for the GIL stamps late and shortens the next gap.
# The tests allow 5 ms of that; fetch counts its interval from the send.
JITTER = 0.005


def workload():
    """[(addr, latency_ms, [kind...])], kind '' / '429' / '503' per URL."""
    rnd = random.Random(23)
    hosts = []
    for i in range(221):
        n = 30 if i == 0 else 15 if i <= 20 else 5
        hosts.append(["127.0.2.%d" % (i + 1), rnd.randint(50, 300), [""] * n])
    slots = [(h, k) for h in range(len(hosts)) for k in range(len(hosts[h][2]))]
    picked = rnd.sample(slots, 57 + 9)
    for x, (h, k) in enumerate(picked):
        hosts[h][2][k] = "429" if x < 57 else "503"
    return hosts


def urls(port, tag, clean):
    out = []
    for addr, ms, kinds in workload():
        for k, kind in enumerate(kinds):
            base = "http://%s:%s" % (addr, port)
            key = "%s-%s-%d" % (tag, addr, k)
            if kind == "429" and not clean:
                out.append("%s/retry-after?key=%s&fail=1&s=%d&ms=%d" % (base, key, RETRY_AFTER, ms))
            elif kind == "503" and not clean:
                out.append("%s/flaky?key=%s&fail=1&ms=%d" % (base, key, ms))
            else:
                out.append("%s/slow?ms=%d&u=%s" % (base, ms, key))
    random.Random(1330).shuffle(out)
    return out


def floor(clean):
    worst = 0.0
    for _, ms, kinds in workload():
        lat = ms / 1000
        n429 = 0 if clean else kinds.count("429")
        requests = len(kinds) + (0 if clean else n429 + kinds.count("503"))
        worst = max(worst, INTERVAL * (requests - 1) + lat + n429 * (lat + RETRY_AFTER - INTERVAL))
    return worst


def check(log):
    lat = {addr: ms / 1000 for addr, ms, _ in workload()}
    by_addr = {}
    with open(log) as f:
        for line in f:
            r = json.loads(line)
            by_addr.setdefault(r["addr"], []).append(r)
    gaps, held, broken = [], 0, 0
    for addr, rs in by_addr.items():
        rs.sort(key=lambda r: r["t"])
        for a, b in zip(rs, rs[1:]):
            gaps.append(b["t"] - a["t"])
            first_429 = a["path"].startswith("/retry-after") and not any(
                r["path"] == a["path"] and r["t"] < a["t"] for r in rs)
            if first_429:
                held += 1
                # its answer came lat after it; nothing may start for 1 s then
                if b["t"] < a["t"] + lat[addr] + RETRY_AFTER - 0.005:
                    broken += 1
    return {
        "requests": sum(len(rs) for rs in by_addr.values()),
        "min_gap_ms": round(min(gaps) * 1000, 1),
        "gaps_below_interval": sum(g < INTERVAL for g in gaps),
        "gaps_below_jitter": sum(g < INTERVAL - JITTER for g in gaps),
        "retry_after_429s": held,
        "retry_after_broken": broken,
    }


def main(argv):
    cmd = argv[1]
    if cmd == "addrs":
        print("\n".join(h[0] for h in workload()))
    elif cmd == "urls":
        print("\n".join(urls(argv[2], argv[3], len(argv) > 4)))
    elif cmd == "floor":
        print("%.2f" % floor(len(argv) > 2))
    elif cmd == "check":
        print(json.dumps(check(argv[2])))
    else:
        sys.exit("adapt.py: unknown command '%s'" % cmd)


if __name__ == "__main__":
    main(sys.argv)
