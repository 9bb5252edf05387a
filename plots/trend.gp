# trend: p50 (solid) and p99 (dashed) of TTFT, TPOT and latency per model
# over the periods (weeks or days, UTC) in which the traces were recorded,
# a row of panels per prompt class, a column per metric (every panel of a
# column on the same y axis).
# trend.dat: index 0 = the class names ("class", name; ncls rows); index k =
# block k, one model and one percentile in one panel (first row: legend
# title, class; rows: period start as Unix seconds, value). Panel (r, c)
# is number (r-1)*3+c.
@@INCLUDE:common@@
# The class names, read before the time axis (stats cannot read it).
array class_titles[ncls]
do for [r=1:ncls] {
    stats dat index 0 every ::(class_row0+r-1)::(class_row0+r-1) using (class_title = strcol(2), 0) nooutput
    class_titles[r] = class_title
}
set multiplot title trend_title
set xdata time
set timefmt '%s'
set format x '%Y-%m-%d'
set xrange [xmin:xmax]
set xtics xtic_start, xtic_step
array panel_label[3] = ['TTFT (ms)', 'TPOT (ms per output token)', 'latency (ms)']
do for [r=1:ncls] {
    class_title = class_titles[r]
    do for [c=1:3] {
        p = (r-1)*3 + c
        set lmargin at screen 0.06 + (c-1)*0.33
        set rmargin at screen 0.06 + (c-1)*0.33 + 0.26
        set tmargin at screen grid_top - (r-1)*row_h - gap_top
        set bmargin at screen grid_top - r*row_h + gap_bottom
        set title class_title.': '.panel_label[c]
        set ylabel panel_label[c]
        set yrange [0:value(sprintf('ymax_%d', c))]
        if (r == ncls) { set xlabel period_label } else { set xlabel '' }
        if (p == 1) {
            set key at screen 0.5, screen key_y center top horizontal maxcols 4
        } else {
            unset key
        }
        if (p > npanels || pcount[p] == 0) {
            set label 1 'no data' at graph 0.5,0.5 center
            plot 2 notitle
            unset label 1
        } else {
            plot for [k=pfirst[p]:pfirst[p]+pcount[p]-1] dat index k using 1:2 \
                with linespoints lt blt[k] dt bdt[k] pt bpt[k] ps 1.2 \
                title columnheader(1)
        }
    }
}
unset multiplot
