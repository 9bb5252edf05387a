#!/usr/bin/env bash
# analyze_real_server: tokentrace's per-request numbers over a real
# llama-server run (tests/data/real-server/tt-c4.ttrace.zst, 9 requests at
# concurrency 4), each tied to the server's own account in the trace's
# final chunks (timings, usage), read here from the chunk bytes:
# - TTFT is never below the server's prompt time (timings.prompt_ms);
# - TPOT (first to last token over n - 1) is the server's decode time per
#   token, predicted_ms / (predicted_n - 1), within 1% (+0.2 ms);
# - output tokens are usage.completion_tokens and timings.predicted_n.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
fx="$TT_SOURCE_DIR/tests/data/real-server/tt-c4.ttrace.zst"
"$TT_ANALYZE" requests "$fx" --format json >"$T/r.jsonl" || fail "requests"
"$TT_ANALYZE" dump "$fx" >"$T/d.jsonl" || fail "dump"
server_account "$T/d.jsonl" '.timings != null' \
    '\($f.timings.prompt_ms) \($f.timings.predicted_ms) \($f.timings.predicted_n) \($f.usage.completion_tokens)' >"$T/server"
jq -r '"\(.id) \(.ttft_ms) \(.tpot_ms) \(.output_tokens)"' "$T/r.jsonl" | sort -n >"$T/client"
[ "$(wc -l <"$T/server")" -eq 9 ] || fail "final chunks: $(cat "$T/server")"
join "$T/server" "$T/client" | awk '
    { id = $1; pms = $2; dms = $3; pn = $4; usage = $5; ttft = $6; tpot = $7; out = $8
      want = dms / (pn - 1)
      if (ttft < pms) { print "request " id ": TTFT " ttft " below prompt_ms " pms; bad = 1 }
      d = tpot - want; if (d < 0) d = -d
      if (d > 0.01 * want + 0.2) { print "request " id ": TPOT " tpot ", server " want; bad = 1 }
      if (out != usage || out != pn) { print "request " id ": tokens " out ", usage " usage ", predicted_n " pn; bad = 1 }
      n++ }
    END { if (n != 9) { print "joined " n " of 9"; bad = 1 } exit bad }' >"$T/bad" ||
    fail "numbers against the server's own: $(cat "$T/bad")"
echo "analyze_real_server: ok"
