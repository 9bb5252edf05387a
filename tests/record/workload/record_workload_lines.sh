#!/usr/bin/env bash
# A -w file with more lines in a class than -n sends only each class's
# first -n lines: the recorder says how many lines are never sent (and
# which -n sends them all) before it starts; it says nothing when every
# line is sent, and the requests are the ones docs/recording.md promises.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

for i in 1 2 3 4 5 6; do echo "{\"class\":\"chat\",\"prompt\":\"chat $i\"}"; done >"$T/wl.jsonl"
echo '{"class":"code","prompt":"code 1"}' >>"$T/wl.jsonl"
echo '{"class":"code","prompt":"code 2"}' >>"$T/wl.jsonl"
start_replay --synthetic 'ttft=1ms,tpot=1ms,tokens=2'

"$TT_RECORD" -u "$URL" -m a -m b -w "$T/wl.jsonl" -n 2 -o "$T/n2.ttrace" 2>"$T/n2.err" || fail "n2: exit $?"
grep -qF "wl.jsonl: 4 lines are never sent: -n 2 sends the first 2 lines of each class to each model, and 1 class has more (class 'chat' has 6;" "$T/n2.err" ||
    fail "no note: $(cat "$T/n2.err")"
grep -qF -- "-n 6 sends every line" "$T/n2.err" || fail "no -n to send all"
d=$(dump "$T/n2.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|"\(.class_name // .class):\(.prompt_index)"]|unique|join(" ")')" \
    "chat:0 chat:1 code:6 code:7" "the lines sent"

"$TT_RECORD" -q -u "$URL" -m a -w "$T/wl.jsonl" -n 1 -o "$T/q.ttrace" 2>"$T/q.err" || fail "q"
[ ! -s "$T/q.err" ] || fail "-q printed: $(cat "$T/q.err")"
"$TT_RECORD" -u "$URL" -m a -w "$T/wl.jsonl" -n 6 -o "$T/n6.ttrace" 2>"$T/n6.err" || fail "n6"
if grep -q "never sent" "$T/n6.err"; then fail "n6: noted though every line is sent"; fi
"$TT_RECORD" -u "$URL" -m a -w "$T/wl.jsonl" -n 9 -o "$T/n9.ttrace" 2>"$T/n9.err" || fail "n9"
if grep -q "never sent" "$T/n9.err"; then fail "n9: noted though it cycles"; fi
echo ok
