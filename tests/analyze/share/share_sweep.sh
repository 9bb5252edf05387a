#!/usr/bin/env bash
# share, marker sweep: one distinct marker in every field a user controls,
# recorded for real (tokentrace-record and tokentrace-proxy against a
# hostile upstream, tests/lib/hostile_echo.py, that quotes the request in
# every error and reply shape: vLLM's error object, FastAPI's detail, SSE
# error events, llama.cpp's error: line, text and HTML pages, non-JSON
# data: lines, tool calls whose input is the request), then share and
# share --anonymize-models: no marker survives in any output byte (the
# file, decompressed, and info, requests, summary, dump of it). Prints the
# number of fields swept.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"
A=$TT_ANALYZE

# the fields and their markers; models, the deployment and the label
# value are only hidden with --anonymize-models (ZQKM..., ZQKD..., ZQKL...)
declare -A field=(
    [ZQK01]="system prompt" [ZQK02]="user prompt" [ZQK03]="tool name"
    [ZQK04]="tool description" [ZQK05]="tool parameters property name"
    [ZQK06]="tool property description" [ZQK07]="json_schema name"
    [ZQK08]="json_schema property name" [ZQK09]="extra_body value"
    [ZQK10]="extra_body member name" [ZQK11]="extra_body nested name"
    [ZQK12]="workload class name" [ZQK13]="assistant history message"
    [ZQK14]="tool_call arguments" [ZQK15]="user name field"
    [ZQK20]="anthropic system" [ZQK21]="anthropic input_schema property"
    [ZQK22]="anthropic tool_use input key" [ZQK23]="anthropic tool_use input value"
    [ZQK24]="anthropic tool_result" [ZQK25]="anthropic metadata user_id"
    [ZQK26]="responses instructions" [ZQK27]="responses input"
    [ZQK28]="responses text.format schema name" [ZQK29]="responses schema property"
    [ZQK30]="request body that is not JSON" [ZQK31]="URL query value"
    [ZQK32]="URL path segment" [ZQK33]="X-Title header" [ZQK34]="User-Agent header"
    [ZQK35]="completions prompt"
    [ZQK37]="stop sequence" [ZQK38]="image_url data URL"
    [ZQKMvllm]="model (vLLM error)" [ZQKMdetail]="model (detail input)"
    [ZQKMdetailstr]="model (detail string)" [ZQKMsseerror]="model (SSE error)"
    [ZQKMeventerror]="model (event: error)" [ZQKMllama]="model (error: line)"
    [ZQKMtext]="model (text error)" [ZQKMhtml]="model (HTML error)"
    [ZQKMdatatext]="model (non-JSON data)" [ZQKMtool]="model (tool echo)"
    [ZQKMpath]="model (path echo)" [ZQKMnotfound]="model (model not found)"
    [ZQKMok]="model (reply echo, openai-model header)"
    [ZQKDdeploy]="Azure deployment in the URL" [ZQKLteam]="label value"
)
# a 16-digit number that must not survive either
card=4111222233334444

command -v zstd >/dev/null || fail "the zstd command is needed to read the shared copy's bytes"
pf="$T/up.port"
python3 "$TT_SOURCE_DIR/tests/lib/hostile_echo.py" >"$pf" 2>"$T/up.err" &
TT_PIDS+=("$!")
wait_port_file "$pf" "$!" "$T/up.err" "hostile_echo.py"
UP="http://127.0.0.1:$(head -1 "$pf")"

# 1. tokentrace-record: prompts, tools and a schema through --extra-body,
# a workload class, models, a label, an Azure deployment URL
cat >"$T/w.jsonl" <<'JSONL'
{"class":"ZQK12","max_tokens":8,"messages":[{"role":"system","content":"You are ZQK01."},{"role":"user","content":"say ZQK02","name":"ZQK15"},{"role":"assistant","content":"ok ZQK13","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"q\":\"ZQK14\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"},{"role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"data:image/png;base64,ZQK38AAAA"}}]}]}
JSONL
extra='{"user":"ZQK09","ZQK10":{"ZQK11":true},"stop":["ZQK37"],"tools":[{"type":"function","function":{"name":"ZQK03","description":"ZQK04","parameters":{"type":"object","properties":{"ZQK05":{"type":"string","description":"ZQK06"}}}}}],"response_format":{"type":"json_schema","json_schema":{"name":"ZQK07","schema":{"type":"object","properties":{"ZQK08":{"type":"integer"}}}}}}'
models=()
for m in ok vllm detail detailstr sseerror eventerror llama text html datatext tool notfound; do
    models+=(-m "ZQKM$m")
done
"$TT_RECORD" -q -u "$UP/openai/deployments/ZQKDdeploy" "${models[@]}" -w "$T/w.jsonl" -n 1 -c 4 \
    --timeout 5 --extra-body "$extra" --label team=ZQKLteam -o "$T/rec.ttrace" 2>"$T/rec.err" ||
    [ $? -eq 1 ] || fail "record: $(cat "$T/rec.err")"

# 2. tokentrace-proxy: the other APIs' shapes, a body that is not JSON, the
# URL and headers
URL="$UP/v1"
start_proxy "$T/px.ttrace"
post() { # PATH BODY [curl args]
    local path=$1 body=$2; shift 2
    curl -s -o /dev/null -H 'Content-Type: application/json' -H 'X-Title: ZQK33' \
        -A 'ZQK34' "$@" --data-binary "$body" "$PXURL$path" || true
}
post /v1/messages '{"model":"ZQKMtool","max_tokens":8,"stream":false,"system":"ZQK20","metadata":{"user_id":"ZQK25"},"tools":[{"name":"t","description":"d","input_schema":{"type":"object","properties":{"ZQK21":{"type":"string"}}}}],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"t","input":{"ZQK22":{"deep":["ZQK23",'$card']}}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"ZQK24"}]}]}'
for m in vllm detail detailstr sseerror eventerror llama text html datatext ok; do
    post /v1/responses '{"model":"ZQKM'$m'","stream":true,"instructions":"ZQK26","input":[{"role":"user","content":"ZQK27"}],"text":{"format":{"type":"json_schema","name":"ZQK28","schema":{"type":"object","properties":{"ZQK29":{"type":"string"}}}}}}'
done
post /v1/chat/completions 'ZQK30 is not {JSON'
post '/v1/chat/completions?tag=ZQK31' '{"model":"ZQKMpath","stream":true,"messages":[{"role":"user","content":"x"}]}'
post /v1/ZQK32/chat/completions '{"model":"ZQKMpath","stream":true,"messages":[{"role":"user","content":"x"}]}'
post /v1/completions '{"model":"ZQKMok","stream":true,"prompt":"ZQK35 '$card'"}'
stop_proxy

# every marker was recorded (else the sweep proves nothing)
for t in rec px; do
    "$A" dump "$T/$t.ttrace" >"$T/$t.dump"
done
{ cat "$T/rec.dump" "$T/px.dump" "$T/rec.ttrace"; zstd -dcf "$T/px.ttrace"; } >"$T/all.orig"
for m in "${!field[@]}"; do
    grep -aqF "$m" "$T/all.orig" || fail "${field[$m]} ($m) was never recorded"
done
grep -aqF "$card" "$T/all.orig" || fail "the 16-digit number was never recorded"

# share, then every output of the shared copy
sweep() { # NAME PATTERN SHARE-ARGS...: fails naming each surviving field
    local name=$1 pat=$2; shift 2
    local out="$T/$name" left=""
    : >"$out.all"
    for t in rec px; do
        "$A" share "$T/$t.ttrace" -o "$out.$t.ttrace.zst" "$@" >"$out.$t.report" ||
            fail "$name: share $t exit $?: $(cat "$out.$t.report")"
        zstd -q -d -c "$out.$t.ttrace.zst" >>"$out.all"
        cat "$out.$t.report" >>"$out.all"
        for cmd in info requests summary dump; do
            "$A" $cmd "$out.$t.ttrace.zst" >>"$out.all" 2>&1 || true
        done
        for cmd in requests summary; do
            "$A" $cmd --format json "$out.$t.ttrace.zst" >>"$out.all" 2>&1 || true
        done
    done
    for m in "${!field[@]}"; do
        [[ $m =~ $pat ]] || continue
        grep -aqF "$m" "$out.all" && left="$left ${field[$m]} ($m);"
    done
    grep -aqF "$card" "$out.all" && left="$left the 16-digit number;"
    [ -z "$left" ] || fail "$name: survived:$left (files in $out.*)"
    return 0
}
sweep plain '^ZQK[0-9]'
sweep anon '^ZQK' --anonymize-models
# the shared copies still analyze: the requests and their errors are there
n=$("$A" requests --format json "$T/plain.px.ttrace.zst" | jq -s length)
[ "$n" -ge 14 ] || fail "requests of the shared proxy capture: $n"
"$A" summary --format json "$T/plain.rec.ttrace.zst" >"$T/sum.s"
"$A" summary --format json "$T/rec.ttrace" >"$T/sum.a"
assert_eq "$(jq -c '.overall.requests' "$T/sum.s")" "$(jq -c '.overall.requests' "$T/sum.a")" "requests"
grep -q 'renamed: 1 workload class name' "$T/plain.rec.report" || fail "class rename not reported: $(cat "$T/plain.rec.report")"
grep -q 'server error text: [1-9]' "$T/plain.px.report" || fail "error fill not reported: $(cat "$T/plain.px.report")"
# a newer recorder's record kind and request key: share cannot tell their
# text from their numbers, so the kind is dropped and the key's string
# filled (both were copied as they were)
"$TT_RECORD" -q -u "$UP/v1" -m ZQKMok -n 1 --classes short-short --format-version 1 -o "$T/v1.ttrace" ||
    [ $? -eq 1 ] || fail "record v1"
python3 - "$T/v1.ttrace" <<'PY'
import sys
def enc(v):
    if isinstance(v, int):
        return bytes([v]) if v < 128 else b"\xce" + v.to_bytes(4, "big")
    if isinstance(v, str):
        b = v.encode()
        return (bytes([0xa0 | len(b)]) if len(b) < 32 else b"\xd9" + bytes([len(b)])) + b
    if isinstance(v, dict):
        return bytes([0x80 | len(v)]) + b"".join(enc(k) + enc(x) for k, x in v.items())
    return bytes([0x90 | len(v)]) + b"".join(enc(x) for x in v)
with open(sys.argv[1], "ab") as f:
    f.write(enc([3, {"id": 77, "model": "m", "class": "short-short", "prompt_index": 0,
                     "start_ns": 5, "body": "{}", "future_note": "ZQK90 a newer key"}]))
    f.write(enc([42, {"text": "ZQK91 a newer kind"}]))
PY
"$A" dump "$T/v1.ttrace" | grepq -F ZQK90 || fail "the planted key is not in the trace"
"$A" share "$T/v1.ttrace" -o "$T/v1s.ttrace" >"$T/v1s.report" || fail "share v1: $(cat "$T/v1s.report")"
{ cat "$T/v1s.ttrace" "$T/v1s.report"; "$A" dump "$T/v1s.ttrace"; } >"$T/v1s.all"
! grep -aqF -e ZQK90 -e ZQK91 "$T/v1s.all" || fail "a newer key or kind survived share"
grep -q 'dropped: 1 records of kinds this version does not know' "$T/v1s.report" || fail "report: $(cat "$T/v1s.report")"
grep -q 'record members this version has no rule for: [1-9]' "$T/v1s.report" || fail "report: $(cat "$T/v1s.report")"

# --keep-errors keeps the error text (and says so), refused with --anonymize-models
"$A" share "$T/px.ttrace" -o "$T/ke.ttrace" --keep-errors >"$T/ke.report" || fail "--keep-errors"
grep -aqF ZQK27 "$T/ke.ttrace" || fail "--keep-errors did not keep the server's echo"
expect_exit 2 "$A" share "$T/px.ttrace" -o "$T/ke2.ttrace" --keep-errors --anonymize-models 2>/dev/null
echo "share sweep: ${#field[@]} fields, a 16-digit number, a newer key and kind: none survived"
