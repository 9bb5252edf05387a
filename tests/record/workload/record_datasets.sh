#!/usr/bin/env bash
# Datasets people already have, loaded with -w and sent against the replay
# server: a ShareGPT JSON array (the first human turn of each conversation,
# max_tokens from the reply, entries without a human turn skipped with a
# note), OpenAI chat JSONL (messages up to the last user message) and
# --workload-format; malformed files are refused with exit 2, naming the
# file and the entry (and its byte offset) or the line; the header says
# the format.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=2ms,tpot=1ms,tokens=64'

cat >"$T/sg.json" <<'JSON'
[
  {"id": "a", "conversations": [
    {"from": "human", "value": "What is a mutex?"},
    {"from": "gpt", "value": "A lock that one thread holds at a time."},
    {"from": "human", "value": "And a semaphore?"},
    {"from": "gpt", "value": "A counter."}]},
  {"id": "b", "conversations": []},
  {"id": "c", "conversations": [
    {"from": "system", "value": "Answer in French."},
    {"from": "human", "value": "Hello \"world\" \u00e9"},
    {"from": "gpt", "value": "Bonjour"}]}
]
JSON
"$TT_RECORD" -u "$URL" -m m -w "$T/sg.json" -n 2 -o "$T/sg.ttrace" 2>"$T/sg.err" || fail "sharegpt: exit $?: $(cat "$T/sg.err")"
grep -qF "sg.json: 1 entry without a user turn (nothing to send) skipped" "$T/sg.err" || fail "no skipped note: $(cat "$T/sg.err")"
d=$(dump "$T/sg.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|"\(.workload) \(.options.workload_format) \(.options.workload_skipped)"')" \
    "$T/sg.json sharegpt 1" "header"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map("\(.class):\(.prompt_index):\(.max_tokens)")|join(" ")')" \
    "sharegpt:0:9 sharegpt:2:1" "classes, entries and max_tokens from the replies"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map(.body|fromjson|.messages|map("\(.role)=\(.content)")|join("|"))|join(" / ")')" \
    'user=What is a mutex? / system=Answer in French.|user=Hello "world" é' "the first human turn (and the system turn before it)"
assert_eq "$(jqs "$d" 'map(select(.kind=="result" and .error_kind==null))|length')" 2 "sent and answered"

# --dataset-sessions: each conversation a session, every turn, the file's
# replies as the history (--history recorded); two replies in a row are
# not a session (skipped)
cat >"$T/ses.json" <<'JSON'
[{"conversations": [{"from": "human", "value": "q1"}, {"from": "gpt", "value": "a1"},
                    {"from": "human", "value": "q2"}, {"from": "gpt", "value": "a2"}]},
 {"conversations": [{"from": "human", "value": "x"}, {"from": "gpt", "value": "y"}, {"from": "gpt", "value": "z"}]},
 {"conversations": [{"from": "system", "value": "S"}, {"from": "human", "value": "hi"}, {"from": "gpt", "value": "yo"}]}]
JSON
"$TT_RECORD" -u "$URL" -m m -w "$T/ses.json" --dataset-sessions --history recorded -n 2 \
    -o "$T/ses.ttrace" 2>"$T/ses.err" || fail "sessions: exit $?: $(cat "$T/ses.err")"
grep -qF "ses.json: 1 entry without a user turn (nothing to send) skipped (or with assistant turns in a row" "$T/ses.err" ||
    fail "sessions: no skipped note: $(cat "$T/ses.err")"
d=$(dump "$T/ses.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map("\(.prompt_index):\(.turn):\(.body|fromjson|.messages|map(.content)|join(","))")|join(" ")')" \
    "0:1:q1 0:2:q1,a1,q2 2:1:S,hi" "sessions: turns with the recorded history"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m --dataset-sessions -o "$T/x.ttrace"

# OpenAI chat JSONL: up to the last user message; through stdin
cat >"$T/chat.jsonl" <<'JSONL'
{"messages": [{"role": "system", "content": "S"}, {"role": "user", "content": "first"}, {"role": "assistant", "content": "r1"}, {"role": "user", "content": "second"}, {"role": "assistant", "content": "0123456789abcdefghij"}]}

{"messages": [{"role": "user", "content": "only"}]}
JSONL
"$TT_RECORD" -q -u "$URL" -m m -w - -n 2 -o "$T/chat.ttrace" <"$T/chat.jsonl" || fail "chat jsonl: exit $?"
d=$(dump "$T/chat.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.workload_format')" openai-jsonl "chat format"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map("\(.class):\(.prompt_index):\(.max_tokens):\(.body|fromjson|.messages|map(.content)|join(","))")|join(" ")')" \
    "chat:0:5:S,first,r1,second chat:2:-1:only" "chat items"
# the Responses API gets the same turns as "input"
"$TT_RECORD" -q -u "$URL" -m m --api openai-responses -w "$T/chat.jsonl" -n 1 -o "$T/resp.ttrace" || fail "responses: exit $?"
d=$(dump "$T/resp.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="request")|.body|fromjson|"\(.input|map(.role)|join(",")) \(.max_output_tokens)"')" \
    "system,user,assistant,user 5" "responses input"

# --workload-format forces; a wrong one says why
"$TT_RECORD" -q -u "$URL" -m m -w "$T/sg.json" --workload-format sharegpt -n 1 -o "$T/f.ttrace" || fail "forced: exit $?"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m -w "$T/sg.json" --workload-format tokentrace -o "$T/x.ttrace"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m -w "$T/chat.jsonl" --workload-format sharegpt -o "$T/x.ttrace"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m -w "$T/chat.jsonl" --workload-format csv -o "$T/x.ttrace"
expect_exit 2 "$TT_RECORD" -q -u "$URL" -m m --workload-format sharegpt -o "$T/x.ttrace"

# malformed: file, entry and byte offset (array) or line (JSONL); nothing recorded
bad() { # FILE WANT: exit 2 and WANT in the message
    set +e
    "$TT_RECORD" -q -u "$URL" -m m -w "$1" -o "$T/bad.ttrace" 2>"$T/bad.err"
    local rc=$?
    set -e
    assert_eq "$rc" 2 "exit for $(basename "$1")"
    grep -qF -- "$2" "$T/bad.err" || fail "$(basename "$1"): '$(cat "$T/bad.err")' lacks '$2'"
    [ ! -e "$T/bad.ttrace" ] || fail "$(basename "$1"): a trace was written"
}
printf '[{"conversations":[{"from":"human","value":"a"}]},\n {"conversations":[{"from":"human","value":7}]}]\n' >"$T/b1.json"
bad "$T/b1.json" "b1.json: entry 1 (byte 52): turn 1: \"value\" must be a string"
printf '[{"conversations":[{"from":"human","value":"a"}]}\n {"conversations":[]}]' >"$T/b2.json"
bad "$T/b2.json" "b2.json: byte 51: expected ',' or ']' after entry 0"
head -c 70 "$T/sg.json" >"$T/b3.json"
bad "$T/b3.json" "b3.json: entry 0 (byte 4): the file ends inside this entry"
printf '{"messages":[{"role":"user","content":"a"}]}\n{"messages":[{"role":"user","content":"b"}\n' >"$T/b4.jsonl"
bad "$T/b4.jsonl" "b4.jsonl:2: not valid JSON"

# text a request cannot carry, per entry: "a\u0000b" was sent as "a"; one
# lone \ud800 refused the whole file. Now that entry alone is skipped, named
cat >"$T/txt.json" <<'JSON'
[
  {"conversations": [{"from": "human", "value": "fine one"}]},
  {"conversations": [{"from": "human", "value": "a\u0000b"}]},
  {"conversations": [{"from": "human", "value": "x\ud800y"}]},
  {"conversations": [{"from": "human", "value": "pair \ud83d\ude00 ok"}]}
]
JSON
"$TT_RECORD" -u "$URL" -m m -w "$T/txt.json" -n 5 -o "$T/txt.ttrace" 2>"$T/txt.err" || fail "text: exit $?: $(cat "$T/txt.err")"
grep -qF 'txt.json: entry 1 (byte 67): a \u0000 in a string' "$T/txt.err" || fail "\\u0000 not named: $(cat "$T/txt.err")"
grep -qF '2 entries whose text no request can carry' "$T/txt.err" || fail "count: $(cat "$T/txt.err")"
d=$(dump "$T/txt.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|"\(.options.workload_skipped) \(.options.workload_unsendable)"')" "2 2" "skipped in the header"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.body|fromjson|.messages[-1].content]|unique|join("|")')" "fine one|pair 😀 ok" "the others sent whole"
printf '{"messages":[{"role":"user","content":"ok"}]}\n{"messages":[{"role":"user","content":"x\\udc00"}]}\n' >"$T/txt.jsonl"
"$TT_RECORD" -u "$URL" -m m -w "$T/txt.jsonl" -n 1 -o "$T/txtl.ttrace" 2>"$T/txtl.err" || fail "jsonl text: exit $?"
grep -qF 'txt.jsonl:2: a lone UTF-16 surrogate \udc00 (no first half) (at column 41)' "$T/txtl.err" || fail "jsonl: $(cat "$T/txtl.err")"
# tokentrace's own lines are refused, naming the line and column
printf '{"class":"c","messages":[{"role":"user","content":"a\\u0000b"}]}\n' >"$T/tt.jsonl"
bad "$T/tt.jsonl" 'tt.jsonl:1: a \u0000 in a string (a request cannot carry a NUL) (at column 53)'
# OpenAI's own form: an assistant message with tool_calls and content null
printf '%s\n' '{"class":"tc","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]}' \
    '{"class":"tc","conversation":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"r"},{"role":"assistant","content":"done"}]}' >"$T/tc.jsonl"
"$TT_RECORD" -q -u "$URL" -m m -w "$T/tc.jsonl" -n 2 -o "$T/tc.ttrace" || fail "content null with tool_calls refused"
d=$(dump "$T/tc.ttrace")
jqs "$d" '[.[]|select(.kind=="request")|.body|fromjson|.messages[1]|select(.content==null and (.tool_calls|length)==1)]|length==1' | grepq true ||
    fail "the tool-call message was not sent as given"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|length')" "3" "the line and the session's two turns"
printf '{"class":"c","messages":[{"role":"user","content":null}]}\n' >"$T/nc.jsonl"
bad "$T/nc.jsonl" 'nc.jsonl:1: each message needs a "content" string or array (null only in an assistant message with "tool_calls")'
echo ok
