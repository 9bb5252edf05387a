#!/usr/bin/env bash
# record_secrets_body: a server that echoes the key in its bodies (replay
# fault leaky-body: in streamed token text and in an in-stream error event,
# each split in the middle of the key across two writes 3 ms apart, and in
# an error JSON "Incorrect API key provided: Bearer K") leaves it in no
# trace, no analyzer output and no message: the recorder masks the exact
# key bytes with '*' as they arrive, length-preserving, also when the key
# is split across two receives and so across two chunk records; the chunk
# sizes and byte counts stay as received. The same for the Anthropic
# x-api-key, a key written in a Cline settings file, and --check (its
# printed lines and its -o trace).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

MARK_A="SECRET$RANDOM$RANDOM"
MARK_B="b0dy-do-not-leak"
export TT_TEST_KEY="sk-test-$MARK_A-$MARK_B"
KLEN=${#TT_TEST_KEY}
STARS=$(printf '%*s' "$KLEN" '' | tr ' ' '*')
unset OPENAI_API_KEY ANTHROPIC_API_KEY OPENAI_BASE_URL ANTHROPIC_BASE_URL
OUT="$T/out"
mkdir -p "$OUT"

start_replay --synthetic 'ttft=5ms,tpot=2ms,tokens=8' --expect-key-env TT_TEST_KEY \
    --fault leaky-body --fault http-401@denied --fault error-mid-stream@midstream
R=(-u "$URL" -n 2 --classes short-short)

OPENAI_API_KEY=$TT_TEST_KEY "$TT_RECORD" "${R[@]}" -m echo -m denied -m midstream \
    -o "$OUT/chat.ttrace" >"$OUT/chat.out" 2>"$OUT/chat.err" \
    || [ $? -eq 1 ] || fail "chat run: $(cat "$OUT/chat.err")"
ANTHROPIC_API_KEY=$TT_TEST_KEY "$TT_RECORD" "${R[@]}" --api anthropic -m echo -m denied \
    -o "$OUT/anth.ttrace" >"$OUT/anth.out" 2>"$OUT/anth.err" \
    || [ $? -eq 1 ] || fail "anthropic run: $(cat "$OUT/anth.err")"
cat >"$T/cline.json" <<EOF
{
    "cline.apiProvider": "openai",
    "cline.openAiBaseUrl": "$URL/v1",
    "cline.openAiApiKey": "$TT_TEST_KEY",
    "cline.openAiModelId": "echo",
}
EOF
"$TT_RECORD" --cline-settings "$T/cline.json" -n 2 --classes short-short \
    -o "$OUT/cline.ttrace" >"$OUT/cline.out" 2>"$OUT/cline.err" \
    || fail "cline run: $(cat "$OUT/cline.err")"
set +e
OPENAI_API_KEY=$TT_TEST_KEY "$TT_RECORD" --check -u "$URL" -m echo -m denied -m midstream \
    -o "$OUT/check.ttrace" >"$OUT/check.out" 2>"$OUT/check.err"
rc=$?
set -e
assert_eq "$rc" 1 "--check exit (denied and midstream fail)"
grep -q "^echo: OK" "$OUT/check.out" || fail "--check: $(cat "$OUT/check.out")"
grep -q "^denied: FAIL" "$OUT/check.out" || fail "--check: $(cat "$OUT/check.out")"

for tr in chat anth cline check; do
    d=$(dump "$OUT/$tr.ttrace")
    # the chunks are as received, one record per receive: their bytes add
    # up to the result's, and the masked key has the key's length
    assert_eq "$(jqs "$d" '
        (map(select(.kind=="chunk"))|group_by(.request_id)|map({key:(.[0].request_id|tostring),value:(map(.len)|add)})|from_entries) as $c
        | map(select(.kind=="result") | ($c[.id|tostring] // 0) == .bytes) | all')" true "$tr: chunk bytes = result bytes"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="chunk")|(.data|length)==.len]|all')" true "$tr: chunk lengths"
    # every echo shows the key masked, whole, where it was
    n_echo=$(jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.model})|from_entries) as $m
        | [.[]|select(.kind=="chunk" and $m[.request_id|tostring]=="echo")]|group_by(.request_id)
        | map(map(.data)|join("")|select(contains("(your key: Bearer '"$STARS"') ") or contains("(your key: '"$STARS"') ")))|length')
    [ "$n_echo" -ge 1 ] || fail "$tr: no masked echo in the token text"
    # ... across two chunk records: one ends in '*', the next starts with it
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="chunk")]|group_by(.request_id)
        | map([range(1;length) as $i | .[$i-1:$i+1] | select((.[0].data|endswith("*")) and (.[1].data|startswith("*")))]|length)
        | add > 0')" true "$tr: the key split across two chunk records"
done
d=$(dump "$OUT/chat.ttrace")
jqs "$d" '[.[]|select(.kind=="chunk")]|group_by(.request_id)|.[]|map(.data)|join("")|gsub("\n";" ")' >"$T/chat.bodies"
grep -qF "Incorrect API key provided: Bearer $STARS (POST /v1/chat/completions)" "$T/chat.bodies" || fail "401 body: $(cat "$T/chat.bodies")"
grep -qF "processing your request (key: Bearer $STARS, POST /v1/chat/completions)" "$T/chat.bodies" || fail "error event: $(cat "$T/chat.bodies")"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind // "ok"]|unique|join(",")')" \
    "http_401,ok,stream_error" "chat: error kinds"
d=$(dump "$OUT/anth.ttrace")
jqs "$d" '[.[]|select(.kind=="chunk")]|group_by(.request_id)|.[]|map(.data)|join("")|gsub("\n";" ")' >"$T/anth.bodies"
grep -qF "Incorrect API key provided: $STARS (POST /v1/messages)" "$T/anth.bodies" || fail "anthropic 401 body: $(cat "$T/anth.bodies")"

# every analyzer output
A=$TT_ANALYZE
traces=("$OUT"/chat.ttrace "$OUT"/anth.ttrace "$OUT"/cline.ttrace "$OUT"/check.ttrace)
for t in "${traces[@]}"; do "$A" info "$t" >"$t.info.md"; done
for f in table json csv markdown; do
    "$A" summary "${traces[@]}" --by model --format $f >"$OUT/summary.$f" 2>>"$OUT/analyze.err"
done
"$A" requests "${traces[@]}" >"$OUT/requests.csv" 2>>"$OUT/analyze.err"
"$A" requests "${traces[@]}" --format json >"$OUT/requests.jsonl" 2>>"$OUT/analyze.err"
"$A" dump "${traces[@]}" >"$OUT/dump.jsonl"
"$A" check "${traces[@]}" >"$OUT/check-traces.txt" 2>&1 || true
if "$A" plot --help >/dev/null 2>&1; then
    "$A" plot "${traces[@]}" -o "$OUT/charts" --html >"$OUT/plot.out" 2>"$OUT/plot.err" \
        || fail "plot: $(cat "$OUT/plot.err")"
fi
grep -q "Incorrect API key provided" "$OUT/requests.csv" || fail "requests lost the server's message: $(cat "$OUT/requests.csv")"

n=$(find "$OUT" -type f | wc -l)
[ "$n" -ge 20 ] || fail "only $n output files"
leaks=$(grep -rl -a -e "$MARK_A" -e "$MARK_B" "$OUT" "$T/replay.err" || true)
[ -z "$leaks" ] || fail "the key leaked into: $leaks"
echo "record_secrets_body: ok ($n files checked)"
