#!/usr/bin/env python3
"""burst: the benchmark's burst rows (docs/performance.md, "Bursts in
phase"). N streams whose tokens all leave in the same loop turn of the
replay server (--synthetic ...,align=TPOT: every stream on one grid), as a
batching server emits one step's token for every sequence of the batch at
once. Per level, interleaved and in a rotated order per repetition:

  rec-spin  tokentrace-record, keep-awake spin (the default), pinned to CPU 0
  rec-poll  tokentrace-record --keep-awake poll, pinned to CPU 0
  rec-off   tokentrace-record --no-keep-awake (not pinned)
  raw-ka    the raw epoll floor (raw_client.c) on CPU 0 with a SCHED_IDLE
            spinner of its own on CPU 0 (the floor gets keep-awake too)
  raw       the raw epoll floor, not pinned
  python    the Python reference (ref_client.py: requests, a thread per
            stream), not pinned

The replay server runs with keep-awake spin on CPU 1 (the sending side
kept to the same precision). Each row: the true per-chunk error (client
receive time minus the server's send time from --log-sends, ts_error.py),
the client's CPU, and for the recorder its self-check p99 (the wake-up
probe, the loop lag) against the true p99.

  burst.py --build DIR --work DIR [--reps 2] [--levels 16,64,256,1000]
           [--clients rec-spin,...] [--tokens 100] [--tpot-ms 50]
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

CLIENTS = ["rec-spin", "rec-poll", "rec-off", "raw-ka", "raw", "python"]
SPINNER = ["chrt", "-i", "0", "sh", "-c", "while :; do :; done"]


def say(msg):
    print("[%s load %.2f] %s" % (time.strftime("%H:%M:%S"), bl.loadavg(),
                                 msg), file=sys.stderr, flush=True)


def client_cmd(tools, client, url, port, streams, out, wl):
    """The command of one burst run: every stream starts at once."""
    if client.startswith("rec-"):
        mode = client[4:]
        cmd = [tools.record, "-u", url, "-m", "m", "-w", wl,
               "-n", str(streams), "-c", str(streams), "-o", out, "--force",
               "-q", "--progress", "never", "--keep-awake", mode]
        return cmd + (["--keep-awake-cpu", "0"] if mode != "off" else [])
    if client in ("raw", "raw-ka"):
        cmd = [tools.raw_client, str(port), str(streams), "1", "raw",
               bl.CHAT_BODY, out, "0"]
        return (["taskset", "-c", "0"] + cmd) if client == "raw-ka" else cmd
    if client == "python":
        return ["python3", tools.ref_client, url, str(streams), "1", "py",
                out, "0"]
    raise ValueError(client)


def one_run(tools, work, client, streams, tokens, tpot_ms, tag):
    spec = "ttft=100ms,tpot=%dms,tokens=%d,align=%dms" % (tpot_ms, tokens,
                                                           tpot_ms)
    sends = os.path.join(work, "bsends-%s.tsv" % tag)
    rec = client.startswith("rec-")
    out = os.path.join(work, "b-%s%s" % (tag, ".ttrace" if rec else ".tsv"))
    wl = os.path.join(work, "wl-burst.jsonl")
    with open(wl, "w") as f:
        f.write('{"class":"bench","prompt":"hello","max_tokens":%d}\n' %
                tokens)
    load0 = bl.loadavg()
    srv = bl.Replay(tools, work, spec, sends,
                    ["--keep-awake", "spin", "--keep-awake-cpu", "1"])
    spin = None
    if client == "raw-ka":
        spin = subprocess.Popen(["taskset", "-c", "0"] + SPINNER)
    try:
        ru = bl.run_rusage(tools, client_cmd(tools, client, srv.url,
                                             srv.port, streams, out, wl))
    finally:
        if spin:
            spin.kill()
            spin.wait()
    srv.stop()
    e = bl.ts_error(tools, sends, "recorder" if rec else client, out,
                    tpot_ms, tokens)
    cpu = ru["user_s"] + ru["sys_s"]
    r = {"client": client, "streams": streams, "load": load0,
         "load_end": bl.loadavg(), "rc": ru["rc"], "wall_s": ru["wall_s"],
         "cpu_s": round(cpu, 3), "chunks": e["client_chunks"],
         "unmatched": e["unmatched"], "err_us": e["error_us"],
         "send_jitter_us": e.get("send_jitter_us"),
         "server_cpu_s": round(srv.cpu_s, 3)}
    for key in ("self_wake_probe", "self_loop_lag"):
        if key in e:
            r[key] = e[key]
    for p in (out, sends):
        os.unlink(p)
    return r


def fmt(x, nd=0):
    return "-" if x is None else ("%.*f" % (nd, x))


def table(runs, levels, clients):
    """Medians over the repetitions, one row per level and client, and the
    self-check p99 against the true p99."""
    lines = ["| streams | client | err p50 us | err p99 us | err max us | "
             "p99 / rec-spin | self-check p99 us (probe / loop) | "
             "self / true p99 | client CPU s | load |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for n in levels:
        base = bl.median([r["err_us"].get("p99") for r in runs
                          if r["streams"] == n and r["client"] == "rec-spin"])
        for c in clients:
            rs = [r for r in runs if r["streams"] == n and r["client"] == c]
            if not rs:
                continue
            p50 = bl.median([r["err_us"].get("p50") for r in rs])
            p99 = bl.median([r["err_us"].get("p99") for r in rs])
            mx = bl.median([r["err_us"].get("max") for r in rs])
            probe = bl.median([r["self_wake_probe"]["p99_ns"] / 1e3
                               for r in rs if "self_wake_probe" in r])
            loop = bl.median([r["self_loop_lag"]["p99_ns"] / 1e3
                              for r in rs if "self_loop_lag" in r])
            ratios = [r["self_wake_probe"]["p99_ns"] / 1e3 / r["err_us"]["p99"]
                      for r in rs if "self_wake_probe" in r and
                      r["err_us"].get("p99")]
            self_col = "-" if probe is None else "%s / %s" % (fmt(probe),
                                                             fmt(loop))
            ratio = "-" if not ratios else " ".join(
                "%.2f" % x for x in ratios)
            lines.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | "
                         "%s-%s |" % (
                             n, c, fmt(p50, 1), fmt(p99, 1), fmt(mx),
                             fmt(p99 / base if base and p99 else None, 2),
                             self_col, ratio,
                             fmt(bl.median([r["cpu_s"] for r in rs]), 2),
                             fmt(min(r["load"] for r in rs), 1),
                             fmt(max(r["load_end"] for r in rs), 1)))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--levels", default="16,64,256,1000")
    ap.add_argument("--clients", default=",".join(CLIENTS))
    ap.add_argument("--tokens", type=int, default=100)
    ap.add_argument("--tpot-ms", type=int, default=50)
    a = ap.parse_args()
    levels = [int(x) for x in a.levels.split(",")]
    clients = a.clients.split(",")
    tools = bl.Tools(a.build, a.work)
    res = {"date": time.strftime("%Y-%m-%d %H:%M %Z"),
           "load_start": bl.loadavg(), "levels": levels,
           "tokens": a.tokens, "tpot_ms": a.tpot_ms, "runs": []}
    for rep in range(a.reps):
        for n in levels:
            k = (rep + levels.index(n)) % len(clients)
            for c in clients[k:] + clients[:k]:
                tag = "%d-%s-%d" % (n, c, rep)
                say("burst: %d streams in phase, %s, rep %d" % (n, c,
                                                               rep + 1))
                res["runs"].append(one_run(tools, a.work, c, n, a.tokens,
                                           a.tpot_ms, tag))
    res["load_end"] = bl.loadavg()
    md = table(res["runs"], levels, clients)
    with open(os.path.join(a.work, "burst.json"), "w") as f:
        json.dump(res, f, indent=1)
    with open(os.path.join(a.work, "burst.md"), "w") as f:
        f.write(md + "\n")
    print("load %.1f at the start, %.1f at the end; %s" % (
        res["load_start"], res["load_end"], res["date"]))
    print(md)


if __name__ == "__main__":
    main()
