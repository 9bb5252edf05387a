# latency-vs-tokens: each request as a point (latency against output
# tokens) per model, one panel per prompt class (all on the same axes),
# with the least-squares line of each model x class: its intercept ~ TTFT
# and its slope ~ TPOT (Latency = TTFT + TPOT x (n - 1)); classes are
# never fitted together.
# latency-vs-tokens.dat: index 0 = panel titles (one row per class);
# index k = block k, one model's requests in one panel (first row: legend
# title with the fit; rows: output tokens, latency ms); index nb+j = the
# fitted line of fit j (two rows); panel c's fits are ffirst[c] to
# ffirst[c]+fcount[c]-1, in line type flt[j], dash type fdt[j].
@@INCLUDE:common@@
set xlabel 'output tokens'
set ylabel 'latency (ms)'
set xrange [0:xmax_all]
set yrange [0:ymax_all]
# Below the plot nothing is hidden by the key: no opaque box there (it
# painted over the x-axis label).
set key below nobox noopaque Left reverse height 1.5
set multiplot layout rows,cols title 'Latency against output tokens, with the least-squares line per model and prompt class'
if (npanels == 0 || nb == 0) {
    set label 1 'no successful requests' at graph 0.5,0.5 center
    plot [0:1][0:1] 2 notitle
} else {
    do for [c=1:npanels] {
        stats dat index 0 every ::(c-1)::(c-1) using (panel_title = strcol(1), 0) nooutput
        set title panel_title
        if (pcount[c] == 0) {
            set label 1 'no successful requests' at graph 0.5,0.5 center
            plot 2 notitle
            unset label 1
        } else { if (fcount[c] == 0) {
            plot for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2 \
                     with points lt blt[k] pt 7 ps 0.5 title columnheader(1)
        } else {
            plot for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2 \
                     with points lt blt[k] pt 7 ps 0.5 title columnheader(1), \
                 for [j=ffirst[c]:ffirst[c]+fcount[c]-1] dat index (nb+j) using 1:2 \
                     with lines lt flt[j] dt fdt[j] lw 2.5 notitle
        } }
    }
}
unset multiplot
