# ttft-cdf: empirical CDF of TTFT, one line per model, one panel per prompt
# class (all on the same axes); markers at p50 (circle) and p99 (triangle); the legend gives them.
# ttft-cdf.dat: index 0 = panel titles (one row per class); index k = the
# CDF of block k (first row its legend title; rows: TTFT ms, fraction);
# index nb+k = block k's p50 and p99 (TTFT ms, fraction, point type).
@@INCLUDE:common@@
set xlabel 'TTFT (ms)'
set ylabel 'fraction of requests with TTFT <= x'
set yrange [0:1.02]
set ytics 0.1
# One TTFT axis in every class's panel (the largest TTFT, and 5 %).
set xrange [0:xmax_all]
# Below the plot nothing is hidden by the key: no opaque box there (it
# painted over the x-axis label).
set key below nobox noopaque Left reverse height 1.5
set multiplot layout rows,cols title 'Time to first token: empirical CDF per model and prompt class'
do for [c=1:npanels] {
    stats dat index 0 every ::(c-1)::(c-1) using (panel_title = strcol(1), 0) nooutput
    set title panel_title
    if (pcount[c] == 0) {
        set label 1 'no successful requests' at graph 0.5,0.5 center
        plot [0:1][0:1] 2 notitle
        unset label 1
    } else {
        plot 0.5 with lines ls 100 notitle, 0.99 with lines ls 100 notitle, \
             for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2 \
                 with lines lt blt[k] dt bdt[k] title columnheader(1), \
             for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index (nb+k) using 1:2:3 \
                 with points lt blt[k] pt variable ps 1.6 notitle
    }
}
unset multiplot
