#!/usr/bin/env bash
# trend: traces recorded in different ISO weeks give rows per week in order
# (including a week 53 that crosses New Year), each request is placed by its
# own wall-clock start (a run crossing Sunday midnight splits), --by day,
# and the four formats.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE
ts() { date -u -d "$1" +%s; }

# Sunday 2026-11-29 23:59:59 UTC; request i starts (i - 1) x 141 ms later,
# so requests 1-8 start on Sunday (2026-W48) and 9-10 on Monday (2026-W49).
"$G" "$T/sun.ttrace" 10 5 100 10 real_s="$(ts 2026-11-29T23:59:59Z)" trace_id=sun
"$G" "$T/mon48.ttrace" 4 5 120 12 real_s="$(ts 2026-11-23T10:00:00Z)" trace_id=mon
"$G" "$T/ny.ttrace" 4 5 80 8 real_s="$(ts 2027-01-01T12:00:00Z)" trace_id=newyear
"$G" "$T/jan.ttrace" 2 5 90 9 real_s="$(ts 2026-01-01T00:00:00Z)" trace_id=jan
assert_eq "$(date -u -d 2027-01-01 +%G-W%V)" 2026-W53 "the calendar this test assumes"

"$A" trend "$T/ny.ttrace" "$T/sun.ttrace" "$T/jan.ttrace" "$T/mon48.ttrace" --format json >"$T/w.json"
jq_checks "$(tt_data analyze/trend/weeks.jq)" "$T/w.json"

# By day: Sunday and Monday rows of the same trace.
"$A" trend "$T/sun.ttrace" --by day --format csv >"$T/d.csv"
python3 - "$T/d.csv" <<'PY' || fail "trend --by day csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
got = [(r["period"], r["model"], r["ok"]) for r in rows]
assert got == [("2026-11-29", "model-a", "4"), ("2026-11-29", "model-b", "4"),
               ("2026-11-30", "model-a", "1"), ("2026-11-30", "model-b", "1")], got
assert rows[0]["ttft_p50_ms"] == "100" and rows[0]["latency_p99_ms"] == "140", rows[0]
PY

# Table and markdown: rows in period order.
"$A" trend "$T/ny.ttrace" "$T/sun.ttrace" "$T/jan.ttrace" "$T/mon48.ttrace" --wide >"$T/w.txt"
assert_eq "$(grep -oE '^2026-W[0-9]+' "$T/w.txt" | uniq | tr '\n' ' ')" "2026-W01 2026-W48 2026-W49 2026-W53 " "table periods"
grep -q "2026-11-23T10:00:00Z  $T/mon48.ttrace (trace 3, 4 requests)" "$T/w.txt" || fail "trace list"
"$A" trend "$T/sun.ttrace" --format markdown >"$T/w.md"
grep -q '^| period | model | class | traces | n |' "$T/w.md" || fail "markdown table"
grep -q '^| 2026-W49 | model-b | short-short | 1 | 1 | 0 | 100.0 |' "$T/w.md" || fail "markdown row"

# Failures and warmup: failures counted, warmup left out.
"$G" "$T/f.ttrace" 8 5 100 10 fail_every=4 warmup=1
"$A" trend "$T/f.ttrace" --format json |
    jq -e '[.rows[] | [.requests, .ok]] == [[3, 3], [4, 2]]' >/dev/null || fail "failures and warmup in trend"

# 80 columns by default (issue 32, item 3: 116 columns and no change
# column before): a verdict first, a block per model x class with the
# change of each value from the week before; a planted regression (TTFT
# 100 -> 150 ms) reads +50%. --wide is the full table.
"$G" "$T/wk1.ttrace" 40 5 100 10 real_s="$(ts 2026-11-23T10:00:00Z)" trace_id=wk1
"$G" "$T/wk2.ttrace" 40 5 150 10 real_s="$(ts 2026-11-30T10:00:00Z)" trace_id=wk2
(cd "$T" && "$A" trend wk1.ttrace wk2.ttrace) >"$T/n.txt"
awk 'length > 80 {print "over 80: " $0; bad=1} END {exit bad}' "$T/n.txt" || fail "trend is wider than 80 columns"
assert_eq "$(head -1 "$T/n.txt")" "verdict: TTFT p50 vs the period before: up 10%+ in 2 of 2, down 10%+ in 0" "first line"
grep -q '^largest TTFT p50 change: +50%, model-' "$T/n.txt" || fail "largest change: $(sed -n 2p "$T/n.txt")"
grep -q '^model-a / short-short$' "$T/n.txt" || fail "block header"
grep -qE '^  2026-W49 +20 +0 +150.0 +\+50% ' "$T/n.txt" || fail "change column: $(grep W49 "$T/n.txt")"
grep -qE '^  2026-W48 +20 +0 +100.0 +[0-9]' "$T/n.txt" || fail "first week has no change"
"$A" trend "$T/wk1.ttrace" "$T/wk2.ttrace" --wide | grepq -E '^2026-W49 +model-a +short-short +1 +20 ' || fail "--wide"

expect_exit 2 "$A" trend "$T/sun.ttrace" --by month 2>/dev/null
echo ok
