#!/usr/bin/env bash
# record_check_http: --check verdicts for what a gateway answers instead of
# a stream, each driven by a replay-server fault: query string (refused,
# corrected URL, nothing sent), HTML page, 401 (no key / empty variable /
# wrong key / 'Bearer ' inside the key), 403, 404 (unknown model, with the
# gateway's list), 429 with Retry-After, a non-streamed JSON reply, 500.
# Every one exits 1; the key appears in no output.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"

KEY='sk-tt-http-SECRET-abcdefghijklmnop'
export TT_GW_KEY="$KEY"
unset OPENAI_API_KEY OPENAI_BASE_URL
start_replay --synthetic 'ttft=30ms,tpot=2ms,tokens=8;model=gpt-4o-mini' \
    --fault html@web --fault http-403@blocked --fault http-404@gpt-4o-mni \
    --fault http-429@busy --fault no-stream@buffered --fault http-500@broken

# A query string is refused with the corrected URL, and nothing is sent.
rec query --check -u "$URL/api/?utm_source=newsletter&utm_medium=email" -m good
expect_rc 1 query
has query.out "base URL: FAIL url-query: the base URL has a query string (?utm_source=newsletter&utm_medium=email)"
has query.out "fix: use the base URL without it: -u $URL/api"
has query.out "nothing was sent"
# the stats request itself is the only one the server saw
assert_eq "$(curl -s "$URL/_replay/stats" | jq .requests)" 1 "requests sent after a refused URL"

# verdict NAME MODEL ID TEXT...: a --check of MODEL fails with verdict ID,
# and the output holds every TEXT.
verdict() {
    local name=$1 model=$2 id=$3; shift 3
    rec "$name" --check -u "$URL/api" -m "$model" --api-key-env TT_GW_KEY
    expect_rc 1 "$name"
    has "$name.out" "$model: FAIL $id: "
    for text in "$@"; do has "$name.out" "$text"; done
    has "$name.out" "  fix: "
    has "$name.out" "result: 0 of 1 model stream"
    hasnt "$name.out" "$KEY"
    hasnt "$name.err" "$KEY"
}

verdict html web html "HTML page instead of JSON (HTTP 200, page title \"Welcome\")" \
    "the base URL points at a website, not at the API" "API base URL from the gateway's docs"
verdict forbidden blocked forbidden "forbidden (HTTP 403)" "out of quota or credit" \
    "the server says: \"Your API key is disabled or out of quota\"" "balance"
verdict model gpt-4o-mni unknown-model "unknown model (HTTP 404): the gateway does not know 'gpt-4o-mni'" \
    "the gateway lists 1 model: gpt-4o-mini (did you mean 'gpt-4o-mini'?)"
verdict busy busy rate-limited "rate-limited (HTTP 429, Retry-After: 2 s)" "wait 2 s and check again"
verdict buffered buffered not-streamed "not streamed: HTTP 200 with one JSON reply to \"stream\": true" \
    "(8 tokens): TTFT cannot be measured" "turn streaming on"
verdict broken broken server-error "server error (HTTP 500)"

# 401: the key variable is named, and whether it was set, empty or wrong.
start_replay --synthetic 'ttft=30ms,tpot=2ms,tokens=8' --expect-key-env TT_GW_KEY
rec nokey --check -u "$URL/api" -m good --api-key-env TT_UNSET_KEY
expect_rc 1 nokey
has nokey.out 'key: $TT_UNSET_KEY is not set: no auth header is sent'
has nokey.out 'good: FAIL auth-no-key: unauthorized (HTTP 401): no key was sent, $TT_UNSET_KEY is not set'
has nokey.out 'fix: export TT_UNSET_KEY=<your gateway key>'
TT_EMPTY_KEY='' rec empty --check -u "$URL/api" -m good --api-key-env TT_EMPTY_KEY
expect_rc 1 empty
has empty.out '$TT_EMPTY_KEY is set but empty'
OPENAI_API_KEY='sk-wrong-key-0000000000000000' rec wrong --check -u "$URL/api" -m good
expect_rc 1 wrong
has wrong.out 'good: FAIL auth: unauthorized (HTTP 401): the gateway refused the key from $OPENAI_API_KEY (set, 29 characters, sent as '"'"'Authorization: Bearer <key>'"'"')'
has wrong.out "copy it again from the gateway's console into \$OPENAI_API_KEY"
hasnt wrong.out 'sk-wrong-key'
TT_BEARER_KEY="Bearer $KEY" rec bearer --check -u "$URL/api" -m good --api-key-env TT_BEARER_KEY
expect_rc 1 bearer
has bearer.out "warning: the key starts with 'Bearer '"
has bearer.out "good: FAIL auth-bearer: "
has bearer.out "store only the key itself in \$TT_BEARER_KEY, without 'Bearer '"
hasnt bearer.out "$KEY"
# and with the right key it streams
rec right --check -u "$URL/api" -m good --api-key-env TT_GW_KEY
expect_rc 0 right
has right.out "good: OK: streams"
for f in "$T"/*.out "$T"/*.err; do
    if grep -qF "$KEY" "$f"; then fail "the key is in $f"; fi
done
echo "record_check_http: ok"
