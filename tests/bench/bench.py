#!/usr/bin/env python3
"""bench: tokentrace's performance benchmark (docs/performance.md).

  bench.py --build DIR --work DIR            the full benchmark (~14 min)
  bench.py --build DIR --work DIR --quick    bench-quick (< 1 min): prints
                                             ratios against baseline.tsv
  ... --quick --write-baseline               stores this run as the baseline

Every measurement notes the load average; competitors run interleaved in
the same repetition (the client order rotates), and tables give medians of
the repetitions plus per-repetition ratios. Raw results go to
WORK/results.json, the tables to WORK/results.md and stdout."""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import bench_report as rep  # noqa: E402

TPOT_MS, TTFT_MS, TOKENS = 50, 100, 100
# Streams start spread over WINDOW_MS. 1,050 ms is 21 x tpot: stream i
# starts at i x 1050/N ms, so the N streams send at N distinct phases of
# the 50 ms period, evenly spread (a 1,000 ms window would give 20 streams
# per phase: bursts of 20 writes at once, the BURST rows).
WINDOW_MS = 1050
BURST_WINDOW_MS = 1000
LEVELS = [  # streams, requests per stream, clients, start window ms
    (1, 3, ["recorder", "raw", "python", "curl"], 0),
    (100, 1, ["recorder", "raw", "python"], WINDOW_MS),
    (1000, 1, ["recorder", "raw", "python"], WINDOW_MS),
]
BURST = [(1000, 1, ["recorder", "raw"], BURST_WINDOW_MS)]
BIG = [(2000, 1, ["recorder", "raw"], WINDOW_MS)]
SIZES = [0, 10**4, 10**5, 10**6, 10**7]  # chunk records (requests x 100);
# 0 is a trace with a header and a footer only: the analyzer's fixed cost


def say(msg):
    print("[%s load %.2f] %s" % (time.strftime("%H:%M:%S"), bl.loadavg(),
                                 msg), file=sys.stderr, flush=True)


def rotate(xs, k):
    k %= len(xs)
    return xs[k:] + xs[:k]


def startup_runs(tools, work, clients, reps):
    """Each client's fixed cost: one stream, one request, one token, no
    TTFT (process start, libraries, one connection). bench_report
    subtracts its median CPU to give the marginal CPU per chunk."""
    runs = []
    for r in range(reps):
        for c in rotate(clients, r):
            say("startup cost: %s, rep %d" % (c, r + 1))
            x = bl.measure_stream_run(tools, work, c, 1, 1, 1, TPOT_MS, 0,
                                      "startup-%s-%d" % (c, r))
            x["rep"] = r
            x.pop("trace", None)
            runs.append(x)
    return runs


def stream_runs(tools, work, levels, reps, tokens, poll=False):
    """Timestamp runs, interleaved: each repetition runs every level and
    every client of the level in a rotated order."""
    runs = []
    for r in range(reps):
        for streams, nreq, clients, window in levels:
            for c in rotate(clients, r):
                tag = "%d-%s-%d-w%d" % (streams, c, r, window)
                say("timestamp: %d streams (start window %d ms), %s, rep %d"
                    % (streams, window, c, r + 1))
                x = bl.measure_stream_run(
                    tools, work, c, streams, nreq, tokens, TPOT_MS, TTFT_MS,
                    tag, window_ms=window, poll=poll)
                x["rep"] = r
                if c == "recorder":
                    x["summary"] = analyzer_view(tools, x.pop("trace"))
                runs.append(x)
    return runs


def analyzer_view(tools, trace):
    """What tokentrace-analyze says about a recorded trace: request counts
    and its TTFT percentiles (ms)."""
    s = json.loads(subprocess.check_output(
        [tools.analyze, "summary", "--format", "json", trace]))
    o = s["overall"]
    return {"requests": o.get("requests"), "ok": o.get("ok"),
            "ttft_ms": o.get("ttft_ms")}


def analyzer_runs(tools, work, sizes, reps):
    """summary over gen_trace traces of each size, sizes interleaved."""
    files = {}
    for n in sizes:
        path = os.path.join(work, "gen-%d.ttrace" % n)
        if not os.path.exists(path):
            say("gen_trace: %d chunks" % n)
            subprocess.check_call([tools.gen_trace, path, str(n // 100),
                                   "99", "100", "50"],
                                  stdout=subprocess.DEVNULL)
        files[n] = path
    runs = []
    for r in range(reps):
        for n in rotate(sizes, r):
            say("analyzer summary: %d chunks, rep %d" % (n, r + 1))
            load = bl.loadavg()
            ru = bl.run_rusage(tools, [tools.analyze, "summary", files[n]],
                               stdout=subprocess.DEVNULL)
            cpu = ru["user_s"] + ru["sys_s"]
            runs.append({"chunks": n, "rep": r, "load": load,
                         "bytes": os.path.getsize(files[n]),
                         "wall_s": ru["wall_s"], "cpu_s": cpu,
                         "maxrss_kib": ru["maxrss_kib"], "rc": ru["rc"],
                         "chunks_per_cpu_s": n / cpu if n else None,
                         "chunks_per_wall_s": n / ru["wall_s"] if n else None})
    return runs


def source_state():
    """HEAD commit and the newest source file time: the numbers belong to
    the tree as it was built (read-only git call)."""
    root = os.path.dirname(os.path.dirname(bl.HERE))
    try:
        head = subprocess.check_output(["git", "-C", root, "rev-parse",
                                        "--short", "HEAD"], text=True,
                                       stderr=subprocess.DEVNULL).strip()
    except (OSError, subprocess.CalledProcessError):
        head = "?"
    newest = max(os.path.getmtime(os.path.join(d, f))
                 for sub in ("record", "analyze", "common")
                 for d, _dirs, files in os.walk(os.path.join(root, sub))
                 for f in files if f.endswith((".c", ".h")))
    return "HEAD %s, newest source %s" % (
        head, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(newest)))


def machine():
    with open("/proc/cpuinfo") as f:
        model = next((ln.split(":", 1)[1].strip() for ln in f
                      if ln.startswith("model name")), "?")
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 30
    return {"cpu": model, "cores": os.cpu_count(), "mem_gib": mem,
            "kernel": platform.release(),
            "curl": subprocess.check_output(["curl", "--version"],
                                            text=True).split("\n")[0],
            "python": platform.python_version(), "nice": os.nice(0),
            "source": source_state(),
            "date": time.strftime("%Y-%m-%d %H:%M %Z")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--reps", type=int, default=5,
                    help="repetitions of the 1/100/1000-stream runs (the "
                    "startup, 2,000-stream and analyzer parts use 3)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--write-baseline", action="store_true")
    ap.add_argument("--baseline",
                    default=os.path.join(bl.HERE, "baseline.tsv"))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    tools = bl.Tools(a.build, a.work)
    res = {"machine": machine(), "tokens": TOKENS, "tpot_ms": TPOT_MS,
           "ttft_ms": TTFT_MS, "window_ms": WINDOW_MS,
           "burst_window_ms": BURST_WINDOW_MS,
           "load_start": bl.loadavg()}
    if a.quick:
        res["startup"] = startup_runs(tools, a.work, ["recorder", "raw"], 1)
        res["streams"] = stream_runs(
            tools, a.work, [(100, 1, ["recorder", "raw"], WINDOW_MS)], 3, 60)
        res["analyzer"] = analyzer_runs(tools, a.work, [0, 10**6], 5)
        res["load_end"] = bl.loadavg()
        q = rep.quick_metrics(res)
        print(rep.quick_table(q, rep.read_baseline(a.baseline)))
        if a.write_baseline:
            rep.write_baseline(a.baseline, q, res)
            print("baseline written to %s" % a.baseline)
    else:
        small = min(a.reps, 3)
        res["startup"] = startup_runs(tools, a.work,
                                      ["recorder", "raw", "python", "curl"],
                                      small)
        res["streams"] = stream_runs(tools, a.work, LEVELS, a.reps, TOKENS)
        res["burst"] = stream_runs(tools, a.work, BURST, small, TOKENS)
        res["big"] = stream_runs(tools, a.work, BIG, small, TOKENS, poll=True)
        res["analyzer"] = analyzer_runs(tools, a.work, SIZES, small)
        res["load_end"] = bl.loadavg()
        md = rep.full_report(res)
        with open(os.path.join(a.work, "results.md"), "w") as f:
            f.write(md)
        print(md)
    with open(os.path.join(a.work, "results.json"), "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
