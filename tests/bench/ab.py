#!/usr/bin/env python3
"""ab: one program against an older copy of itself, side by side in the same
run (docs/performance.md): the two versions alternate within every
repetition (the order flips each time), so a busy shared machine moves both
alike; the report gives each side's median and the median of the
per-repetition ratios new / old.

  ab.py --old DIR --new DIR --work DIR recorder [--streams N] [--reps R]
      tokentrace-record from DIR/bin/ of each side (the same, new, replay
      server for both): CPU per chunk, timestamp error, peak RSS and the
      footer's loop lag; open loop over a 1,050 ms start window like the
      main benchmark, or --closed (-c N), or --burst (-c N, every
      stream's tokens in phase: replay align=TPOT, as bench-burst).
  ab.py ... replay [--streams N]
      tokentrace-replay of each side, served to the C floor client: server
      CPU per body write, its lateness and the floor's error.
  ab.py ... idle [--seconds S]
      tokentrace-record at one stream of S + 1 tokens one second apart:
      CPU per second of recording (what the process costs while it waits).

--old-env/--new-env K=V add environment to one side's measured program (for
a build that reads an experiment switch). A side is a directory laid out like
a build tree: bin/tokentrace-record, bin/tokentrace-replay,
bin/tokentrace-analyze."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

TPOT_MS, TTFT_MS, WINDOW_MS = 50, 100, 1050


def say(msg):
    print("[%s load %.2f] %s" % (time.strftime("%H:%M:%S"), bl.loadavg(),
                                 msg), file=sys.stderr, flush=True)


def side_tools(new_dir, side_dir, work, what):
    """Tools whose program under test (what) comes from side_dir; the rest
    (server or analyzer) from new_dir."""
    t = bl.Tools(new_dir, work)
    if what in ("recorder", "idle"):
        t.record = bl.program(side_dir, "tokentrace-record")
    else:
        t.replay = bl.program(side_dir, "tokentrace-replay")
    return t


def env_of(pairs):
    return dict(p.split("=", 1) for p in pairs or [])


def idle_run(tools, work, seconds, env, tag):
    """CPU per second of a recorder that waits for tokens 1 s apart."""
    wl = os.path.join(work, "wl-idle.jsonl")
    with open(wl, "w") as f:
        f.write('{"class":"idle","prompt":"hello","max_tokens":%d}\n'
                % (seconds + 1))
    srv = bl.Replay(tools, work, "ttft=1ms,tpot=1000ms,tokens=%d"
                    % (seconds + 1), os.path.join(work, "sends-%s.tsv" % tag))
    out = os.path.join(work, "idle-%s.ttrace" % tag)
    load = bl.loadavg()
    ru = bl.run_rusage(tools, [tools.record, "-u", srv.url, "-m", "m", "-w",
                               wl, "-n", "1", "-c", "1", "-o", out, "--force",
                               "-q", "--progress", "never"],
                       env=dict(os.environ, **env) if env else None)
    srv.stop()
    cpu = ru["user_s"] + ru["sys_s"]
    return {"load": load, "wall_s": ru["wall_s"], "cpu_s": cpu,
            "cpu_ms_per_s": cpu * 1e3 / ru["wall_s"],
            "maxrss_kib": ru["maxrss_kib"], "rc": ru["rc"]}


def metrics(what, r):
    """The numbers a run is judged by."""
    if what == "idle":
        return {"cpu_ms_per_s": r["cpu_ms_per_s"]}
    ts = r["ts"]
    m = {"err_p50_us": ts["error_us"].get("p50"),
         "err_p99_us": ts["error_us"].get("p99"),
         "err_max_us": ts["error_us"].get("max")}
    if what == "recorder":
        m["cpu_us_per_chunk"] = r["cpu_us_per_chunk"]
        m["maxrss_mib"] = r["maxrss_kib"] / 1024.0
        lag = ts.get("self_loop_lag", {})
        if lag:
            m["loop_lag_samples"] = lag.get("samples")
            m["loop_lag_p99_us"] = lag.get("p99_ns", 0) / 1e3
    else:
        m["server_cpu_us_per_write"] = r["server_cpu_s"] * 1e6 / r["writes"]
        m["server_maxrss_mib"] = (r["server_maxrss_kib"] or 0) / 1024.0
        m["server_late_p99_us"] = ts.get("send_jitter_us", {}).get("p99")
    return m


def report(what, runs):
    """Medians per side and the median of the per-repetition ratios."""
    keys = list(metrics(what, runs[0]["raw"]).keys())
    lines = ["| metric | old (median) | new (median) | new / old (median of "
             "per-repetition ratios) |", "|---|---:|---:|---:|"]
    summary = {}
    for k in keys:
        old = [r["m"][k] for r in runs if r["side"] == "old"
               and r["m"].get(k) is not None]
        new = [r["m"][k] for r in runs if r["side"] == "new"
               and r["m"].get(k) is not None]
        ratios = []
        for rep in sorted({r["rep"] for r in runs}):
            o = [r["m"].get(k) for r in runs
                 if r["rep"] == rep and r["side"] == "old"]
            n = [r["m"].get(k) for r in runs
                 if r["rep"] == rep and r["side"] == "new"]
            if o and n and o[0] and n[0] is not None:
                ratios.append(n[0] / o[0])
        row = [statistics.median(old) if old else None,
               statistics.median(new) if new else None,
               statistics.median(ratios) if ratios else None]
        summary[k] = row
        lines.append("| %s | %s | %s | %s |" % (
            k, *("-" if v is None else "%.3g" % v for v in row)))
    loads = [r["raw"]["load"] for r in runs]
    lines.append("")
    lines.append("%d repetitions, load average %.1f-%.1f" % (
        len({r["rep"] for r in runs}), min(loads), max(loads)))
    return "\n".join(lines), summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["recorder", "replay", "idle"])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--streams", type=int, default=1000)
    ap.add_argument("--tokens", type=int, default=100)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=7)
    ap.add_argument("--closed", action="store_true")
    ap.add_argument("--burst", action="store_true")
    ap.add_argument("--old-env", action="append")
    ap.add_argument("--new-env", action="append")
    a = ap.parse_args()
    work = os.path.realpath(a.work)
    os.makedirs(work, exist_ok=True)
    sides = {"old": (os.path.realpath(a.old), env_of(a.old_env)),
             "new": (os.path.realpath(a.new), env_of(a.new_env))}
    runs = []
    for rep in range(a.reps):
        order = ["old", "new"] if rep % 2 == 0 else ["new", "old"]
        for side in order:
            d, env = sides[side]
            tools = side_tools(os.path.realpath(a.new), d, work, a.what)
            tag = "%s-%s-%d" % (a.what, side, rep)
            say("%s %s, rep %d" % (a.what, side, rep + 1))
            if a.what == "idle":
                r = idle_run(tools, work, a.seconds, env, tag)
            else:
                client = "recorder" if a.what == "recorder" else "raw"
                r = bl.measure_stream_run(
                    tools, work, client, a.streams, 1, a.tokens, TPOT_MS,
                    TTFT_MS, tag, window_ms=WINDOW_MS, env=env,
                    closed=a.closed or a.burst, burst=a.burst)
                r.pop("trace", None)
            runs.append({"side": side, "rep": rep, "raw": r,
                         "m": metrics(a.what, r)})
    table, summary = report(a.what, runs)
    title = "%s: %s" % (a.what, "%d s idle" % a.seconds if a.what == "idle"
                        else "%d streams x %d tokens, %s" % (
                            a.streams, a.tokens,
                            "bursts in phase" if a.burst else
                            "closed loop" if a.closed else "open loop"))
    print("### %s\n\n%s" % (title, table))
    with open(os.path.join(work, "ab-%s.json" % a.what), "w") as f:
        json.dump({"args": vars(a), "runs": runs, "summary": summary}, f,
                  indent=1)


if __name__ == "__main__":
    main()
