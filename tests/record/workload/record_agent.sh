#!/usr/bin/env bash
# The built-in agent workload (-w agent, --classes agent; docs/workloads.md):
# sessions of 8-12 turns behind one ~8,000-token system prompt with tool
# definitions, input growing from about 8k to about 30k tokens; the
# default built-in run does not send it; against the replay server's
# prefix cache every later turn finds most of its input cached.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=2ms,ttft_per_1k=2ms,tpot=0,tokens=3,cache=2000000'
"$TT_RECORD" -q -u "$URL" -m m -w agent -n 4 -c 4 -o "$T/a.ttrace" || fail "record"
d=$(dump "$T/a.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.class]|unique|join(",")')" agent "class"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.session]|unique|length')" 4 "sessions"
# 8 to 12 turns each
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|group_by(.session)|map(length)|all(. >= 8 and . <= 12)')" \
    true "turns per session"
# the system prompt: about 8,000 tokens, with the tools
sys=$(jqs "$d" '[.[]|select(.kind=="request" and .turn==1)][0].body|fromjson|.messages[0]')
assert_eq "$(jq -r .role <<<"$sys")" system "first message"
chars=$(jq -r '.content|length' <<<"$sys")
[ "$chars" -ge 28000 ] && [ "$chars" -le 36000 ] || fail "system prompt of $chars characters"
for tool in read_file write_to_file replace_in_file execute_command search_files list_files attempt_completion; do
    jq -e --arg t "## $tool" '.content|contains($t)' <<<"$sys" >/dev/null || fail "no $tool in the system prompt"
done
# input grows from ~8k to ~30k tokens (estimate: characters / 4)
first=$(jqs "$d" '[.[]|select(.kind=="request" and .turn==1)|.input_tokens_est]|min')
last=$(jqs "$d" '[.[]|select(.kind=="request")]|group_by(.session)|map(max_by(.turn).input_tokens_est)|min')
[ "$first" -ge 7000 ] && [ "$first" -le 11000 ] || fail "turn 1 input $first tokens"
[ "$last" -ge 22000 ] && [ "$last" -le 34000 ] || fail "last turn input $last tokens"
# a tool result of a few thousand tokens and a short answer in the history
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|max_by(.input_tokens_est).body|fromjson|.messages|map(select(.role=="user")|.content|length)|max > 8000')" \
    true "a tool result of thousands of tokens"
# the later turns find their input cached
"$TT_ANALYZE" summary "$T/a.ttrace" --by turn --format json >"$T/a.json" || fail "summary"
assert_eq "$(jq '[.groups[]|select(.turn != "1")|.cached_tokens.p50 / .input_tokens.p50]|min > 0.5' "$T/a.json")" \
    true "later turns mostly cached"
# --classes agent is the same; the default built-in run leaves it out
"$TT_RECORD" -q -u "$URL" -m m --classes agent -n 1 -o "$T/c.ttrace" || fail "--classes agent"
assert_eq "$(jqs "$(dump "$T/c.ttrace")" '[.[]|select(.kind=="request")|.class]|unique|join(",")')" agent "--classes agent"
"$TT_RECORD" -q -u "$URL" -m m -n 1 -o "$T/b.ttrace" || fail "builtin"
assert_eq "$(jqs "$(dump "$T/b.ttrace")" '[.[]|select(.kind=="request")|.class]|unique|join(",")')" \
    "long-short,short-long,short-short" "default classes"
echo ok
