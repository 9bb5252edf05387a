#!/usr/bin/env bash
# analyze_fail_on: compare and trend exit 3 when a percentile rises beyond
# a --fail-on limit (issue 20, item 5), 0 when it stays within, 2 on a rule
# that does not parse, and name each crossing on stderr.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE
# TTFT 100 ms then 120 ms (+20%), TPOT 10 ms both; two ISO weeks apart.
"$TT_GEN_TRACE" "$T/w1.ttrace" 10 20 100 10 real_s=1764460800 trace_id=0a01
"$TT_GEN_TRACE" "$T/w2.ttrace" 10 20 120 10 real_s=1765065600 trace_id=0a02
for cmd in compare trend; do
    expect_exit 3 "$A" $cmd "$T/w1.ttrace" "$T/w2.ttrace" --fail-on ttft_p99=+10% >/dev/null 2>"$T/$cmd.err"
    grep -q 'regression: .*model-a / short-short: TTFT p99 100.0 .*120.0 ms.*(+20.0%), beyond --fail-on ttft_p99=+10%' \
        "$T/$cmd.err" || fail "$cmd: stderr: $(cat "$T/$cmd.err")"
    expect_exit 0 "$A" $cmd "$T/w1.ttrace" "$T/w2.ttrace" --fail-on ttft_p99=+25% >/dev/null 2>&1
    expect_exit 3 "$A" $cmd "$T/w1.ttrace" "$T/w2.ttrace" --fail-on tpot_p50=+5%,ttft_p50=+15ms >/dev/null 2>&1
    expect_exit 0 "$A" $cmd "$T/w1.ttrace" "$T/w2.ttrace" --fail-on tpot_p50=+5%,ttft_p50=+25ms >/dev/null 2>&1
    for bad in ttft_p99=10% ttft_p98=+10% ttft=+10% ttft_p99=+ten% colour_p50=+1%; do
        expect_exit 2 "$A" $cmd "$T/w1.ttrace" "$T/w2.ttrace" --fail-on "$bad" 2>/dev/null >/dev/null
    done
done
# a fall is never a regression (trend orders by period: only compare
# can be asked the other way round)
expect_exit 0 "$A" compare "$T/w2.ttrace" "$T/w1.ttrace" --fail-on ttft_p99=+1% >/dev/null 2>&1
# compare names the NEW file; trend the periods
grep -q 'w2.ttrace' "$T/compare.err" || fail "compare does not name the file"
grep -q 'in 2025-W48 -> 120.0 ms in 2025-W49' "$T/trend.err" || fail "trend periods: $(cat "$T/trend.err")"
echo ok
