#!/usr/bin/env bash
# The API key reaches the server (Bearer for OpenAI kinds, x-api-key for
# anthropic, from the chosen variable) and never reaches the trace, stdout or
# stderr, even when it is repeated on the command line by mistake. Without a
# key: no auth header, one warning.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

export TT_TEST_KEY="sk-test-SECRET$RANDOM-k3y-do-not-leak"
SECRET_WORD=SECRET
start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=5' --expect-key-env TT_TEST_KEY

# no_leak FILE...: the key (or its distinctive part) is in none of them
no_leak() {
    local f
    for f in "$@"; do
        assert_eq "$(grep -c -a "$SECRET_WORD" "$f" || true)" 0 "key in $(basename "$f")"
    done
}

# OpenAI chat, key in OPENAI_API_KEY, trace to a file; the key is also
# slipped into a label and the extra body, where it must be redacted.
OPENAI_API_KEY=$TT_TEST_KEY "$TT_RECORD" -u "$URL" -m a -n 2 --classes short-short \
    --label "note=$TT_TEST_KEY" --extra-body "{\"user\":\"$TT_TEST_KEY\"}" \
    -o "$T/chat.ttrace" >"$T/chat.out" 2>"$T/chat.err" || fail "chat exit $?: $(cat "$T/chat.err")"
d=$(dump "$T/chat.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.http_status]|unique|join(",")')" 200 "bearer key accepted"
no_leak "$T/chat.ttrace" "$d" "$T/chat.out" "$T/chat.err"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.labels.note')" "[redacted]" "label redacted"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.auth')" bearer "auth option"
assert_eq "$(jqs "$d" '.[]|select(.kind=="request" and .id==1)|.body|fromjson|.user')" "[redacted]" "key in body redacted"
jqs "$d" '.[]|select(.kind=="header")|.command_line' | grepq -- "--label 'note=\[redacted\]'" || fail "command line not redacted"

# trace on stdout
OPENAI_API_KEY=$TT_TEST_KEY "$TT_RECORD" -u "$URL" -m a -n 1 --classes short-short \
    -o - >"$T/stdout.ttrace" 2>"$T/stdout.err" || fail "stdout exit $?"
no_leak "$T/stdout.ttrace" "$T/stdout.err"
assert_eq "$(jqs "$(dump "$T/stdout.ttrace")" '.[]|select(.kind=="result")|.http_status')" 200 "stdout run accepted"

# anthropic: x-api-key from ANTHROPIC_API_KEY
ANTHROPIC_API_KEY=$TT_TEST_KEY "$TT_RECORD" -q -u "$URL" -m a -n 1 --classes short-short \
    --api anthropic -o "$T/anth.ttrace" 2>"$T/anth.err" || fail "anthropic exit $?"
d=$(dump "$T/anth.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|.http_status')" 200 "x-api-key accepted"
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.auth')" x-api-key "anthropic auth option"
no_leak "$T/anth.ttrace" "$T/anth.err"
# anthropic falls back to OPENAI_API_KEY
OPENAI_API_KEY=$TT_TEST_KEY "$TT_RECORD" -q -u "$URL" -m a -n 1 --classes short-short \
    --api anthropic -o "$T/anth2.ttrace" || fail "anthropic fallback exit $?"

# --api-key-env picks another variable
env -u OPENAI_API_KEY MY_GATEWAY_KEY=$TT_TEST_KEY "$TT_RECORD" -q -u "$URL" -m a -n 1 \
    --classes short-short --api-key-env MY_GATEWAY_KEY -o "$T/env.ttrace" || fail "--api-key-env exit $?"
d=$(dump "$T/env.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.api_key_env')" MY_GATEWAY_KEY "key variable recorded"
no_leak "$T/env.ttrace"

# a wrong key: 401s, exit 1, the key (wrong or right) is nowhere
OPENAI_API_KEY="sk-wrong-${SECRET_WORD}-1234567" "$TT_RECORD" -u "$URL" -m a -n 2 --classes short-short \
    -o "$T/wrong.ttrace" >"$T/wrong.out" 2>"$T/wrong.err" && fail "wrong key: exit 0"
d=$(dump "$T/wrong.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind]|unique|join(",")')" http_401 "wrong key kind"
no_leak "$T/wrong.ttrace" "$T/wrong.out" "$T/wrong.err"

# no key at all: no auth header (401 from this server), one warning
env -u OPENAI_API_KEY "$TT_RECORD" -u "$URL" -m a -n 3 --classes short-short \
    -o "$T/nokey.ttrace" 2>"$T/nokey.err" && fail "no key: exit 0"
# a server on this machine (127.0.0.1) usually wants no key: no warning
assert_eq "$(grep -c "warning: no API key in \$OPENAI_API_KEY" "$T/nokey.err")" 0 "no no-key warning on loopback"
# a remote one: the warning, once (the name never resolves: .invalid)
env -u OPENAI_API_KEY "$TT_RECORD" -u "http://tokentrace-test.invalid" -m a -n 3 --classes short-short \
    --connect-timeout 5 -o "$T/nokey-remote.ttrace" 2>"$T/nokey-remote.err" && fail "remote no key: exit 0"
assert_eq "$(grep -c "warning: no API key in \$OPENAI_API_KEY" "$T/nokey-remote.err")" 1 "no-key warning once"
assert_eq "$(jqs "$(dump "$T/nokey.ttrace")" '.[]|select(.kind=="header")|.options.auth')" none "no auth"

# a key on the command line is refused without being repeated
expect_exit 2 "$TT_RECORD" -u "$URL" -m a --api-key "sk-cli-${SECRET_WORD}-99999999" 2>"$T/cli.err"
no_leak "$T/cli.err"
expect_exit 2 "$TT_RECORD" -u "$URL" -m a "--api-key=sk-cli-${SECRET_WORD}-99999999" 2>"$T/cli2.err"
no_leak "$T/cli2.err"
expect_exit 2 "$TT_RECORD" -u "$URL" -m a --api-key-env "sk-cli-${SECRET_WORD}-99999999" 2>"$T/cli3.err"
no_leak "$T/cli3.err"
# a key with a line break would inject headers: refused, not shown
OPENAI_API_KEY=$'sk-a\r\nX-Evil: 1' expect_exit 2 "$TT_RECORD" -u "$URL" -m a -o "$T/evil.ttrace" 2>"$T/evil.err"
grep -q "line break" "$T/evil.err" || fail "no reason for a bad key"
grep -q "Evil" "$T/evil.err" && fail "bad key echoed"
echo ok
