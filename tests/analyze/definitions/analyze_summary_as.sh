#!/usr/bin/env bash
# analyze_summary_as: summary --as over the golden trace of gen_trace
# --definitions (a role-only first chunk, reasoning, multi-token chunks, a
# finish chunk without text; gen_trace_defs.c lists every time). Each
# tool's p50 and p99 are computed here by hand from its published formula
# (docs/definitions.md) and compared with what --as prints; then the same
# over real HTTP: a replay-server stream whose first chunk is role-only
# moves vLLM's TTFT ahead of tokentrace's and no one else's.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
"$TT_GEN_TRACE" --definitions "$T/g.ttrace"
"$TT_ANALYZE" summary "$T/g.ttrace" --as all --format json >"$T/all.json"

# Per request (ms after each start): request 1 then request 2.
python3 - "$T/all.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
tools = {t["name"]: t["metrics"] for t in doc["tools"]}

def lin(v, p):  # numpy's default percentile (type 7)
    v = sorted(v); k = (len(v) - 1) * p / 100; f = int(k)
    return v[f] if f + 1 >= len(v) else v[f] + (k - f) * (v[f + 1] - v[f])

def inv(v, p, w=None):  # GuideLLM: first value whose weighted CDF reaches p
    w = w or [1] * len(v); t = sum(w); c = 0.0
    for x, wx in sorted(zip(v, w)):
        c += wx / t
        if c >= p / 100: return x
    return max(v)

n1, n2 = 9, 3  # usage completion_tokens
want = {
  # vLLM: TTFT at the role chunk, E2EL at the last chunk with choices,
  # TPOT (E2EL - TTFT)/(n - 1), ITL every gap between chunks with choices
  ("vllm", "ttft"): (lin, [100, 40]),
  ("vllm", "e2e"): (lin, [270, 110]),
  ("vllm", "tpot"): (lin, [(270 - 100) / (n1 - 1), (110 - 40) / (n2 - 1)]),
  ("vllm", "itl"): (lin, [50, 20, 30, 30, 30, 10] + [20, 20, 30]),
  # SGLang: first delta.content; latency at the last line ([DONE])
  ("sglang", "ttft"): (lin, [200, 60]),
  ("sglang", "e2e"): (lin, [290, 120]),
  ("sglang", "tpot"): (lin, [(290 - 200) / (n1 - 1), (120 - 60) / (n2 - 1)]),
  ("sglang", "itl"): (lin, [30, 30, 20, 30]),
  # AIPerf: first/last content response, reasoning included
  ("aiperf", "ttft"): (lin, [150, 60]),
  ("aiperf", "e2e"): (lin, [260, 110]),
  ("aiperf", "itl"): (lin, [(260 - 150) / (n1 - 1), (110 - 60) / (n2 - 1)]),
  # GuideLLM: content or reasoning; TPOT (last - start)/n weighted by n,
  # ITL weighted by n - 1; latency to [DONE], else the response's end
  ("guidellm", "ttft"): (inv, [150, 60]),
  ("guidellm", "tpot"): (lambda v, p: inv(v, p, [n1, n2]), [260 / n1, 110 / n2]),
  ("guidellm", "itl"): (lambda v, p: inv(v, p, [n1 - 1, n2 - 1]),
                        [(260 - 150) / (n1 - 1), (110 - 60) / (n2 - 1)]),
  ("guidellm", "e2e"): (inv, [290, 120]),  # [DONE] rides the usage receive
  # LLMPerf: (last content - start) / data lines but [DONE] (8 and 5)
  ("llmperf", "ttft"): (lin, [200, 60]),
  ("llmperf", "itl"): (lin, [260 / 8, 110 / 5]),
  ("llmperf", "e2e"): (lin, [300, 125]),
  # genai-bench: content or reasoning; e2e at the usage chunk
  ("genai-bench", "ttft"): (lin, [150, 60]),
  ("genai-bench", "e2e"): (lin, [280, 120]),
  ("genai-bench", "tpot"): (lin, [(280 - 150) / (n1 - 1), (120 - 60) / (n2 - 1)]),
}
bad = 0
for (tool, m), (pct, vals) in want.items():
    got = tools[tool][m]["ms"]
    for p in (50, 99):
        w, g = pct(vals, p), got["p%d" % p]
        if abs(g - w) > 1e-4 * max(1, abs(w)):
            print("FAIL %s %s p%d: %s, want %s" % (tool, m, p, g, w)); bad += 1
    if got["n"] != len(vals):
        print("FAIL %s %s n: %s, want %d" % (tool, m, got["n"], len(vals))); bad += 1
if "tpot" in tools["aiperf"] or "itl" in tools["genai-bench"]:
    print("FAIL a metric the tool does not report"); bad += 1
s = doc["shape"]
if (doc["requests"], s["role_first"], s["reasoning_first"]) != (2, 2, 1):
    print("FAIL shape", doc["requests"], s); bad += 1
sys.exit(1 if bad else 0)
PY

# One tool: its own names; markdown and the table of all.
"$TT_ANALYZE" summary "$T/g.ttrace" --as vllm >"$T/vllm.txt"
grep -q "^vLLM definitions" "$T/vllm.txt" || fail "no vLLM header"
grep -Eq "^E2EL +2 +190" "$T/vllm.txt" || { cat "$T/vllm.txt"; fail "vLLM E2EL row"; }
"$TT_ANALYZE" summary "$T/g.ttrace" --as all --format markdown >"$T/all.md"
grep -qF '| vLLM | TTFT | 70.00 | 105.0 | -35.00 |' "$T/all.md" ||
    { cat "$T/all.md"; fail "markdown row of vLLM TTFT"; }
"$TT_ANALYZE" summary "$T/g.ttrace" --as all >"$T/all.txt"
grep -Eq "^AIPerf +Time to First Token .*same on this trace" "$T/all.txt" ||
    { cat "$T/all.txt"; fail "AIPerf's TTFT is tokentrace's"; }

# Usage errors.
expect_exit 2 "$TT_ANALYZE" summary "$T/g.ttrace" --as vlm 2>"$T/e1"
grep -q "is not vllm, sglang" "$T/e1" || fail "unknown tool message"
expect_exit 2 "$TT_ANALYZE" summary "$T/g.ttrace" --as all --format csv 2>/dev/null
expect_exit 2 "$TT_ANALYZE" summary "$T/g.ttrace" --as all --by model 2>/dev/null

# Real HTTP: --fault role-first sends a role-only chunk on arrival.
start_replay -q --fault role-first --synthetic 'ttft=30ms,tpot=2ms,tokens=8'
"$TT_RECORD" -u "$URL" -m m -n 3 -c 1 -o "$T/r.ttrace" -q 2>"$T/rec.err" ||
    { cat "$T/rec.err"; fail "record"; }
"$TT_ANALYZE" summary "$T/r.ttrace" --as all --format json >"$T/r.json"
# a role-only chunk counts as first when it came before the first text: a
# late read (a loaded machine) can take it with the text in one
"$TT_ANALYZE" dump "$T/r.ttrace" >"$T/r.jsonl"
apart=$(jq -s '[.[] | select(.kind == "chunk")] | group_by(.request_id)
    | map(sort_by(.offset) | select(length > 1 and .[0].t_ns < .[1].t_ns)) | length' "$T/r.jsonl")
[ "$apart" -gt 0 ] || fail "no request read its role-only chunk on its own"
jq -e --argjson n "$apart" '.shape.role_first == $n' "$T/r.json" >/dev/null ||
    fail "replay streams should begin with a role-only chunk: $(jq -c .shape "$T/r.json"), $apart read apart"
jq -e '[.tools[] | select(.name=="vllm")][0].metrics.ttft
       | .ms.p50 <= .tokentrace_ms.p50' "$T/r.json" >/dev/null ||
    fail "vLLM's TTFT stops at the role chunk, before tokentrace's"
jq -e '[.tools[] | select(.name=="aiperf")][0].metrics.ttft
       | .ms.p50 == .tokentrace_ms.p50' "$T/r.json" >/dev/null ||
    fail "AIPerf's TTFT is tokentrace's"
echo "analyze_summary_as: ok"
