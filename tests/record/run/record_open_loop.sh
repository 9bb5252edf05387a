#!/usr/bin/env bash
# Open loop: requests keep their schedule whatever the server's latency
# (constant: scheduled_ns exactly 1/rate apart, started within a few ms of
# it); a Poisson schedule is reproducible from its seed; --duration without
# -n runs until the end; warmup requests come first and are marked.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

# Each reply takes ~350 ms, far more than the 50 ms between sends: a closed
# loop would fall behind, an open loop must not.
start_replay --synthetic 'ttft=300ms,tpot=5ms,tokens=10'

"$TT_RECORD" -q -u "$URL" -m a -m b -n 10 --classes short-short -r 20 \
    --arrival constant -o "$T/const.ttrace" || fail "constant run exit $?"
d=$(dump "$T/const.ttrace")
check_complete "$d" 20
zero=$(jqs "$d" '.[]|select(.kind=="header")|.mono_zero_ns')
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|"\(.loop) \(.rate) \(.arrival)"')" "open 20 constant" "options"
# scheduled times: zero + i * 50 ms exactly
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|[.[].scheduled_ns - '"$zero"']|join(",")')" \
    "$(seq 0 50000000 950000000 | paste -sd,)" "scheduled offsets"
# late starts stay small (generous bound for a noisy machine)
lag=$(jqs "$d" '[.[]|select(.kind=="request")|.start_ns - .scheduled_ns]|max')
min=$(jqs "$d" '[.[]|select(.kind=="request")|.start_ns - .scheduled_ns]|min')
[ "$min" -ge 0 ] || fail "a request started $min ns before its schedule"
[ "$lag" -lt 40000000 ] || fail "a request started $((lag / 1000000)) ms late"
# and they overlapped: the last start is well before the first end + 10 gaps
span=$(jqs "$d" '([.[]|select(.kind=="request")|.start_ns]|max) - ([.[]|select(.kind=="request")|.start_ns]|min)')
[ "$span" -lt 1100000000 ] || fail "20 sends took $((span / 1000000)) ms (closed-loop behaviour?)"

# Poisson: the same seed gives the same schedule, another seed another one.
for s in 3 3 4; do
    "$TT_RECORD" -q -u "$URL" -m a -n 15 --classes short-short -r 60 --seed "$s" \
        -o "$T/p$s.$RANDOM.ttrace" || fail "poisson seed $s exit $?"
done
sched() {
    local d; d=$(dump "$1")
    jqs "$d" '(.[]|select(.kind=="header")|.mono_zero_ns) as $z
        | [.[]|select(.kind=="request")]|sort_by(.id)|[.[].scheduled_ns - $z]|join(",")'
}
files=("$T"/p3.*.ttrace)
a=$(sched "${files[0]}"); b=$(sched "${files[1]}"); c=$(sched "$(echo "$T"/p4.*.ttrace)")
assert_eq "$a" "$b" "poisson schedule with the same seed"
[ "$a" != "$c" ] || fail "seeds 3 and 4 gave the same schedule"
first=${a%%,*}
assert_eq "$first" 0 "first poisson arrival"
# gaps are uneven (not a constant schedule)
assert_eq "$(echo "$a" | tr , '\n' | awk 'NR>1{g=$1-p; if(g<mn||mn=="")mn=g; if(g>mx)mx=g} {p=$1} END{print (mx>3*mn)}')" 1 "poisson gaps vary"

# --duration without -n: sends until the deadline, then lets replies finish.
"$TT_RECORD" -q -u "$URL" -m a --classes short-short -r 20 --arrival constant \
    --duration 0.5 --warmup 1 -o "$T/dur.ttrace" || fail "duration run exit $?"
d=$(dump "$T/dur.ttrace")
n=$(count "$d" request)
[ "$n" -ge 8 ] && [ "$n" -le 12 ] || fail "duration 0.5 s at 20/s sent $n requests"
check_complete "$d" "$n"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.interrupted) \(.reason)"')" "false duration" "duration footer"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options|"\(.n) \(.duration_s) \(.warmup)"')" "unbounded 0.5 1" "duration options"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map(.warmup)|.[0:3]|map(tostring)|join(",")')" "true,false,false" "warmup first"

# --duration shorter than a finite run: cut short, marked interrupted
"$TT_RECORD" -q -u "$URL" -m a -n 100 --classes short-short -r 20 --arrival constant \
    --duration 0.3 -o "$T/cut.ttrace" || fail "cut run exit $?"
d=$(dump "$T/cut.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.interrupted) \(.reason)"')" "true duration" "cut footer"
echo ok
