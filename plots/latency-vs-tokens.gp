# latency-vs-tokens: each request as a point (latency against output
# tokens) per model, with the least-squares line over all of them: its
# intercept ~ TTFT and its slope ~ TPOT (Latency = TTFT + TPOT x (n - 1)).
# latency-vs-tokens.dat: index k = model k's requests (first row: legend
# title with the fit; rows: output tokens, latency ms); index nb+j = the
# fitted line of fit j (two rows).
@@INCLUDE:common@@
set xlabel 'output tokens'
set ylabel 'latency (ms)'
set title 'Latency against output tokens, with the least-squares line per model'
set xrange [0:*]
set yrange [0:*]
# A margin on the right and top, so points at the extremes stay visible.
set offsets 0, graph 0.05, graph 0.05, 0
# Below the plot nothing is hidden by the key: no opaque box there (it
# painted over the x-axis label).
set key below nobox noopaque Left reverse height 1.5
if (nb == 0) {
    set label 1 'no successful requests' at graph 0.5,0.5 center
    plot [0:1][0:1] 2 notitle
} else {
    if (nfit == 0) {
        plot for [k=1:nb] dat index k using 1:2 with points lt blt[k] pt 7 ps 0.5 \
                 title columnheader(1)
    } else {
        plot for [k=1:nb] dat index k using 1:2 with points lt blt[k] pt 7 ps 0.5 \
                 title columnheader(1), \
             for [j=1:nfit] dat index (nb+j) using 1:2 with lines lt flt[j] dt fdt[j] \
                 lw 2.5 notitle
    }
}
