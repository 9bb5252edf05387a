#!/usr/bin/env bash
# compare --metric (issue 32): a verdict at any percentile per group. Two
# recordings through real libcurl against tokentrace-replay serving
# scripted replies: the same TTFTs on both sides except that the slowest
# 15% of NEW's replies are 300 ms later. That moves p95 (real, slower) and
# leaves the median where it was (noise); 100 requests a side are too few
# for p99.9, which needs 1000 values and says -n 1000. Bad items are usage
# errors naming the item and the valid metrics.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE

# A reply: first byte after 20 ms + WAIT (gen_trace --script), 3 tokens.
reply() {
    printf '@wait %d\n' "$1"
    for t in 'a ' 'b ' 'c'; do
        printf 'data: {"choices":[{"delta":{"content":"%s"}}]}\n\n' "$t"
    done
    printf 'data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3}}\n\n'
    printf 'data: [DONE]\n\n'
}

# 100 replies a side: waits 0, 4, ..., 76 ms, five times; in NEW the
# three largest (68, 72, 76: 15%) get +300 ms.
for side in base new; do
    files=()
    for _ in 1 2 3 4 5; do
        for j in $(seq 0 4 76); do
            w=$j
            [ "$side" = new ] && [ "$j" -ge 68 ] && w=$((j + 300))
            f=$T/$side-$w.sse
            [ -f "$f" ] || reply "$w" >"$f"
            files+=("$f")
        done
    done
    "$TT_GEN_TRACE" --script "$T/$side-script.ttrace" gw "${files[@]}"
    start_replay --trace "$T/$side-script.ttrace" -q
    "$TT_RECORD" -q -u "$URL" -m gw --classes short-short -n 100 -c 4 \
        -o "$T/$side.ttrace" 2>"$T/$side.rec.err" || fail "record $side: $(cat "$T/$side.rec.err")"
done

M=ttft_p95,ttft_p99.9,ttft_p50,ttft_p99,latency_p95
"$A" compare "$T/base.ttrace" "$T/new.ttrace" --metric "$M" --format json >"$T/c.json"
g='.comparisons[0].groups[0]'
pc() { echo "$g.percentiles[] | select(.metric == \"$1\")"; }
jq -e "[$g.percentiles[].metric] == [\"ttft_p95\",\"ttft_p99.9\",\"ttft_p50\",\"ttft_p99\",\"latency_p95\"]" "$T/c.json" >/dev/null ||
    fail "percentiles: $(jq -c "[$g.percentiles[].metric]" "$T/c.json")"
# the planted change is real at p95 (the difference over a third of it),
# noise at p50
jq -e "$(pc ttft_p95) | .verdict == \"real\" and .direction == \"slower\" and .diff > 100 and .min_samples == 20 and .needed_n == {base: null, new: null}" "$T/c.json" >/dev/null ||
    fail "p95 not real: $(jq -c "$(pc ttft_p95)" "$T/c.json")"
jq -e "$(pc latency_p95) | .verdict == \"real\" and .direction == \"slower\"" "$T/c.json" >/dev/null || fail "latency p95 not real"
jq -e "$(pc ttft_p50) | .verdict == \"noise\"" "$T/c.json" >/dev/null ||
    fail "p50 moved: $(jq -c "$(pc ttft_p50)" "$T/c.json")"
# p50 and p99 as items are the built-in verdicts, bit for bit (one bootstrap)
jq -e "($(pc ttft_p50)) as \$x | $g.metrics.ttft_ms | .verdict == \$x.verdict and .median_diff_ci.lo == \$x.diff_ci.lo and .median_diff_ci.hi == \$x.diff_ci.hi and .diff.p50 == \$x.diff" "$T/c.json" >/dev/null ||
    fail "ttft_p50 item differs from the p50 verdict"
jq -e "($(pc ttft_p99)) as \$x | $g.metrics.ttft_ms | .verdict_p99 == \$x.verdict and .p99_diff_ci.lo == \$x.diff_ci.lo and .p99_diff_ci.hi == \$x.diff_ci.hi and .base.p99 == \$x.base" "$T/c.json" >/dev/null ||
    fail "ttft_p99 item differs from the p99 verdict"
# too few for p99.9: 100 values a side of 1000, -n 1000 on each side
jq -e "$(pc ttft_p99.9) | .verdict == \"too few\" and .min_samples == 1000 and .samples_base == 100 and .samples_new == 100 and .needed_n == {base: 1000, new: 1000} and .diff_ci != null" "$T/c.json" >/dev/null ||
    fail "p99.9 not too few: $(jq -c "$(pc ttft_p99.9)" "$T/c.json")"
jq -e '.comparisons[0].too_few_percentiles | map(select(.groups > 0)) == [{"metric":"ttft_p99.9","groups":1,"min_samples":1000,"needed_n":1000}]' "$T/c.json" >/dev/null ||
    fail "too_few_percentiles: $(jq -c '.comparisons[0].too_few_percentiles' "$T/c.json")"
jq -e '.comparisons[0].too_few_percentiles[0] == {"metric":"ttft_p95","groups":0,"min_samples":20,"needed_n":null}' "$T/c.json" >/dev/null ||
    fail "too_few_percentiles of p95"
# without --metric there is no such key (older readers see what they saw)
"$A" compare "$T/base.ttrace" "$T/new.ttrace" --format json |
    jq -e '(.comparisons[0] | has("too_few_percentiles") | not) and (.comparisons[0].groups[0] | has("percentiles") | not)' >/dev/null ||
    fail "percentiles without --metric"

# The 80-column text: a row per item under its metric, the p99.9 note with
# the -n it needs.
(cd "$T" && "$A" compare base.ttrace new.ttrace --metric ttft_p95,ttft_p99.9) >"$T/c.txt"
awk 'length > 80 {print "over 80: " $0; bad=1} END {exit bad}' "$T/c.txt" || fail "wider than 80 columns"
# (slower; or mixed when the load here slowed a few of BASE's gaps)
sed -n 1p "$T/c.txt" | grepq -E '^verdict: (1 of 1 group slower|0 of 1 group slower, 0 faster, 1 mixed), ' ||
    fail "first line: $(sed -n 1p "$T/c.txt")"
grepq -E '^          p95 +[0-9.]+ +[0-9.]+ +\+[0-9.]+ .*real, slower$' <"$T/c.txt" || fail "p95 row: $(cat "$T/c.txt")"
grepq -E '^        p99\.9 .* too few$' <"$T/c.txt" || fail "p99.9 row"
grepq -E '^  TTFT    p50 .* noise$' <"$T/c.txt" || fail "p50 row not noise"
tr '\n' ' ' <"$T/c.txt" | tr -s ' ' | grepq -F 'ttft_p99.9 rests on fewer than 1000 values in 1 of 1 group ("too few"); for its verdict record each side with -n 1000 or more' ||
    fail "p99.9 note"
# --wide and markdown carry the same rows
"$A" compare "$T/base.ttrace" "$T/new.ttrace" --metric ttft_p95 --wide | grepq -E '^ {22}p95 .*real, slower$' || fail "wide p95 row"
"$A" compare "$T/base.ttrace" "$T/new.ttrace" --metric ttft_p95,ttft_p99.9 --format markdown >"$T/c.md"
grepq -E '^\| \| p95 \| .* \| real, slower \|$' <"$T/c.md" || fail "markdown p95 row"
grepq -E '^> ttft_p99\.9 rests on fewer than 1000 values .*-n 1000 or more$' <"$T/c.md" || fail "markdown p99.9 note"

# A bad item: exit 2, naming it and the valid metrics; said in --help.
for bad in bogus_p95 ttft_p100 ttft_p0 ttft ttft_p9x 'ttft_p95,' ttft_p9.9.9 ttft_p1e1 \
    ttft_p-5 'ttft_p 5' ttft_pnan ttft_pinf _p95 ttft_; do
    expect_exit 2 "$A" compare "$T/base.ttrace" "$T/new.ttrace" --metric "$bad" 2>"$T/bad.err" >"$T/bad.out"
    [ ! -s "$T/bad.out" ] || fail "--metric $bad wrote output"
    grepq "compare --metric: .*ttft, tpot, itl, latency,\? \(or \)\?output_tokens" <"$T/bad.err" ||
        fail "--metric $bad: $(cat "$T/bad.err")"
done
grepq "'bogus_p95': 'bogus' is not a metric" <<<"$("$A" compare "$T/base.ttrace" "$T/new.ttrace" --metric bogus_p95 2>&1 || true)" ||
    fail "bogus not named"
"$A" compare --help | grepq -- '--metric LIST' || fail "--help lacks --metric"
# Any percentile between 0 and 100, the name as %g spells it.
"$A" compare "$T/base.ttrace" "$T/new.ttrace" --metric itl_p0.5,tpot_p99.990,output_tokens_p50 --format json |
    jq -e '[.comparisons[0].groups[0].percentiles[] | [.metric, .percentile]] == [["itl_p0.5", 0.5], ["tpot_p99.99", 99.99], ["output_tokens_p50", 50]]' >/dev/null ||
    fail "good items"
# --fail-on reads METRIC_pSTAT with the same parser and still gates only
# on p50, p90 and p99 (summary's values).
expect_exit 2 "$A" compare "$T/base.ttrace" "$T/new.ttrace" --fail-on ttft_p99.9=+10% 2>"$T/f.err"
grepq "'p99.9' is not p50, p90 or p99" <"$T/f.err" || fail "fail-on p99.9: $(cat "$T/f.err")"
echo PASS
