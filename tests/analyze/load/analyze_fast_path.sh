#!/usr/bin/env bash
# The analyzer's fast paths (the trace reader's chunk records, the JSON scan
# of stream events) change nothing but speed, on recordings of the replay
# server's OpenAI chat, completions, Responses and Anthropic streams (the demo's shapes,
# with reasoning, role chunks, keep-alives, split UTF-8 and CRLF lines): every JSON event of them is decided by
# the fast scan with the same facts as cJSON (stream_scan_test), and every
# analyzer command prints the same bytes, warnings and exit code with the
# fast paths on and off (TOKENTRACE_NO_FAST_PATH=1), on the whole traces and
# on damaged copies.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

: "${TT_STREAM_SCAN_TEST:?}"

start_replay --synthetic 'ttft=20ms,tpot=1ms,tokens=40,jitter=0.2;model=demo-large,ttft=30ms,tpot=1ms,tokens=60,jitter=0.2,tokens_per_chunk=2' \
    --fault reasoning:0.5 --fault role-first:0.5 --fault keepalive:0.2 \
    --fault split-utf8:0.2 --fault crlf:0.3

traces=()
for api in openai-chat openai-completions anthropic; do
    out="$T/$api.ttrace"
    "$TT_RECORD" -u "$URL" -m demo-small -m demo-large -n 2 -c 4 --api "$api" \
        --label run=demo -o "$out" -q 2>"$T/$api.err" || fail "$api: record exit $? ($(cat "$T/$api.err"))"
    traces+=("$out")
done

"$TT_STREAM_SCAN_TEST" "${traces[@]}" >"$T/scan.out" 2>&1 || { cat "$T/scan.out" >&2; fail "stream_scan_test on the recordings"; }
grep -q "decided by the fast scan" "$T/scan.out" || fail "stream_scan_test said nothing"

# run_both NAME CMD...: CMD's stdout, stderr and exit code with the fast
# paths on and off must be the same.
run_both() {
    local name=$1; shift
    set +e
    "$@" >"$T/$name.fast.out" 2>"$T/$name.fast.err"
    local fast=$?
    TOKENTRACE_NO_FAST_PATH=1 "$@" >"$T/$name.slow.out" 2>"$T/$name.slow.err"
    local slow=$?
    set -e
    assert_eq "$fast" "$slow" "$name: exit code"
    cmp -s "$T/$name.fast.out" "$T/$name.slow.out" || fail "$name: stdout differs (diff $T/$name.fast.out $T/$name.slow.out)"
    cmp -s "$T/$name.fast.err" "$T/$name.slow.err" || fail "$name: stderr differs (diff $T/$name.fast.err $T/$name.slow.err)"
}

check_all() {
    local tag=$1; shift
    run_both "$tag-summary" "$TT_ANALYZE" summary "$@"
    run_both "$tag-summary-json" "$TT_ANALYZE" summary --format json "$@"
    run_both "$tag-requests" "$TT_ANALYZE" requests --format json "$@"
    run_both "$tag-requests-chunks" "$TT_ANALYZE" requests --tokens chunks "$@"
    run_both "$tag-check" "$TT_ANALYZE" check "$@"
    run_both "$tag-info" "$TT_ANALYZE" info "$@"
    run_both "$tag-dump" "$TT_ANALYZE" dump "$@"
}

check_all all "${traces[@]}"
# The summary really saw the streams: 12 ok requests per API kind, tokens.
assert_eq "$(grep -c '"ok": *true' "$T/all-requests.fast.out" || true)" 36 "ok requests"

# The Responses API: its delta events are decided by the scan, its terminal
# events (usage inside "response") take cJSON's path; the output is the same
"$TT_RECORD" -u "$URL" -m demo-small -m demo-large -n 2 -c 4 --api openai-responses \
    --label run=demo -o "$T/resp.ttrace" -q 2>"$T/resp.err" || fail "responses: record exit $? ($(cat "$T/resp.err"))"
check_all resp "$T/resp.ttrace"
assert_eq "$(grep -c '"ok": *true' "$T/resp-requests.fast.out" || true)" 12 "responses: ok requests"
assert_eq "$(jq -rs 'map(.output_tokens)|unique|join(",")' "$T/resp-requests.fast.out")" "40,60" "responses: tokens from usage"

# Damaged copies: cut inside the chunk records and a byte overwritten; the
# reader names the same file and offset either way.
chat="$T/openai-chat.ttrace"
size=$(stat -c %s "$chat")
for frac in 13 50 77 99; do
    cut=$((size * frac / 100))
    head -c "$cut" "$chat" >"$T/cut-$frac.ttrace"
    check_all "cut-$frac" "$T/cut-$frac.ttrace"
    cp "$chat" "$T/bad-$frac.ttrace"
    printf '\xc1' | dd of="$T/bad-$frac.ttrace" bs=1 seek="$cut" conv=notrunc status=none
    check_all "bad-$frac" "$T/bad-$frac.ttrace"
done
grep -q "byte" "$T/cut-50-summary.fast.err" || fail "a cut trace gave no damage warning"
cat "$T/scan.out"
echo "ok"
