#!/usr/bin/env bash
# Replay what was caught: Python requests drives 6 three-turn chat
# conversations (and one that fails upstream) through tokentrace-proxy to
# a slow tokentrace-replay; tokentrace-record -w CAPTURE sends them to a
# fast one with another model. The replayed bodies equal the captured ones
# (model aside) in session order with the captured think times, and
# compare --by turn says per turn that the replay was faster. A plain
# recording (no sessions) replays as single requests.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=300ms,tpot=4ms,tokens=8' --fault http-500@m-fail
SLOW=$URL
start_proxy "$T/cap.ttrace"
python3 - "$PXURL" <<'PY'
import json, sys, time, requests
base = sys.argv[1]

def send(body):
    with requests.post(base + "/v1/chat/completions", json=body, stream=True) as r:
        data = b"".join(r.iter_content(chunk_size=None))
        if r.status_code != 200:
            return None
    out = []
    for line in data.decode().splitlines():
        if line.startswith("data: ") and line != "data: [DONE]":
            for c in json.loads(line[6:]).get("choices", []):
                out.append(c.get("delta", {}).get("content") or "")
    return "".join(out)

convs = [[{"role": "system", "content": f"session {i}"}] for i in range(6)]
for turn in range(3):
    for i, c in enumerate(convs):
        c.append({"role": "user", "content": f"s{i} t{turn + 1}"})
        reply = send({"model": "m", "stream": True, "max_tokens": 8,
                      "temperature": 0.5, "messages": c})
        c.append({"role": "assistant", "content": reply})
    time.sleep(0.15)
assert send({"model": "m-fail", "stream": True,
             "messages": [{"role": "user", "content": "fails"}]}) is None
PY
stop_proxy
cap=$(dump "$T/cap.ttrace")
assert_eq "$(count "$cap" request)" 19 "captured requests"

start_replay --synthetic 'ttft=10ms,tpot=1ms,tokens=8'
"$TT_RECORD" -w "$T/cap.ttrace" -u "$URL" -m other -c 2 -o "$T/rep.ttrace" -q \
    2>"$T/rep.err" || fail "replay of the capture: $(cat "$T/rep.err")"
rep=$(dump "$T/rep.ttrace")
check_complete "$rep" 19
# the bodies, in session order, as captured with the model replaced
python3 - "$cap" "$rep" <<'PY'
import json, sys
def reqs(path):
    return [r for r in map(json.loads, open(path)) if r["kind"] == "request"]
cap, rep = reqs(sys.argv[1]), reqs(sys.argv[2])
key = lambda r: (r.get("session", 0), r.get("turn", 0))
cap_by = {key(r): r for r in cap}
assert len(cap_by) == 19, "captured (session, turn) pairs"
assert sorted(cap_by) == sorted(key(r) for r in rep), "replayed sessions and turns"
for r in rep:
    c = cap_by[key(r)]
    assert r["model"] == "other", r["model"]
    want = c["body"].replace('"model": "m-fail"', '"model": "other"', 1) \
        .replace('"model": "m"', '"model": "other"', 1)
    assert r["body"] == want, (key(r), r["body"], want)
    assert r.get("think_ns") == c.get("think_ns"), (key(r), "think time")
    assert r["prompt_index"] == c["id"], "prompt_index names the captured request"
# each session's turns one after another, each after its think time
res = {r["id"]: r for r in map(json.loads, open(sys.argv[2])) if r["kind"] == "result"}
by = {key(r): r for r in rep}
for (s, t), r in by.items():
    if t > 1:
        prev = by[(s, t - 1)]
        gap = r["start_ns"] - res[prev["id"]]["end_ns"]
        assert gap >= r["think_ns"] > 100_000_000, (s, t, gap)
PY
[ $? -eq 0 ] || fail "replayed bodies"
# the failed captured request was sent again, and worked this time
assert_eq "$(jqs "$cap" '[.[]|select(.kind=="result" and .error_kind=="http_500")]|length')" 1 "captured failure"
assert_eq "$(jqs "$rep" '.[]|select(.kind=="footer")|"\(.ok) \(.failed)"')" "19 0" "replayed ok"

# compare per turn: the replay's target is faster on every turn
"$TT_ANALYZE" compare "$T/cap.ttrace" "$T/rep.ttrace" --by turn --format json \
    >"$T/cmp.json" 2>"$T/cmp.err" || fail "compare --by turn: $(cat "$T/cmp.err")"
assert_eq "$(jq -c '[.comparisons[0].groups[]|[.turn, .metrics.ttft_ms.verdict, .metrics.ttft_ms.direction]]' "$T/cmp.json")" \
    '[["1","real","faster"],["2","real","faster"],["3","real","faster"]]' "TTFT per turn"
"$TT_ANALYZE" compare "$T/rep.ttrace" "$T/cap.ttrace" --by turn --format json >"$T/cmp2.json" 2>/dev/null
assert_eq "$(jq -c '[.comparisons[0].groups[]|.metrics.ttft_ms.direction]' "$T/cmp2.json")" \
    '["slower","slower","slower"]' "TTFT per turn, sides swapped"
"$TT_ANALYZE" compare "$T/cap.ttrace" "$T/rep.ttrace" --by turn --wide >"$T/cmp.txt" 2>/dev/null
grep -q '^turn 3 ' "$T/cmp.txt" || fail "table names the turns: $(cat "$T/cmp.txt")"
expect_exit 2 "$TT_ANALYZE" compare "$T/cap.ttrace" "$T/rep.ttrace" --by nothing

# a recording without sessions: single requests, bodies as recorded
"$TT_RECORD" -u "$SLOW" -m m -n 3 -c 1 --classes short-short -o "$T/plain.ttrace" -q 2>/dev/null
"$TT_RECORD" -w "$T/plain.ttrace" -u "$URL" -m m2 -o "$T/plain2.ttrace" -q 2>"$T/p2.err" ||
    fail "replay of a plain recording: $(cat "$T/p2.err")"
a=$(dump "$T/plain.ttrace"); b=$(dump "$T/plain2.ttrace")
assert_eq "$(jqs "$b" '[.[]|select(.kind=="request")|has("session")]|any')" false "no sessions"
assert_eq "$(jqs "$a" '[.[]|select(.kind=="request")|.body|sub("\"model\":\"m\"";"\"model\":\"m2\"")]')" \
    "$(jqs "$b" '[.[]|select(.kind=="request")|.body]')" "plain bodies"
# a capture without bodies says which request and where
"$TT_RECORD" -u "$SLOW" -m m -n 1 -c 1 --classes short-short --no-content -o "$T/nc.ttrace" -q 2>/dev/null
expect_exit 2 "$TT_RECORD" -w "$T/nc.ttrace" -u "$URL" -m m -o "$T/nc2.ttrace" -q 2>"$T/nc.err"
grep -q 'nc.ttrace: byte [0-9]*: request 1 has no body' "$T/nc.err" || fail "no-content error: $(cat "$T/nc.err")"
echo ok
