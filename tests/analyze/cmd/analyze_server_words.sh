#!/usr/bin/env bash
# analyze_server_words: what the server said about a failure reaches every
# output, in its own words, bounded and without the key: an HTTP 500's JSON
# message and the errors inside a 200 stream (llama.cpp's "error:" line,
# vLLM's bare error object) are server_message in requests, in info's
# "failed by kind" and under the summary's errors line (text, markdown,
# JSON); input_tokens is the server's count only (null for a failure) with
# the recorder's estimate apart (input_tokens_est, the "input tokens, est."
# row); JSON and CSV keep every digit (min / max equal requests' values).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

export TT_WORDS_KEY="sk-words-$RANDOM-0123456789abcdef"
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=5' --expect-key-env TT_WORDS_KEY \
    --fault http-500@e500 --fault leaky-body@e500 --fault error-field@field \
    --fault error-object@object --fault no-usage@nousage
out="$T/words.ttrace"
expect_exit 0 "$TT_RECORD" -q -u "$URL" --api-key-env TT_WORDS_KEY -m ok -m e500 -m field \
    -m object -m nousage -n 2 --classes short-short -o "$out"

"$TT_ANALYZE" requests --format json "$out" >"$T/req.json"
"$TT_ANALYZE" requests "$out" >"$T/req.csv"
"$TT_ANALYZE" info "$out" >"$T/info.md"
"$TT_ANALYZE" summary "$out" --detail >"$T/sum.txt"
"$TT_ANALYZE" summary "$out" >"$T/compact.txt"
"$TT_ANALYZE" summary --format markdown "$out" >"$T/sum.md"
"$TT_ANALYZE" summary --format json "$out" >"$T/sum.json"
"$TT_ANALYZE" summary --format csv "$out" >"$T/sum.csv"
for f in req.json req.csv info.md sum.txt sum.md sum.json sum.csv; do
    grep -q "$TT_WORDS_KEY" "$T/$f" && fail "the key is in $f"
done

# requests: the server's words beside the recorder's
words() { jq -r --arg m "$1" 'select(.model==$m)|.server_message' "$T/req.json" | sort -u; }
assert_eq "$(words field)" "context shift is disabled (replay fault error-field)" "error: line"
assert_eq "$(words object)" "prompt is too long (replay fault error-object)" "bare error object"
assert_eq "$(words e500)" "Incorrect API key provided: Bearer ${TT_WORDS_KEY//?/*} (POST /v1/chat/completions)" \
    "500 JSON message, key masked"
assert_eq "$(words ok)" null "no words for an ok request"
assert_eq "$(jq -r 'select(.model=="field")|.error_message' "$T/req.json" | sort -u)" \
    "the stream carried an error: context shift is disabled (replay fault error-field)" "recorder's message"
head -1 "$T/req.csv" | grepq -E ',input_tokens_est,server_message(,|$)' || fail "CSV columns: $(head -1 "$T/req.csv")"

# info and summary: the first failure's words per kind
grep -q '| failed by kind | .*stream\\_error: 4 (the server said: context shift is disabled (replay fault error-field))' "$T/info.md" ||
    grep -q '| failed by kind | .*stream\\_error: 4 (the server said: prompt is too long' "$T/info.md" ||
    fail "info: $(grep 'failed by' "$T/info.md")"
grep -q '^    stream_error, the server said: context shift is disabled (replay fault error-field)$' "$T/sum.txt" ||
    fail "summary text: $(cat "$T/sum.txt")"
grep -q '^    http_500, the server said: Incorrect API key provided: Bearer \*\**' "$T/sum.txt" ||
    fail "summary text 500: $(cat "$T/sum.txt")"
grep -qE 'stream_error=[0-9]+; the server said: context' "$T/compact.txt" ||
    fail "compact summary: no server words: $(cat "$T/compact.txt")"
grep -q '^stream_error, the server said: prompt is too long (replay fault error-object)  $' "$T/sum.md" ||
    fail "summary markdown: $(cat "$T/sum.md")"
assert_eq "$(jq -r '.groups[]|select(.model=="field")|.error_messages.stream_error|"\(.server) \(.message)"' "$T/sum.json")" \
    "true context shift is disabled (replay fault error-field)" "summary JSON"

# input tokens: usage only, the estimate apart and labelled
assert_eq "$(jq -r 'select(.model=="ok")|(.input_tokens != null and .input_tokens_est != null)' "$T/req.json" | sort -u)" true "ok: both counts"
assert_eq "$(jq -r 'select(.model=="e500")|"\(.input_tokens) \(.input_tokens_est > 0)"' "$T/req.json" | sort -u)" "null true" "failed: no usage count, an estimate"
assert_eq "$(jq -r 'select(.model=="nousage")|"\(.input_tokens) \(.input_tokens_est > 0)"' "$T/req.json" | sort -u)" "null true" "no usage: estimate only"
assert_eq "$(jq -r '.groups[]|select(.model=="nousage")|"\(.input_tokens_ms.n // .input_tokens.n) \(.input_tokens_est.n)"' "$T/sum.json")" "0 2" "summary: estimate kept apart"
awk '/^nousage/{g=1} /^ok /{g=0} g' "$T/sum.txt" | grepq '^  input tokens, est\. (tok)' || fail "no estimate row: $(cat "$T/sum.txt")"
awk '/^nousage/{g=1} /^ok /{g=0} g' "$T/sum.txt" | grepq '^  input tokens (tok)' && fail "usage row without usage"

# full precision: the summary's min / max are the requests' own numbers
for fmt in json csv; do
    jq -r 'select(.model=="ok" and .ok)|.ttft_ms' "$T/req.json" | sort -g >"$T/ttft.txt"
    lo=$(head -1 "$T/ttft.txt") hi=$(tail -1 "$T/ttft.txt")
    if [ "$fmt" = json ]; then
        got=$(jq -r '.groups[]|select(.model=="ok")|.ttft_ms|"\(.min) \(.max)"' "$T/sum.json")
    else
        got=$(awk -F, '$1=="ok" && $7=="ttft_ms"{print $17, $18}' "$T/sum.csv")
    fi
    python3 -c 'import sys; a=[float(x) for x in sys.argv[1].split()]; b=[float(x) for x in sys.argv[2:]]; sys.exit(a!=b)' \
        "$got" "$lo" "$hi" || fail "$fmt: min/max $got, requests say $lo $hi"
done
echo ok
