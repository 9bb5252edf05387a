#!/usr/bin/env python3
"""session_check.py DUMP.jsonl [--history received|recorded] [--lag-ms MS]:
checks the sessions of a recorded trace (tokentrace-analyze dump output):
every turn k > 1 of a session carries, as its last assistant message, the
reply text turn k - 1 actually received (rebuilt here from the chunk bytes,
byte for byte; with --history recorded, the workload's text, given as
--recorded TEXT...), and started no earlier than its think time after the
turn before ended and at most MS later. Prints the measured lag (max, ms)
on stdout; exits 1 with a reason on the first violation."""
import argparse
import base64
import json
import sys


def reply_text(raw):
    """The answer text of an OpenAI chat SSE body (bytes)."""
    out = []
    for block in raw.replace(b"\r\n", b"\n").split(b"\n\n"):
        for line in block.split(b"\n"):
            if not line.startswith(b"data:"):
                continue
            data = line[5:].strip()
            if not data.startswith(b"{"):
                continue
            j = json.loads(data)
            for c in j.get("choices") or []:
                t = (c.get("delta") or {}).get("content")
                if isinstance(t, str):
                    out.append(t)
                break
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("--lag-ms", type=float, default=1e9)
    ap.add_argument("--recorded", nargs="*", default=None,
                    help="the file's replies of turns 1.. (--history recorded)")
    a = ap.parse_args()
    reqs, results, chunks = {}, {}, {}
    with open(a.dump) as f:
        for line in f:
            r = json.loads(line)
            k = r.get("kind")
            if k == "request":
                reqs[r["id"]] = r
            elif k == "result":
                results[r["id"]] = r
            elif k == "chunk":
                b = (base64.b64decode(r["data_b64"]) if "data_b64" in r
                     else r["data"].encode())
                chunks.setdefault(r["request_id"], []).append(b)
    sessions = {}
    for r in reqs.values():
        if "session" not in r:
            sys.exit("request %d has no session" % r["id"])
        sessions.setdefault(r["session"], {})[r["turn"]] = r
    worst = 0.0
    checked = 0
    for sid, turns in sorted(sessions.items()):
        if sorted(turns) != list(range(1, len(turns) + 1)):
            sys.exit("session %d: turns %s" % (sid, sorted(turns)))
        for k in range(2, len(turns) + 1):
            prev, cur = turns[k - 1], turns[k]
            msgs = json.loads(cur["body"])["messages"]
            got = [m["content"] for m in msgs if m["role"] == "assistant"]
            if len(got) != k - 1:
                sys.exit("session %d turn %d: %d assistant messages, want %d"
                         % (sid, k, len(got), k - 1))
            if a.recorded is not None:
                want = a.recorded[k - 2]
            else:
                want = reply_text(b"".join(chunks.get(prev["id"], [])))
            if got[-1] != want:
                sys.exit("session %d turn %d: history has %r, turn %d's "
                         "reply was %r" % (sid, k, got[-1], k - 1, want))
            prev_msgs = json.loads(prev["body"])["messages"]
            if msgs[:len(prev_msgs)] != prev_msgs:
                sys.exit("session %d turn %d: the history does not start "
                         "with turn %d's messages" % (sid, k, k - 1))
            think = cur.get("think_ns", 0)
            lag = (cur["start_ns"] - results[prev["id"]]["end_ns"] - think) / 1e6
            if lag < 0:
                sys.exit("session %d turn %d: sent %.3f ms before its think "
                         "time was over" % (sid, k, -lag))
            if lag > a.lag_ms:
                sys.exit("session %d turn %d: sent %.3f ms after its think "
                         "time, bound %.1f" % (sid, k, lag, a.lag_ms))
            worst = max(worst, lag)
            checked += 1
    if checked == 0:
        sys.exit("no turn after a first one")
    print("%.3f" % worst)


main()
