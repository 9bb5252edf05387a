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

--pcap FILE --pcap-port PORT --mono-offset NS adds the second truth: the
capture time of the packet that carried each write's last byte
(pcap_times.py; NS = CLOCK_REALTIME - CLOCK_MONOTONIC while it ran), the
client's error against it (pcap_error_us) and how long after the send
log's stamp the packet left (wire_after_send_us).

Bursts (every stream's write seq k in the same step, replay align=TPOT):
per step, how far apart the server's sends and the client's receives are
(burst_send_spread_us, burst_recv_spread_us), and the error of the first
and the last write of a step in send order (burst_first_error_us,
burst_last_error_us): a queue on the client's side makes the last ones
late by the client's cost per chunk minus the server's.
"""
import argparse
import json
import math
import os
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


def first_at(times, cum_end):
    """The time of the first (t, cum) with cum >= cum_end, else None."""
    for t, cum in times:
        if cum >= cum_end:
            return t
    return None


def pcap_join(sends, chunks, wire):
    """Client minus packet time, and packet minus send time, per write."""
    client_err, after_send = [], []
    for rid, writes in sends.items():
        w = wire.get(rid)
        if not w:
            continue
        cl = chunks.get(rid) or []
        for _, t_send, cum_end in writes:
            tp = first_at(w, cum_end)
            if tp is None:
                continue
            after_send.append(tp - t_send)
            tc = first_at(cl, cum_end)
            if tc is not None:
                client_err.append(tc - tp)
    return client_err, after_send


def bursts(sends, chunks, min_streams=2):
    """Send and receive spreads per step, and the first and last writes'
    errors in send order (seq k of every stream is one step)."""
    steps = defaultdict(list)
    for rid, writes in sends.items():
        cl = chunks.get(rid) or []
        for seq, t_send, cum_end in writes:
            tc = first_at(cl, cum_end)
            if tc is not None:
                steps[seq].append((t_send, tc))
    send_spread, recv_spread, first, last = [], [], [], []
    for v in steps.values():
        if len(v) < min_streams:
            continue
        v.sort()
        send_spread.append(v[-1][0] - v[0][0])
        recv = [tc for _, tc in v]
        recv_spread.append(max(recv) - min(recv))
        first.append(v[0][1] - v[0][0])
        last.append(v[-1][1] - v[-1][0])
    return send_spread, recv_spread, first, last


def phase_errors(sends, chunks, tokens):
    """Errors of token writes 1..tokens-1, and of writes from seq tokens
    on (the stream's end)."""
    steady, tail = [], []
    for rid, writes in sends.items():
        cl = chunks.get(rid) or []
        for seq, t_send, cum_end in writes:
            tc = first_at(cl, cum_end)
            if tc is None or seq == 0:
                continue
            (steady if seq < tokens else tail).append(tc - t_send)
    return steady, tail


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
    ap.add_argument("--pcap")
    ap.add_argument("--pcap-port", type=int)
    ap.add_argument("--mono-offset", type=int, default=0)
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
    spread_s, spread_r, b_first, b_last = bursts(sends, chunks)
    if spread_s:
        out["burst_send_spread_us"] = dist_us(spread_s)
        out["burst_recv_spread_us"] = dist_us(spread_r)
        out["burst_first_error_us"] = dist_us(b_first)
        out["burst_last_error_us"] = dist_us(b_last)
    if a.pcap:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import pcap_times  # noqa: E402

        wire, counts = pcap_times.body_times(a.pcap, a.pcap_port)
        wire = {rid: [(t - a.mono_offset, c) for t, c in v]
                for rid, v in wire.items()}
        c_err, after = pcap_join(sends, chunks, wire)
        out["pcap_requests"] = counts["requests"]
        out["pcap_error_us"] = dist_us(c_err)
        out["wire_after_send_us"] = dist_us(after)
    if a.tokens:
        # where the tail is: the token steps after the first, and the
        # end of the stream (finish, usage and [DONE] writes, which leave
        # right after the last token while the client ends every stream)
        steady, tail = phase_errors(sends, chunks, a.tokens)
        out["token_steps_error_us"] = dist_us(steady)
        out["stream_end_error_us"] = dist_us(tail)
    if a.tpot_ms and a.tokens:
        out["send_jitter_us"] = dist_us(
            send_jitter(sends, int(a.tpot_ms * 1e6), a.tokens))
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
