#!/usr/bin/env bash
# plot_compare_trend: `plot --compare` draws p50/p99 bars per trace whose
# numbers are summary's (all requests), with the p50's bootstrap interval
# and compare's verdict, `plot --trend` groups traces by ISO
# week (or day, --by day) of their start; eight models stay distinct.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/plot_lib.sh"
need_gnuplot

W47=1763337600000000000  # Monday 2025-11-17T00:00:00Z
W48=1763942400000000000  # Monday 2025-11-24T00:00:00Z
DAY=86400000000000
"$TT_GEN_TRACE" --mix "$T/w47.ttrace" -n 80 -m gpt-4o -m claude -z $((W47 + 3600000000000)) -s 3
"$TT_GEN_TRACE" --mix "$T/w48.ttrace" -n 90 -m gpt-4o -m claude -m new -z $((W48 + DAY)) -s 4
"$TT_GEN_TRACE" --mix "$T/w48b.ttrace" -n 40 -m gpt-4o -z $((W48 + 3 * DAY)) -s 5

"$TT_ANALYZE" plot --compare "$T/w47.ttrace" "$T/w48.ttrace" "$T/w48b.ttrace" \
    -o "$T/cmp" --html 2>"$T/stderr" >/dev/null || { cat "$T/stderr"; fail "compare"; }
[ ! -s "$T/stderr" ] || { cat "$T/stderr"; fail "compare printed diagnostics"; }
png_sensible "$T/cmp/compare.png"
grep -q '"w47.ttrace"' "$T/cmp/compare.dat" || fail "trace names missing from compare.dat"
# compare's TTFT p50 of gpt-4o in w48 is summary's.
want=$("$TT_ANALYZE" summary "$T/w47.ttrace" "$T/w48.ttrace" "$T/w48b.ttrace" \
    --by trace,model --format json |
    jq -r '.groups[] | select(.model == "gpt-4o" and (.trace | test("w48.ttrace$"))) | .ttft_ms.p50')
[ -n "$want" ] && [ "$want" != null ] || fail "summary gave no p50"
# Block 2 of panel 1 (TTFT) is gpt-4o (models sorted: claude, gpt-4o, new);
# its second row is trace 2 (w48).
got=$(awk 'BEGIN{RS="\n\n\n"} NR==3' "$T/cmp/compare.dat" | awk 'NR==3{print $2}')
awk -v a="$got" -v b="$want" 'BEGIN{d=a-b; if (d<0) d=-d; exit !(d <= 1e-4*b)}' ||
    fail "compare p50 $got, summary $want"

# Error bars and verdicts: gen_trace --mix gives its first model ~100 ms
# TTFT and its second ~160 ms, so with the order swapped "fast" got
# slower and "slow" faster. Each row of compare.dat holds the p50's 95%
# bootstrap interval (lo <= p50 <= hi) and the verdict against the base,
# the same as `compare` says (one class, so the model's requests are
# compare's group); the SVG draws the error bars and the coloured labels.
"$TT_GEN_TRACE" --mix "$T/o1.ttrace" -n 60 -m fast -m slow -s 3
"$TT_GEN_TRACE" --mix "$T/o2.ttrace" -n 60 -m slow -m fast -s 4
"$TT_ANALYZE" plot --compare "$T/o1.ttrace" "$T/o2.ttrace" -o "$T/ci" --format svg >/dev/null ||
    fail "plot --compare (order swapped)"
"$TT_ANALYZE" compare "$T/o1.ttrace" "$T/o2.ttrace" --format json >"$T/ci.json"
python3 - "$T/ci/compare.dat" "$T/ci.json" "$T/ci/compare.svg" <<'PY' || fail "compare error bars / verdicts"
import json, re, shlex, sys
blocks = open(sys.argv[1], encoding="utf-8").read().split("\n\n\n")[1:]
cmp = json.load(open(sys.argv[2]))["comparisons"][0]["groups"]
metric = ["ttft_ms", "tpot_ms", "latency_ms"]
assert len(blocks) == 6, len(blocks)  # 3 panels x 2 models
seen = 0
for i, b in enumerate(blocks):
    lines = b.strip().splitlines()
    model = shlex.split(lines[0])[0]
    rows = [shlex.split(l) for l in lines[1:]]
    assert len(rows) == 2, rows
    for r in rows:
        p50, lo, hi = float(r[1]), float(r[3]), float(r[4])
        assert lo <= p50 <= hi and lo < hi, (model, r)
    assert rows[0][5] == "base", rows[0]
    g = next(g for g in cmp if g["model"] == model)["metrics"][metric[i // 2]]
    assert g["verdict"] == "real", (model, g["verdict"])
    word = "slower" if g["diff"]["p50"] > 0 else "faster"
    want = "%s %+.0f%%" % (word, g["diff_pct"]["p50"])
    assert rows[1][5] == want, (model, metric[i // 2], rows[1][5], want)
    assert rows[1][6] == ("13369344" if word == "slower" else "2263091"), rows[1]
    seen += 1
assert seen == 6
svg = open(sys.argv[3], encoding="utf-8").read()
assert len(re.findall(r'fill="rgb\(204,0,0\)"[^>]*>\s*<text>slower \+', svg)) == 3, "red 'slower' labels"
assert len(re.findall(r'fill="rgb\(34,136,51\)"[^>]*>\s*<text>faster -', svg)) == 3, "green 'faster' labels"
# yerrorbars: a vertical stroke in the error-bar colour per bar (12)
bars = re.findall(r"<path stroke='rgb\( 34,  34,  34\)'\s+d='([^']*)'", svg)
assert sum(p.count("M") for p in bars) >= 12, bars[:3]
PY
python3 "$TT_SOURCE_DIR/tests/lib/svg_layout.py" "$T/ci/compare.svg" || fail "compare: text hidden"

# Per prompt class (issue 32, item 1): two classes 200 ms apart, TTFT
# +15 ms in each. compare says "slower" per class; merged, the classes
# make the medians' interval wide ("no difference", as the chart said
# before). The chart has a row of panels per class, and every bar's label
# is compare's verdict on that model and class; one y axis per metric.
"$TT_GEN_TRACE" --mix "$T/k1.ttrace" -n 240 -m fast -m slow -k short-short -k long-short -D 200 -s 3
"$TT_GEN_TRACE" --mix "$T/k2.ttrace" -n 240 -m fast -m slow -k short-short -k long-short -D 200 -S 15 -s 4
"$TT_ANALYZE" plot --compare "$T/k1.ttrace" "$T/k2.ttrace" -o "$T/k" --format svg >/dev/null ||
    fail "plot --compare (two classes)"
"$TT_ANALYZE" compare "$T/k1.ttrace" "$T/k2.ttrace" --format json >"$T/k.json"
"$TT_ANALYZE" compare "$T/k1.ttrace" "$T/k2.ttrace" --by model --format json >"$T/k-merged.json"
python3 - "$T/k/compare.dat" "$T/k.json" "$T/k-merged.json" "$T/k/compare.gp" "$T/k/compare.svg" <<'PY' || fail "compare chart per class"
import json, re, shlex, sys
parts = open(sys.argv[1], encoding="utf-8").read().split("\n\n\n")
head = [shlex.split(l) for l in parts[0].strip().splitlines()]
assert [h[1] for h in head[2:]] == ["short-short", "long-short"], head
cmp = json.load(open(sys.argv[2]))["comparisons"][0]["groups"]
merged = json.load(open(sys.argv[3]))["comparisons"][0]["groups"]
assert all(g["metrics"]["ttft_ms"]["verdict"] == "noise" for g in merged), "merged is not noise: the fixture no longer shows the bug"
metric = ["ttft_ms", "tpot_ms", "latency_ms"]
blocks = parts[1:]
assert len(blocks) == 12, len(blocks)  # 2 classes x 3 metrics x 2 models
slower = 0
for i, b in enumerate(blocks):
    lines = b.strip().splitlines()
    model, cls = shlex.split(lines[0])
    assert cls == ["short-short", "long-short"][i // 6], (i, cls)
    rows = [shlex.split(l) for l in lines[1:]]
    g = next(g for g in cmp if g["model"] == model and g["class"] == cls)["metrics"][metric[i // 2 % 3]]
    v = rows[1][5]
    if g["verdict"] == "real":
        word = "slower" if g["diff"]["p50"] > 0 else "faster"
        assert v == "%s %+.0f%%" % (word, g["diff_pct"]["p50"]), (model, cls, v)
        slower += word == "slower"
    else:
        assert v == {"noise": "no difference", "too few": "too few"}[g["verdict"]], (model, cls, v, g["verdict"])
assert slower >= 4, slower  # TTFT of both models in both classes
gp = open(sys.argv[4]).read()
ymax = re.findall(r"^ymax_([123]) = (\S+)$", gp, re.M)
assert len(ymax) == 3, ymax
svg = open(sys.argv[5], encoding="utf-8").read()
for cls in ("short-short", "long-short"):
    assert svg.count("<text>%s: TTFT (ms)</text>" % cls) == 1, cls
PY
python3 "$TT_SOURCE_DIR/tests/lib/svg_layout.py" "$T/k/compare.svg" || fail "compare per class: text hidden"
"$TT_ANALYZE" plot --trend "$T/k1.ttrace" "$T/k2.ttrace" -o "$T/kt" --format svg >/dev/null ||
    fail "plot --trend (two classes)"
python3 - "$T/kt/trend.dat" "$T/kt/trend.svg" <<'PY' || fail "trend chart per class"
import shlex, sys
parts = open(sys.argv[1], encoding="utf-8").read().split("\n\n\n")
blocks = [shlex.split(b.strip().splitlines()[0]) for b in parts[1:]]
# a p50 and a p99 line per model, class and metric
assert len(blocks) == 2 * 3 * 2 * 2, len(blocks)
assert {tuple(b) for b in blocks} >= {("fast p50", "long-short"), ("slow p99", "short-short")}, blocks
svg = open(sys.argv[2], encoding="utf-8").read()
for cls in ("short-short", "long-short"):
    assert svg.count("<text>%s: latency (ms)</text>" % cls) == 1, cls
PY

"$TT_ANALYZE" plot --trend "$T/w47.ttrace" "$T/w48.ttrace" "$T/w48b.ttrace" -o "$T/trend" \
    2>"$T/stderr" >/dev/null || { cat "$T/stderr"; fail "trend"; }
png_sensible "$T/trend/trend.png"
# Two weeks: the Mondays, as Unix seconds.
weeks=$(awk 'NF==2 && $1 ~ /^[0-9]+$/ {print $1}' "$T/trend/trend.dat" | sort -u | tr '\n' ' ')
assert_eq "$weeks" "1763337600 1763942400 " "weeks"
"$TT_ANALYZE" plot --trend --by day "$T/w47.ttrace" "$T/w48.ttrace" "$T/w48b.ttrace" \
    -o "$T/days" >/dev/null
days=$(awk 'NF==2 && $1 ~ /^[0-9]+$/ {print $1}' "$T/days/trend.dat" | sort -u | wc -l)
assert_eq "$days" 3 "days"
expect_exit 2 "$TT_ANALYZE" plot --trend --by month "$T/w47.ttrace" -o "$T/x" 2>/dev/null

# Eight models: eight colours, every chart readable (drawn without errors).
args=()
for i in 1 2 3 4 5 6 7 8; do args+=(-m "model-$i"); done
"$TT_GEN_TRACE" --mix "$T/eight.ttrace" -n 400 -c 8 "${args[@]}" -k short-short -k short-long -k long-short
"$TT_ANALYZE" plot "$T/eight.ttrace" -o "$T/eight" 2>"$T/stderr" >/dev/null ||
    { cat "$T/stderr"; fail "eight models"; }
[ ! -s "$T/stderr" ] || { cat "$T/stderr"; fail "eight models: diagnostics"; }
for c in $PLOT_CHARTS; do png_sensible "$T/eight/$c.png"; done
grep -q '^array blt\[8\] = \[1,2,3,4,5,6,7,8\]$' "$T/eight/tpot.gp" || fail "tpot colours: $(grep blt "$T/eight/tpot.gp")"
echo "plot_compare_trend: ok"
