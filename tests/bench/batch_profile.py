#!/usr/bin/env python3
"""batch_profile: how long a client takes to get through the sockets that
one epoll_wait reported ready, from kernel tracepoints (perf, -k mono).

For every receive syscall that returned bytes: its position in the batch
(0 = the first read after epoll_wait returned) and the time since that
epoll_wait returned. A chunk at position k waits for the k reads before it:
the gap between successive reads is the client's own cost per chunk in wall
time, the part of the timestamp error a client adds when streams send at
the same moment (bursts).

usage: batch_profile.py --build DIR --work DIR [--client recorder|raw]
                        [--streams 100] [--window-ms 1000] [--tokens 60]
The default 1,000 ms window with 100 streams gives bursts of 20 (see
bench.py). Needs root for perf and the syscalls:* tracepoints."""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as bl  # noqa: E402
import ts_error  # noqa: E402

EV = re.compile(r"^\s*([\d.]+):\s+(\S+):\s*(.*)$")


def events(txt):
    """(t_ns, event name, args) of a `perf script -F time,event,trace`."""
    for line in txt.splitlines():
        m = EV.match(line)
        if m:
            sec, frac = m.group(1).split(".")
            yield (int(sec) * 10**9 + int(frac.ljust(9, "0")[:9]),
                   m.group(2).rstrip(":").split(":")[-1], m.group(3))


def analyze(txt, max_pos=4):
    """Per batch position (max_pos and above pooled): ns since epoll_wait
    returned; and the gaps between successive reads of a batch."""
    by_pos, gaps = {}, []
    epoll_t = prev = None
    pos = 0
    for t, name, args in events(txt):
        if name == "sys_exit_epoll_wait":
            epoll_t = prev = t
            pos = 0
        elif name.startswith("sys_exit_") and epoll_t is not None:
            try:
                ret = int(args.strip(), 16)
            except ValueError:
                continue
            if ret <= 0 or ret >= 1 << 40:  # EAGAIN and other errors
                continue
            by_pos.setdefault(min(pos, max_pos), []).append(t - epoll_t)
            if pos > 0:
                gaps.append(t - prev)
            prev = t
            pos += 1
    return by_pos, gaps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--client", choices=["recorder", "raw"],
                    default="recorder")
    ap.add_argument("--streams", type=int, default=100)
    ap.add_argument("--window-ms", type=float, default=1000)
    ap.add_argument("--tokens", type=int, default=60)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    tools = bl.Tools(a.build, a.work)
    wl = os.path.join(a.work, "bp-wl.jsonl")
    with open(wl, "w") as f:
        f.write('{"class":"bench","prompt":"hello","max_tokens":%d}\n'
                % a.tokens)
    load = bl.loadavg()
    srv = bl.Replay(tools, a.work, "ttft=100ms,tpot=50ms,tokens=%d"
                    % a.tokens, os.path.join(a.work, "bp-sends.tsv"))
    out = os.path.join(a.work, "bp-out")
    cmd = bl.client_cmd(tools, a.client, srv.url, srv.port, a.streams, 1,
                        out, wl, a.window_ms)
    call = "recvfrom" if a.client == "recorder" else "read"
    # the pid must be known before perf starts (for the filters)
    cl = subprocess.Popen(["bash", "-c", 'sleep 1; exec "$@"', "c"] + cmd)
    p = cl.pid
    data = os.path.join(a.work, "bp.perf")
    secs = 1.5 + a.window_ms / 1000 + 0.1 + a.tokens * 0.05 + 0.5
    perf = subprocess.Popen(
        ["perf", "record", "-q", "-k", "mono", "-a", "-o", data,
         "-e", "syscalls:sys_exit_epoll_wait", "--filter", "common_pid == %d" % p,
         "-e", "syscalls:sys_exit_" + call, "--filter", "common_pid == %d" % p,
         "--", "sleep", "%.1f" % secs])
    rc = cl.wait()
    perf.wait()
    srv.stop()
    if rc != 0:
        sys.exit("batch_profile: the client failed")
    txt = subprocess.check_output(
        ["perf", "script", "-i", data, "-F", "time,event,trace"], text=True,
        stderr=subprocess.DEVNULL)
    by_pos, gaps = analyze(txt)
    res = {"client": a.client, "streams": a.streams, "load": load,
           "since_epoll_return_us": {
               ("%d+" % k if k == max(by_pos) else str(k)):
               ts_error.dist_us(v) for k, v in sorted(by_pos.items())},
           "gap_between_reads_us": ts_error.dist_us(gaps)}
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
