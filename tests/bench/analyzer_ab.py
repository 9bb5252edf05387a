#!/usr/bin/env python3
"""analyzer_ab: `tokentrace-analyze summary` before and after a change, side
by side in one run (docs/performance.md, "Analyzer").

  analyzer_ab.py --build DIR --work DIR [--base BIN] [--sizes 0,100000,...]
                 [--trace FILE]... [--reps 5]

Variants, interleaved within every repetition (their order rotates):
  before   --base BIN, an analyzer built from an older tree (optional)
  general  this build with TOKENTRACE_NO_FAST_PATH=1 (the trace reader's
           general path and cJSON for every event)
  now      this build as shipped
Each run is one process under tests/bench/rusage (CPU = user + sys from
wait4, peak RSS of the process). The table gives medians over the
repetitions; "beyond startup" subtracts the median of the 0-record trace
(header and footer only) of the same variant. Traces come from gen_trace
(R requests x 100 chunk records: 99 tokens + usage, as in bench.py) and
stay in WORK for the next run; --trace adds a recorded trace (its chunk
count from `info`). Raw numbers go to WORK/analyzer_ab.json."""
import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402


def say(msg):
    print("[%s load %.2f] %s" % (time.strftime("%H:%M:%S"), bl.loadavg(),
                                 msg), file=sys.stderr, flush=True)


def gen_traces(tools, work, sizes):
    """[(chunks, path)] of gen_trace traces of the given sizes."""
    files = []
    for n in sizes:
        path = os.path.join(work, "gen-%d.ttrace" % n)
        if not os.path.exists(path):
            say("gen_trace: %d chunks" % n)
            subprocess.check_call([tools.gen_trace, path, str(n // 100),
                                   "99", "100", "50"],
                                  stdout=subprocess.DEVNULL)
        files.append((n, path))
    return files


def trace_chunks(tools, path):
    """The chunk count `info` reports for a recorded trace."""
    out = subprocess.check_output([tools.analyze, "info", path], text=True)
    return sum(int(m.group(1)) for m in
               re.finditer(r"^\| chunks \| (\d+)", out, re.M))


def run_variants(tools, variants, files, reps):
    runs = []
    for r in range(reps):
        for n, path in files:
            k = r % len(variants)
            for name, exe, env in variants[k:] + variants[:k]:
                load = bl.loadavg()
                ru = bl.run_rusage(tools, [exe, "summary", path],
                                   stdout=subprocess.DEVNULL, env=env)
                if ru["rc"] != 0:
                    raise SystemExit("%s exited %s on %s" % (name, ru["rc"],
                                                             path))
                runs.append({"variant": name, "chunks": n, "file": path,
                             "rep": r,
                             "load": load, "wall_s": ru["wall_s"],
                             "cpu_s": ru["user_s"] + ru["sys_s"],
                             "user_s": ru["user_s"], "sys_s": ru["sys_s"],
                             "maxrss_kib": ru["maxrss_kib"]})
        say("repetition %d of %d done" % (r + 1, reps))
    return runs


def fmt(x, digits=0):
    if x is None:
        return "-"
    return "{:,.{}f}".format(x, digits)


def table(runs, names, files):
    def med(name, path, key):
        return bl.median([x[key] for x in runs
                          if x["variant"] == name and x["file"] == path])
    empty = files[0][1]  # the 0-record trace: fixed costs
    lines = ["| chunk records | file MiB | variant | reps | CPU s | "
             "records/CPU-s | ns CPU per record beyond startup | wall s | "
             "peak RSS MiB | RSS bytes/record beyond startup | CPU ÷ first "
             "variant | load |",
             "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for n, path in files:
        first_cpu = med(names[0], path, "cpu_s")
        label = fmt(n) if "/gen-" in path else "%s (%s)" % (
            fmt(n), os.path.basename(path))
        for name in names:
            xs = [x for x in runs if x["variant"] == name and x["file"] == path]
            cpu, wall = med(name, path, "cpu_s"), med(name, path, "wall_s")
            rss = med(name, path, "maxrss_kib")
            cpu0, rss0 = med(name, empty, "cpu_s"), med(name, empty,
                                                        "maxrss_kib")
            per = beyond = None
            if n and cpu0 is not None:
                per = (cpu - cpu0) / n * 1e9
                beyond = (rss - rss0) * 1024 / n
            loads = [x["load"] for x in xs]
            lines.append("| %s | %.1f | %s | %d | %.3f | %s | %s | %.3f | "
                         "%.1f | %s | %s | %.1f-%.1f |" % (
                             label, os.path.getsize(path) / 2**20, name,
                             len(xs), cpu, fmt(n / cpu if n else None),
                             fmt(per), wall, rss / 1024, fmt(beyond, 1),
                             "%.2f" % (cpu / first_cpu) if first_cpu else "-",
                             min(loads), max(loads)))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--base", help="tokentrace-analyze of the older tree")
    ap.add_argument("--sizes", default="0,100000,1000000")
    ap.add_argument("--trace", action="append", default=[],
                    help="a recorded trace to measure too (repeatable)")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    tools = bl.Tools(a.build, a.work)
    sizes = [int(s) for s in a.sizes.split(",")]
    if 0 not in sizes:
        sizes.insert(0, 0)
    files = gen_traces(tools, a.work, sizes)
    files += [(trace_chunks(tools, t), os.path.abspath(t)) for t in a.trace]
    plain = {k: v for k, v in os.environ.items()
             if k != "TOKENTRACE_NO_FAST_PATH"}
    variants = []
    if a.base:
        variants.append(("before", os.path.abspath(a.base), plain))
    variants.append(("general", tools.analyze,
                     dict(plain, TOKENTRACE_NO_FAST_PATH="1")))
    variants.append(("now", tools.analyze, plain))
    say("analyzer A/B: %s, sizes %s, %d repetitions"
        % (", ".join(v[0] for v in variants), a.sizes, a.reps))
    start_load = bl.loadavg()
    runs = run_variants(tools, variants, files, a.reps)
    res = {"date": time.strftime("%Y-%m-%d %H:%M %Z"),
           "load_start": start_load, "load_end": bl.loadavg(),
           "variants": [v[0] for v in variants],
           "base": a.base, "runs": runs}
    with open(os.path.join(a.work, "analyzer_ab.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(table(runs, [v[0] for v in variants], files))


if __name__ == "__main__":
    main()
