"""benchlib: what bench.py needs to run one measurement: the tools, a replay
server per run, a process runner that returns getrusage numbers (os.wait4),
the four clients of the timestamp benchmark, and small statistics."""
import json
import os
import signal
import statistics
import subprocess
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CHAT_BODY = ('{"model":"m","stream":true,"messages":[{"role":"user",'
             '"content":"hello"}],"stream_options":{"include_usage":true}}')


def loadavg():
    """The 1-minute load average, as a float."""
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_rusage(tools, cmd, **kw):
    """Runs cmd to its end under the rusage launcher. Returns wall s, user
    s, sys s, peak RSS KiB (of the process and the children it waited for)
    and the exit code."""
    out = os.path.join(tools.work, "rusage.%d" % os.getpid())
    rc = subprocess.call([tools.rusage, out] + cmd, **kw)
    with open(out) as f:
        wall, user, sys_, rss, code = f.read().split()
    return {"wall_s": int(wall) / 1e9, "user_s": int(user) / 1e6,
            "sys_s": int(sys_) / 1e6, "maxrss_kib": int(rss),
            "rc": int(code) if rc == int(code) else rc}


def vm_hwm_kib(pid):
    """Peak RSS of a live process (VmHWM), KiB; None if unreadable."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def program(build, name):
    """The path of program name in a build tree: bin/ since the folder
    redesign, record/ or analyze/ in older trees (for A/B runs)."""
    path = os.path.join(build, "bin", name)
    if os.path.exists(path):
        return path
    old = "analyze" if name == "tokentrace-analyze" else "record"
    return os.path.join(build, old, name)


class Tools:
    """Paths of the programs under test and of the compiled helpers."""

    def __init__(self, build, work):
        self.record = program(build, "tokentrace-record")
        self.replay = program(build, "tokentrace-replay")
        self.analyze = program(build, "tokentrace-analyze")
        self.gen_trace = os.path.join(build, "tests", "gen_trace")
        self.work = work
        self.raw_client = os.path.join(work, "raw_client")
        self.stamp = os.path.join(work, "stamp")
        self.rusage = os.path.join(work, "rusage")
        self.ts_error = os.path.join(HERE, "ts_error.py")
        self.ref_client = os.path.join(HERE, "ref_client.py")
        os.makedirs(work, exist_ok=True)
        for h in ("raw_client", "stamp", "rusage"):
            exe, src = os.path.join(work, h), os.path.join(HERE, h + ".c")
            if not os.path.exists(exe) or \
                    os.path.getmtime(exe) < os.path.getmtime(src):
                subprocess.check_call(["cc", "-O2", "-Wall", "-Wextra",
                                       "-Werror", "-o", exe, src])


class Replay:
    """A tokentrace-replay on a free loopback port, with a send log. Stops
    with SIGTERM (which flushes the log) and keeps its rusage."""

    def __init__(self, tools, work, spec, log, extra=None, wrap=None):
        """wrap: a command prefix for the server (e.g. chrt -f 10)."""
        self.log = log
        pf = os.path.join(work, "port.%d" % os.getpid())
        if os.path.exists(pf):
            os.unlink(pf)
        self.proc = subprocess.Popen(
            (wrap or []) + [tools.replay, "--listen", "127.0.0.1:0", "--port-file", pf, "-q",
             "--synthetic", spec, "--log-sends", log] + (extra or []))
        for _ in range(200):
            if os.path.exists(pf) and os.path.getsize(pf) > 0:
                break
            time.sleep(0.02)
        with open(pf) as f:
            self.port = int(f.read())
        self.url = "http://127.0.0.1:%d" % self.port
        self.max_active = 0
        self._poll_stop = None

    def poll_active(self, period=0.25):
        """Starts sampling /_replay/stats active_streams in a thread."""
        self._poll_stop = threading.Event()

        def loop():
            while not self._poll_stop.wait(period):
                try:
                    with urllib.request.urlopen(self.url + "/_replay/stats",
                                                timeout=5) as r:
                        a = json.load(r)["active_streams"]
                        self.max_active = max(self.max_active, a)
                except OSError:
                    pass
        self._poller = threading.Thread(target=loop, daemon=True)
        self._poller.start()

    def stop(self):
        if self._poll_stop:
            self._poll_stop.set()
            self._poller.join()
        self.maxrss_kib = vm_hwm_kib(self.proc.pid)
        self.proc.send_signal(signal.SIGTERM)
        _, status, ru = os.wait4(self.proc.pid, 0)
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        self.cpu_s = ru.ru_utime + ru.ru_stime


def client_cmd(tools, client, url, port, streams, nreq, out, wl, window_ms):
    """The command line of one client run. out is the trace (recorder) or
    the client TSV (others). Stream i starts at i * window_ms / streams:
    the recorder gets an open loop at streams / window requests per second
    with constant arrivals (one request per stream), the others sleep."""
    if client == "recorder":
        load = ["-c", str(streams)]
        if window_ms > 0 and streams > 1 and nreq == 1:
            load = ["-r", "%.3f" % (streams * 1000.0 / window_ms),
                    "--arrival", "constant"]
        return [tools.record, "-u", url, "-m", "m", "-w", wl,
                "-n", str(streams * nreq), "-o", out, "--force", "-q",
                "--progress", "never"] + load
    if client == "python":
        return ["python3", tools.ref_client, url, str(streams), str(nreq),
                "py", out, str(window_ms)]
    if client == "raw":
        return [tools.raw_client, str(port), str(streams), str(nreq), "raw",
                CHAT_BODY, out, str(window_ms)]
    if client == "curl":
        # one `curl -N | stamp` pipeline per stream, requests in a row
        step = window_ms / 1000.0 / streams
        return ["bash", "-c",
                'for i in $(seq 0 $(({s} - 1))); do ( sleep $(awk "BEGIN {{print $i * '
                '{step}}}"); for k in $(seq 0 $(({n} - 1))); do '
                'curl -sN -H "X-Request-Id: curl-$i-$k" '
                '{url}/v1/chat/completions -d \'{body}\' | {stamp} '
                'curl-$i-$k {out}.$i.$k; done ) & done; wait; '
                'cat {out}.* > {out}; rm -f {out}.*'.format(
                    s=streams, n=nreq, url=url, body=CHAT_BODY, step=step,
                    stamp=tools.stamp, out=out)]
    raise ValueError(client)


def ts_error(tools, sends, client, out, tpot_ms=None, tokens=None,
             extra=None):
    """Runs ts_error.py on a run's send log and client output; extra:
    more of its arguments (--pcap ...)."""
    cmd = ["python3", tools.ts_error, "--sends", sends]
    if client == "recorder":
        cmd += ["--trace", out, "--analyze", tools.analyze]
    else:
        cmd += ["--client", out]
    if tpot_ms and tokens:
        cmd += ["--tpot-ms", str(tpot_ms), "--tokens", str(tokens)]
    cmd += extra or []
    return json.loads(subprocess.check_output(cmd))


def measure_stream_run(tools, work, client, streams, nreq, tokens, tpot_ms,
                       ttft_ms, tag, window_ms=0, poll=False, env=None,
                       closed=False, burst=False):
    """One timestamp-error run: a fresh replay server, one client, the
    join. Returns a flat dict of the numbers bench.py reports. env: extra
    environment for the client; closed: the recorder runs a closed loop
    (-c streams) even when a start window is given; burst: every stream's
    tokens in phase (replay align=TPOT, as burst.py)."""
    spec = "ttft=%dms,tpot=%dms,tokens=%d" % (ttft_ms, tpot_ms, tokens)
    if burst:
        spec += ",align=%dms" % tpot_ms
    sends = os.path.join(work, "sends-%s.tsv" % tag)
    ext = ".ttrace" if client == "recorder" else ".tsv"
    out = os.path.join(work, "%s-%s%s" % (client, tag, ext))
    wl = os.path.join(work, "wl.jsonl")
    with open(wl, "w") as f:
        f.write('{"class":"bench","prompt":"hello","max_tokens":%d}\n' % tokens)
    load0 = loadavg()
    srv = Replay(tools, work, spec, sends)
    if poll:
        srv.poll_active()
    cmd = client_cmd(tools, client, srv.url, srv.port, streams, nreq, out, wl,
                     0 if closed else window_ms)
    ru = run_rusage(tools, cmd,
                    env=dict(os.environ, **env) if env else None)
    srv.stop()
    e = ts_error(tools, sends, client, out, tpot_ms, tokens)
    chunks = e["client_chunks"]
    cpu = ru["user_s"] + ru["sys_s"]
    r = {"client": client, "streams": streams, "tokens": tokens,
         "load": load0, "rc": ru["rc"],
         "wall_s": round(ru["wall_s"], 2), "cpu_s": round(cpu, 3),
         "maxrss_kib": ru["maxrss_kib"], "chunks": chunks,
         "cpu_us_per_chunk": round(cpu * 1e6 / chunks, 2) if chunks else None,
         "writes": e["writes"], "unmatched": e["unmatched"],
         "server_cpu_s": round(srv.cpu_s, 3),
         "server_maxrss_kib": srv.maxrss_kib, "max_active": srv.max_active,
         "ts": e}
    if client == "recorder":
        r["trace_bytes"] = os.path.getsize(out)
        r["trace"] = out
    return r
