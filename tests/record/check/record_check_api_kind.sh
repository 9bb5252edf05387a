#!/usr/bin/env bash
# record_check_api_kind: the doctor follows the API kind. A server that
# speaks only OpenAI chat (tests/lib/one_api.py) gets a 404 on
# /v1/messages: --check --api anthropic says the base URL is right and
# suggests --api openai-chat, which then streams; a completions check
# gets the same advice. A model that answers but is not in GET
# /v1/models (tokentrace-replay lists its profile's models and answers
# any name) gets a warning naming the closest listed ones, a listed one
# none. The key appears in no output.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/doctor_lib.sh"

KEY='sk-tt-apikind-SECRET-abcdefghijklmnop'
export TT_KIND_KEY="$KEY"
unset OPENAI_API_KEY OPENAI_BASE_URL ANTHROPIC_API_KEY

pf="$T/one_api.port"
python3 "$TT_SOURCE_DIR/tests/lib/one_api.py" chat >"$pf" 2>"$T/one_api.err" &
TT_PIDS+=("$!")
for _ in $(seq 1 100); do [ -s "$pf" ] && break; sleep 0.05; done
[ -s "$pf" ] || fail "one_api.py did not start: $(cat "$T/one_api.err")"
ONE="http://127.0.0.1:$(head -1 "$pf")"

rec msgs --check -u "$ONE/v1" -m tiny-chat --api anthropic --api-key-env TT_KIND_KEY
expect_rc 1 msgs
has msgs.out "tiny-chat: FAIL wrong-api: not found (HTTP 404): nothing answers at $ONE/v1/messages, but POST $ONE/v1/chat/completions answers (HTTP 200): the server speaks openai-chat, not anthropic"
has msgs.out "fix: add --api openai-chat"
hasnt msgs.out "$KEY"
hasnt msgs.err "$KEY"

rec compl --check -u "$ONE" -m tiny-chat --api openai-completions
expect_rc 1 compl
has compl.out "tiny-chat: FAIL wrong-api: "
has compl.out "the server speaks openai-chat, not openai-completions"
has compl.out "fix: add --api openai-chat"

# the advice works
rec chat --check -u "$ONE" -m tiny-chat --api openai-chat
expect_rc 0 chat
has chat.out "tiny-chat: OK: streams"
hasnt chat.out "warning: GET"

# a 404 about the model is not the API kind's: no kind is suggested
start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=6' --fault http-404@gone
rec gone --check -u "$URL/api" -m gone --api anthropic
expect_rc 1 gone
has gone.out "gone: FAIL unknown-model: "
hasnt gone.out "add --api"

# models: the name the server ignores is not in its list
start_replay --synthetic 'ttft=20ms,tpot=2ms,tokens=6;model=llama-3.1-8b-instruct;model=llama-3.1-70b-instruct;model=qwen2.5-7b'
rec typo --check -u "$URL" -m llama-3.1-8b-instruc
expect_rc 0 typo
has typo.out "llama-3.1-8b-instruc: OK: streams"
has typo.out "warning: GET $URL/v1/models lists 3 models and not 'llama-3.1-8b-instruc' (closest: 'llama-3.1-8b-instruct', 'llama-3.1-70b-instruct'): the server answered anyway"
rec far --check -u "$URL" -m gpt-4o
expect_rc 0 far
has far.out "warning: GET $URL/v1/models lists 3 models and not 'gpt-4o': the server answered anyway"
hasnt far.out "closest"
rec listed --check -u "$URL" -m qwen2.5-7b
expect_rc 0 listed
hasnt listed.out "warning: GET"
echo "record_check_api_kind: ok"
