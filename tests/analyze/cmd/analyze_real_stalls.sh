#!/usr/bin/env bash
# analyze_real_stalls: the real llama-server behind tokentrace-proxy
# (tests/data/real-server/proxy-proxy.ttrace.zst). Some decodes stall for
# seconds while another slot prefills: the server's own time per token
# (predicted_ms / predicted_n) is then far above the ITL p50, which made
# the summary warn that 4 requests "look buffered ... 50% or more of the
# gaps under 0.2 ms" though none had a single burst gap. Tied to the
# server's account: where the client's decode span (first to last token)
# is the server's predicted_ms within 5%, nothing held the stream, and no
# such request may be called buffered.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
fx="$TT_SOURCE_DIR/tests/data/real-server/proxy-proxy.ttrace.zst"
"$TT_ANALYZE" requests "$fx" --format json >"$T/r.jsonl" || fail "requests"
# the stalled ones: a gap of over 10 server TPOTs... and the server's own
# decode time matches what the client saw
jq -c 'select(.ok and .server_decode_ms != null and .itl_max_ms > 10 * .server_tpot_ms
              and ((.last_token_ms - .first_token_ms) - .server_decode_ms | fabs) < 0.05 * .server_decode_ms)
       | {id, buffered, burst_share}' "$T/r.jsonl" >"$T/stalled"
[ -s "$T/stalled" ] || fail "the fixture has no stalled decode the server accounts for"
if grep -q "\"buffered\":true" "$T/stalled"; then
    fail "a real stall is called buffered: $(jq -c 'select(.buffered)' "$T/stalled")"
fi
"$TT_ANALYZE" summary "$fx" >"$T/s.txt" 2>&1 || fail "summary"
if grep -q "look buffered" "$T/s.txt"; then
    # only requests with bursts may be named
    [ -n "$(jq -c 'select(.buffered and .burst_share < 0.5)' "$T/r.jsonl")" ] &&
        fail "buffered without bursts: $(grep 'look buffered' "$T/s.txt")"
fi
echo "analyze_real_stalls: $(wc -l <"$T/stalled") stalled decodes, none called buffered: ok"
