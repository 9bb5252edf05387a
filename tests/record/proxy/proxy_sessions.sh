#!/usr/bin/env bash
# Sessions in captured traffic: Python requests drives multi-turn
# conversations through tokentrace-proxy to tokentrace-replay, interleaved,
# with and without X-Session-Id, and the recorder drives a session
# workload through it. The proxy's trace gives each request the session
# and turn it belongs to and its think time, and summary --by turn reads
# them, and so does the per-turn chart.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=10ms,tpot=1ms,tokens=8'
start_proxy "$T/p.ttrace"

# Python: conversations A and B (chat, no header) interleaved turn by
# turn, each turn's body the history plus the reply the client received;
# C (Anthropic) with a system prompt; H sends fresh messages each time but
# one X-Session-Id; a last request repeats A's first turn (a new session:
# its messages extend nothing).
python3 - "$PXURL" <<'PY'
import json, sys, time, requests
base = sys.argv[1]

def text_of(api, data):
    out = []
    for line in data.decode().splitlines():
        if not line.startswith("data: ") or line == "data: [DONE]":
            continue
        ev = json.loads(line[6:])
        if api == "chat":
            for c in ev.get("choices", []):
                out.append(c.get("delta", {}).get("content") or "")
        elif ev.get("type") == "content_block_delta":
            out.append(ev["delta"].get("text", ""))
    return "".join(out)

def send(api, body, headers=None):
    path = "/v1/chat/completions" if api == "chat" else "/v1/messages"
    with requests.post(base + path, json=body, stream=True, headers=headers or {}) as r:
        assert r.status_code == 200, r.status_code
        return text_of(api, b"".join(r.iter_content(chunk_size=None)))

conv = {"A": [{"role": "system", "content": "be brief"}], "B": [], "C": []}
for turn in range(3):
    for name in ("A", "B", "C"):
        api = "anthropic" if name == "C" else "chat"
        conv[name].append({"role": "user", "content": f"{name} question {turn + 1}"})
        body = {"model": "m", "stream": True, "max_tokens": 8, "messages": conv[name]}
        if api == "anthropic":
            body["system"] = "you are C"
        reply = send(api, body)
        assert reply, name
        conv[name].append({"role": "assistant", "content": reply})
    time.sleep(0.3)  # every conversation thinks at least this long
for turn in range(2):
    send("chat", {"model": "m", "stream": True,
                  "messages": [{"role": "user", "content": f"fresh {turn}"}]},
         {"X-Session-Id": "cline-task-7"})
send("chat", {"model": "m", "stream": True, "messages": conv["A"][:2]})
PY
# the recorder: a 3-turn session workload (history as received)
printf '%s\n' '{"class":"chat","conversation":[{"role":"user","content":"one"},{"role":"assistant","content":"x"},{"role":"user","content":"two"},{"role":"assistant","content":"y"},{"role":"user","content":"three"}]}' >"$T/s.jsonl"
"$TT_RECORD" -u "$PXURL" -m m -w "$T/s.jsonl" -n 1 -c 1 --think-time 200ms \
    -o "$T/rec.ttrace" -q 2>"$T/rec.err" || fail "recorder: $(cat "$T/rec.err")"
stop_proxy
d=$(dump "$T/p.ttrace")
check_complete "$d" 15

# (session, turn) of each request in send order: A B C A B C A B C H H A' R R R
st=$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map("\(.session):\(.turn)")|join(" ")')
assert_eq "$st" "1:1 2:1 3:1 1:2 2:2 3:2 1:3 2:3 3:3 4:1 4:2 5:1 6:1 6:2 6:3" "sessions and turns"
# think times: from turn 2, at least the client's pause, never absurd
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request" and .session<=3 and .turn>=2)|.think_ns>=250000000 and .think_ns<30000000000]|(length==6 and all)')" true "think times of A, B, C"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request" and .turn==1)|has("think_ns")]|any')" false "turn 1 has no think time"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request" and .session==6 and .turn>=2)|.think_ns>=150000000]|(length==2 and all)')" true "think times of the recorder's session"
# think time = this request's start - the previous turn's end
assert_eq "$(jqs "$d" '
  (map(select(.kind=="result"))|map({key:(.id|tostring),value:.end_ns})|from_entries) as $fin
  | [.[]|select(.kind=="request")]|sort_by(.id) as $q
  | [$q[] as $r | $q[] | select(.session==$r.session and .turn==$r.turn-1) | ($r.start_ns - $fin[.id|tostring]) == $r.think_ns]
  | (length==9 and all)')" true "think_ns is the gap from the previous turn's end"

# summary --by turn works on the captured trace
"$TT_ANALYZE" summary "$T/p.ttrace" --by turn --format json >"$T/s.json" || fail "summary --by turn"
assert_eq "$(jq -c '[.groups[]|{t:.turn,n:.requests}]' "$T/s.json")" \
    '[{"t":"1","n":6},{"t":"2","n":5},{"t":"3","n":4}]' "requests per turn"
# and the per-turn chart: a TTFT p50 point for each of turns 1..3
if command -v gnuplot >/dev/null; then
    "$TT_ANALYZE" plot "$T/p.ttrace" -o "$T/plot" >/dev/null 2>"$T/plot.err" || fail "plot: $(cat "$T/plot.err")"
    assert_eq "$(awk '/TTFT p50"$/ {on=1; next} on && NF==2 {printf "%s ", $1}' "$T/plot/turns.dat")" "1 2 3 " "per-turn chart"
fi
echo ok
