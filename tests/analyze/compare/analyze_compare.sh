#!/usr/bin/env bash
# compare: a 50 ms TTFT regression is "real" (and "slower"/"faster" by
# direction), the same settings with another seed are "noise", too few
# requests say so, seeds make the bootstrap reproducible, several NEW
# traces, groups present on one side only, usage errors.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE

# 40 requests (20 per model), jitter: TTFT + U[0,10) ms, gaps + U[0,1) ms.
"$G" "$T/base.ttrace" 40 20 100 10 10 1
"$G" "$T/slow.ttrace" 40 20 150 10 10 2
"$G" "$T/same.ttrace" 40 20 100 10 10 3

"$A" compare "$T/base.ttrace" "$T/slow.ttrace" --format json >"$T/c.json"
jq_checks "$(tt_data analyze/compare/ttft-regression.jq)" "$T/c.json"

# The table says the same in its verdict lines.
"$A" compare "$T/base.ttrace" "$T/slow.ttrace" --wide >"$T/c.txt"
assert_eq "$(grep -c '^  => model-.*TTFT p50 +.* slower — real; TPOT noise' "$T/c.txt")" 2 "table verdicts"
grep -q '^  TTFT (ms) .* p50 .*real, slower$' "$T/c.txt" || fail "TTFT row verdict"
# Reversed, it got faster.
"$A" compare "$T/slow.ttrace" "$T/base.ttrace" --format json |
    jq -e 'all(.comparisons[0].groups[]; .metrics.ttft_ms.direction == "faster" and .metrics.ttft_ms.diff.p50 < -40)' >/dev/null ||
    fail "reverse comparison is not faster"

# Same settings, another seed: nothing real.
"$A" compare "$T/base.ttrace" "$T/same.ttrace" --format json >"$T/n.json"
jq -e 'all(.comparisons[0].groups[].metrics[]; .verdict == "noise")' "$T/n.json" >/dev/null ||
    fail "same settings not noise: $(jq -c '[.comparisons[0].groups[].verdict]' "$T/n.json")"
"$A" compare "$T/base.ttrace" "$T/same.ttrace" --wide | grepq '=> model-a / short-short: TTFT noise; TPOT noise; ITL noise; latency noise; output tokens noise' ||
    fail "noise verdict line"

# Reproducible with a seed; another seed moves the interval a little.
"$A" compare "$T/base.ttrace" "$T/same.ttrace" --seed 7 --format json >"$T/s7a.json"
"$A" compare "$T/base.ttrace" "$T/same.ttrace" --seed 7 --format json >"$T/s7b.json"
cmp -s "$T/s7a.json" "$T/s7b.json" || fail "same seed, different output"
jq -e '.method.seed == 7' "$T/s7a.json" >/dev/null || fail "seed not reported"
cmp -s "$T/s7a.json" "$T/n.json" && fail "seed 7 gives the same intervals as seed 1"
expect_exit 2 "$A" compare "$T/base.ttrace" "$T/same.ttrace" --seed x 2>/dev/null

# Several NEW traces: one comparison each, in order.
"$A" compare "$T/base.ttrace" "$T/slow.ttrace" "$T/same.ttrace" --format json >"$T/m.json"
jq -e --arg s "$T/slow.ttrace" --arg n "$T/same.ttrace" '[.comparisons[].new.file] == [$s, $n]' "$T/m.json" >/dev/null ||
    fail "several NEW"

# Too few requests for a verdict (2 per model).
"$G" "$T/tiny.ttrace" 4 20 150 10 10 5
"$A" compare "$T/base.ttrace" "$T/tiny.ttrace" --format json |
    jq -e 'all(.comparisons[0].groups[].metrics.ttft_ms; .verdict == "too few")' >/dev/null || fail "too few"

# Every request failed on the new side: nothing to compare, no signs.
"$G" "$T/down.ttrace" 6 20 100 10 fail_every=1
"$A" compare "$T/base.ttrace" "$T/down.ttrace" --format json |
    jq -e 'all(.comparisons[0].groups[].metrics[]; .verdict == "n/a" and .diff.p50 == null and .median_diff_ci == null)' \
    >/dev/null || fail "all failed is n/a"
"$A" compare "$T/base.ttrace" "$T/down.ttrace" --wide | grepq -E '^  TTFT \(ms\) +p50 +[0-9.]+ +- +- +- +- +n/a$' ||
    fail "all-failed row: $("$A" compare "$T/base.ttrace" "$T/down.ttrace" | grep 'TTFT (ms)')"

# A model on one side only is listed, not compared.
"$G" "$T/other.ttrace" 40 20 100 10 10 4 model_a=model-c
"$A" compare "$T/base.ttrace" "$T/other.ttrace" --format json >"$T/o.json"
jq -e '[.comparisons[0].groups[].model] == ["model-b"]' "$T/o.json" >/dev/null || fail "common groups"
jq -e '.comparisons[0].only_in_base == [{"model":"model-a","class":"short-short"}]' "$T/o.json" >/dev/null || fail "only in base"
jq -e '.comparisons[0].only_in_new == [{"model":"model-c","class":"short-short"}]' "$T/o.json" >/dev/null || fail "only in new"
"$A" compare "$T/base.ttrace" "$T/other.ttrace" | grepq '^only in new: model-c / short-short$' || fail "only-in line"

# A concatenated file is one side.
cat "$T/base.ttrace" "$T/same.ttrace" >"$T/both.ttrace"
"$A" compare "$T/both.ttrace" "$T/slow.ttrace" --format json |
    jq -e '.base.requests == 80 and (.base.traces | length) == 2 and .comparisons[0].groups[0].base.ok == 40' >/dev/null ||
    fail "concatenated side"

# Markdown: a table per group and a verdict line.
"$A" compare "$T/base.ttrace" "$T/slow.ttrace" --format markdown >"$T/c.md"
assert_eq "$(grep -c '^| metric | | base | new | diff |' "$T/c.md")" 2 "markdown tables"
assert_eq "$(grep -c '^\*\*Verdict:\*\* model-.*slower — real' "$T/c.md")" 2 "markdown verdicts"

# Sides whose models first appear in another order are paired by name:
# gen_trace --mix gives its first model ~100 ms TTFT and its second
# ~160 ms, so with the order swapped "fast" got slower and "slow" faster
# (the group index once pointed at positions from before sorting, and
# compare paired "fast" of one side with "slow" of the other).
"$TT_GEN_TRACE" --mix "$T/order1.ttrace" -n 60 -m fast -m slow -s 3
"$TT_GEN_TRACE" --mix "$T/order2.ttrace" -n 60 -m slow -m fast -s 4
"$A" compare "$T/order1.ttrace" "$T/order2.ttrace" --format json >"$T/order.json"
for m in fast slow; do
    want=$("$A" summary "$T/order2.ttrace" --format json | jq -r ".groups[] | select(.model == \"$m\") | .ttft_ms.p50")
    got=$(jq -r ".comparisons[0].groups[] | select(.model == \"$m\") | .metrics.ttft_ms.new.p50" "$T/order.json")
    assert_eq "$got" "$want" "compare's new TTFT p50 of $m (summary's)"
done
jq -e '[.comparisons[0].groups[] | {(.model): [.metrics.ttft_ms.verdict, (.metrics.ttft_ms.diff.p50 > 0)]}] | add
       == {"fast": ["real", true], "slow": ["real", false]}' "$T/order.json" >/dev/null ||
    fail "swapped model order: $(jq -c '[.comparisons[0].groups[] | [.model, .metrics.ttft_ms.verdict, .metrics.ttft_ms.diff.p50]]' "$T/order.json")"

# 80 columns by default (issue 32, item 3: 98 lines, 43 over 80 columns,
# up to 197, before): the first line is the verdict of every group; p50
# and p99 rows, each with its interval and verdict; --width N for another
# width, --wide (or a width from 120 on) for the full table.
# (file names as given: relative ones here, so the sides' lines fit too)
(cd "$T" && "$A" compare base.ttrace slow.ttrace) >"$T/narrow.txt"
awk 'length > 80 {print "over 80: " $0; bad=1} END {exit bad}' "$T/narrow.txt" || fail "compare is wider than 80 columns"
assert_eq "$(head -1 "$T/narrow.txt")" "verdict: 2 of 2 groups slower, 0 faster, 0 mixed, 0 no real change" "first line"
grep -q '^  TTFT    p50 .*real, slower$' "$T/narrow.txt" || fail "narrow TTFT p50 row"
grep -q '^          p99 .*too few$' "$T/narrow.txt" || fail "narrow p99 row"
grep -q 'p99 rests on fewer than 100 values in 2 of 2 groups' "$T/narrow.txt" || fail "p99 note"
"$A" compare "$T/base.ttrace" "$T/slow.ttrace" --width 60 | awk 'length > 60 && !/^verdict: |^compare: base|^    vs new|^  metric | p(50|99) / {print; bad=1} END {exit bad}' ||
    fail "--width 60: prose wider than 60"
"$A" compare "$T/base.ttrace" "$T/slow.ttrace" --width 120 | grepq '^                      p90 ' || fail "--width 120 is not the full table"
"$A" compare "$T/base.ttrace" "$T/slow.ttrace" --wide | grepq '^                      p90 ' || fail "--wide lacks p90"
# p99 verdicts with their own interval: 120 requests per model, 50 ms
# slower: real at p99 too; compare's JSON says so.
"$G" "$T/b240.ttrace" 240 20 100 10 10 1
"$G" "$T/s240.ttrace" 240 20 150 10 10 2
"$A" compare "$T/b240.ttrace" "$T/s240.ttrace" --format json |
    jq -e 'all(.comparisons[0].groups[]; .metrics.ttft_ms.verdict_p99 == "real" and .metrics.ttft_ms.direction_p99 == "slower" and .metrics.ttft_ms.p99_diff_ci.lo > 0) and .comparisons[0].too_few_p99.groups == 0' >/dev/null ||
    fail "p99 verdict: $("$A" compare "$T/b240.ttrace" "$T/s240.ttrace" --format json | jq -c '.comparisons[0].groups[0].metrics.ttft_ms')"
"$A" compare "$T/b240.ttrace" "$T/s240.ttrace" | grepq '^          p99 .*real, slower$' || fail "narrow p99 real"
# never "+0.0%" for a fall
"$A" compare "$T/base.ttrace" "$T/same.ttrace" --wide | awk '$0 ~ / -[0-9.]+ +\+0\.0%/ {print; bad=1} END {exit bad}' ||
    fail "a fall printed as +0.0%"

expect_exit 2 "$A" compare "$T/base.ttrace" 2>/dev/null
expect_exit 2 "$A" compare "$T/base.ttrace" "$T/slow.ttrace" --format csv 2>/dev/null
echo ok
