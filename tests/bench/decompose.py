#!/usr/bin/env python3
"""decompose: where one stream's timestamp error goes, from kernel
tracepoints (perf, CLOCK_MONOTONIC via -k mono) on the same host.

For each server write of a single stream recorded by tokentrace-record:
  server   send-log stamp -> the server's writev() (evhttp queues the chunk
           and writes it on its next loop turn)
  wake     writev() -> the kernel wakes the recorder (sched_wakeup)
  runq     wakeup -> the recorder is on a CPU (sched_switch in): run-queue
           wait, i.e. CPU contention
  recv     on CPU -> recvfrom() returns (epoll_wait return, libevent,
           libcurl, timerfd_settime, poll)
  curl     recvfrom() returned -> the write callback's clock read
           (libcurl's HTTP chunked decoding)
When the recorder was already running (no wakeup between writev and
recvfrom), wake and runq are counted as 0 and the gap goes to recv.

With --client raw the same for raw_client (the floor), whose receive
syscall is read(); "curl" is then its own decoding.

usage: decompose.py --build DIR --work DIR [--client recorder|raw]
                    [--tokens 60] [--requests 3]
Needs root (or perf_event_paranoid <= -1) and the syscalls:* and sched:*
tracepoints. Prints p50 / p90 / p99 / max per segment in µs."""
import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import ts_error  # noqa: E402

EV = re.compile(r"^\s*(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)$")


def parse(perf_txt, spid, rpid, recv_call):
    """Lists of event times (ns) of the server and recorder."""
    ev = {"writev": [], "wakeup": [], "switch_in": [], "recv": []}
    for line in perf_txt.splitlines():
        m = EV.match(line)
        if not m:
            continue
        pid, t, name, rest = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        sec, frac = t.split(".")
        ns = int(sec) * 10**9 + int(frac.ljust(9, "0")[:9])
        if name.endswith("sys_enter_writev") and pid == spid:
            ev["writev"].append(ns)
        elif name.endswith("sched_wakeup") and " pid=%d " % rpid in rest:
            ev["wakeup"].append(ns)
        elif name.endswith("sched_switch") and "next_pid=%d " % rpid in rest:
            ev["switch_in"].append(ns)
        elif name.endswith("sys_exit_" + recv_call) and pid == rpid:
            ev["recv"].append(ns)
    return ev


def first_at_or_after(xs, t, start):
    """Index of the first xs[i] >= t, searching from start (xs sorted)."""
    i = start
    while i < len(xs) and xs[i] < t:
        i += 1
    return i


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--client", choices=["recorder", "raw"],
                    default="recorder")
    ap.add_argument("--tokens", type=int, default=60)
    ap.add_argument("--requests", type=int, default=3)
    a = ap.parse_args()
    tools = bl.Tools(a.build, a.work)
    sends = os.path.join(a.work, "dec-sends.tsv")
    trace = os.path.join(a.work, "dec.ttrace")
    wl = os.path.join(a.work, "dec-wl.jsonl")
    with open(wl, "w") as f:
        f.write('{"class":"bench","prompt":"hello","max_tokens":%d}\n'
                % a.tokens)
    load = bl.loadavg()
    srv = bl.Replay(tools, a.work, "ttft=100ms,tpot=50ms,tokens=%d"
                    % a.tokens, sends)
    # the client's pid must be known before perf starts (for the filters)
    recv_call = "recvfrom" if a.client == "recorder" else "read"
    if a.client == "recorder":
        cmd = [tools.record, "-u", srv.url, "-m", "m", "-w", wl, "-n",
               str(a.requests), "-c", "1", "-o", trace, "--force", "-q"]
    else:
        trace = os.path.join(a.work, "dec-raw.tsv")
        cmd = [tools.raw_client, str(srv.port), "1", str(a.requests), "raw",
               bl.CHAT_BODY, trace]
    rec = subprocess.Popen(["bash", "-c", 'sleep 1; exec "$@"', "rec"] + cmd)
    s, r = srv.proc.pid, rec.pid
    perf_data = os.path.join(a.work, "dec.perf")
    secs = 1.5 + a.requests * (0.1 + a.tokens * 0.05) + 1
    perf = subprocess.Popen(
        ["perf", "record", "-q", "-k", "mono", "-a", "-o", perf_data,
         "-e", "syscalls:sys_enter_writev", "--filter", "common_pid == %d" % s,
         "-e", "syscalls:sys_exit_" + recv_call,
         "--filter", "common_pid == %d" % r,
         "-e", "sched:sched_wakeup", "--filter", "pid == %d" % r,
         "-e", "sched:sched_switch", "--filter", "next_pid == %d" % r,
         "--", "sleep", "%.1f" % secs])
    if rec.wait() != 0:
        sys.exit("decompose: the client failed")
    perf.wait()
    srv.stop()
    txt = subprocess.check_output(
        ["perf", "script", "-i", perf_data, "-F", "pid,time,event,trace"],
        text=True, stderr=subprocess.DEVNULL)
    ev = parse(txt, s, r, recv_call)
    sd = ts_error.read_sends(sends)
    if a.client == "recorder":
        _, chunks, _, _, _ = ts_error.read_trace(trace, tools.analyze)
    else:
        _, chunks = ts_error.read_client(trace)
    segs = {k: [] for k in ("server", "wake", "runq", "recv", "curl",
                            "total")}
    iw = 0
    for rid, writes in sd.items():
        cl = chunks.get(rid, [])
        j = 0
        for _, t_log, cum in writes:
            while j < len(cl) and cl[j][1] < cum:
                j += 1
            if j == len(cl):
                continue
            t_cb = cl[j][0]
            iw = first_at_or_after(ev["writev"], t_log, iw)
            if iw == len(ev["writev"]):
                continue
            t_w = ev["writev"][iw]
            ir = first_at_or_after(ev["recv"], t_w, 0)
            if ir == len(ev["recv"]) or ev["recv"][ir] > t_cb:
                continue  # this write was read with an earlier one
            t_r = ev["recv"][ir]
            iw2 = first_at_or_after(ev["wakeup"], t_w, 0)
            if iw2 < len(ev["wakeup"]) and ev["wakeup"][iw2] <= t_r:
                t_wk = ev["wakeup"][iw2]
                isw = first_at_or_after(ev["switch_in"], t_wk, 0)
                t_sw = ev["switch_in"][isw] if isw < len(ev["switch_in"]) \
                    and ev["switch_in"][isw] <= t_r else t_wk
            else:
                t_wk = t_sw = t_w
            segs["server"].append(t_w - t_log)
            segs["wake"].append(t_wk - t_w)
            segs["runq"].append(t_sw - t_wk)
            segs["recv"].append(t_r - t_sw)
            segs["curl"].append(t_cb - t_r)
            segs["total"].append(t_cb - t_log)
    out = {"client": a.client, "load": load, "segments_us": {k: ts_error.dist_us(v)
                                         for k, v in segs.items()}}
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
