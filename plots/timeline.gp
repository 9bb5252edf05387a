# timeline: one horizontal bar per request, thin from its start to its first
# token (waiting), thick from the first token to its end (streaming),
# coloured by prompt class; failed requests in red, start to end, with a
# cross at their end (their own legend entry with the count). Overlaps
# show concurrency, long thin parts show queueing.
# timeline.dat: index k = prompt class k (first row: legend title; rows:
# y, start s, first token s, end s); index nb+1 = failed requests.
@@INCLUDE:common@@
set xlabel 'time since the start of the run (s)'
set ylabel 'request (ordered by start time)'
set title timeline_title
set yrange [0:nshown + 1]
set xrange [0:*]
set key outside right top
if (nshown == 0) {
    set label 1 'no requests' at graph 0.5,0.5 center
    plot [0:1][0:1] 2 notitle
} else {
    if (nb == 0) {
        plot dat index 1 using 2:1:($4-$2):(0) with vectors nohead lt 20 lw failw \
                 notitle, \
             dat index 1 using 4:1 with points lt 20 pt 2 ps 0.8 title columnheader(1)
    } else {
        if (nfailed == 0) {
            plot for [k=1:nb] dat index k using 2:1:($3-$2):(0) with vectors nohead \
                     lt blt[k] lw 1 notitle, \
                 for [k=1:nb] dat index k using 3:1:($4-$3):(0) with vectors nohead \
                     lt blt[k] lw barw title columnheader(1)
        } else {
            plot for [k=1:nb] dat index k using 2:1:($3-$2):(0) with vectors nohead \
                     lt blt[k] lw 1 notitle, \
                 for [k=1:nb] dat index k using 3:1:($4-$3):(0) with vectors nohead \
                     lt blt[k] lw barw title columnheader(1), \
                 dat index (nb+1) using 2:1:($4-$2):(0) with vectors nohead \
                     lt 20 lw failw notitle, \
                 dat index (nb+1) using 4:1 with points lt 20 pt 2 ps 0.8 \
                     title columnheader(1)
        }
    }
}
