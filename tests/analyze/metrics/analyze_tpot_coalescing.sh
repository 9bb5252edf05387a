#!/usr/bin/env bash
# TPOT under coalescing (issue 12 item 1): a server that packs k tokens per
# SSE event, 10 ms a token, gives TPOT 10 ms for every k (the first event's
# k tokens are not counted inside the span); tpot_classic_ms keeps (last -
# first) / (n - 1), biased low by (k - 1) / (n - 1); one event carrying
# every token has no TPOT. Also the multi-token-chunks fault (4 per event).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

# near GOT WANT TOL WHAT: |GOT - WANT| <= TOL.
near() {
    python3 -c "import sys; g, w, t = map(float, sys.argv[1:4]); sys.exit(abs(g - w) > t)" \
        "$1" "$2" "$3" || fail "$4: got $1, want $2 +- $3"
}

# record NAME REPLAY-ARGS...: two requests, two at a time, into $T/NAME.ttrace.
record() {
    local name=$1; shift
    start_replay "$@"
    "$TT_RECORD" -u "$URL" -m m -n 2 -c 2 --classes short-short \
        -o "$T/$name.ttrace" -q
    kill "$REPLAY_PID"
}

for k in 1 3 7 16; do
    record "k$k" --synthetic "ttft=100ms,tpot=10ms,tokens=64,tokens_per_chunk=$k"
    "$TT_ANALYZE" requests "$T/k$k.ttrace" --format json >"$T/k$k.jsonl"
    assert_eq "$(wc -l <"$T/k$k.jsonl")" 2 "k=$k: rows"
    while read -r tpot classic k1 n; do
        assert_eq "$n" 64 "k=$k: output tokens (usage)"
        assert_eq "$k1" "$k" "k=$k: tokens of the first event"
        near "$tpot" 10 0.3 "k=$k: TPOT"
        # classic: the span (64 - k) x 10 ms over 63 gaps
        near "$classic" "$(python3 -c "print((64 - $k) * 10 / 63)")" 0.3 \
            "k=$k: tpot_classic_ms"
    done < <(jq -r '"\(.tpot_ms) \(.tpot_classic_ms) \(.first_event_tokens) \(.output_tokens)"' "$T/k$k.jsonl")
    # summary's TPOT is the same definition
    near "$("$TT_ANALYZE" summary "$T/k$k.ttrace" --format json | jq '.overall.tpot_ms.p50')" \
        10 0.3 "k=$k: summary TPOT p50"
done

# CSV carries the same columns.
"$TT_ANALYZE" requests "$T/k16.ttrace" | head -1 | tr , '\n' | grep -qx tpot_classic_ms ||
    fail "CSV header has tpot_classic_ms"

# Every token in one event: no span, TPOT undefined; classic 0.
record all --synthetic 'ttft=100ms,tpot=10ms,tokens=64,tokens_per_chunk=64'
"$TT_ANALYZE" requests "$T/all.ttrace" --format json >"$T/all.jsonl"
assert_eq "$(jq -c '[.tpot_ms, .tpot_classic_ms, .token_events]' "$T/all.jsonl" | sort -u)" \
    '[null,0,1]' "one event for 64 tokens"

# The multi-token-chunks fault: 4 tokens per event.
record mt --synthetic 'ttft=100ms,tpot=10ms,tokens=64' --fault multi-token-chunks
"$TT_ANALYZE" requests "$T/mt.ttrace" --format json >"$T/mt.jsonl"
while read -r tpot classic k1; do
    assert_eq "$k1" 4 "multi-token-chunks: first event"
    near "$tpot" 10 0.3 "multi-token-chunks: TPOT"
    near "$classic" "$(python3 -c "print(60 * 10 / 63)")" 0.3 \
        "multi-token-chunks: tpot_classic_ms"
done < <(jq -r '"\(.tpot_ms) \(.tpot_classic_ms) \(.first_event_tokens)"' "$T/mt.jsonl")
echo ok
