# itl: histogram of inter-token gaps (ITL) per model on a logarithmic time
# axis, as the share of that model's gaps in each bin (all gaps counted).
# itl.dat: index k = model k (first row: legend title; rows: bin start ms,
# share %, as steps; the last row closes the last bin).
@@INCLUDE:common@@
set xlabel 'inter-token gap (ms, log scale)'
set ylabel 'share of gaps (%)'
set title 'Inter-token latency: histogram of the gaps between token events'
set logscale x 10
set yrange [0:*]
# Below the plot nothing is hidden by the key: no opaque box there (it
# painted over the x-axis label).
set key below nobox noopaque Left reverse height 1.5
if (nb == 0) {
    set label 1 'no request with two or more token events' at graph 0.5,0.5 center
    unset logscale x
    plot [0:1][0:1] 2 notitle
} else {
    plot for [k=1:nb] dat index k using 1:2 with steps lt blt[k] dt bdt[k] title columnheader(1)
}
