#!/usr/bin/env bash
# plot_no_gnuplot: without gnuplot on PATH, `plot` still writes every .gp
# and .dat (and the HTML report), says so once on stderr, and exits 0.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/plot_lib.sh"

"$TT_GEN_TRACE" "$T/demo.ttrace" 12 10 50 5
PATH=/nonexistent "$TT_ANALYZE" plot "$T/demo.ttrace" -o "$T/out" --html \
    >"$T/stdout" 2>"$T/stderr" || fail "plot without gnuplot exited $?"
for c in $PLOT_CHARTS; do
    [ -s "$T/out/$c.gp" ] || fail "$c.gp missing"
    [ -s "$T/out/$c.dat" ] || fail "$c.dat missing"
    [ ! -e "$T/out/$c.png" ] || fail "$c.png exists without gnuplot"
    grep -qx "$T/out/$c.gp" "$T/stdout" || fail "$c.gp not listed on stdout"
done
assert_eq "$(wc -l <"$T/stderr")" 1 "lines on stderr"
grep -q 'gnuplot was not found' "$T/stderr" || fail "notice: $(cat "$T/stderr")"
grep -q 'gnuplot was not found' "$T/out/report.html" || fail "report lacks the note"
# The scripts left behind draw the charts once gnuplot is there.
if command -v gnuplot >/dev/null; then
    (cd / && gnuplot "$T/out/tpot.gp")
    png_sensible "$T/out/tpot.png"
fi
echo "plot_no_gnuplot: ok"
