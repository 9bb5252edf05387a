#!/usr/bin/env bash
# record_cline_settings: --cline-settings with real VS Code settings files
# (comments, trailing commas, ${env:VAR}, a literal key), the values in the
# trace header with the key redacted, flags winning over the file, Cline's
# base URL semantics, and the errors that name the key and the line: a
# missing variable, a provider that is not OpenAI-compatible, a syntax
# error. The key never appears in stdout, stderr or the trace.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

KEY='sk-tt-cline-SECRET-0123456789abcdef'
export GW_KEY="$KEY"
unset OPENAI_API_KEY OPENAI_BASE_URL
start_replay --expect-key-env GW_KEY --synthetic 'ttft=40ms,tpot=4ms,tokens=64' \
    --fault http-404@model-a-typo

# settings FILE PROVIDER BASE KEY MODEL: a VS Code settings file with
# comments, trailing commas and unrelated settings.
settings() {
    cat >"$1" <<EOF
// VS Code user settings
{
    "editor.fontSize": 14,
    /* Cline, through the gateway */
    "cline.apiProvider": "$2",
    "cline.openAiBaseUrl": "$3", // the OpenAI SDK base
    "cline.openAiApiKey": "$4",
    "cline.openAiModelId": "$5",
    "cline.openAiModelInfo": {
        "maxTokens": 24,
        "supportsImages": false,
    },
    "cline.requestTimeoutMs": 90000,
}
EOF
}

S="$T/settings.json"
settings "$S" openai "$URL/api/v1" '${env:GW_KEY}' model-a
rec check --check --cline-settings "$S"
expect_rc 0 check
has check.out "endpoint: POST $URL/api/v1/chat/completions (openai-chat; base URL from cline.openAiBaseUrl in $S line 6"
has check.out 'key: $GW_KEY (set, 35 characters)'
has check.out "model-a: OK: streams: TTFT"
has check.out "24 tokens (source: usage)" # maxTokens caps the probe's 64
has check.out "hint: ready to record: tokentrace-record --cline-settings $S -o first.ttrace"

# A recording with the file: its values, key redacted, in the header.
rec run --cline-settings "$S" -n 1 --classes short-short -o "$T/run.ttrace" -q
expect_rc 0 run
d=$(dump "$T/run.ttrace")
check_complete "$d" 1
opt() { jqs "$d" ".[]|select(.kind==\"header\")|.options[\"$1\"]"; }
assert_eq "$(opt cline.file)" "$S" "cline.file"
assert_eq "$(opt cline.apiProvider)" openai "cline.apiProvider"
assert_eq "$(opt cline.openAiBaseUrl)" "$URL/api/v1" "cline.openAiBaseUrl"
assert_eq "$(opt cline.openAiApiKey)" '${env:GW_KEY}' "cline.openAiApiKey"
assert_eq "$(opt cline.openAiModelId)" model-a "cline.openAiModelId"
assert_eq "$(opt cline.openAiModelInfo.maxTokens)" 24 "maxTokens"
assert_eq "$(opt cline.requestTimeoutMs)" 90000 "requestTimeoutMs"
assert_eq "$(opt timeout_s)" 90 "timeout from requestTimeoutMs"
assert_eq "$(opt api_key_env)" GW_KEY "api_key_env"
assert_eq "$(jqs "$d" '.[]|select(.kind=="request")|.max_tokens')" 24 "max_tokens sent"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.url')" "$URL/api/v1/chat/completions" "URL"
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|.http_status')" 200 "status"

# Flags win over the file (and say so); the file's typo'd model is not
# used when -m is given.
settings "$T/typo.json" openai "$URL/api/v1" '${env:GW_KEY}' model-a-typo
rec flags --check --cline-settings "$T/typo.json" -m model-b --max-tokens 8
expect_rc 0 flags
has flags.out "model-b: OK: streams: TTFT"
has flags.out "8 tokens (source: usage)"
has flags.err "the command line wins over the file for -m,--max-tokens"
rec typo --check --cline-settings "$T/typo.json"
expect_rc 1 typo
has typo.out "model-a-typo: FAIL unknown-model"

# Cline appends /chat/completions to its base: a base without /v1 gets a
# 404 and the fix names the base to write.
settings "$T/nov1.json" openai "$URL/api" '${env:GW_KEY}' model-a
rec nov1 --check --cline-settings "$T/nov1.json"
expect_rc 1 nov1
has nov1.out "endpoint: POST $URL/api/chat/completions"
has nov1.out "model-a: FAIL wrong-path: not found (HTTP 404)"
has nov1.out "set cline.openAiBaseUrl to $URL/api/v1"

# A literal key works, with a warning; it is redacted in the header and
# never printed or stored.
settings "$T/literal.json" openai "$URL/api/v1" "$KEY" model-a
(unset GW_KEY; rec literal --check --cline-settings "$T/literal.json"
 expect_rc 0 literal
 has literal.err "$T/literal.json:7: cline.openAiApiKey holds the key itself: it works"
 has literal.err '"cline.openAiApiKey": "${env:OPENAI_API_KEY}"'
 has literal.out "key: cline.openAiApiKey in $T/literal.json (set, 35 characters)"
 rec litrun --cline-settings "$T/literal.json" -n 1 --classes short-short \
     -o "$T/literal.ttrace" -q
 expect_rc 0 litrun)
d2=$(dump "$T/literal.ttrace")
assert_eq "$(jqs "$d2" '.[]|select(.kind=="header")|.options["cline.openAiApiKey"]')" "[redacted]" "literal key in header"
assert_eq "$(jqs "$d2" '.[]|select(.kind=="header")|.options.auth')" bearer "auth"
assert_eq "$(jqs "$d2" '.[]|select(.kind=="header")|.options.api_key_env // "none"')" none "no api_key_env for a literal key"

# Errors name the file, the line and the key, exit 2, and show no key.
settings "$T/missing.json" openai "$URL/api/v1" '${env:TT_NOT_SET_VAR}' model-a
rec missing --check --cline-settings "$T/missing.json"
expect_rc 2 missing
has missing.err "$T/missing.json:7: cline.openAiApiKey: \${env:TT_NOT_SET_VAR} but TT_NOT_SET_VAR is not set in this environment"
settings "$T/provider.json" anthropic "$URL/api/v1" '${env:GW_KEY}' model-a
rec provider --check --cline-settings "$T/provider.json"
expect_rc 2 provider
has provider.err "$T/provider.json:5: cline.apiProvider: is \"anthropic\", not an OpenAI-compatible provider"
has provider.err '"cline.apiProvider": "openai"'
settings "$T/syntax.json" openai "$URL/api/v1" '${env:GW_KEY}' model-a
sed -i 's|"cline.openAiModelId": "model-a",|"cline.openAiModelId": "model-a"|' "$T/syntax.json"
rec syntax --check --cline-settings "$T/syntax.json"
expect_rc 2 syntax
has syntax.err "$T/syntax.json:9: syntax error near '\"cline.openAiModelInfo\""
settings "$T/badkey.json" openai "$URL/api/v1" '$GW_KEY' model-a
rec badkey --check --cline-settings "$T/badkey.json"
expect_rc 2 badkey
has badkey.err "$T/badkey.json:7: cline.openAiApiKey: write a variable as \"\${env:NAME}\""
rec nofile --check --cline-settings "$T/nope.json"
expect_rc 2 nofile
has nofile.err "cannot read $T/nope.json"
# a query string in the file's base URL is refused, naming the key
settings "$T/query.json" openai "$URL/api/v1?utm_source=x" '${env:GW_KEY}' model-a
rec query --check --cline-settings "$T/query.json"
expect_rc 1 query
has query.out "fix: use the base URL without it: set cline.openAiBaseUrl to $URL/api/v1"
rec qrun --cline-settings "$T/query.json" -n 1 -o "$T/q.ttrace"
expect_rc 2 qrun
has qrun.err "$T/query.json:6: cline.openAiBaseUrl: the base URL has a query string"

for f in "$T"/*.out "$T"/*.err "$T"/*.ttrace "$T"/*.jsonl; do
    if grep -aqF "$KEY" "$f"; then fail "the key is in $f"; fi
done
echo "record_cline_settings: ok"
