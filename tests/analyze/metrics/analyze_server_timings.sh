#!/usr/bin/env bash
# analyze_server_timings: a server that reports its own per-request timings
# in the stream (llama.cpp's "timings" object; the replay server with
# --fault llama-timings, over real HTTP) gets them per request in
# `requests`, and the client overhead (client TTFT - server prompt time)
# as its own distribution in summary; without them both stay empty.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
start_replay -q --fault llama-timings@llama \
    --synthetic 'ttft=40ms,tpot=2ms,tokens=6;model=plain,ttft=40ms,tpot=2ms,tokens=6'
"$TT_RECORD" -u "$URL" -m llama -m plain -n 3 -c 2 --classes short-short \
    -o "$T/t.ttrace" -q 2>"$T/rec.err" || { cat "$T/rec.err"; fail "record"; }
"$TT_ANALYZE" requests "$T/t.ttrace" --format json >"$T/req.jsonl"
# llama: the server's numbers as the replay server scheduled them (prompt =
# arrival to first token = 40 ms, 6 tokens, 5 gaps of 2 ms over 6 tokens),
# and the overhead is exactly TTFT - prompt time, never below 0
jq -se '[.[] | select(.model=="llama" and .ok and (.warmup|not))] | length == 3 and all(
    .server_prompt_ms == 40 and .server_predicted_n == 6 and
    (.server_tpot_ms - 10/6 | fabs) < 0.01 and .server_prompt_n > 0 and
    ((.client_overhead_ms - (.ttft_ms - .server_prompt_ms)) | fabs) < 1e-6 and
    .client_overhead_ms >= 0 and .client_overhead_ms < 5000)' "$T/req.jsonl" >/dev/null ||
    { jq -c 'select(.model=="llama")|{ok,ttft_ms,server_prompt_ms,server_predicted_n,server_tpot_ms,client_overhead_ms}' "$T/req.jsonl"; fail "llama rows"; }
jq -se '[.[] | select(.model=="plain")] | length > 0 and all(
    .server_prompt_ms == null and .client_overhead_ms == null and .server_prompt_n == null)' \
    "$T/req.jsonl" >/dev/null || fail "plain rows carry server timings"
"$TT_ANALYZE" summary "$T/t.ttrace" --format json >"$T/s.json"
jq -e '[.groups[] | select(.model=="llama")][0].client_overhead_ms.n == 3 and
       [.groups[] | select(.model=="plain")][0].client_overhead_ms.n == 0' "$T/s.json" >/dev/null ||
    { jq -c '.groups[]|{model,client_overhead_ms}' "$T/s.json"; fail "summary client overhead"; }
"$TT_ANALYZE" summary "$T/t.ttrace" --detail >"$T/s.txt"
grep -Eq "^  client overhead \(ms\) " "$T/s.txt" || { cat "$T/s.txt"; fail "no client overhead row"; }
grep -Eq "^  server prompt \(ms\) +40\.00" "$T/s.txt" || { cat "$T/s.txt"; fail "no server prompt row"; }
echo "analyze_server_timings: ok"
