"""bench_report: turns bench.py's raw results into the markdown tables of
docs/performance.md, and bench-quick's metrics into ratios against
tests/bench/baseline.tsv."""
import os
import time

from benchlib import median

NAMES = {"recorder": "tokentrace-record", "raw": "raw epoll floor (C)",
         "python": "Python requests, thread/stream", "curl": "curl -N into stamp"}


def fmt(x, digits=0):
    if x is None:
        return "-"
    if digits == 0:
        return "{:,.0f}".format(x)
    return "{:,.{d}f}".format(x, d=digits)


def load_range(runs):
    loads = [r["load"] for r in runs]
    return "%.1f-%.1f" % (min(loads), max(loads)) if loads else "-"


def by(runs, **kw):
    return [r for r in runs if all(r.get(k) == v for k, v in kw.items())]


def med(runs, f):
    return median([f(r) for r in runs])


def ratio_to(runs, client, level, f):
    """Median over repetitions of f(client run) / f(recorder run)."""
    out = []
    for r in by(runs, client=client, streams=level):
        base = by(runs, client="recorder", streams=level, rep=r["rep"])
        if base and f(base[0]) and f(r) is not None:
            out.append(f(r) / f(base[0]))
    return median(out)


def startup_cpu(res):
    """client -> median CPU seconds of its one-token startup run."""
    out = {}
    for r in res.get("startup", []):
        out.setdefault(r["client"], []).append(r["cpu_s"])
    return {c: median(v) for c, v in out.items()}


def marginal(r, start):
    """CPU µs per chunk beyond the client's fixed startup cost."""
    s = start.get(r["client"])
    if s is None or not r["chunks"]:
        return None
    return (r["cpu_s"] - s) * 1e6 / r["chunks"]


def ratio_to_floor(runs, client, level, f):
    out = []
    for r in by(runs, client=client, streams=level):
        base = by(runs, client="raw", streams=level, rep=r["rep"])
        if base and f(base[0]) and f(r) is not None:
            out.append(f(r) / f(base[0]))
    return median(out)


def ts_table(runs, start):
    p99 = lambda r: r["ts"]["error_us"].get("p99")  # noqa: E731
    lines = [
        "| streams | client | reps | err p50 µs | err p99 µs | err max µs | "
        "p99 ÷ recorder p99 | p99 ÷ floor p99 | first-token err p50 µs | "
        "TTFT reported p50 ms | TTFT truth p50 ms | server lateness p99 µs "
        "| CPU µs/chunk (all / beyond startup) | peak RSS MiB | load |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
        "---:|---|"]
    levels = sorted({r["streams"] for r in runs})
    for lv in levels:
        for c in ["recorder", "raw", "python", "curl"]:
            rs = by(runs, client=c, streams=lv)
            if not rs:
                continue
            e = lambda k: med(rs, lambda r: r["ts"]["error_us"].get(k))  # noqa
            lines.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s "
                         "| %s | %s | %s / %s | %s | %s |" % (
                fmt(lv), NAMES[c], len(rs), fmt(e("p50")), fmt(e("p99")),
                fmt(e("max")),
                "1" if c == "recorder" else fmt(ratio_to(runs, c, lv, p99), 2),
                "1" if c == "raw" else fmt(ratio_to_floor(runs, c, lv, p99),
                                           2),
                fmt(med(rs, lambda r: r["ts"]["first_token_error_us"].get(
                    "p50"))),
                fmt(med(rs, lambda r: r["ts"]["ttft_reported_us"].get("p50")
                        / 1e3), 2),
                fmt(med(rs, lambda r: r["ts"]["ttft_true_us"].get("p50")
                        / 1e3), 2),
                fmt(med(rs, lambda r: r["ts"].get("send_jitter_us", {}).get(
                    "p99"))),
                fmt(med(rs, lambda r: r["cpu_us_per_chunk"]), 1),
                fmt(med(rs, lambda r: marginal(r, start)), 1),
                fmt(med(rs, lambda r: r["maxrss_kib"] / 1024), 1),
                load_range(rs)))
    return "\n".join(lines)


def self_lag_table(groups):
    """The recorder's own loop-lateness estimate (trace footer, record/
    self_lag.c) beside the error measured against the server's log."""
    lines = ["| run | reps | footer loop_lag p50 µs | measured err p50 µs | "
             "footer loop_lag p99 µs | measured err p99 µs | footer "
             "loop_lag max µs | measured err max µs |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for label, runs in groups:
        for lv in sorted({r["streams"] for r in runs}):
            rs = [r for r in by(runs, client="recorder", streams=lv)
                  if r["ts"].get("self_loop_lag")]
            if not rs:
                continue
            f = lambda k: med(rs, lambda r: r["ts"]["self_loop_lag"].get(  # noqa
                k + "_ns", -1000) / 1e3)
            e = lambda k: med(rs, lambda r: r["ts"]["error_us"][k])  # noqa
            lines.append("| %s streams%s | %d | %s | %s | %s | %s | %s | %s |" % (
                fmt(lv), label, len(rs), fmt(f("p50")), fmt(e("p50")),
                fmt(f("p99")), fmt(e("p99")), fmt(f("max")), fmt(e("max"))))
    return "\n".join(lines) if len(lines) > 2 else "(no loop_lag in the footers)"


def startup_table(runs):
    lines = ["| client | reps | CPU ms | wall ms | peak RSS MiB | load |",
             "|---|---:|---:|---:|---:|---|"]
    for c in ["recorder", "raw", "python", "curl"]:
        rs = by(runs, client=c)
        if rs:
            lines.append("| %s | %d | %s | %s | %s | %s |" % (
                NAMES[c], len(rs), fmt(med(rs, lambda r: r["cpu_s"] * 1e3),
                                       1),
                fmt(med(rs, lambda r: r["wall_s"] * 1e3)),
                fmt(med(rs, lambda r: r["maxrss_kib"] / 1024), 1),
                load_range(rs)))
    return "\n".join(lines)


def big_table(runs, start):
    lines = [
        "| client | reps | streams held (max active) | requests ok | "
        "err p50 µs | err p99 µs | err max µs | server lateness p50 / p99 / "
        "max µs | client CPU µs/chunk (all / beyond startup) | client peak "
        "RSS MiB | server CPU s | server peak RSS MiB | load |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|"]
    for c in ["recorder", "raw"]:
        rs = by(runs, client=c)
        if not rs:
            continue
        j = lambda k: med(rs, lambda r: r["ts"]["send_jitter_us"].get(k))  # noqa
        e = lambda k: med(rs, lambda r: r["ts"]["error_us"].get(k))  # noqa
        ok = med(rs, lambda r: r["summary"]["ok"]) if c == "recorder" else None
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s / %s / %s | %s "
                     "/ %s | %s | %s | %s | %s |" % (
            NAMES[c], len(rs), fmt(med(rs, lambda r: r["max_active"])),
            fmt(ok), fmt(e("p50")), fmt(e("p99")), fmt(e("max")),
            fmt(j("p50")), fmt(j("p99")), fmt(j("max")),
            fmt(med(rs, lambda r: r["cpu_us_per_chunk"]), 1),
            fmt(med(rs, lambda r: marginal(r, start)), 1),
            fmt(med(rs, lambda r: r["maxrss_kib"] / 1024), 1),
            fmt(med(rs, lambda r: r["server_cpu_s"]), 2),
            fmt(med(rs, lambda r: r["server_maxrss_kib"] / 1024), 1),
            load_range(rs)))
    return "\n".join(lines)


def analyzer_table(runs):
    """One row per size; the 0-record trace gives the fixed cost that the
    'beyond startup' columns subtract."""
    lines = ["| chunk records | file MiB | reps | CPU s | wall s | "
             "records/CPU-s | records/wall-s | ns CPU per record (all / "
             "beyond startup) | peak RSS MiB | RSS bytes/record beyond "
             "startup | load |",
             "|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    base = by(runs, chunks=0)
    cpu0 = med(base, lambda r: r["cpu_s"]) if base else 0.0
    rss0 = med(base, lambda r: r["maxrss_kib"]) if base else 0
    for n in sorted({r["chunks"] for r in runs}):
        rs = by(runs, chunks=n)
        cpu = med(rs, lambda r: r["cpu_s"])
        rss = med(rs, lambda r: r["maxrss_kib"])
        if n == 0:
            lines.append("| 0 (header + footer) | 0.0 | %d | %s | %s | - | - "
                         "| - | %s | - | %s |" % (
                             len(rs), fmt(cpu, 3),
                             fmt(med(rs, lambda r: r["wall_s"]), 3),
                             fmt(rss / 1024, 1), load_range(rs)))
            continue
        lines.append("| %s | %s | %d | %s | %s | %s | %s | %s / %s | %s | %s "
                     "| %s |" % (
                         fmt(n), fmt(rs[0]["bytes"] / 2**20, 1), len(rs),
                         fmt(cpu, 3), fmt(med(rs, lambda r: r["wall_s"]), 3),
                         fmt(n / cpu), fmt(med(rs, lambda r: r[
                             "chunks_per_wall_s"])), fmt(cpu * 1e9 / n),
                         fmt((cpu - cpu0) * 1e9 / n), fmt(rss / 1024, 1),
                         fmt((rss - rss0) * 1024 / n, 1), load_range(rs)))
    return "\n".join(lines)


def size_table(runs):
    lines = ["| recording | chunks | payload bytes/chunk | chunk record "
             "overhead bytes (min / mean / max) | file bytes beyond payload, "
             "per chunk |", "|---|---:|---:|---|---:|"]
    for r in runs:
        if r["client"] != "recorder" or r["rep"] != 0:
            continue
        ts = r["ts"]
        o = ts["chunk_record_overhead"]
        n = ts["client_chunks"]
        lines.append("| %d streams x %d tokens | %s | %s | %d / %.2f / %d | %.2f |"
                     % (r["streams"], r.get("tokens", 100), fmt(n),
                        fmt(ts["payload_bytes"] / n, 1), o["min"], o["mean"],
                        o["max"], (r["trace_bytes"] - ts["payload_bytes"]) / n))
    return "\n".join(lines)


def full_report(res):
    m = res["machine"]
    start = startup_cpu(res)
    return "\n\n".join([
        "Machine: %s, %d cores, %d GiB, Linux %s, %s, Python %s; %s; %s; "
        "nice %d; load average %.2f at start, %.2f at end." % (
            m["cpu"], m["cores"], m["mem_gib"], m["kernel"], m["curl"],
            m["python"], m["date"], m.get("source", "?"), m.get("nice", 0),
            res["load_start"], res["load_end"]),
        "### Timestamp error (tpot %d ms, ttft %d ms, %d tokens per stream)"
        % (res["tpot_ms"], res["ttft_ms"], res["tokens"]),
        ts_table(res["streams"], start),
        "### Bursts: 1,000 streams in 50 groups of 20 that send together "
        "(start window %d ms)" % res.get("burst_window_ms", 1000),
        ts_table(res.get("burst", []), start),
        "### The recorder's self-estimate (footer loop_lag) against the truth",
        self_lag_table([("", res["streams"]),
                        (" (bursts)", res.get("burst", [])),
                        ("", res.get("big", []))]),
        "### Fixed cost per process (1 stream, 1 request, 1 token)",
        startup_table(res["startup"]),
        "### 2,000 concurrent streams", big_table(res["big"], start),
        "### Analyzer `summary`", analyzer_table(res["analyzer"]),
        "### Trace size", size_table(res["streams"])]) + "\n"


# ---- bench-quick ---------------------------------------------------------

QUICK = [  # key, what, better when, ratio that flags WORSE? (error
    # percentiles are noisy on a shared machine: only a doubling flags)
    ("rec100_err_p50_us", "recorder error p50 at 100 streams, µs", "lower",
     2.0),
    ("rec100_err_p99_us", "recorder error p99 at 100 streams, µs", "lower",
     2.0),
    ("raw100_err_p99_us", "floor client error p99 at 100 streams, µs",
     "lower", 2.0),
    ("rec_over_raw_p99", "recorder p99 / floor p99 (noise-normalized)",
     "lower", 2.0),
    ("rec100_cpu_us_per_chunk", "recorder CPU per chunk beyond startup, µs",
     "lower", 1.2),
    ("rec_over_raw_cpu", "recorder CPU / floor CPU per chunk", "lower", 1.2),
    ("rec100_maxrss_kib", "recorder peak RSS, KiB", "lower", 1.2),
    ("analyze_1e6_records_per_cpu_s",
     "analyzer summary records/CPU-s, best of 5", "higher", 1.2),
    ("analyze_1e6_maxrss_kib", "analyzer summary peak RSS, KiB", "lower",
     1.2),
    ("chunk_overhead_bytes", "chunk record overhead, mean bytes", "lower",
     1.05),
]


def quick_metrics(res):
    s, a = res["streams"], by(res["analyzer"], chunks=10**6)
    start = startup_cpu(res)
    rec, raw = by(s, client="recorder"), by(s, client="raw")
    err = lambda rs, k: med(rs, lambda r: r["ts"]["error_us"][k])  # noqa
    pair = lambda f: median([  # noqa: E731
        f(x) / f(y) for x in rec for y in raw if x["rep"] == y["rep"]])
    return {
        "rec100_err_p50_us": err(rec, "p50"),
        "rec100_err_p99_us": err(rec, "p99"),
        "raw100_err_p99_us": err(raw, "p99"),
        "rec_over_raw_p99": pair(lambda r: r["ts"]["error_us"]["p99"]),
        "rec100_cpu_us_per_chunk": med(rec, lambda r: marginal(r, start)),
        "rec_over_raw_cpu": pair(lambda r: marginal(r, start)),
        "rec100_maxrss_kib": med(rec, lambda r: r["maxrss_kib"]),
        # best of the repetitions: CPU time only grows with interference
        "analyze_1e6_records_per_cpu_s": max(r["chunks_per_cpu_s"]
                                             for r in a),
        "analyze_1e6_maxrss_kib": med(a, lambda r: r["maxrss_kib"]),
        "chunk_overhead_bytes": med(rec, lambda r: r["ts"][
            "chunk_record_overhead"]["mean"]),
        "load": median([r["load"] for r in s + a]),
    }


def read_baseline(path):
    base = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.startswith("#") or "\t" not in line:
                    continue
                k, v = line.rstrip("\n").split("\t")[:2]
                base[k] = float(v)
    return base


def write_baseline(path, q, res):
    with open(path, "w") as f:
        f.write("# bench-quick baseline (make -f Makefile.helpers bench-quick "
                "BENCH_WRITE_BASELINE=1), %s, %s, load %.2f\n" % (
                    time.strftime("%Y-%m-%d %H:%M"), res["machine"]["cpu"],
                    q["load"]))
        for k in [q_[0] for q_ in QUICK] + ["load"]:
            f.write("%s\t%.6g\n" % (k, q[k]))


def quick_table(q, base):
    lines = ["%-32s %12s %12s %8s  %s" % ("metric", "baseline", "now",
                                          "now/base", "")]
    for k, what, better, limit in QUICK:
        b, n = base.get(k), q[k]
        r = n / b if b else None
        flag = ""
        if r is not None:
            worse = r > limit if better == "lower" else r < 1 / limit
            flag = "WORSE?" if worse else ""
        lines.append("%-32s %12s %12s %8s  %s  (%s, %s is better)" % (
            k, fmt(b, 2), fmt(n, 2), fmt(r, 2), flag, what, better))
    lines.append("load average: baseline %s, now %s (a 2-core machine: "
                 "above ~2, expect noise; compare the noise-normalized rows)"
                 % (fmt(base.get("load"), 2), fmt(q["load"], 2)))
    return "\n".join(lines)
