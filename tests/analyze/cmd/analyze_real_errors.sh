#!/usr/bin/env bash
# analyze_real_errors: summary over the real llama-server's in-stream
# errors (tests/data/real-server/err-err.ttrace.zst: 2 ok, 4 "error:"
# lines inside HTTP 200). The failed line quotes what the server said,
# taken here from the trace's own bytes: whole when the line has room
# (--width 200), else cut with an ellipsis; it was cut at 60 bytes with
# no mark even at --width 200.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
fx="$TT_SOURCE_DIR/tests/data/real-server/err-err.ttrace.zst"
"$TT_ANALYZE" dump "$fx" >"$T/d.jsonl" || fail "dump"
msg=$(jq -rs '[.[] | select(.kind == "chunk") | .data // "" | select(startswith("error: "))
              | ltrimstr("error: ") | fromjson | .message] | max_by(length)' "$T/d.jsonl")
[ ${#msg} -gt 80 ] || fail "the fixture's longest server message is short: '$msg'"
failed=$(jq -s '[.[] | select(.kind == "result" and .error_kind != null)] | length' "$T/d.jsonl")
"$TT_ANALYZE" summary "$fx" --width 200 >"$T/wide.txt" 2>&1 || true
grep -qF "2 of 2: stream_error=2; the server said: $msg" "$T/wide.txt" ||
    fail "--width 200 does not quote '$msg' whole: $(grep failed: "$T/wide.txt")"
grep -q "^1 trace, 6 requests, $failed failed" "$T/wide.txt" ||
    fail "failed count is not the trace's $failed: $(grep '^1 trace' "$T/wide.txt")"
"$TT_ANALYZE" summary "$fx" --width 80 >"$T/narrow.txt" 2>&1 || true
tr '\n' ' ' <"$T/narrow.txt" | sed 's/   */ /g' | grepq -F "${msg:0:30}" ||
    fail "--width 80 lost the message: $(cat "$T/narrow.txt")"
grep -q '…$' "$T/narrow.txt" || fail "--width 80 cuts the message without an ellipsis"
echo "analyze_real_errors: ok"
