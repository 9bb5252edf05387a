#!/usr/bin/env python3
"""compress: what zstd-framed traces cost and save (docs/performance.md).

  compress.py --build DIR --work DIR [--streams N] [--tokens T] [--reps R]

1. The demo (`make -f Makefile.helpers demo`: its two synthetic models, -n 4
   -c 4), recorded plain and with -o NAME.zst: sizes, bytes per chunk,
   and the shared copy (`share`) of each.
2. N streams at once (closed loop, -c N, N requests of T tokens each)
   against the replay server, recorded plain and compressed in alternation,
   R times (the order flips each repetition, so a busy machine moves both
   alike): the recorder's CPU (user + sys, getrusage) per run and per
   chunk, sizes and bytes per chunk, and the shared copies' sizes.
Prints a markdown table; raw numbers in WORK/compress.json."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

DEMO_SPEC = ("ttft=120ms,tpot=4ms,tokens=1024,ttft_per_1k=40ms,jitter=0.2;"
             "model=demo-large,ttft=300ms,tpot=9ms,tokens=1024,"
             "ttft_per_1k=90ms,jitter=0.2")


def chunks_of(tools, path):
    out = subprocess.run([tools.analyze, "check", path], capture_output=True,
                         text=True).stdout
    m = re.search(r"(\d+) chunks", out)
    return int(m.group(1)) if m else 0


def shared_sizes(tools, path, work, tag):
    sizes = {}
    for ext in ("ttrace", "ttrace.zst"):
        out = os.path.join(work, "shared-%s.%s" % (tag, ext))
        subprocess.check_call([tools.analyze, "share", path, "-o", out,
                               "--force"], stdout=subprocess.DEVNULL)
        sizes[ext] = os.path.getsize(out)
    return sizes


def record(tools, url, models, extra, out):
    cmd = [tools.record, "-u", url] + sum([["-m", m] for m in models], []) \
        + extra + ["-o", out, "--force", "-q", "--progress", "never"]
    ru = bl.run_rusage(tools, cmd)
    if ru["rc"] not in (0,):
        raise SystemExit("record failed (%s): %s" % (ru["rc"], " ".join(cmd)))
    return ru


def demo(tools, work):
    srv = bl.Replay(tools, work, DEMO_SPEC, os.path.join(work, "demo.tsv"))
    res = {}
    for ext in ("ttrace", "ttrace.zst"):
        out = os.path.join(work, "demo." + ext)
        record(tools, srv.url, ["demo-small", "demo-large"],
               ["-n", "4", "-c", "4", "--label", "run=demo"], out)
        res[ext] = {"bytes": os.path.getsize(out),
                    "chunks": chunks_of(tools, out)}
    srv.stop()
    res["shared"] = shared_sizes(tools, os.path.join(work, "demo.ttrace"),
                                 work, "demo")
    return res


def streams_run(tools, work, streams, tokens, reps):
    wl = os.path.join(work, "wl.jsonl")
    with open(wl, "w") as f:
        f.write('{"class":"c","messages":[{"role":"user","content":"Write a '
                'long story about a lighthouse keeper."}],"max_tokens":%d}\n'
                % tokens)
    srv = bl.Replay(tools, work, "ttft=200ms,tpot=20ms,tokens=%d" % tokens,
                    os.path.join(work, "sends.tsv"))
    runs = {"ttrace": [], "ttrace.zst": []}
    for rep in range(reps):
        order = ["ttrace", "ttrace.zst"]
        if rep % 2:
            order.reverse()
        for ext in order:
            out = os.path.join(work, "streams." + ext)
            load = bl.loadavg()
            ru = record(tools, srv.url, ["m"],
                        ["-w", wl, "-n", str(streams), "-c", str(streams)],
                        out)
            ch = chunks_of(tools, out)
            runs[ext].append({"cpu_s": ru["user_s"] + ru["sys_s"],
                              "wall_s": ru["wall_s"], "load": load,
                              "maxrss_kib": ru["maxrss_kib"], "chunks": ch,
                              "bytes": os.path.getsize(out)})
            print("  rep %d %s: cpu %.2f s, %d chunks, %d bytes (load %.1f)"
                  % (rep, ext, ru["user_s"] + ru["sys_s"], ch,
                     os.path.getsize(out), load), file=sys.stderr)
    srv.stop()
    ratios = [z["cpu_s"] / p["cpu_s"] for p, z in
              zip(runs["ttrace"], runs["ttrace.zst"])]
    diffs = [(z["cpu_s"] - p["cpu_s"]) / z["chunks"] * 1e6 for p, z in
             zip(runs["ttrace"], runs["ttrace.zst"])]
    shared = shared_sizes(tools, os.path.join(work, "streams.ttrace"), work,
                          "streams")
    return {"runs": runs, "cpu_ratio_median": statistics.median(ratios),
            "cpu_us_per_chunk_added_median": statistics.median(diffs),
            "shared": shared}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--streams", type=int, default=1000)
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args()
    tools = bl.Tools(a.build, a.work)
    d = demo(tools, a.work)
    s = streams_run(tools, a.work, a.streams, a.tokens, a.reps)
    with open(os.path.join(a.work, "compress.json"), "w") as f:
        json.dump({"demo": d, "streams": s}, f, indent=1)
    med = lambda ext, k: statistics.median(r[k] for r in s["runs"][ext])  # noqa
    print("| trace | plain | zstd frames | shared | shared, zstd |")
    print("|---|---|---|---|---|")
    for name, plain, zst, sh in (
            ("demo (24 requests, %d chunks)" % d["ttrace"]["chunks"],
             d["ttrace"]["bytes"], d["ttrace.zst"]["bytes"], d["shared"]),
            ("%d streams x %d tokens (%d chunks)"
             % (a.streams, a.tokens, med("ttrace", "chunks")),
             med("ttrace", "bytes"), med("ttrace.zst", "bytes"),
             s["shared"])):
        ch = d["ttrace"]["chunks"] if name.startswith("demo") else \
            med("ttrace", "chunks")
        print("| %s | %d B (%.0f B/chunk) | %d B (%.1f B/chunk, %.1fx) | "
              "%d B | %d B (%.1f B/chunk) |"
              % (name, plain, plain / ch, zst, zst / ch, plain / zst,
                 sh["ttrace"], sh["ttrace.zst"], sh["ttrace.zst"] / ch))
    print()
    print("| recorder at %d streams | plain | zstd | zstd / plain |"
          % a.streams)
    print("|---|---|---|---|")
    print("| CPU per run (median of %d) | %.2f s | %.2f s | %.3f |"
          % (a.reps, med("ttrace", "cpu_s"), med("ttrace.zst", "cpu_s"),
             s["cpu_ratio_median"]))
    print("| CPU per chunk | %.2f us | %.2f us | +%.2f us |"
          % (med("ttrace", "cpu_s") / med("ttrace", "chunks") * 1e6,
             med("ttrace.zst", "cpu_s") / med("ttrace.zst", "chunks") * 1e6,
             s["cpu_us_per_chunk_added_median"]))
    print("| peak RSS | %d KiB | %d KiB | |"
          % (med("ttrace", "maxrss_kib"), med("ttrace.zst", "maxrss_kib")))


if __name__ == "__main__":
    main()
