#!/usr/bin/env bash
# plot_big: a large trace is drawn in seconds from decimated points (CDF
# quantiles, a scatter sample, every k-th timeline bar) while percentiles
# and fits still use every request.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/plot_lib.sh"
need_gnuplot

N=30000
"$TT_GEN_TRACE" "$T/big.ttrace" $N 3 100 10
start=$(date +%s)
"$TT_ANALYZE" plot "$T/big.ttrace" -o "$T/out" --html >/dev/null 2>"$T/stderr" ||
    { cat "$T/stderr"; fail "plot exited $?"; }
took=$(( $(date +%s) - start ))
[ "$took" -le 90 ] || fail "plot took $took s"
for c in $PLOT_CHARTS; do png_sensible "$T/out/$c.png"; done

# rows of data block $2 (1-based after the labels block) of file $1
block_rows() { awk -v want="$2" 'BEGIN{RS="\n\n\n"} NR==want+1' "$1" | grep -c '^[0-9]'; }
# CDF lines: at most 2000 points each, the legend counts all requests.
assert_eq "$(block_rows "$T/out/ttft-cdf.dat" 1)" 2000 "CDF points of model-a"
grep -q "(n=$((N / 2)))" "$T/out/ttft-cdf.dat" || fail "CDF legend does not count every request"
# Scatter: at most 20000 points over both models.
pts=$(( $(block_rows "$T/out/latency-vs-tokens.dat" 1) + $(block_rows "$T/out/latency-vs-tokens.dat" 2) ))
[ "$pts" -le 20000 ] && [ "$pts" -ge 10000 ] || fail "scatter points: $pts"
# Timeline: at most 2000 bars, the title says which.
bars=$(grep -c '^[0-9]' "$T/out/timeline.dat")
[ "$bars" -le 2000 ] && [ "$bars" -ge 1000 ] || fail "timeline bars: $bars"
grep -q "1 in 15 of $N requests" "$T/out/timeline.gp" || fail "timeline title: $(grep timeline_title "$T/out/timeline.gp")"
echo "plot_big: ok ($took s)"
