#!/usr/bin/env python3
"""ts_error: joins a client's receive times with tokentrace-replay's send log
(--log-sends) and prints the timestamp error distribution as JSON.

Matching (docs/performance.md): per X-Request-Id, a client chunk that ends at
cumulative body byte B completes every server write whose cumulative end is
<= B; a write's error is the time of the first client chunk whose cumulative
end >= the write's cumulative end, minus the server's send time. Both times
are CLOCK_MONOTONIC on the same host.

Client input, one of:
  --trace FILE --analyze BIN   a tokentrace trace (read via `BIN dump FILE`)
  --client FILE                TSV lines `rid <TAB> start <TAB> t_ns` and
                               `rid <TAB> chunk <TAB> t_ns <TAB> cum_end`
                               (ref_client.py, stamp.c)
Optional: --tpot-ms MS --tokens N also estimates the server's own send
jitter (actual minus schedule) for the token writes.
"""
import argparse
import json
import math
import subprocess
import sys
from collections import defaultdict


def percentile(sorted_vals, p):
    """Type 7 (numpy default) percentile of an already sorted list."""
    if not sorted_vals:
        return None
    k = (len(sorted_vals) - 1) * p / 100.0
    lo = math.floor(k)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (k - lo)


def dist_us(vals_ns):
    """Summary of a list of ns values, in microseconds."""
    v = sorted(vals_ns)
    if not v:
        return {"n": 0}
    out = {"n": len(v)}
    for name, p in (("p50", 50), ("p90", 90), ("p99", 99), ("p999", 99.9)):
        out[name] = round(percentile(v, p) / 1e3, 2)
    out["min"] = round(v[0] / 1e3, 2)
    out["max"] = round(v[-1] / 1e3, 2)
    out["mean"] = round(sum(v) / len(v) / 1e3, 2)
    return out


def read_sends(path):
    """rid -> list of (seq, t_ns, cum_end), in seq order. Replies to
    requests without an X-Request-Id (logged as "-": /_replay/stats polls)
    are left out."""
    sends = defaultdict(list)
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) != 5 or p[0] == "-":
                continue
            sends[p[0]].append((int(p[1]), int(p[2]), int(p[4])))
    for v in sends.values():
        v.sort()
    return sends


def read_trace(path, analyze):
    """From a trace: rid -> start_ns and rid -> [(t_ns, cum_end)], plus the
    chunk record sizes (offset deltas) and payload lengths for overhead,
    and the footer (the recorder's own loop_lag_* estimate lives there)."""
    starts, chunks = {}, defaultdict(list)
    footer = {}
    id_to_rid, cum = {}, defaultdict(int)
    overhead, payload = [], [0]
    prev = None  # (offset, payload len) of the previous record if a chunk
    proc = subprocess.Popen([analyze, "dump", path], stdout=subprocess.PIPE,
                            text=True)
    for line in proc.stdout:
        r = json.loads(line)
        if prev is not None:
            overhead.append(r["offset"] - prev[0] - prev[1])
            prev = None
        kind = r["kind"]
        if kind == "request":
            rid = r.get("request_id") or str(r["id"])
            id_to_rid[r["id"]] = rid
            starts[rid] = r["start_ns"]
        elif kind == "chunk":
            rid = id_to_rid.get(r["request_id"], str(r["request_id"]))
            cum[rid] += r["len"]
            chunks[rid].append((r["t_ns"], cum[rid]))
            prev = (r["offset"], r["len"])
            payload[0] += r["len"]
        elif kind == "footer":
            footer = r
    if proc.wait() != 0:
        sys.exit("ts_error: %s dump %s failed" % (analyze, path))
    return starts, chunks, overhead, payload[0], footer


def read_client(path):
    starts, chunks = {}, defaultdict(list)
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) >= 3 and p[1] == "start":
                starts[p[0]] = int(p[2])
            elif len(p) >= 4 and p[1] == "chunk":
                chunks[p[0]].append((int(p[2]), int(p[3])))
    for v in chunks.values():
        v.sort()
    return starts, chunks


def join(sends, starts, chunks):
    """Per-write errors, first-write (TTFT) errors, reported and true TTFT."""
    errs, first_errs, ttft_rep, ttft_true = [], [], [], []
    unmatched = 0
    for rid, writes in sends.items():
        cl = chunks.get(rid)
        if not cl:
            unmatched += len(writes)
            continue
        j = 0
        for seq, t_send, cum_end in writes:
            while j < len(cl) and cl[j][1] < cum_end:
                j += 1
            if j == len(cl):
                unmatched += 1
                continue
            e = cl[j][0] - t_send
            errs.append(e)
            if seq == 0:
                first_errs.append(e)
                if rid in starts:
                    ttft_rep.append(cl[j][0] - starts[rid])
                    ttft_true.append(t_send - starts[rid])
    return errs, first_errs, ttft_rep, ttft_true, unmatched


def send_jitter(sends, tpot_ns, tokens):
    """Server lateness per token write against a schedule t0 + i * tpot,
    t0 estimated as the earliest (t_i - i * tpot) of the stream: a lower
    bound of the true lateness (the least late write counts as 0)."""
    late = []
    for writes in sends.values():
        tok = [(s, t) for s, t, _ in writes if s < tokens]
        if len(tok) < 2:
            continue
        t0 = min(t - s * tpot_ns for s, t in tok)
        late.extend(t - s * tpot_ns - t0 for s, t in tok)
    return late


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sends", required=True)
    ap.add_argument("--trace")
    ap.add_argument("--analyze", default="tokentrace-analyze")
    ap.add_argument("--client")
    ap.add_argument("--tpot-ms", type=float)
    ap.add_argument("--tokens", type=int)
    a = ap.parse_args()
    sends = read_sends(a.sends)
    overhead, payload, footer = None, None, {}
    if a.trace:
        starts, chunks, overhead, payload, footer = read_trace(a.trace,
                                                               a.analyze)
    elif a.client:
        starts, chunks = read_client(a.client)
    else:
        ap.error("--trace or --client is required")
    errs, first, rep, true, unmatched = join(sends, starts, chunks)
    out = {
        "writes": sum(len(v) for v in sends.values()),
        "streams": len(sends),
        "client_chunks": sum(len(v) for v in chunks.values()),
        "unmatched": unmatched,
        "error_us": dist_us(errs),
        "first_token_error_us": dist_us(first),
        "ttft_reported_us": dist_us(rep),
        "ttft_true_us": dist_us(true),
    }
    lag = {k[len("loop_lag_"):]: v for k, v in footer.items()
           if k.startswith("loop_lag_")}
    if lag:
        out["self_loop_lag"] = lag
    probe = {k[len("wake_probe_"):]: v for k, v in footer.items()
             if k.startswith("wake_probe_")}
    if probe:
        out["self_wake_probe"] = probe
    if overhead:
        out["payload_bytes"] = payload
        out["chunk_record_overhead"] = {
            "n": len(overhead), "min": min(overhead), "max": max(overhead),
            "mean": round(sum(overhead) / len(overhead), 3)}
    if a.tpot_ms and a.tokens:
        out["send_jitter_us"] = dist_us(
            send_jitter(sends, int(a.tpot_ms * 1e6), a.tokens))
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
