#!/usr/bin/env bash
# --extra-body cannot make the trace lie: the keys the trace labels a
# request with (model, stream, messages, prompt) are refused with exit 2
# and a message naming the flag to use, before anything is sent or written;
# a max_tokens / max_completion_tokens it sets is what the request records
# carry; other keys still merge.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

unset OPENAI_BASE_URL OPENAI_API_KEY
mkdir -p "$T/work"
refused() { # KEY WANT BODY
    (cd "$T/work" && expect_exit 2 "$TT_RECORD" -u http://127.0.0.1:9 -m a --extra-body "$3" 2>"$T/e.err")
    head -1 "$T/e.err" | grepq -F -- "--extra-body: \"$1\" is the recorder's: " ||
        fail "$3: $(cat "$T/e.err")"
    head -1 "$T/e.err" | grepq -F -- "$2" || fail "$3: lacks '$2': $(cat "$T/e.err")"
    [ -z "$(ls -A "$T/work")" ] || fail "$3: files written"
}
refused model "name the model with -m MODEL" '{"model":"other"}'
refused model "name the model with -m MODEL" '{"temperature":0,"model":null}'
refused stream "always sends \"stream\": true" '{"stream":false}'
refused messages "the prompt comes from the workload" '{"messages":[]}'
refused prompt "the prompt comes from the workload" '{"prompt":"hi"}'

start_replay --synthetic 'ttft=2ms,tpot=1ms,tokens=3'
for k in max_tokens max_completion_tokens; do
    "$TT_RECORD" -q -u "$URL" -m a -n 1 --classes short-short --extra-body "{\"$k\":7,\"top_p\":1}" \
        -o "$T/$k.ttrace" || fail "$k: exit $?"
    d=$(dump "$T/$k.ttrace")
    assert_eq "$(jqs "$d" '.[]|select(.kind=="request")|"\(.max_tokens) \(.model) \(.body|fromjson|.top_p)"')" \
        "7 a 1" "$k relabels the request record"
done
echo ok
