#!/usr/bin/env bash
# The same traces give byte-identical output, run after run, for every
# command and format (no clocks, no hash order, seeded bootstrap).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE

"$G" "$T/a.ttrace" 30 20 100 10 10 1 fail_every=7 label=week=47
"$G" "$T/b.ttrace" 30 20 120 10 10 2 real_s=1765065600 label=week=48
runs=(
    "summary a.ttrace b.ttrace"
    "summary a.ttrace b.ttrace --format json"
    "summary a.ttrace b.ttrace --format csv"
    "summary a.ttrace b.ttrace --format markdown --slo ttft=110ms"
    "summary a.ttrace b.ttrace --by label:week,model --format json"
    "requests a.ttrace b.ttrace"
    "requests a.ttrace b.ttrace --format json"
    "compare a.ttrace b.ttrace"
    "compare a.ttrace b.ttrace --format json"
    "compare a.ttrace b.ttrace a.ttrace --format markdown --seed 42"
    "trend a.ttrace b.ttrace"
    "trend b.ttrace a.ttrace --format json"
    "trend a.ttrace b.ttrace --by day --format csv"
    "trend a.ttrace b.ttrace --format markdown"
    "info a.ttrace b.ttrace"
)
cd "$T"
i=0
for r in "${runs[@]}"; do
    i=$((i + 1))
    read -r -a args <<<"$r"
    "$A" "${args[@]}" >"run$i.1"
    "$A" "${args[@]}" >"run$i.2"
    [ -s "run$i.1" ] || fail "no output: $r"
    cmp -s "run$i.1" "run$i.2" || fail "output differs between runs: $r"
done
echo "ok: $i commands"
