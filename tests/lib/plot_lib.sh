# tests/lib/plot_lib.sh: helpers of the plot tests (source after lib.sh).

# png_check FILE: fails unless FILE starts with the PNG signature and an
# IHDR chunk; sets PNG_W and PNG_H from it.
png_check() {
    local f=$1 sig ihdr b
    [ -s "$f" ] || fail "$f: missing or empty"
    sig=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
    assert_eq "$sig" "89504e470d0a1a0a" "$f: PNG signature"
    ihdr=$(od -An -tx1 -j12 -N4 "$f" | tr -d ' \n')
    assert_eq "$ihdr" "49484452" "$f: IHDR chunk"
    read -r -a b <<<"$(od -An -tu1 -j16 -N8 "$f" | tr -s ' \n' '  ')"
    PNG_W=$(( (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3] ))
    PNG_H=$(( (b[4] << 24) | (b[5] << 16) | (b[6] << 8) | b[7] ))
}

# png_sensible FILE: a valid PNG between 600x400 and 3000x3000 pixels
# with some content (not a blank page).
png_sensible() {
    png_check "$1"
    [ "$PNG_W" -ge 600 ] && [ "$PNG_W" -le 3000 ] || fail "$1: width $PNG_W"
    [ "$PNG_H" -ge 400 ] && [ "$PNG_H" -le 3000 ] || fail "$1: height $PNG_H"
    [ "$(wc -c <"$1")" -gt 8000 ] || fail "$1: only $(wc -c <"$1") bytes"
}

# need_gnuplot: skips the test (exit 77) when gnuplot is not installed.
need_gnuplot() {
    command -v gnuplot >/dev/null || { echo "gnuplot not installed: skipped"; exit 77; }
}

PLOT_CHARTS="ttft-cdf tpot latency-vs-tokens itl timeline throughput"
