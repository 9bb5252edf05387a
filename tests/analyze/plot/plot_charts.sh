#!/usr/bin/env bash
# plot_charts: `plot` on a gen_trace trace writes every chart as a valid PNG
# of a sensible size with its .gp and .dat beside it; `gnuplot DIR/x.gp`
# redraws it from any directory; --format svg and --html work; the same
# trace gives byte-identical scripts and data.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/plot_lib.sh"
need_gnuplot

"$TT_GEN_TRACE" "$T/demo.ttrace" 30 20 100 10
"$TT_ANALYZE" plot "$T/demo.ttrace" -o "$T/out" >"$T/stdout" 2>"$T/stderr" ||
    { cat "$T/stderr"; fail "plot exited $?"; }
[ ! -s "$T/stderr" ] || { cat "$T/stderr"; fail "plot (or gnuplot) printed diagnostics"; }
for c in $PLOT_CHARTS; do
    png_sensible "$T/out/$c.png"
    [ -s "$T/out/$c.gp" ] || fail "$c.gp missing"
    [ -s "$T/out/$c.dat" ] || fail "$c.dat missing"
    grep -qx "$T/out/$c.png" "$T/stdout" || fail "$c.png not listed on stdout"
done
# The script names its data and picture relative to itself.
grep -q "dat = 'ttft-cdf.dat'" "$T/out/ttft-cdf.gp" || fail "ttft-cdf.gp does not read ttft-cdf.dat"
# Both models are in the data, with their percentiles (all 15 requests).
grep -q '^"model-a: p50 100, p99 100 ms (n=15)"$' "$T/out/ttft-cdf.dat" ||
    fail "ttft-cdf.dat lacks model-a's line: $(head -5 "$T/out/ttft-cdf.dat")"
grep -q '^"model-b' "$T/out/ttft-cdf.dat" || fail "ttft-cdf.dat lacks model-b"
# Each CDF line starts at 0 at its smallest value (not at 1/n).
assert_eq "$(grep -A1 '^"model-a: p50' "$T/out/ttft-cdf.dat" | tail -1)" "100 0" "CDF start"
# The last, partial throughput bin is a rate over the time it covers: no
# false drop at the end of a steady run (the all-models rate is ~66 tok/s
# throughout; the run ends part-way into its last second).
python3 - "$T/out/throughput.dat" <<'PY' || fail "throughput: the last bin drops"
import sys
blocks = open(sys.argv[1]).read().split("\n\n\n")
rows = [l.split() for l in blocks[-1].splitlines()[1:] if l.strip()]
rates = [float(r[1]) for r in rows[:-1]]
ends = [float(r[0]) for r in rows]
assert ends[-1] < ends[-2] + 1, ends            # closes at the run's end
assert ends[-1] != int(ends[-1]), ends          # inside the last bin
assert rates[-1] >= 0.8 * min(rates[:-1]), rates
PY

# Redraw from another directory: the picture comes back.
for c in ttft-cdf timeline; do
    rm "$T/out/$c.png"
    (cd / && gnuplot "$T/out/$c.gp") 2>"$T/gp.err" || { cat "$T/gp.err"; fail "gnuplot $c.gp failed"; }
    png_sensible "$T/out/$c.png"
done
# ... and with a relative path from the directory above.
rm "$T/out/itl.png"
(cd "$T" && gnuplot out/itl.gp)
png_sensible "$T/out/itl.png"

# Determinism: the same trace gives the same scripts and data.
"$TT_ANALYZE" plot "$T/demo.ttrace" -o "$T/again" >/dev/null
for c in $PLOT_CHARTS; do
    cmp -s "$T/out/$c.dat" "$T/again/$c.dat" || fail "$c.dat differs between runs"
    cmp -s "$T/out/$c.gp" "$T/again/$c.gp" || fail "$c.gp differs between runs"
done

# SVG, plus the HTML report; the directory is created with its parents.
"$TT_ANALYZE" plot "$T/demo.ttrace" -o "$T/deep/svg" --format svg --html >/dev/null
for c in $PLOT_CHARTS; do
    grep -q '<svg' "$T/deep/svg/$c.svg" || fail "$c.svg is not SVG"
    [ ! -e "$T/deep/svg/$c.png" ] || fail "$c.png drawn with --format svg"
done
n=$(grep -c '<svg' "$T/deep/svg/report.html")
[ "$n" -ge 6 ] || fail "report.html holds $n inline SVGs, want 6"

# Usage errors.
expect_exit 2 "$TT_ANALYZE" plot "$T/demo.ttrace" 2>/dev/null
expect_exit 2 "$TT_ANALYZE" plot "$T/demo.ttrace" -o "$T/x" --format jpeg 2>/dev/null
expect_exit 2 "$TT_ANALYZE" plot "$T/demo.ttrace" -o "$T/x" --compare 2>/dev/null
expect_exit 2 "$TT_ANALYZE" plot "$T/demo.ttrace" -o "$T/x" --compare --trend 2>/dev/null
"$TT_ANALYZE" plot --help | grep -q 'latency-vs-tokens' || fail "--help lacks the charts"
# A damaged (missing) trace exits 1.
expect_exit 1 "$TT_ANALYZE" plot "$T/missing.ttrace" -o "$T/m" 2>/dev/null
echo "plot_charts: ok"
