# ---- common prologue of every tokentrace chart (plots/common.gp) ----------
# Written by tokentrace-analyze. Redraw with `gnuplot @@NAME@@.gp` from any
# directory (the script moves to its own directory first); restyle freely:
# the data stays in @@NAME@@.dat. `gnuplot -e "fmt='svg'" @@NAME@@.gp`
# draws an SVG instead.
if (exists('ARG0') && strlen(ARG0) > 0) {
    tt_dir = ARG0
    tt_i = strlen(tt_dir)
    while (tt_i > 0 && tt_dir[tt_i:tt_i] ne '/') { tt_i = tt_i - 1 }
    if (tt_i > 0) { cd tt_dir[1:tt_i] }
}
if (!exists('fmt')) { fmt = '@@FORMAT@@' }
tt_font = @@FONT@@
if (fmt eq 'svg') {
    set terminal svg size @@WIDTH@@,@@HEIGHT@@ dynamic font tt_font.',12' background rgb 'white'
} else {
    set terminal pngcairo size @@WIDTH@@,@@HEIGHT@@ font tt_font.',10' background rgb 'white'
}
set output '@@NAME@@.'.fmt
dat = '@@NAME@@.dat'
# Text from traces comes only from the .dat file and is shown literally.
set termoption noenhanced
set encoding utf8
set datafile missing 'NaN'
set grid back lc rgb '#dddddd' lw 1
set border lc rgb '#555555'
set key noenhanced opaque box lc rgb '#cccccc'
set style line 100 lc rgb '#888888' dt 2
# Models: one colour each, the same in every chart (by sorted model name).
set linetype 1 lc rgb '#1f77b4' lw 2 pt 7 dt 1
set linetype 2 lc rgb '#ff7f0e' lw 2 pt 7 dt 1
set linetype 3 lc rgb '#2ca02c' lw 2 pt 7 dt 1
set linetype 4 lc rgb '#d62728' lw 2 pt 7 dt 1
set linetype 5 lc rgb '#9467bd' lw 2 pt 7 dt 1
set linetype 6 lc rgb '#8c564b' lw 2 pt 7 dt 1
set linetype 7 lc rgb '#e377c2' lw 2 pt 7 dt 1
set linetype 8 lc rgb '#17becf' lw 2 pt 7 dt 1
set linetype 9 lc rgb '#222222' lw 2 pt 7 dt 1
# Prompt classes (timeline) and failed requests.
set linetype 11 lc rgb '#4477aa' lw 2 pt 5
set linetype 12 lc rgb '#ee6677' lw 2 pt 5
set linetype 13 lc rgb '#228833' lw 2 pt 5
set linetype 14 lc rgb '#ccbb44' lw 2 pt 5
set linetype 15 lc rgb '#66ccee' lw 2 pt 5
set linetype 16 lc rgb '#aa3377' lw 2 pt 5
set linetype 17 lc rgb '#bbbbbb' lw 2 pt 5
set linetype 18 lc rgb '#000000' lw 2 pt 5
set linetype 20 lc rgb '#cc0000' lw 1 pt 2
# Numbers filled in by the analyzer (block lists, counts, axis ranges).
@@VARS@@
# ---- end of the common prologue -----------------------------------------
