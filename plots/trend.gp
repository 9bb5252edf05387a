# trend: p50 (solid) and p99 (dashed) of TTFT, TPOT and latency per model
# over the periods (weeks or days, UTC) in which the traces were recorded.
# trend.dat: index k = block k, one model and one percentile in one panel
# (first row: legend title; rows: period start as Unix seconds, value).
@@INCLUDE:common@@
set multiplot layout npanels,1 title trend_title
set xdata time
set timefmt '%s'
set format x '%Y-%m-%d'
set xrange [xmin:xmax]
set xtics xtic_start, xtic_step
set yrange [0:*]
set key outside right top
# Same margins in every panel, whether or not it shows the key.
set lmargin at screen 0.09
set rmargin at screen 0.82
array panel_label[3] = ['TTFT (ms)', 'TPOT (ms per output token)', 'latency (ms)']
do for [c=1:npanels] {
    set ylabel panel_label[c]
    if (c == npanels) { set xlabel period_label } else { set xlabel '' }
    if (c > 1) { unset key }
    if (pcount[c] == 0) {
        set label 1 'no data' at graph 0.5,0.5 center
        set yrange [0:1]
        plot 2 notitle
        set yrange [0:*]
        unset label 1
    } else {
        plot for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2 \
            with linespoints lt blt[k] dt bdt[k] pt bpt[k] ps 1.2 \
            title columnheader(1)
    }
}
unset multiplot
