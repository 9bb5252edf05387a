#!/usr/bin/env bash
# analyze_by_header: --by header:NAME groups by a kept response header
# (case-insensitive name; "(none)" when a response lacked it). The replay
# server labels one model's event stream application/json (--fault
# sse-as-json@wrong): grouping by Content-Type splits the two routes.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
start_replay -q --fault sse-as-json@wrong --synthetic 'ttft=10ms,tpot=1ms,tokens=6'
"$TT_RECORD" -u "$URL" -m wrong -m right -n 2 -c 2 --classes short-short \
    -o "$T/h.ttrace" -q 2>"$T/rec.err" || { cat "$T/rec.err"; fail "record"; }
"$TT_ANALYZE" summary "$T/h.ttrace" --by header:Content-Type --format json >"$T/s.json"
jq -e '[.groups[] | {k: ."header:Content-Type", n: .ok}] |
       (map(select(.k | startswith("application/json"))) | .[0].n == 2) and
       (map(select(.k | startswith("text/event-stream"))) | .[0].n == 2) and length == 2' \
    "$T/s.json" >/dev/null || { jq -c '.groups[]' "$T/s.json" | cut -c1-200; fail "groups by Content-Type"; }
"$TT_ANALYZE" summary "$T/h.ttrace" --by header:x-no-such-header,model --format json |
    jq -e '[.groups[] | ."header:x-no-such-header"] | unique == ["(none)"]' >/dev/null ||
    fail "a missing header groups as (none)"
expect_exit 2 "$TT_ANALYZE" summary "$T/h.ttrace" --by header: 2>/dev/null
echo "analyze_by_header: ok"
