#!/usr/bin/env bash
# analyze_class_order: prompt classes are listed canonically (short-short,
# short-long, long-short, then any others alphabetically) everywhere groups
# are listed: summary text/markdown/json/csv (class as first or second
# dimension), compare, trend and the plot data (legend order); the output
# is byte-identical run to run.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE

# Two models x six classes, the classes given in a scrambled order.
gen() {
    "$TT_GEN_TRACE" --mix "$1" -n 60 -m model-a -m model-b -k long-short -k zzz \
        -k short-long -k long-long -k short-short -k aaa -s "$2"
}
gen "$T/a.ttrace" 3
gen "$T/b.ttrace" 4
want="short-short,short-long,long-short,aaa,long-long,zzz"
both="$want,$want"

"$A" summary "$T/a.ttrace" --by class --format json >"$T/s.json"
assert_eq "$(jq -r '[.groups[].class]|join(",")' "$T/s.json")" "$want" "summary json --by class"
"$A" summary "$T/a.ttrace" --format json >"$T/s2.json"
assert_eq "$(jq -r '[.groups[].class]|join(",")' "$T/s2.json")" "$both" "summary json --by model,class"
assert_eq "$(jq -r '[.groups[].model]|unique|join(",")' "$T/s2.json")" "model-a,model-b" "models stay alphabetical"
"$A" summary "$T/a.ttrace" --by class,model --format json >"$T/s3.json"
assert_eq "$(jq -r '[.groups[] | .class + "/" + .model]|join(",")' "$T/s3.json")" \
    "$(echo "$want" | tr ',' '\n' | sed 's|.*|&/model-a,&/model-b|' | paste -sd,)" \
    "summary json --by class,model"
"$A" summary "$T/a.ttrace" --format csv >"$T/s.csv"
assert_eq "$(awk -F, 'NR > 1 && $2 != "(all)" && $2 != prev {printf "%s%s", n++ ? "," : "", $2} {prev = $2}' "$T/s.csv")" \
    "$both" "summary csv"
"$A" summary "$T/a.ttrace" --by class >"$T/s.txt"
assert_eq "$(grep -oE '^(short|long|aaa|zzz)[a-z-]*' "$T/s.txt" | paste -sd,)" "$want" "summary text"
"$A" summary "$T/a.ttrace" --by class --format markdown >"$T/s.md"
assert_eq "$(sed -n 's/^### //p' "$T/s.md" | grep -v overall | paste -sd,)" "$want" "summary markdown"

"$A" compare "$T/a.ttrace" "$T/b.ttrace" --format json >"$T/c.json"
assert_eq "$(jq -r '[.comparisons[0].groups[].class]|join(",")' "$T/c.json")" "$both" "compare json"
"$A" compare "$T/a.ttrace" "$T/b.ttrace" --wide >"$T/c.txt"
assert_eq "$(sed -n 's/^model-a \/ \([^ ]*\) .*/\1/p' "$T/c.txt" | paste -sd,)" "$want" "compare table"

"$A" trend "$T/a.ttrace" --format csv >"$T/t.csv"
assert_eq "$(awk -F, 'NR > 1 {print $3}' "$T/t.csv" | paste -sd,)" "$both" "trend csv"
"$A" trend "$T/a.ttrace" --format json >"$T/t.json"
assert_eq "$(jq -r '[.rows[].class]|join(",")' "$T/t.json")" "$both" "trend json"

# plot: the per-class data blocks (legend titles) in the same order; the
# .dat files are written with or without gnuplot.
PATH=/nonexistent "$A" plot "$T/a.ttrace" -o "$T/p" >/dev/null 2>&1 || true
for c in ttft-cdf tpot timeline; do
    [ -s "$T/p/$c.dat" ] || fail "plot wrote no $c.dat"
    assert_eq "$(grep -oE 'short-short|short-long|long-short|long-long|aaa|zzz' "$T/p/$c.dat" | uniq | paste -sd,)" \
        "$want" "plot $c.dat class order"
done

# Byte-identical output run to run.
"$A" summary "$T/a.ttrace" --by class --format json | cmp -s - "$T/s.json" || fail "summary json differs run to run"
"$A" compare "$T/a.ttrace" "$T/b.ttrace" --format json | cmp -s - "$T/c.json" || fail "compare json differs run to run"
echo "analyze_class_order: ok"
