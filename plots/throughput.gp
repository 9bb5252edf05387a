# throughput: output tokens per second (top) and requests in flight (bottom,
# time-weighted mean over the bin) against run time, per model, plus all
# models together when there are several.
# throughput.dat: index k = series k (first row: legend title; rows: bin
# start s, output tokens/s, requests in flight).
@@INCLUDE:common@@
set multiplot layout 2,1 title throughput_title
set xrange [0:xmax]
set key outside right top
set ylabel 'output tokens/s'
# All requests failed: no tokens, a fixed range spares gnuplot an empty one.
if (tokens_seen) { set yrange [0:*] } else { set yrange [0:1] }
set format x ''
set xlabel ''
if (nb == 0) {
    set label 1 'no requests' at graph 0.5,0.5 center
    plot [0:1][0:1] 2 notitle
    plot [0:1][0:1] 2 notitle
} else {
    plot for [k=1:nb] dat index k using 1:2 with steps lt blt[k] dt bdt[k] title columnheader(1)
    set format x '% h'
    set xlabel 'time since the start of the run (s)'
    set ylabel 'requests in flight'
    plot for [k=1:nb] dat index k using 1:3 with steps lt blt[k] dt bdt[k] title columnheader(1)
}
unset multiplot
