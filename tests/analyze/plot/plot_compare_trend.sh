#!/usr/bin/env bash
# plot_compare_trend: `plot --compare` draws p50/p99 bars per trace whose
# numbers are summary's (all requests), `plot --trend` groups traces by ISO
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
