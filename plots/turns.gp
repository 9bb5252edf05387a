# turns: a session workload's turns (docs/workloads.md). Left: each turn as
# a point, TTFT against its input tokens, per model; filled points are
# turns the server said it served partly from its prompt cache (usage
# cached tokens above 0), open points the uncached ones. Right: the TTFT
# p50 of each turn index, per model (turn 1 pays the whole prefill).
# turns.dat: index k = block k (first row: legend title; rows: input
# tokens and TTFT ms in panel 1, turn index and TTFT p50 ms in panel 2).
@@INCLUDE:common@@
set multiplot layout 1,2 title 'Sessions: TTFT by input size and by turn'
set yrange [0:*]
set key below nobox noopaque Left reverse
do for [c=1:npanels] {
    if (c == 1) {
        set xlabel 'input tokens'
        set ylabel 'TTFT (ms)'
        set xrange [0:*]
    } else {
        set xlabel 'turn'
        set ylabel 'TTFT p50 (ms)'
        set xrange [0.5:maxturn + 0.5]
        set xtics 1
    }
    if (pcount[c] == 0) {
        set label 1 'no session turns' at graph 0.5,0.5 center
        set yrange [0:1]
        plot 2 notitle
        set yrange [0:*]
        unset label 1
    } else {
        if (c == 1) {
            plot for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2 \
                with points lt blt[k] pt bpt[k] ps 0.8 title columnheader(1)
        } else {
            plot for [k=pfirst[c]:pfirst[c]+pcount[c]-1] dat index k using 1:2 \
                with linespoints lt blt[k] dt bdt[k] pt bpt[k] ps 1.2 \
                title columnheader(1)
        }
    }
}
unset multiplot
