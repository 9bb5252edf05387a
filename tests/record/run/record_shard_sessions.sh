#!/usr/bin/env bash
# --shard I/N with a session workload: the union of three shards' sessions
# is the one process's, session for session (the id, the model, the turns,
# the think time drawn before each turn, the first turn's body), so shards'
# traces merged never mix two sessions. The workload mixes sessions with
# single requests, so a shard's ids count the slots of the other shards.
# --procs (local shards joined into one file) gives the same sessions.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

cat >"$T/w.jsonl" <<'JSONL'
{"class":"chat","conversation":[{"role":"user","content":"one"},{"role":"assistant","content":"a"},{"role":"user","content":"two"}]}
{"class":"chat","prompt":"a single request between the sessions"}
{"class":"chat","conversation":[{"role":"user","content":"three"},{"role":"assistant","content":"b"},{"role":"user","content":"four"},{"role":"assistant","content":"c"},{"role":"user","content":"five"}]}
JSONL
start_replay --synthetic 'ttft=2ms,tpot=1ms,tokens=3'
common=(-q -u "$URL" -m a -m b -w "$T/w.jsonl" -n 6 -c 3 --think-time 'exp:20ms' --seed 11)

"$TT_RECORD" "${common[@]}" -o "$T/one.ttrace" || fail "one process exit $?"
for i in 0 1 2; do
    "$TT_RECORD" "${common[@]}" --shard "$i/3" -o "$T/s$i.ttrace" || fail "shard $i exit $?"
done

# one line per session: id model turns think-times first-body
sessions() {
    jq -rs '[.[]|select(.kind=="request" and .session != null)]
        | group_by(.session)[]
        | sort_by(.turn)
        | "\(.[0].session) \(.[0].model) \(length) \(map(.think_ns // 0)|join(",")) \(.[0].body|fromjson|.messages|map(.content)|join("/"))"' "$1"
}
sessions "$(dump "$T/one.ttrace")" | sort >"$T/one.sessions"
for i in 0 1 2; do sessions "$(dump "$T/s$i.ttrace")"; done | sort >"$T/shards.sessions"
# 2 models x 6 slots, two of every three slots a session
assert_eq "$(wc -l <"$T/one.sessions")" 8 "sessions of the one process"
assert_eq "$(cut -d' ' -f1 "$T/one.sessions" | sort -n | paste -sd,)" "1,2,3,4,5,6,7,8" "ids of the one process"
# the think times were drawn (not all 0) and differ between sessions
[ "$(cut -d' ' -f4 "$T/one.sessions" | sort -u | wc -l)" -ge 4 ] || fail "think times: $(cat "$T/one.sessions")"
# no id on two shards
assert_eq "$(cut -d' ' -f1 "$T/shards.sessions" | sort | uniq -d | wc -l)" 0 "an id on two shards"
diff "$T/one.sessions" "$T/shards.sessions" >"$T/sessions.diff" ||
    fail "the shards' sessions are not the one process's: $(head -8 "$T/sessions.diff")"

# --procs 3: the three local shards' traces joined into one, ids unique
"$TT_RECORD" "${common[@]}" --procs 3 -o "$T/p.ttrace" 2>"$T/p.err" || fail "procs exit $?: $(cat "$T/p.err")"
sessions "$(dump "$T/p.ttrace")" | sort >"$T/procs.sessions"
diff "$T/one.sessions" "$T/procs.sessions" >"$T/procs.diff" ||
    fail "--procs sessions differ: $(head -8 "$T/procs.diff")"
echo ok
