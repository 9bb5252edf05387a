#!/usr/bin/env bash
# Run totals (issue 12 item 3): the wall span leaves warmup requests out;
# traces recorded at the same time count once (the union of their real-time
# intervals), traces recorded apart do not count the pause between them;
# req/s says it counts ok requests only.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
A=$TT_ANALYZE

# near GOT WANT TOL WHAT: |GOT - WANT| <= TOL.
near() {
    python3 -c "import sys; g, w, t = map(float, sys.argv[1:4]); sys.exit(abs(g - w) > t)" \
        "$1" "$2" "$3" || fail "$4: got $1, want $2 +- $3"
}
# rec OUT ARGS...: one model, short-short, 700 ms a request (ttft 100 ms,
# 61 tokens at 10 ms).
rec() {
    local out=$1; shift
    "$TT_RECORD" -u "$URL" -m m --classes short-short -o "$out" -q "$@"
}
# json TRACE... : summary --format json .overall
overall() { "$A" summary "$@" --format json | jq -c .overall; }

start_replay --synthetic 'ttft=100ms,tpot=10ms,tokens=61'

# Warmup: 2 measured requests after 2 warmup ones, one at a time: 1.4 s.
rec "$T/w.ttrace" -n 2 --warmup 2
o=$(overall "$T/w.ttrace")
near "$(jq .wall_s <<<"$o")" 1.4 0.15 "warmup: wall"
near "$(jq .req_per_s <<<"$o")" "$(python3 -c 'print(2 / 1.4)')" 0.15 "warmup: req/s"
assert_eq "$(jq -r .req_per_s_counts <<<"$o")" ok "req/s counts"
"$A" summary "$T/w.ttrace" --detail | sed -n 1p | grepq 'req/s (ok only)' ||
    fail "text: req/s says what it counts: $("$A" summary "$T/w.ttrace" --detail | sed -n 1p)"

# Two recorders at the same time, 4 requests each: 2.8 s, not 5.6 s.
rec "$T/c1.ttrace" -n 4 &
c1=$!
rec "$T/c2.ttrace" -n 4
wait "$c1" # (not a bare wait: the replay server runs in the background)
o=$(overall "$T/c1.ttrace" "$T/c2.ttrace")
near "$(jq .wall_s <<<"$o")" 2.8 0.3 "concurrent: wall"
near "$(jq .req_per_s <<<"$o")" "$(python3 -c 'print(8 / 2.8)')" 0.3 "concurrent: req/s"
# ... in any order, and through stdin
near "$(cat "$T/c2.ttrace" "$T/c1.ttrace" | "$A" summary - --format json | jq .overall.wall_s)" \
    2.8 0.3 "concurrent, concatenated: wall"

# One after the other with a 1 s pause: the pause is not in the span.
rec "$T/s1.ttrace" -n 1
sleep 1
rec "$T/s2.ttrace" -n 1
near "$(overall "$T/s1.ttrace" "$T/s2.ttrace" | jq .wall_s)" 1.4 0.15 "apart: wall"
echo ok
