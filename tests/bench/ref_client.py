#!/usr/bin/env python3
"""ref_client: the Python reference client of the timestamp benchmark, the
method most LLM latency scripts use: one thread per stream, `requests` with
stream=True, iter_content(chunk_size=None) and a perf_counter reading per
chunk. perf_counter is CLOCK_MONOTONIC on Linux (checked at start; we read
it as perf_counter_ns, the same clock in integer ns), so its times compare
directly with tokentrace-replay's --log-sends.

usage: ref_client.py URL STREAMS REQUESTS_PER_STREAM ID_PREFIX OUT.tsv [WINDOW_MS]
Stream i starts at i * WINDOW_MS / STREAMS (default 0). Writes the
ts_error.py client TSV (start and chunk lines) after the run.
"""
import sys
import threading
import time

import requests


def check_clock():
    info = time.get_clock_info("perf_counter")
    if "CLOCK_MONOTONIC" not in info.implementation or \
            "CLOCK_MONOTONIC_RAW" in info.implementation:
        sys.exit("ref_client: perf_counter is %s, not CLOCK_MONOTONIC"
                 % info.implementation)


def stream_worker(url, body, prefix, idx, nreq, out, barrier, start_at):
    """One thread: nreq requests one after another, every chunk stamped."""
    session = requests.Session()
    recs = []
    barrier.wait()
    delay = start_at[0] + start_at[1] * idx - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    for k in range(nreq):
        rid = "%s-%d-%d" % (prefix, idx, k)
        start = time.perf_counter_ns()
        cum = 0
        with session.post(url, json=body, stream=True,
                          headers={"X-Request-Id": rid,
                                   "Accept": "text/event-stream"}) as r:
            for chunk in r.iter_content(chunk_size=None):
                t = time.perf_counter_ns()
                cum += len(chunk)
                recs.append((rid, t, cum))
        out.append("%s\tstart\t%d\n" % (rid, start))
    out.extend("%s\tchunk\t%d\t%d\n" % x for x in recs)


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__)
    check_clock()
    base, streams, nreq, prefix, path = sys.argv[1:6]
    window_s = float(sys.argv[6]) / 1e3 if len(sys.argv) == 7 else 0.0
    streams, nreq = int(streams), int(nreq)
    url = base.rstrip("/") + "/v1/chat/completions"
    body = {"model": "m", "stream": True,
            "messages": [{"role": "user", "content": "hello"}],
            "stream_options": {"include_usage": True}}
    threading.stack_size(256 * 1024)
    out = []
    # every thread waits at the barrier, then for its own start time
    start_at = [0.0, window_s / streams]
    barrier = threading.Barrier(streams + 1)
    threads = [threading.Thread(target=stream_worker,
                                args=(url, body, prefix, i, nreq, out, barrier,
                                      start_at))
               for i in range(streams)]
    for t in threads:
        t.start()
    start_at[0] = time.monotonic() + 0.05
    barrier.wait()
    for t in threads:
        t.join()
    with open(path, "w") as f:
        f.writelines(out)


if __name__ == "__main__":
    main()
