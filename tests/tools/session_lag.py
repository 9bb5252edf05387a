#!/usr/bin/env python3
"""session_lag.py: reads `tokentrace-analyze dump` output (JSON Lines) on
stdin and prints the recorder's lateness between the turns of its
sessions: for every turn after the first, start_ns - (the previous turn's
result end_ns + think_ns), in ms (p50, p90, p99, max over all turns), with
the counts of requests, sessions and turn gaps. Chunk records are skipped
unparsed, so a large trace reads quickly."""
import json
import sys

req, end = {}, {}
for line in sys.stdin:
    if line.startswith('{"kind":"chunk"'):
        continue
    r = json.loads(line)
    if r["kind"] == "request" and "session" in r:
        req[r["id"]] = (r["session"], r["turn"], r["start_ns"], r.get("think_ns", 0))
    elif r["kind"] == "result":
        end[r["id"]] = r["end_ns"]
by = {(s, t): (i, st, th) for i, (s, t, st, th) in req.items()}
lags = sorted((st - end[by[(s, t - 1)][0]] - th) / 1e6
              for (s, t), (i, st, th) in by.items()
              if t > 1 and (s, t - 1) in by and by[(s, t - 1)][0] in end)
if not lags:
    sys.exit("session_lag: no turn after a first one")
n = len(lags)


def q(p):
    k = (n - 1) * p
    lo = int(k)
    return lags[lo] + (k - lo) * (lags[min(lo + 1, n - 1)] - lags[lo])


print("requests %d, sessions %d, turn gaps %d: lateness ms p50 %.3f p90 %.3f "
      "p99 %.3f max %.3f" % (len(req), len({s for s, _ in by}), n, q(.5), q(.9),
                            q(.99), lags[-1]))
