#!/usr/bin/env bash
# summary on gen_trace traces with known timing: exact TTFT/TPOT/ITL/latency,
# the JSON schema of SPEC 6, CSV shape, markdown table, --slo goodput,
# --by trace, --by label:KEY, --classify measured.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE

# 10 requests x 20 tokens, TTFT 100 ms, TPOT 10 ms: latency 100 + 10 * 19.
"$G" "$T/t.ttrace" 10 20 100 10 label=week=48
"$A" summary "$T/t.ttrace" --format json >"$T/s.json"
jq_checks "$(tt_data analyze/summary/known-timing.jq)" "$T/s.json"

# CSV: a stable column count, every metric of every group plus overall.
"$A" summary "$T/t.ttrace" --format csv >"$T/s.csv"
python3 - "$T/s.csv" <<'PY' || fail "summary csv shape"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head = rows[0]
assert head[:3] == ["model", "class", "requests"], head
assert len({len(r) for r in rows}) == 1, "ragged rows"
body = rows[1:]
metrics = sorted({r[head.index("metric")] for r in body})
assert "ttft_ms" in metrics and "tpot_ms" in metrics, metrics
assert len(body) == 3 * len(metrics), (len(body), len(metrics))
ttft = [r for r in body if r[0] == "model-a" and r[head.index("metric")] == "ttft_ms"][0]
assert float(ttft[head.index("p50")]) == 100.0, ttft
assert any(r[0] == "(all)" for r in body)
PY

# Markdown: a heading and a table per group.
"$A" summary "$T/t.ttrace" --format markdown >"$T/s.md"
grep -q '^## tokentrace summary' "$T/s.md" || fail "markdown heading"
assert_eq "$(grep -c '^| metric | p50 |' "$T/s.md")" 3 "markdown tables (2 groups + overall)"
grep -q '^|---|--:|' "$T/s.md" || fail "markdown alignment row"
grep -q '^| TTFT (ms) | 100.0 |' "$T/s.md" || fail "markdown TTFT row"

# Table: readable header line.
"$A" summary "$T/t.ttrace" --detail >"$T/s.txt"
grep -q '^1 trace, 10 requests (10 ok, 0 failed)' "$T/s.txt" || fail "table header: $(head -1 "$T/s.txt")"

# --slo: every 5th request fails (HTTP 500); 8 of 10 meet TTFT <= 150 ms.
"$G" "$T/f.ttrace" 10 20 100 10 fail_every=5
"$A" summary "$T/f.ttrace" --format json --slo ttft=150ms,tpot=20ms >"$T/slo.json"
jq -e '.overall.goodput.met == 8 and .overall.goodput.share == 0.8' "$T/slo.json" >/dev/null ||
    fail "goodput share: $(jq -c .overall.goodput "$T/slo.json")"
jq -e '.overall.goodput.slo == {"ttft_ms":150,"tpot_ms":20}' "$T/slo.json" >/dev/null || fail "slo echo"
jq -e '.overall.errors == {"http_500":2} and .overall.ok == 8' "$T/slo.json" >/dev/null || fail "error counts"
"$A" summary "$T/f.ttrace" --format json --slo ttft=50ms | jq -e '.overall.goodput.share == 0' >/dev/null ||
    fail "no request meets a 50 ms TTFT"
"$A" summary "$T/f.ttrace" --slo ttft=150ms --detail | grepq 'goodput: 8 of 10 requests meet the SLO (80.0%)' ||
    fail "goodput line in the table"
expect_exit 2 "$A" summary "$T/f.ttrace" --slo ttft=fast 2>/dev/null

# Nothing read at all (issue 32): the error, exit 1, and no empty table
# of "0 traces" under it.
expect_exit 1 "$A" summary "$T/missing.ttrace" >"$T/missing.out" 2>"$T/missing.err"
grep -q "missing.ttrace: cannot open" "$T/missing.err" || fail "summary of a missing file does not say so"
[ ! -s "$T/missing.out" ] || fail "summary of a missing file printed: $(head -3 "$T/missing.out")"

# --by trace and --by label:KEY over two traces.
"$G" "$T/u.ttrace" 4 10 200 20 label=week=49
"$A" summary "$T/t.ttrace" "$T/u.ttrace" --by trace --format json >"$T/bt.json"
jq -e --arg a "0:$T/t.ttrace" --arg b "1:$T/u.ttrace" '[.groups[].trace] == [$a, $b]' "$T/bt.json" >/dev/null ||
    fail "--by trace groups: $(jq -c '[.groups[].trace]' "$T/bt.json")"
jq -e '.groups[1].ttft_ms.p50 == 200 and .groups[1].requests == 4' "$T/bt.json" >/dev/null || fail "--by trace values"
"$A" summary "$T/t.ttrace" "$T/u.ttrace" --by label:week,model --format json >"$T/bl.json"
jq -e '[.groups[] | [.["label:week"], .model]] == [["48","model-a"],["48","model-b"],["49","model-a"],["49","model-b"]]' \
    "$T/bl.json" >/dev/null || fail "--by label:week,model: $(jq -c '[.groups[]|[.["label:week"],.model]]' "$T/bl.json")"
jq -e '.groups[2].tpot_ms.p50 == 20' "$T/bl.json" >/dev/null || fail "label group values"
"$A" summary "$T/t.ttrace" --by label:nope --format json | jq -e '.groups[0]["label:nope"] == "(none)"' >/dev/null ||
    fail "missing label"
expect_exit 2 "$A" summary "$T/t.ttrace" --by colour 2>/dev/null

# --classify measured: 300 output tokens is a long output.
"$G" "$T/long.ttrace" 2 300 100 1
"$A" summary "$T/long.ttrace" --format json >"$T/decl.json"
"$A" summary "$T/long.ttrace" --classify measured --format json >"$T/meas.json"
assert_eq "$(jq -r '[.groups[].class]|unique|join(",")' "$T/decl.json")" short-short "declared class"
assert_eq "$(jq -r '[.groups[].class]|unique|join(",")' "$T/meas.json")" short-long "measured class"
# A against B in one run (issue 32, item 2): summary of a two-model
# recording says per class which model is faster on TTFT p50 and p99 with
# the interval and verdict compare gives the same requests split into two
# files (one implementation: the numbers are equal), "too few" with the -n
# a p99 verdict needs, and "against" rather than "faster" on noise.
"$G" --mix "$T/fast.ttrace" -n 120 -m fast -k short-short -k long-short -s 3
"$G" --mix "$T/slow.ttrace" -n 120 -m slow -k short-short -k long-short -S 8 -s 4
cat "$T/fast.ttrace" "$T/slow.ttrace" >"$T/both.ttrace"
"$A" summary "$T/both.ttrace" >"$T/ab.txt"
awk 'length > 80 {print; bad=1} END {exit bad}' "$T/ab.txt" || fail "summary wider than 80 columns"
"$A" compare "$T/fast.ttrace" "$T/slow.ttrace" --by class --format json >"$T/ab.json"
python3 - "$T/ab.txt" "$T/ab.json" <<'PY' || fail "A against B"
import json, re, sys
text = re.sub(r"\n  ", " ", open(sys.argv[1], encoding="utf-8").read())
for g in json.load(open(sys.argv[2]))["comparisons"][0]["groups"]:
    m = g["metrics"]["ttft_ms"]
    def f(x):  # compare's signed number format
        a = abs(x)
        s = "%+.1f" % x if a >= 10 or a == 0 else "%+.2f" % x if a >= 1 else "%+.3f" % x
        return s
    ci, ci99 = m["median_diff_ci"], m["p99_diff_ci"]
    want = "%s: fast is faster than slow on TTFT p50 by %s ms [%s, %s] \u2014 %s, p99 by %s ms [%s, %s] \u2014 %s" % (
        g["class"], f(ci["estimate"]).lstrip("+"), f(ci["lo"]), f(ci["hi"]), m["verdict"],
        f(ci99["estimate"]).lstrip("+"), f(ci99["lo"]), f(ci99["hi"]), m["verdict_p99"])
    assert m["verdict"] == "real" and m["verdict_p99"] == "too few", m
    assert want in text, (want, text[-900:])
    assert "%s: fast is faster" % g["class"] in text
assert text.count("(p99 of 60 values; record -n 100)") == 6, text[-600:]
PY
# TPOT and latency as well, in the table, the JSON ("ab") and markdown.
"$A" summary "$T/both.ttrace" --format json >"$T/ab_sum.json"
"$A" summary "$T/both.ttrace" --format markdown >"$T/ab.md"
python3 "$(tt_data analyze/summary/ab_metrics.py)" "$T/ab.txt" "$T/ab.json" "$T/ab_sum.json" "$T/ab.md" ||
    fail "A against B: TPOT, latency, JSON, markdown"
"$G" --mix "$T/same.ttrace" -n 120 -m twin -k short-short -s 4
cat "$T/fast.ttrace" "$T/same.ttrace" >"$T/noise.ttrace"
"$A" summary "$T/noise.ttrace" | tr '\n' ' ' | grepq 'short-short: fast against twin on TTFT p50 by .* noise' ||
    fail "noise said as faster: $("$A" summary "$T/noise.ttrace" | tail -4)"
"$A" summary "$T/fast.ttrace" | grepq 'A against B' && fail "A against B with one model"
# A request without "model" (a proxied client may send none) is model
# "(none)", as other missing keys are (issue 32: an empty name, "fastest ;
# anyname 5.4x").
"$G" "$T/nomodel.ttrace" 20 5 100 10 0 1 model_a=
"$A" summary "$T/nomodel.ttrace" >"$T/nm.txt"
grep -qx '(none)' "$T/nm.txt" || fail "no (none) group: $(cat "$T/nm.txt")"
grep -q '^short-short: (none) and model-b within 5%' "$T/nm.txt" || fail "finding: $(grep short-short: "$T/nm.txt")"
assert_eq "$("$A" summary "$T/nomodel.ttrace" --format json | jq -r '[.groups[].model] | sort | join(",")')" "(none),model-b" "json models"
echo ok
