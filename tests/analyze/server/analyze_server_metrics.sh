#!/usr/bin/env bash
# analyze_server_metrics: for each server (vLLM, SGLang, TGI, llama.cpp) a
# python3 /metrics server (tests/lib/metrics_server.py) serves its pages of
# tests/data/server_metrics/ (before, during, after: a new page per GET)
# while tokentrace-record runs against tokentrace-replay with
# --server-metrics; then `summary --format json` must give the deltas
# make_samples.py wrote down (12 requests, TTFT sum 0.842 s over 12, 6034
# prompt and 240 generated tokens), the running/waiting/KV gauges over the
# samples the trace holds, and percentiles equal to histogram_quantile
# computed here, independently, from the recorded pages. The table shows
# the block; a trace without scrapes shows none.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

SAMPLES=$(tt_data server_metrics)
start_replay --synthetic 'ttft=30ms,tpot=3ms,tokens=20'

# start_metrics NAME PREFIX: a metrics server; sets MURL.
start_metrics() {
    local pf="$T/$1.port"
    python3 "$TT_SOURCE_DIR/tests/lib/metrics_server.py" "$pf" "$T/$1.log" "$2" \
        2>"$T/$1.err" &
    TT_PIDS+=("$!")
    wait_port_file "$pf" "$!" "$T/$1.err" "metrics server $1"
    MURL="http://127.0.0.1:$(cat "$pf")/metrics"
}

# compare SERVER TRACE_JSONL SUMMARY_JSON: the summary's numbers against
# the documented method, computed here in python from the recorded pages
# (window = the measured requests' span; start sample = the last ok scrape
# ending at or before it, end sample = the first starting at or after it;
# gauges over the samples between; histogram deltas bucket by bucket;
# Prometheus' histogram_quantile) and against make_samples.py's numbers.
compare() {
    python3 - "$@" <<'PY'
import json, math, re, sys
server, dump, summary = sys.argv[1:4]
recs = [json.loads(l) for l in open(dump)]
got = json.load(open(summary))["traces"][0]["server_metrics"][0]
bad = []
def near(what, a, b):
    if a is None or b is None or abs(a - b) > 1e-6 * (1 + abs(b)):
        bad.append("%s: got %r, want %r" % (what, a, b))
def same(what, a, b):
    if a != b:
        bad.append("%s: got %r, want %r" % (what, a, b))
req = [r for r in recs if r["kind"] == "request" and not r.get("warmup")]
res = {r["id"]: r for r in recs if r["kind"] == "result"}
w0 = min(r["start_ns"] for r in req)
w1 = max(res[r["id"]]["end_ns"] for r in req)
sm = [r for r in recs if r["kind"] == "server_metrics" and not r.get("error_kind")]
a = [i for i, s in enumerate(sm) if s["end_ns"] <= w0][-1]
b = [i for i, s in enumerate(sm) if s["start_ns"] >= w1][0]
LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')
def page(t):
    out = []
    for l in t.split("\n"):
        m = LINE.match(l)
        if m and not l.startswith("#"):
            labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2) or ""))
            out.append((m.group(1), labels, float(m.group(3))))
    return out
def total(p, name):
    v = [x for n, l, x in p if n == name]
    return sum(v) if v else None
def buckets(p, fam):
    d = {}
    for n, l, x in p:
        if n == fam + "_bucket":
            le = float(l["le"])
            d[le] = d.get(le, 0) + x
    return d
def hq(q, les, cum):
    rank = q * cum[-1]
    lo, below = 0.0, 0.0
    for le, c in zip(les, cum):
        if c >= rank:
            if math.isinf(le):
                return max(x for x in les if not math.isinf(x))
            return lo + (le - lo) * (rank - below) / (c - below)
        lo, below = le, c
PA, PB = page(sm[a]["text"]), page(sm[b]["text"])
same("server", got["server"], server)
same("bracketed", got["window"]["bracketed"], True)
same("prompt tokens", got["prompt_tokens"], 6034)
same("generated tokens", got["generation_tokens"], 240)
if server == "llamacpp":
    same("requests", got["requests"], None)
    near("prompt seconds", got["prompt_seconds"], 6034 * 0.25e-3)
    near("generation seconds", got["generation_seconds"], 240 * 5.5e-3)
else:
    same("requests", got["requests"], 12)
G = {"running": ["vllm:num_requests_running", "sglang:num_running_reqs",
                 "tgi_batch_current_size", "llamacpp:requests_processing"],
     "waiting": ["vllm:num_requests_waiting", "sglang:num_queue_reqs",
                 "tgi_queue_size", "llamacpp:requests_deferred"]}
for g, names in G.items():
    v = sorted(t for s in sm[a:b + 1] for n in names
               for t in [total(page(s["text"]), n)] if t is not None)
    k = (len(v) - 1) * 0.5
    lo, hi = v[int(math.floor(k))], v[int(math.ceil(k))]
    want = {"n": len(v), "min": v[0], "median": lo + (hi - lo) * (k - math.floor(k)), "max": v[-1]}
    for key in want:
        near("%s %s" % (g, key), got[g][key], want[key])
same("running max", got["running"]["max"], 4)
for fam in ["vllm:time_to_first_token_seconds", "sglang:time_to_first_token_seconds",
            "vllm:e2e_request_latency_seconds", "sglang:e2e_request_latency_seconds",
            "tgi_request_duration"]:
    ba, bb = buckets(PA, fam), buckets(PB, fam)
    if not bb:
        continue
    key = "ttft" if "first_token" in fam else "e2e"
    les = sorted(bb)
    cum = [bb[x] - ba.get(x, 0) for x in les]
    same(key + " family", got[key]["family"], fam)
    near(key + " count", got[key]["count"], total(PB, fam + "_count") - total(PA, fam + "_count"))
    same(key + " count is the run's", got[key]["count"], 12)
    for q in (0.5, 0.9, 0.99):
        near("%s p%d" % (key, round(q * 100)), got[key]["p%d_ms" % round(q * 100)], hq(q, les, cum) * 1e3)
if server in ("vllm", "sglang"):
    near("ttft sum", got["ttft"]["sum_s"], 0.842)
    near("ttft mean", got["ttft"]["mean_ms"], 842 / 12)
else:
    same("ttft", got["ttft"], None)
for x in bad:
    print("%s: %s" % (server, x))
sys.exit(1 if bad else 0)
PY
}

for server in vllm sglang tgi llamacpp; do
    start_metrics "$server" "$SAMPLES/$server"
    "$TT_RECORD" -u "$URL" -m test -n 4 -c 1 -q --server-metrics "$MURL" \
        --server-metrics-interval 150ms -o "$T/$server.ttrace" ||
        fail "$server: record"
    d=$(dump "$T/$server.ttrace")
    [ "$(count "$d" server_metrics)" -ge 3 ] || fail "$server: too few scrapes"
    "$TT_ANALYZE" summary "$T/$server.ttrace" --format json >"$T/$server.json" ||
        fail "$server: summary"
    compare "$server" "$d" "$T/$server.json" || fail "$server: numbers differ"
    "$TT_ANALYZE" summary "$T/$server.ttrace" >"$T/$server.txt" || fail "$server: table"
    grep -q "^server $server at http://127.0.0.1:" "$T/$server.txt" || fail "$server: no block in the table"
    grep -q "requests   server finished\|requests   server: not exposed" "$T/$server.txt" ||
        fail "$server: no requests line"
done
# the KV cache: vLLM's preferred family; TGI has none
assert_eq "$(jq -r '.traces[0].server_metrics[0].kv_cache_usage.max' "$T/vllm.json")" 0.3125 "vllm kv max"
assert_eq "$(jq -r '.traces[0].server_metrics[0].kv_cache_usage' "$T/tgi.json")" null "tgi has no kv"
"$TT_ANALYZE" summary "$T/vllm.ttrace" --detail >"$T/detail.txt"
grep -q "\[vllm:time_to_first_token_seconds\]" "$T/detail.txt" || fail "--detail names the family"

# a reader that does not know kind 7 (as every analyzer before it): the
# same trace in format 1 with its scrape records renumbered to a kind no
# reader knows reads the same client numbers, the records skipped
"$TT_RECORD" -u "$URL" -m test -n 2 -q --format-version 1 --server-metrics "$MURL" \
    --server-metrics-interval 150ms -o "$T/v1.ttrace" || fail "record v1"
python3 - "$T/v1.ttrace" "$T/v1-unknown.ttrace" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
out, n = re.subn(rb"\x92\x07([\x87-\x8b]\xa3url)", lambda m: b"\x92\x63" + m.group(1), data)
assert n >= 3, n
open(sys.argv[2], "wb").write(out)
PY
"$TT_ANALYZE" check "$T/v1-unknown.ttrace" >"$T/v1.check" || fail "check of the renumbered trace"
grep -q "unknown (skipped)" "$T/v1.check" || fail "the renumbered records are not skipped"
assert_eq "$("$TT_ANALYZE" summary "$T/v1-unknown.ttrace" --format json | jq -c '.overall')" \
    "$("$TT_ANALYZE" summary "$T/v1.ttrace" --format json | jq -c '.overall')" "client numbers with the records skipped"

# a trace without scrapes: no block, no key
"$TT_RECORD" -u "$URL" -m test -n 1 -q -o "$T/plain.ttrace" || fail "record plain"
"$TT_ANALYZE" summary "$T/plain.ttrace" >"$T/plain.txt"
! grep -q "^server " "$T/plain.txt" || fail "a server block without scrapes"
assert_eq "$("$TT_ANALYZE" summary "$T/plain.ttrace" --format json | jq '.traces[0]|has("server_metrics")')" false "no key without scrapes"
echo ok
