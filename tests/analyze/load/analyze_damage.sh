#!/usr/bin/env bash
# Damaged and future traces: a truncated trace is analyzed up to the damage
# by summary, requests, compare and trend, with a warning naming the file
# and byte offset and exit 1 (output is still produced); a trace from a
# future format version is refused clearly (exit 1); an empty file is
# reported as holding no trace (exit 1).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
G=$TT_GEN_TRACE
A=$TT_ANALYZE

"$G" "$T/t.ttrace" 8 10 50 5
# Cut inside the result record of request 4: requests 1-3 stay whole.
off=$("$A" dump "$T/t.ttrace" | jq -s '[.[]|select(.kind=="result" and .id==4)][0].offset')
head -c "$((off + 5))" "$T/t.ttrace" >"$T/cut.ttrace"
warned() { grep -qE "cut\.ttrace: byte $off: record truncated" "$1" || fail "no warning with file and offset in $1: $(cat "$1")"; }

expect_exit 1 "$A" summary "$T/cut.ttrace" --detail >"$T/s.txt" 2>"$T/s.err"
warned "$T/s.err"
grep -q '^model-a / short-short' "$T/s.txt" || fail "summary of a damaged trace has no groups"
grep -qE "^warning: damaged trace, analyzed up to the damage: .*cut\.ttrace: byte $off" "$T/s.txt" ||
    fail "summary table does not say the trace was damaged"
expect_exit 1 "$A" summary "$T/cut.ttrace" --format json >"$T/s.json" 2>/dev/null
jq -e '.traces[0].complete == false and (.traces[0].damage | test("byte [0-9]+"))' "$T/s.json" >/dev/null ||
    fail "summary json damage"
# Request 4 never got its result: it counts as unfinished.
jq -e '.overall.requests == 4 and .overall.ok == 3 and .overall.errors == {"unfinished":1}' "$T/s.json" >/dev/null ||
    fail "summary counts: $(jq -c '.overall|{requests,ok,errors}' "$T/s.json")"
expect_exit 1 "$A" summary "$T/cut.ttrace" --format markdown >"$T/s.md" 2>/dev/null
grep -q '^> \*\*Warning:\*\* damaged trace' "$T/s.md" || fail "markdown damage line"

expect_exit 1 "$A" requests "$T/cut.ttrace" >"$T/r.csv" 2>"$T/r.err"
warned "$T/r.err"
assert_eq "$(tail -n +2 "$T/r.csv" | wc -l)" 4 "request rows up to the damage"
assert_eq "$(grep -c ',true,,200,' "$T/r.csv")" 3 "ok rows before the damage"

expect_exit 1 "$A" compare "$T/t.ttrace" "$T/cut.ttrace" --wide >"$T/c.txt" 2>"$T/c.err"
warned "$T/c.err"
grep -q '^model-a / short-short   base 4 ok of 4, new 2 ok of 2$' "$T/c.txt" || fail "compare of a damaged trace: $(head -8 "$T/c.txt")"
expect_exit 1 "$A" trend "$T/cut.ttrace" --format json >"$T/w.json" 2>"$T/w.err"
warned "$T/w.err"
jq -e '[.rows[].ok] == [2, 1]' "$T/w.json" >/dev/null || fail "trend of a damaged trace"
expect_exit 1 "$A" info "$T/cut.ttrace" >/dev/null 2>"$T/i.err"
warned "$T/i.err"

# A future format version (the header's "version": 1 patched to 99).
python3 - "$T/t.ttrace" "$T/v99.ttrace" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
key = b"\xa7version\x01"
assert data.count(key) == 1
open(sys.argv[2], "wb").write(data.replace(key, b"\xa7version\x63"))
PY
for cmd in summary requests compare trend info; do
    args=("$T/v99.ttrace")
    [ "$cmd" = compare ] && args=("$T/t.ttrace" "$T/v99.ttrace")
    expect_exit 1 "$A" "$cmd" "${args[@]}" >"$T/v.out" 2>"$T/v.err"
    grep -q "error: .*v99.ttrace: byte 0: trace format version 99 is newer than this reader (2): upgrade tokentrace; this trace is not analyzed" "$T/v.err" ||
        fail "$cmd does not refuse version 99 clearly: $(cat "$T/v.err")"
done
expect_exit 1 "$A" summary "$T/v99.ttrace" --format json >"$T/v99.json" 2>/dev/null
jq -e '.traces == [] and .groups == []' "$T/v99.json" >/dev/null || fail "nothing of a future trace is analyzed"
# Behind a good trace in one file: the good one is analyzed, exit 1.
cat "$T/t.ttrace" "$T/v99.ttrace" >"$T/mixed.ttrace"
expect_exit 1 "$A" summary "$T/mixed.ttrace" --format json >"$T/mixed.json" 2>/dev/null
jq -e '(.traces | length) == 1 and .traces[0].complete and .overall.requests == 8' "$T/mixed.json" >/dev/null ||
    fail "the trace before a future one"

# An empty (0-byte) file holds no trace: every command that loads traces
# says so on stderr and exits 1, as check does; from stdin too.
: >"$T/empty.ttrace"
for cmd in summary requests info compare trend plot; do
    args=("$T/empty.ttrace")
    [ "$cmd" = compare ] && args=("$T/t.ttrace" "$T/empty.ttrace")
    [ "$cmd" = plot ] && args+=(-o "$T/plot-empty")
    PATH=/nonexistent expect_exit 1 "$A" "$cmd" "${args[@]}" >"$T/e.out" 2>"$T/e.err"
    grep -q "warning: .*empty\.ttrace: empty file, no trace header$" "$T/e.err" ||
        fail "$cmd does not report the empty file: $(cat "$T/e.err")"
done
expect_exit 1 "$A" compare "$T/empty.ttrace" "$T/t.ttrace" >/dev/null 2>"$T/e.err"
grep -q "empty\.ttrace: empty file, no trace header" "$T/e.err" || fail "compare: empty base"
expect_exit 1 "$A" summary - <"$T/empty.ttrace" >/dev/null 2>"$T/e.err"
grep -q "empty file, no trace header" "$T/e.err" || fail "summary of empty stdin: $(cat "$T/e.err")"
expect_exit 1 "$A" check "$T/empty.ttrace" >"$T/e.out"
grep -q "DAMAGED: empty file, no header" "$T/e.out" || fail "check of an empty file"
# Beside a good trace: the good one is analyzed, still exit 1.
expect_exit 1 "$A" summary "$T/t.ttrace" "$T/empty.ttrace" --format json >"$T/e.json" 2>/dev/null
jq -e '(.traces | length) == 1 and .overall.requests == 8' "$T/e.json" >/dev/null ||
    fail "a good trace beside an empty file"
# A file that is no trace (issue 32): an error naming it, exit 1, not a
# warning about "the complete records before it".
echo 'just some text' >"$T/notes.txt"
expect_exit 1 "$A" summary "$T/notes.txt" >"$T/n.out" 2>"$T/n.err"
grep -q '^tokentrace-analyze: error: .*notes\.txt: .*not a tokentrace trace, nothing of it is analyzed$' "$T/n.err" ||
    fail "non-trace: $(cat "$T/n.err")"
grep -q 'warning' "$T/n.err" && fail "a non-trace labelled a warning"
echo ok
