#!/usr/bin/env python3
"""burst: the benchmark's burst rows (docs/performance.md, "Kernel chunk
times, bursts in phase"). N streams whose tokens all leave in the same
loop turn of the replay server (--synthetic ...,align=TPOT: every stream
on one grid), as a batching server emits one step's token for every
sequence of the batch at once. Per level, interleaved and in a rotated
order per repetition:

  rec-auto  tokentrace-record with the default keep-awake (auto: spins only
            while it measures that it hurts no one; not given a CPU)
  rec-spin  tokentrace-record, keep-awake spin, pinned to CPU 0,
            chunk times from the kernel (--chunk-time kernel, the default)
  rec-user  the same with --chunk-time user: times taken when libcurl hands
            the bytes over (every recorder before kernel times)
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

For each recorder run the analyzer's verdict is kept: the words its
summary ends its header with (`kernel times`, `reads merged`, `self-check
ok`, ...) and, for kernel chunk times, the footer's receive lag p99 that
decides "reads merged" (column "summary says").

A second truth, at levels up to --pcap-max (64): tcpdump captures the
loopback traffic (nanosecond stamps) and each write's packet time gives
the client's error against the packet (pcap err) and how long the packet
left after the send log's stamp (wire after send). Burst columns: the
spread of one step's sends and the error of the last write of a step
minus the first's (the queue inside a burst).

--neighbour off,on repeats every level with a CPU-bound neighbour: a
`nice 0` busy loop pinned to each CPU (rows marked "nb"); `late` starts
the same loops, not pinned, 0.3 s after the client (rows "late": a local
server that becomes CPU-bound once the requests arrive, issue 29). Each
recorder row also gives its peak RSS over the streams (KiB per stream:
(peak RSS - 8 MiB) / streams) and, for rec-auto, what auto did (the
header's start mode, the footer's end mode and changes).

--sched fifo runs the server and the client (not this script, the capture
or the neighbours) at SCHED_FIFO priority 10 (chrt -f 10, root): on a
machine other people load, the measured pair then runs as on a quiet one,
which separates what the bench setup costs from what the load costs. The
neighbour rows keep their meaning only with the default, other.

  burst.py --build DIR --work DIR [--reps 2] [--levels 16,64,256,1000]
           [--clients rec-spin,...] [--tokens 100] [--tpot-ms 50]
           [--pcap-max 64] [--neighbour off|on|off,on] [--sched other|fifo]
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402

CLIENTS = ["rec-auto", "rec-spin", "rec-user", "rec-poll", "rec-off", "raw-ka",
           "raw", "python"]
SPINNER = ["chrt", "-i", "0", "sh", "-c", "while :; do :; done"]


def say(msg):
    print("[%s load %.2f] %s" % (time.strftime("%H:%M:%S"), bl.loadavg(),
                                 msg), file=sys.stderr, flush=True)


def mono_offset_ns():
    """CLOCK_REALTIME - CLOCK_MONOTONIC, from the closest of a few reads
    (pcap stamps are REALTIME, the send log and traces MONOTONIC)."""
    best = None
    for _ in range(20):
        m0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        r = time.clock_gettime_ns(time.CLOCK_REALTIME)
        m1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        if best is None or m1 - m0 < best[0]:
            best = (m1 - m0, r - (m0 + m1) // 2)
    return best[1]


class Capture:
    """tcpdump on lo for one port, nanosecond stamps, until stop()."""

    def __init__(self, path, port):
        self.path = path
        self.err = path + ".err"
        with open(self.err, "w") as e:
            self.proc = subprocess.Popen(
                ["tcpdump", "-i", "lo", "-w", path, "-n", "-s", "0",
                 "-B", "65536", "--time-stamp-precision=nano",
                 "tcp port %d" % port], stderr=e, stdout=subprocess.DEVNULL)
        for _ in range(250):  # it says "listening on lo" once it captures
            with open(self.err) as e:
                if "listening on" in e.read():
                    break
            time.sleep(0.02)

    def stop(self):
        """Stops tcpdump (SIGINT flushes the file); the kernel's drop
        count, or -1 when tcpdump did not say. Packets wait in the
        capture ring up to tcpdump's 1 s buffer timeout (not immediate
        mode, which would wake it per packet beside the measured pair),
        and SIGINT does not drain the ring: give them that second."""
        time.sleep(1.2)
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait()
        with open(self.err) as e:
            for line in e:
                if "dropped by kernel" in line:
                    return int(line.split()[0])
        return -1


def neighbours(pinned=True):
    """A `nice 0` busy loop per CPU (a CPU-bound neighbour), each pinned
    to its CPU, or free to move (pinned False)."""
    return [subprocess.Popen((["taskset", "-c", str(c)] if pinned else []) +
                             ["chrt", "-o", "0", "nice", "-n", "0", "sh",
                              "-c", "while :; do :; done"])
            for c in sorted(os.sched_getaffinity(0))]


class LateNeighbours:
    """neighbours(pinned=False), started after delay_s (a server that
    becomes CPU-bound once the requests arrive)."""

    def __init__(self, delay_s):
        self.procs = []
        self.timer = threading.Timer(delay_s, self.start)
        self.timer.start()

    def start(self):
        self.procs = neighbours(pinned=False)

    def kill(self):
        self.timer.cancel()
        for p in self.procs:
            p.kill()
            p.wait()


def client_cmd(tools, client, url, port, streams, out, wl):
    """The command of one burst run: every stream starts at once."""
    if client.startswith("rec-"):
        mode = "spin" if client == "rec-user" else client[4:]
        cmd = [tools.record, "-u", url, "-m", "m", "-w", wl,
               "-n", str(streams), "-c", str(streams), "-o", out, "--force",
               "-q", "--progress", "never", "--keep-awake", mode]
        if client == "rec-user":
            cmd += ["--chunk-time", "user"]
        return cmd + (["--keep-awake-cpu", "0"] if mode in ("spin", "poll")
                      else [])
    if client in ("raw", "raw-ka"):
        cmd = [tools.raw_client, str(port), str(streams), "1", "raw",
               bl.CHAT_BODY, out, "0"]
        return (["taskset", "-c", "0"] + cmd) if client == "raw-ka" else cmd
    if client == "python":
        return ["python3", tools.ref_client, url, str(streams), "1", "py",
                out, "0"]
    raise ValueError(client)


def one_run(tools, work, client, streams, tokens, tpot_ms, tag, pcap,
            neighbour, wrap):
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
                    ["--keep-awake", "spin", "--keep-awake-cpu", "1"], wrap)
    spin = []
    if client == "raw-ka":
        spin.append(subprocess.Popen(["taskset", "-c", "0"] + SPINNER))
    late = None
    if neighbour == "late":
        late = LateNeighbours(0.3)
    elif neighbour:
        spin += neighbours()
    cap = Capture(os.path.join(work, "b-%s.pcap" % tag), srv.port) \
        if pcap else None
    offset = mono_offset_ns()
    try:
        ru = bl.run_rusage(tools, wrap + client_cmd(tools, client, srv.url,
                                                    srv.port, streams, out,
                                                    wl))
    finally:
        for p in spin:
            p.kill()
            p.wait()
        if late:
            late.kill()
    srv.stop()
    drops = cap.stop() if cap else None
    extra = ["--pcap", cap.path, "--pcap-port", str(srv.port),
             "--mono-offset", str(offset)] if cap else None
    e = bl.ts_error(tools, sends, "recorder" if rec else client, out,
                    tpot_ms, tokens, extra)
    cpu = ru["user_s"] + ru["sys_s"]
    r = {"client": client, "streams": streams, "load": load0,
         "load_end": bl.loadavg(), "rc": ru["rc"], "wall_s": ru["wall_s"],
         "cpu_s": round(cpu, 3), "chunks": e["client_chunks"],
         "unmatched": e["unmatched"], "err_us": e["error_us"],
         "send_jitter_us": e.get("send_jitter_us"),
         "server_cpu_s": round(srv.cpu_s, 3),
         "maxrss_kib": ru["maxrss_kib"]}
    r["neighbour"] = neighbour
    for key in ("self_wake_probe", "self_loop_lag", "pcap_error_us",
                "wire_after_send_us", "burst_send_spread_us",
                "token_steps_error_us", "stream_end_error_us",
                "first_token_error_us",
                "burst_first_error_us", "burst_last_error_us"):
        if key in e:
            r[key] = e[key]
    if rec:
        r.update(summary_verdict(tools, out))
        r["awake"] = awake_story(tools, out)
    if cap:
        r["pcap_drops"] = drops
        os.unlink(cap.path)
        os.unlink(cap.err)
    for p in (out, sends):
        os.unlink(p)
    return r


VERDICTS = ("self-check failed", "reads merged",
            "self-check untrusted (bursts)", "self-check ok", "kernel times")


def summary_verdict(tools, trace):
    """What the analyzer's summary says of a recorder trace: its header
    line's self-check words and, for kernel chunk times, the receive lag
    p99 (us) that decides "reads merged"."""
    txt = subprocess.run([tools.analyze, "summary", "--width", "400", trace],
                         capture_output=True, text=True).stdout
    first = txt.split("\n", 1)[0]
    words = next((v for v in VERDICTS if first.endswith(", " + v)), "-")
    js = subprocess.run([tools.analyze, "summary", "--format", "json", trace],
                        capture_output=True, text=True).stdout
    out = {"verdict": words}
    try:
        t = json.loads(js)["traces"][0]
        lag = t.get("recorder_receive_lag_ms")
        if lag:
            out["receive_lag_p99_us"] = lag["p99"] * 1e3
    except (ValueError, KeyError, IndexError):
        pass
    return out


def awake_story(tools, trace):
    """What keep-awake did: the header's mode at the start, and for auto
    the footer's end mode and changes ("spin>off 3")."""
    txt = subprocess.run([tools.analyze, "dump", trace], capture_output=True,
                         text=True).stdout
    start, end, n = "?", None, 0
    for line in txt.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("kind") == "header":
            start = rec.get("options", {}).get("keep_awake", "?")
        elif rec.get("kind") == "footer" and "keep_awake_end" in rec:
            end, n = rec["keep_awake_end"], rec.get("keep_awake_changes", 0)
    return start if end is None else "%s>%s %d" % (start, end, n)


def fmt(x, nd=0):
    return "-" if x is None else ("%.*f" % (nd, x))


def self_check_us(r):
    """The recorder's self-check p99 as its summary states it: the larger
    of the wake-up probe's and the loop lag's p99 (None: not a recorder)."""
    if "self_wake_probe" not in r:
        return None
    return max(r["self_wake_probe"]["p99_ns"],
               r.get("self_loop_lag", {}).get("p99_ns", 0)) / 1e3


def dist(rs, key, p):
    return bl.median([r[key].get(p) for r in rs if key in r])


def ratios(rs, key):
    """self-check p99 / the truth's p99 per repetition."""
    return " ".join("%.2f" % (self_check_us(r) / r[key]["p99"])
                    for r in rs if self_check_us(r) is not None and
                    key in r and r[key].get("p99"))


def verdicts(rs):
    """The summary's words per repetition, with the receive lag p99."""
    out = []
    for r in rs:
        if "verdict" not in r:
            continue
        lag = r.get("receive_lag_p99_us")
        out.append(r["verdict"] + ("" if lag is None else " (%.0f)" % lag))
    return "; ".join(out) or "-"


def table(runs, levels, clients, nbs):
    """Medians over the repetitions, one row per level, neighbour and
    client, and the self-check p99 against both truths' p99."""
    lines = ["| streams | nb | client | err p50 us | err p99 us | err max us | "
             "p99 / rec-spin | err p99 us: first / token steps / end | pcap err p50 / p99 us | wire after send p99 us "
             "| burst send spread p50 us | burst last - first err p50 us | "
             "self-check p99 us (probe / loop) | self / true p99 (log; pcap) "
             "| summary says (receive lag p99 us) | client CPU s | load "
             "| RSS KiB/stream | server send lag p99 us | keep-awake |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n in levels:
        for nb in nbs:
            at = [r for r in runs if r["streams"] == n and
                  r.get("neighbour", False) == nb]
            base = bl.median([r["err_us"].get("p99") for r in at
                              if r["client"] == "rec-spin"])
            for c in clients:
                rs = [r for r in at if r["client"] == c]
                if not rs:
                    continue
                p99 = dist(rs, "err_us", "p99")
                probe = bl.median([r["self_wake_probe"]["p99_ns"] / 1e3
                                   for r in rs if "self_wake_probe" in r])
                loop = bl.median([r["self_loop_lag"]["p99_ns"] / 1e3
                                  for r in rs if "self_loop_lag" in r])
                pc50 = dist(rs, "pcap_error_us", "p50")
                pc99 = dist(rs, "pcap_error_us", "p99")
                first = dist(rs, "burst_first_error_us", "p50")
                last = dist(rs, "burst_last_error_us", "p50")
                rss = bl.median([(r["maxrss_kib"] - 8192) / n for r in rs
                                 if r.get("maxrss_kib")])
                lines.append(
                    "| %d | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s | %s "
                    "| %s | %s | %s | %s | %s | %s | %s-%s | %s | %s | %s |" % (
                        n, nb if nb == "late" else ("nb" if nb else "-"), c,
                        fmt(dist(rs, "err_us", "p50"), 1), fmt(p99, 1),
                        fmt(dist(rs, "err_us", "max")),
                        fmt(p99 / base if base and p99 else None, 2),
                        fmt(dist(rs, "first_token_error_us", "p99")),
                        fmt(dist(rs, "token_steps_error_us", "p99")),
                        fmt(dist(rs, "stream_end_error_us", "p99")),
                        "-" if pc99 is None else "%s / %s" % (fmt(pc50, 1),
                                                              fmt(pc99, 1)),
                        fmt(dist(rs, "wire_after_send_us", "p99"), 1),
                        fmt(dist(rs, "burst_send_spread_us", "p50")),
                        fmt(None if first is None else last - first),
                        "-" if probe is None else "%s / %s" % (fmt(probe),
                                                               fmt(loop)),
                        "%s; %s" % (ratios(rs, "err_us") or "-",
                                    ratios(rs, "pcap_error_us") or "-"),
                        verdicts(rs),
                        fmt(bl.median([r["cpu_s"] for r in rs]), 2),
                        fmt(min(r["load"] for r in rs), 1),
                        fmt(max(r["load_end"] for r in rs), 1),
                        fmt(rss, 1) if c.startswith("rec-") else "-",
                        fmt(dist(rs, "send_jitter_us", "p99")),
                        "; ".join(r["awake"] for r in rs if "awake" in r)
                        or "-"))
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
    ap.add_argument("--pcap-max", type=int, default=64)
    ap.add_argument("--neighbour", default="off")
    ap.add_argument("--sched", default="other", choices=("other", "fifo"))
    a = ap.parse_args()
    levels = [int(x) for x in a.levels.split(",")]
    clients = a.clients.split(",")
    nbs = [{"on": True, "late": "late"}.get(x, False)
           for x in a.neighbour.split(",")]
    wrap = ["chrt", "-f", "10"] if a.sched == "fifo" else []
    tools = bl.Tools(a.build, a.work)
    res = {"date": time.strftime("%Y-%m-%d %H:%M %Z"),
           "load_start": bl.loadavg(), "levels": levels,
           "tokens": a.tokens, "tpot_ms": a.tpot_ms, "sched": a.sched,
           "runs": []}
    for rep in range(a.reps):
        for n in levels:
            for nb in nbs:
                k = (rep + levels.index(n)) % len(clients)
                for c in clients[k:] + clients[:k]:
                    tag = "%d-%s-%s%d" % (n, c, "late-" if nb == "late"
                                          else "nb-" if nb else "", rep)
                    say("burst: %d streams in phase, %s%s, rep %d" % (
                        n, c, " with a late neighbour" if nb == "late" else
                        " with a neighbour" if nb else "", rep + 1))
                    res["runs"].append(one_run(
                        tools, a.work, c, n, a.tokens, a.tpot_ms, tag,
                        n <= a.pcap_max, nb, wrap))
    res["load_end"] = bl.loadavg()
    md = table(res["runs"], levels, clients, nbs)
    with open(os.path.join(a.work, "burst.json"), "w") as f:
        json.dump(res, f, indent=1)
    with open(os.path.join(a.work, "burst.md"), "w") as f:
        f.write(md + "\n")
    print("load %.1f at the start, %.1f at the end; %s" % (
        res["load_start"], res["load_end"], res["date"]))
    print(md)


if __name__ == "__main__":
    main()
