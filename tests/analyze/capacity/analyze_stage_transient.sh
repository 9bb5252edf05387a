#!/usr/bin/env bash
# summary --by stage and requests judge a sweep's stages as capacity does:
# two stages of the same load (--sweep concurrency=3,3) stay two groups
# (the stage id keys them, the label shows load and id); each stage's
# transient requests (ramp-up, drain) are left out of its numbers and
# counted (the same requests capacity calls transient), --include-transient
# keeps them; requests marks them in its transient column; from stdin
# (read once) they stay in, with a warning.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=3ms,tokens=8,capacity=8'
"$TT_RECORD" -q -u "$URL" -m m --classes short-short --sweep concurrency=3,3 \
    -n 15 -o "$T/s.ttrace" || fail "sweep exit $?"
A=$TT_ANALYZE

"$A" capacity "$T/s.ttrace" --slo ttft=10s --max-send-lag 10s --max-cpu 100% \
    --max-loop-lag-share 100000% --format json >"$T/cap.json" || fail "capacity exit $?"
cap_tr=$(jq -r '[.stages[]|.transient]|map(tostring)|join(",")' "$T/cap.json")
cap_steady=$(jq -r '[.stages[]|.steady]|map(tostring)|join(",")' "$T/cap.json")
[ "$(jq '[.stages[]|.transient]|all(. > 0)' "$T/cap.json")" = true ] ||
    fail "every stage has ramp-up requests: $cap_tr"

"$A" summary "$T/s.ttrace" --by stage --format json >"$T/s.json" 2>"$T/s.err" ||
    fail "summary exit $?"
assert_eq "$(jq -r '[.groups[]|.stage]|join(",")' "$T/s.json")" \
    "concurrency=3 #1,concurrency=3 #2" "two stages of one load"
assert_eq "$(jq -r '[.groups[]|.transient]|map(tostring)|join(",")' "$T/s.json")" "$cap_tr" \
    "transient per stage, as capacity"
assert_eq "$(jq -r '[.groups[]|.requests]|map(tostring)|join(",")' "$T/s.json")" "$cap_steady" \
    "requests per stage are the steady ones"
assert_eq "$(jq -r '.overall.requests + .overall.transient' "$T/s.json")" 30 "nothing lost"
assert_eq "$(jq -r '.groups[0].transient_included' "$T/s.json")" false "left out by default"
grep -q "transient requests (sent during a stage's ramp-up or ended during its drain) are left out" "$T/s.err" ||
    fail "no note on stderr: $(cat "$T/s.err")"

# the table says it under the rows
"$A" summary "$T/s.ttrace" --by stage >"$T/s.txt" 2>/dev/null
n_tr=$(jq -r '.overall.transient' "$T/s.json")
grep -q "^note: $n_tr transient requests (sent during a stage's ramp-up or ended during its drain) are left out of the stage groups" "$T/s.txt" ||
    fail "table note: $(cat "$T/s.txt")"
grep -q "concurrency=3 #2" "$T/s.txt" || fail "table label"

# --include-transient keeps them, and says so
"$A" summary "$T/s.ttrace" --by stage --include-transient --format json >"$T/i.json" 2>/dev/null
assert_eq "$(jq -r '[.groups[]|.requests]|map(tostring)|join(",")' "$T/i.json")" "15,15" \
    "every request with --include-transient"
assert_eq "$(jq -r '.groups[0].transient_included' "$T/i.json")" true "kept"
# without --by stage nothing is left out (and no transient keys)
"$A" summary "$T/s.ttrace" --format json >"$T/m.json" 2>/dev/null
assert_eq "$(jq -r '.overall.requests' "$T/m.json")" 30 "model,class keeps every request"
assert_eq "$(jq -r '.overall|has("transient")' "$T/m.json")" false "no transient key"

# requests: the stage and transient columns, the same requests
"$A" requests "$T/s.ttrace" --format json >"$T/r.jsonl"
assert_eq "$(jq -rs 'group_by(.stage)|map([.[]|select(.transient)]|length|tostring)|join(",")' "$T/r.jsonl")" \
    "$cap_tr" "requests marks the transient ones"
assert_eq "$(jq -rs '[.[]|.stage]|unique|map(tostring)|join(",")' "$T/r.jsonl")" "1,2" "stage column"
"$A" requests "$T/s.ttrace" >"$T/r.csv"
python3 - "$T/r.csv" "$n_tr" <<'PY' || fail "requests csv transient column"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert sum(r["transient"] == "true" for r in rows) == int(sys.argv[2]), rows[0]
assert all(r["transient"] in ("true", "false") and r["stage"] in ("1", "2") for r in rows)
PY

# stdin is read once: nothing can be left out, and that is said
"$A" summary - --by stage --format json <"$T/s.ttrace" >"$T/p.json" 2>"$T/p.err"
grep -q "stages read from stdin" "$T/p.err" || fail "stdin warning: $(cat "$T/p.err")"
assert_eq "$(jq -r '.overall.requests' "$T/p.json")" 30 "stdin keeps every request"
"$A" requests - --format json <"$T/s.ttrace" >"$T/p.jsonl" 2>"$T/p2.err"
grep -q "transient column is empty" "$T/p2.err" || fail "requests stdin warning"
assert_eq "$(jq -rs '[.[]|.transient]|unique|map(tostring)|join(",")' "$T/p.jsonl")" "null" "unknown from stdin"
echo ok
