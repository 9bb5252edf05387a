#!/usr/bin/env bash
# record_cline_print: --print-cline-settings prints, labelled, the `cline
# auth` command, the providers.json fragment and the extension's settings
# screen fields for the Cline of today (as comments), then the seed's
# settings.json skeleton that parses as JSON once comments are stripped,
# holds "${env:VAR}" for the key and a generous timeout, and round-trips
# through --cline-settings to the same endpoint as -u; so does the
# providers.json fragment. tokentrace-proxy --print-cline-settings prints
# the one command that points Cline at the proxy. No key is printed.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"

KEY='sk-tt-print-SECRET-0123456789abcdef'
export GW_KEY="$KEY"
unset OPENAI_API_KEY OPENAI_BASE_URL
start_replay --expect-key-env GW_KEY --synthetic 'ttft=30ms,tpot=2ms,tokens=8'

# strip FILE: the file without // comment lines (what VS Code ignores).
strip() { sed 's#^[[:space:]]*//.*##' "$1"; }

rec print --print-cline-settings -u "$URL/api/" -m model-a -m model-b \
    --api-key-env GW_KEY
expect_rc 0 print
[ -s "$T/print.err" ] && fail "stderr not empty: $(cat "$T/print.err")"
strip "$T/print.out" | jq -e . >"$T/print.json" || fail "skeleton is not JSON: $(cat "$T/print.out")"
assert_eq "$(jq -r '."cline.apiProvider"' "$T/print.json")" openai provider
assert_eq "$(jq -r '."cline.openAiBaseUrl"' "$T/print.json")" "$URL/api/v1" base
assert_eq "$(jq -r '."cline.openAiApiKey"' "$T/print.json")" '${env:GW_KEY}' key
assert_eq "$(jq -r '."cline.openAiModelId"' "$T/print.json")" model-a model
[ "$(jq -r '."cline.requestTimeoutMs"' "$T/print.json")" -ge 300000 ] || fail "timeout not generous"
assert_eq "$(jq -r 'keys|length' "$T/print.json")" 5 "keys without --max-tokens"
has print.out "export GW_KEY=<your key>"
has print.out '// other models to try: "model-b"'
has print.out "tokentrace-record --check --cline-settings"
hasnt print.out "$KEY"
# the forms of Cline's own store, each labelled
has print.out "// 1. Cline CLI (npm cline): one command writes Cline's"
has print.out "//   cline auth -p openai-compatible -k \"\$GW_KEY\" -m 'model-a' -b '$URL/api/v1'"
has print.out "// 2. The providers.json it writes"
has print.out "// 3. VS Code extension, settings screen, API Provider \"OpenAI Compatible\":"
has print.out "//    Base URL: $URL/api/v1"
has print.out "//    API Key:  the key in \$GW_KEY (paste it; not printed)"
has print.out "//    Model ID: \"model-a\""
has print.out "// 4. The seed's VS Code settings.json form"
# the providers.json fragment, uncommented, with the key filled in, is a
# file --cline-settings reads to the same endpoint
sed -n '/^\/\/ 2\./,/^\/\/ 3\./p' "$T/print.out" | sed '1,2d;$d' | sed 's#^//  *##' |
    sed "s#<the key in \$GW_KEY>#$KEY#" >"$T/providers.json"
jq -e . "$T/providers.json" >/dev/null || fail "providers.json fragment: $(cat "$T/providers.json")"
rec viaprov --check --cline-settings "$T/providers.json"
expect_rc 0 viaprov
has viaprov.out "endpoint: POST $URL/api/v1/chat/completions"
has viaprov.out "model-a: OK: streams"
hasnt viaprov.out "$KEY"
hasnt viaprov.err "$KEY"
# a model name a shell would split is quoted for it
rec shq --print-cline-settings -u "$URL" -m "it's a model"
has shq.out "-m 'it'\\''s a model'"

# the proxy: one command points Cline at it
"$TT_PROXY" --print-cline-settings -u "$URL" --listen 127.0.0.1:8123 >"$T/px.out" 2>"$T/px.err" ||
    fail "proxy --print-cline-settings: $(cat "$T/px.err")"
has px.out "//   cline auth -p openai-compatible -k \"\$OPENAI_API_KEY\" -m MODEL_ID -b 'http://127.0.0.1:8123/v1'"
has px.out "API Provider \"OpenAI Compatible\": Base URL http://127.0.0.1:8123/v1"
"$TT_PROXY" --print-cline-settings -u "$URL" --listen 127.0.0.1:8123 --key-env GW_KEY >"$T/pxk.out" 2>/dev/null
has pxk.out "-k proxy-injects-the-key"
hasnt pxk.out "$KEY"

# Round trip: the printed file checks the same endpoint as -u does.
cp "$T/print.out" "$T/cline.json"
rec viafile --check --cline-settings "$T/cline.json"
expect_rc 0 viafile
rec viaflag --check -u "$URL/api" -m model-a --api-key-env GW_KEY
expect_rc 0 viaflag
ep() { sed -n 's/^endpoint: POST \([^ ]*\) .*/\1/p' "$T/$1.out"; }
assert_eq "$(ep viafile)" "$(ep viaflag)" "endpoint via the file"
assert_eq "$(ep viafile)" "$URL/api/v1/chat/completions" "endpoint"
has viafile.out "model-a: OK: streams"
has viafile.out 'key: $GW_KEY (set, 35 characters)'

# --max-tokens goes into openAiModelInfo; a base that ends in /v1 gets no
# second /v1; the default variable is OPENAI_API_KEY.
rec maxtok --print-cline-settings -u "$URL/gw/v1/" -m m1 --max-tokens 2048
expect_rc 0 maxtok
strip "$T/maxtok.out" | jq -e . >"$T/maxtok.json" || fail "not JSON"
assert_eq "$(jq -r '."cline.openAiModelInfo".maxTokens' "$T/maxtok.json")" 2048 maxTokens
assert_eq "$(jq -r '."cline.openAiBaseUrl"' "$T/maxtok.json")" "$URL/gw/v1" "base with /v1"
assert_eq "$(jq -r '."cline.openAiApiKey"' "$T/maxtok.json")" '${env:OPENAI_API_KEY}' "default variable"
cp "$T/maxtok.out" "$T/maxtok-settings.json"
OPENAI_API_KEY="$KEY" rec maxtok_check --check --cline-settings "$T/maxtok-settings.json"
expect_rc 0 maxtok_check
has maxtok_check.out "endpoint: POST $URL/gw/v1/chat/completions"

# A model name with quotes stays valid JSON.
rec quoted --print-cline-settings -u "$URL" -m 'we"ird\model'
expect_rc 0 quoted
strip "$T/quoted.out" | jq -e . >"$T/quoted.json" || fail "quoted name broke the JSON"
assert_eq "$(jq -r '."cline.openAiModelId"' "$T/quoted.json")" 'we"ird\model' "quoted model"

# Usage errors: not the OpenAI Compatible API, a refused URL, no model.
rec anth --print-cline-settings -u "$URL" -m m --api anthropic
expect_rc 2 anth
has anth.err "OpenAI Compatible provider"
rec query --print-cline-settings -u "$URL/api?utm_source=x" -m m
expect_rc 2 query
has query.err "Use: $URL/api"
rec nomodel --print-cline-settings -u "$URL"
expect_rc 2 nomodel
rec both --print-cline-settings --check -u "$URL" -m m
expect_rc 2 both
echo "record_cline_print: ok"
