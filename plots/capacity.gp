# capacity: a sweep's stages against their offered load (concurrency or
# requests/s): goodput and achieved rate (top), p99 TTFT and TPOT from the
# intended send (bottom, the SLO limits dashed), the knee marked by a
# vertical line; stages the recorder limited (invalid) as crosses.
# capacity.dat: index 0 = the knee's name; then the valid stages (index
# ivalid) and the invalid ones (index iinvalid), each only when it has
# rows (load, goodput/s, achieved/s, TTFT p99 ms, TPOT p99 ms).
@@INCLUDE:common@@
set multiplot layout 2,1 title 'Capacity: goodput and p99 latency against offered load'
set key outside right top
set lmargin at screen 0.10
set rmargin at screen 0.78
set xrange [0:xmax]
if (has_knee) {
    set arrow 1 from knee_load, graph 0 to knee_load, graph 1 nohead lc rgb '#cc0000' lw 2 dt 2
    stats dat index 0 every ::0::0 using (knee_name = strcol(1), 0) nooutput
    set label 1 'knee: '.knee_name at knee_load, graph 0.95 offset 1,0 tc rgb '#cc0000'
}
set ylabel 'requests/s'
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set xlabel ''
if (nvalid == 0 && ninvalid == 0) {
    set label 2 'no stages' at graph 0.5,0.5 center
    plot [0:1][0:1] 2 notitle
    plot [0:1][0:1] 2 notitle
} else {
    plot (nvalid > 0 ? 1/0 : 1/0) notitle, \
         for [k=1:nvalid] dat index ivalid using 1:2 with linespoints lt 1 title 'goodput (met the SLO)', \
         for [k=1:nvalid] dat index ivalid using 1:3 with linespoints lt 2 dt 2 title 'achieved (ok)', \
         for [k=1:ninvalid] dat index iinvalid using 1:2 with points lt 20 pt 2 ps 2 title 'invalid (client-limited)'
    unset label 1
    set xlabel xlabel_text
    set ylabel 'p99 from intended send (ms)'
    set logscale y
    set offsets 0, 0, 0, 0
    set yrange [*:*]
    if (has_slo_ttft) { set arrow 2 from graph 0, first slo_ttft to graph 1, first slo_ttft nohead lt 1 dt 3 }
    if (has_slo_tpot) { set arrow 3 from graph 0, first slo_tpot to graph 1, first slo_tpot nohead lt 2 dt 3 }
    plot (nvalid > 0 ? 1/0 : 1/0) notitle, \
         for [k=1:nvalid] dat index ivalid using 1:4 with linespoints lt 1 title 'TTFT p99', \
         for [k=1:nvalid] dat index ivalid using 1:5 with linespoints lt 2 title 'TPOT p99', \
         for [k=1:ninvalid] dat index iinvalid using 1:4 with points lt 20 pt 2 ps 2 title 'invalid'
}
unset multiplot
