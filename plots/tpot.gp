# tpot: TPOT distribution per model x prompt class: box from p25 to p75,
# median line, whiskers at p1 and p99, and the requests as points (a sample
# when there are many; the box always uses all of them).
# tpot.dat: index 0 = class labels (x, name; nticks rows); index k = model k's boxes
# (first row its legend title; rows: x p1 p25 p50 p75 p99);
# index nb+k = model k's points (x with jitter, TPOT ms).
@@INCLUDE:common@@
set xlabel 'prompt class'
set ylabel 'TPOT (ms per output token)'
set title 'Time per output token: box p25-p75, line p50, whiskers p1-p99, points = requests'
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
set style fill transparent solid 0.15 border
# Below the plot nothing is hidden by the key: no opaque box there (it
# painted over the x-axis label).
set key below nobox noopaque Left reverse height 1.5
if (nb == 0) {
    set label 1 'no request with two or more output tokens' at graph 0.5,0.5 center
    plot [xmin:xmax][0:1] 2 notitle
} else {
    plot for [k=1:nb] dat index (nb+k) using 1:2 with points lt blt[k] pt 7 ps 0.35 notitle, \
         for [k=1:nb] dat index k using 1:3:2:6:5 with candlesticks whiskerbars 0.5 \
             lt blt[k] lw 1.5 title columnheader(1), \
         for [k=1:nb] dat index k using 1:4:4:4:4 with candlesticks lt blt[k] lw 3 notitle
}
