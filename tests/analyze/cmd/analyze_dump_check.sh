#!/usr/bin/env bash
# dump and check on a generated trace: counts, truncation names the offset,
# records before the damage still dump, concatenated traces, stdin.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

"$TT_GEN_TRACE" "$T/t.ttrace" 5 10 50 5
"$TT_ANALYZE" check "$T/t.ttrace" >"$T/check.out" || fail "intact trace not OK: $(cat "$T/check.out")"
grep -q ': OK$' "$T/check.out" || fail "no OK verdict"

"$TT_ANALYZE" dump "$T/t.ttrace" >"$T/dump.jsonl"
assert_eq "$(jq -s 'map(select(.kind=="chunk"))|length' "$T/dump.jsonl")" 55 "chunk records"
assert_eq "$(jq -s 'map(select(.kind=="request"))|length' "$T/dump.jsonl")" 5 "request records"
assert_eq "$(jq -r 'select(.kind=="header")|.format' "$T/dump.jsonl")" tokentrace "header format"
assert_eq "$(jq -r 'select(.kind=="request" and .id==2)|.model' "$T/dump.jsonl")" model-b "model of request 2"
jq -se 'map(select(.kind=="chunk")|.t_ns|type=="number")|all' "$T/dump.jsonl" >/dev/null

# Truncate in the middle of the last chunk record of request 3.
size=$(stat -c %s "$T/t.ttrace")
off=$(jq -s '[.[]|select(.kind=="result" and .id==3)][0].offset' "$T/dump.jsonl")
head -c "$((off - 7))" "$T/t.ttrace" >"$T/cut.ttrace"
expect_exit 1 "$TT_ANALYZE" check "$T/cut.ttrace" >"$T/cut.out"
grep -q "DAMAGED" "$T/cut.out" || fail "cut trace not reported damaged"
grep -qE "byte [0-9]+: record truncated" "$T/cut.out" || fail "no byte offset: $(cat "$T/cut.out")"
expect_exit 1 "$TT_ANALYZE" dump "$T/cut.ttrace" >"$T/cut.jsonl" 2>"$T/cut.err"
grep -q "cut.ttrace: byte" "$T/cut.err" || fail "dump error does not name file and offset"
n=$(jq -s 'map(select(.kind=="result"))|length' "$T/cut.jsonl")
assert_eq "$n" 2 "results before the cut"

# Concatenated traces via stdin read as two traces.
cat "$T/t.ttrace" "$T/t.ttrace" | "$TT_ANALYZE" dump - >"$T/cat.jsonl"
assert_eq "$(jq -s 'map(select(.kind=="header"))|length' "$T/cat.jsonl")" 2 "headers in concatenation"
assert_eq "$(jq -s 'map(.trace)|max' "$T/cat.jsonl")" 1 "second trace index"

# Not a trace at all.
echo "hello" >"$T/junk.ttrace"
expect_exit 1 "$TT_ANALYZE" check "$T/junk.ttrace" >/dev/null
expect_exit 2 "$TT_ANALYZE" frobnicate 2>/dev/null
echo "ok: $size bytes"
