# compare: p50 (solid bar, with the 95% bootstrap interval of the median
# as an error bar) and p99 (light bar behind it) of TTFT, TPOT and latency,
# grouped by trace (the base first), one bar per model; above each bar of a
# later trace the verdict on its p50 against the base trace's (the 95%
# bootstrap interval of the difference of medians): slower / faster with
# the change, or no difference.
# compare.dat: index 0 = trace labels (x, name; nticks rows); index k = block k, one
# model in one panel (first row: legend title; rows: x, p50, p99, CI low,
# CI high, "verdict", verdict colour as 0xRRGGBB).
@@INCLUDE:common@@
set multiplot layout npanels,1 title 'Compare traces: p50 (solid; error bar = 95% bootstrap CI) and p99 (light) per model; label = verdict on p50 against the base'
set xrange [xmin:xmax]
set yrange [0:*]
# Tic labels (strings from the traces) are read from the .dat, never
# written into this script.
set xtics () scale 0
do for [i=1:nticks] {
    stats dat index 0 every ::(i-1)::(i-1) using (tic_x = column(1), tic_label = strcol(2), 0) nooutput
    set xtics add (tic_label tic_x)
}
set boxwidth boxw absolute
set key outside right top
# Room above the highest bar for the verdicts.
set offsets 0, 0, graph 0.5, 0
# Same margins in every panel, whether or not it shows the key.
set lmargin at screen 0.09
set rmargin at screen 0.82
array panel_label[3] = ['TTFT (ms)', 'TPOT (ms per output token)', 'latency (ms)']
do for [c=1:npanels] {
    set ylabel panel_label[c]
    if (c == npanels) { set xlabel 'trace' } else { set xlabel '' }
    if (c > 1) { unset key }
    if (pcount[c] == 0) {
        set label 1 'no data' at graph 0.5,0.5 center
        plot [xmin:xmax][0:1] 2 notitle
        unset label 1
    } else {
        plot for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:3 with boxes \
                 lt blt[k] fs transparent solid 0.25 border notitle, \
             for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2 with boxes \
                 lt blt[k] fs solid 0.85 border title columnheader(1), \
             for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2:4:5 \
                 with yerrorbars lc rgb '#222222' lw 1.5 pt 7 ps 0.4 notitle, \
             for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k \
                 using 1:($3 > $5 ? $3 : $5):6:7 with labels rotate by 90 left \
                 offset 0,0.5 tc rgb variable font ',9' notitle
    }
}
unset multiplot
