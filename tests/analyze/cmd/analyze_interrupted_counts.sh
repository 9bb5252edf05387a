#!/usr/bin/env bash
# Interrupted requests (the run was stopped while they streamed) are
# counted one way by every command: summary, trend, compare, info and plot
# give the same ok / failed / interrupted counts for one trace holding all
# three, and none of them counts an interrupted request as failed.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

# fast: ok at once; bad: HTTP 500 at once; slow: 100 tokens x 50 ms, still
# streaming when the recorder is stopped
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=3;model=slow,ttft=5ms,tpot=50ms,tokens=100' \
    --fault http-500@bad
"$TT_RECORD" -q -u "$URL" -m fast -m bad -m slow -n 3 --classes short-short -c 9 \
    -o "$T/t.ttrace" 2>"$T/rec.err" &
pid=$!
# stop it once the quick ones have ended and the slow ones stream
for _ in $(seq 1 200); do
    n=$({ "$TT_ANALYZE" dump "$T/t.ttrace" 2>/dev/null || true; } |
        jq -s '[.[]|select(.kind=="result")]|length' 2>/dev/null || true)
    [ "${n:-0}" -ge 6 ] && break
    sleep 0.05
done
kill -INT "$pid"
set +e; wait "$pid"; rc=$?; set -e
assert_eq "$rc" 130 "recorder exit after SIGINT"

# summary: the reference
"$TT_ANALYZE" summary --format json "$T/t.ttrace" >"$T/s.json" || fail "summary exit $?"
read -r req ok failed stopped < <(jq -r '.overall|"\(.requests) \(.ok) \(.failed) \(.interrupted)"' "$T/s.json")
echo "summary: $req requests, $ok ok, $failed failed, $stopped interrupted"
[ "$ok" -ge 1 ] && [ "$failed" -ge 1 ] && [ "$stopped" -ge 1 ] ||
    fail "the trace lacks one of ok / failed / interrupted: $req $ok $failed $stopped"
assert_eq "$((ok + failed + stopped))" "$req" "summary: ok + failed + interrupted"

# trend: JSON and CSV rows summed; the table's note names the interrupted
"$TT_ANALYZE" trend --format json "$T/t.ttrace" >"$T/tr.json" || fail "trend exit $?"
assert_eq "$(jq -r '[.rows[]|.requests]|add' "$T/tr.json") $(jq -r '[.rows[]|.ok]|add' "$T/tr.json") $(jq -r '[.rows[]|.interrupted]|add' "$T/tr.json")" \
    "$req $ok $stopped" "trend JSON requests ok interrupted"
"$TT_ANALYZE" trend --format csv "$T/t.ttrace" >"$T/tr.csv" || fail "trend csv exit $?"
assert_eq "$(python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(sum(int(r["failed"]) for r in rows), sum(int(r["interrupted"]) for r in rows))' "$T/tr.csv")" \
    "$failed $stopped" "trend CSV failed interrupted"
"$TT_ANALYZE" trend "$T/t.ttrace" --wide >"$T/tr.txt" || fail "trend table exit $?"
grep -q "^$stopped requests\? interrupted (the run was stopped" "$T/tr.txt" ||
    fail "trend table: $(cat "$T/tr.txt")"
assert_eq "$(awk '$1 ~ /^[0-9][0-9][0-9][0-9]-/ {s += $6} END {print s}' "$T/tr.txt")" "$failed" "trend table failed column"

# compare (the trace against itself): each side's counts
"$TT_ANALYZE" compare "$T/t.ttrace" "$T/t.ttrace" --format json >"$T/c.json" 2>/dev/null || fail "compare exit $?"
assert_eq "$(jq -r '.comparisons[0].base // .base|"\(.requests) \(.ok) \(.interrupted)"' "$T/c.json")" \
    "$req $ok $stopped" "compare JSON base"
"$TT_ANALYZE" compare "$T/t.ttrace" "$T/t.ttrace" >"$T/c.txt" 2>/dev/null || fail "compare table exit $?"
grep -q "$req requests, $ok ok, $stopped interrupted)" "$T/c.txt" || fail "compare side line: $(head -3 "$T/c.txt")"

# info: the requests row, and no interrupted among the failures by kind
"$TT_ANALYZE" info "$T/t.ttrace" >"$T/i.md" || fail "info exit $?"
grep -qF "| requests | $req ($ok ok, $failed failed, $stopped interrupted), 0 warmup |" "$T/i.md" ||
    fail "info requests row: $(grep requests "$T/i.md")"
! grep '^| failed by kind' "$T/i.md" | grepq interrupted || fail "info lists interrupted as a failure"

# plot: the timeline's title counts the failed and the interrupted apart
"$TT_ANALYZE" plot "$T/t.ttrace" -o "$T/p" >/dev/null 2>&1 || fail "plot exit $?"
grep -q " - $failed failed (red x) - $stopped interrupted - " "$T/p/timeline.gp" ||
    fail "timeline title: $(grep timeline_title "$T/p/timeline.gp")"
assert_eq "$(grep -c . <(sed -n '/^"failed/,/^$/p' "$T/p/timeline.dat" | grep '^[0-9]'))" "$failed" "failed bars"
echo ok
