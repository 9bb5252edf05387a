#!/usr/bin/env bash
# plot_inject: model, class, label and file names crafted to break out of
# gnuplot strings (quotes, system(), backquotes, $(...), newlines, |) draw
# harmless labels and run nothing; Chinese names pass through; the HTML
# report escapes them and refers to nothing outside itself.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/plot_lib.sh"
need_gnuplot

OWNED=/tmp/owned-$$-$RANDOM$RANDOM
rm -f "$OWNED"*
m1="x\" ; system(\"touch $OWNED-1\") ; \""
m2="y' ; system('touch $OWNED-2') ; '"
m3="\`touch $OWNED-3\`"
m4=$'z\n!touch '"$OWNED-4"$'\nprint "'
m5="| touch $OWNED-5 \$(touch $OWNED-6) <script>alert(1)</script> & \\"
m6="通义千问-max"
k1="short\"; system(\"touch $OWNED-7\"); \""
"$TT_GEN_TRACE" --mix "$T/evil.ttrace" -n 60 -c 3 -m "$m1" -m "$m2" -m "$m3" -m "$m4" \
    -m "$m5" -m "$m6" -k "$k1" -k "长-短" -l "team=\`touch $OWNED-8\`" -f 13
OWN9=${OWNED##*/}-9  # a file name holds no '/': the command would touch ./$OWN9
evil_file="$T/b\"'\`touch $OWN9\`|x.ttrace"
cp "$T/evil.ttrace" "$evil_file"

out="$T/out dir'\"\`x\`"
"$TT_ANALYZE" plot "$T/evil.ttrace" -o "$out" --html >"$T/stdout" 2>"$T/stderr" ||
    { cat "$T/stderr"; fail "plot exited $?"; }
"$TT_ANALYZE" plot --compare "$T/evil.ttrace" "$evil_file" \
    -o "$T/cmp" --html >/dev/null 2>>"$T/stderr" || { cat "$T/stderr"; fail "compare exited $?"; }
"$TT_ANALYZE" plot --trend "$T/evil.ttrace" -o "$T/trend" >/dev/null 2>>"$T/stderr" ||
    { cat "$T/stderr"; fail "trend exited $?"; }
# Redrawing by hand is as safe.
(cd / && gnuplot "$out/ttft-cdf.gp" "$out/tpot.gp")

ls "$OWNED"* 2>/dev/null && fail "a crafted name ran a command"
[ -z "$(find "$T" / -maxdepth 1 -name "$OWN9" 2>/dev/null; find "$T" -name "$OWN9")" ] ||
    fail "a crafted file name ran a command"
grep -i 'error' "$T/stderr" && fail "gnuplot reported an error"
for c in $PLOT_CHARTS; do
    png_sensible "$out/$c.png"
    # Trace strings never reach the scripts, only the data files.
    ! grep -q 'touch' "$out/$c.gp" || fail "$c.gp holds a trace string"
done
png_sensible "$T/cmp/compare.png"
grep -q "touch $OWN9" "$T/cmp/compare.dat" || fail "the crafted file name is not a tic label"
png_sensible "$T/trend/trend.png"
! grep -q 'touch' "$T/cmp/compare.gp" "$T/trend/trend.gp" || fail "compare/trend script holds a trace string"
# In the data: one line per string, double quotes only as delimiters.
grep -q "^\"x' ; system('touch $OWNED-1') ; '\"\$" "$out/tpot.dat" || fail "m1 not in tpot.dat as expected"
grep -q '^"z !touch' "$out/tpot.dat" || fail "the newline was not flattened"
grep -q '通义千问-max' "$out/tpot.dat" || fail "Chinese model name lost"
grep -q '长-短' "$out/tpot.dat" || fail "Chinese class name lost"

html="$out/report.html"
grep -q '<svg' "$html" || fail "report without inline SVG"
# the one script is the report's own sorter, inline (a trace's text never
# becomes one: its CSP allows no source but the page itself)
for h in "$html" "$T/cmp/report.html"; do
    assert_eq "$(grep -c '<script' "$h")" 1 "script elements in $h"
    grep -qx '<script>' "$h" || fail "the report's script is not a plain inline <script>"
done
for bad in 'http:' 'https:' '<link' 'src=' '<iframe' '@import' 'url(' \
           "href=\"[^#]" "href='[^#]"; do
    ! grep -qi -e "$bad" "$html" || fail "report.html contains '$bad'"
    ! grep -qi -e "$bad" "$T/cmp/report.html" || fail "compare report.html contains '$bad'"
done
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$html" || fail "model name not escaped in the info block"
grep -q '通义千问-max' "$html" || fail "Chinese model name missing from the report"
echo "plot_inject: ok"
