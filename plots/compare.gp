# compare: p50 (solid bar, with the 95% bootstrap interval of the median
# as an error bar) and p99 (light bar behind it) of TTFT, TPOT and latency,
# a row of panels per prompt class, a column per metric (every panel of a
# column on the same y axis), grouped by trace (the base first), one bar
# per model; above each bar of a later trace compare's verdict on its p50
# against the base trace's same model and class (the 95% bootstrap
# interval of the difference of medians): slower / faster with the
# change, no difference, or too few.
# compare.dat: index 0 = trace labels (x, name; nticks rows), then the
# class names ("class", name; ncls rows); index k = block k, one model in one
# panel (first row: legend title, class; rows: x, p50, p99, CI low, CI
# high, "verdict", verdict colour as 0xRRGGBB). Panel (r, c) is number
# (r-1)*3+c.
@@INCLUDE:common@@
set multiplot title 'Compare traces per prompt class: p50 (solid; error bar = 95% bootstrap CI) and p99 (light) per model; label = verdict on p50 against the base'
set xrange [xmin:xmax]
# Tic labels (strings from the traces) are read from the .dat, never
# written into this script.
set xtics () scale 0
do for [i=1:nticks] {
    stats dat index 0 every ::(i-1)::(i-1) using (tic_x = column(1), tic_label = strcol(2), 0) nooutput
    set xtics add (tic_label tic_x)
}
set boxwidth boxw absolute
array panel_label[3] = ['TTFT (ms)', 'TPOT (ms per output token)', 'latency (ms)']
do for [r=1:ncls] {
    stats dat index 0 every ::(class_row0+r-1)::(class_row0+r-1) using (class_title = strcol(2), 0) nooutput
    do for [c=1:3] {
        p = (r-1)*3 + c
        set lmargin at screen 0.06 + (c-1)*0.33
        set rmargin at screen 0.06 + (c-1)*0.33 + 0.26
        set tmargin at screen grid_top - (r-1)*row_h - gap_top
        set bmargin at screen grid_top - r*row_h + gap_bottom
        set title class_title.': '.panel_label[c]
        set ylabel panel_label[c]
        set yrange [0:value(sprintf('ymax_%d', c))]
        if (r == ncls) { set xlabel 'trace' } else { set xlabel '' }
        if (p == 1) {
            set key at screen 0.5, screen key_y center top horizontal maxcols 4
        } else {
            unset key
        }
        if (p > npanels || pcount[p] == 0) {
            set label 1 'no data' at graph 0.5,0.5 center
            plot [xmin:xmax][0:1] 2 notitle
            unset label 1
        } else {
            plot for [k=pfirst[p]:pfirst[p]+pcount[p]-1] dat index k using 1:3 with boxes \
                     lt blt[k] fs transparent solid 0.25 border notitle, \
                 for [k=pfirst[p]:pfirst[p]+pcount[p]-1] dat index k using 1:2 with boxes \
                     lt blt[k] fs solid 0.85 border title columnheader(1), \
                 for [k=pfirst[p]:pfirst[p]+pcount[p]-1] dat index k using 1:2:4:5 \
                     with yerrorbars lc rgb '#222222' lw 1.5 pt 7 ps 0.4 notitle, \
                 for [k=pfirst[p]:pfirst[p]+pcount[p]-1] dat index k \
                     using 1:($3 > $5 ? $3 : $5):6:7 with labels rotate by 90 left \
                     offset 0,0.5 tc rgb variable font ',9' notitle
        }
    }
}
unset multiplot
