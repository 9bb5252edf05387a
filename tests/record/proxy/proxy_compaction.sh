#!/usr/bin/env bash
# A Cline task that compacts its context, through tokentrace-proxy to
# tokentrace-replay: two turns, the summary request (Cline's prompts:
# system "Summarize the provided coding session...", user "Summarize this
# session for continuation..."), the task resumed from "Context
# summary:..." and a turn after it. One session with turns 1..5, the
# compaction requests marked, summary --by turn gives five turns; before,
# the summary and the resumed task were sessions of their own and --by
# turn put them under turn 1. Also: --max-requests stops recording (the
# proxy keeps forwarding, stderr and the footer say so), and the capture
# is zstd-compressed by default.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=6'
start_proxy "$T/p.ttrace"
python3 - "$PXURL" <<'PY'
import json, sys, requests
base = sys.argv[1]

def send(messages):
    body = {"model": "m", "stream": True, "messages": messages}
    with requests.post(base + "/v1/chat/completions", json=body, stream=True) as r:
        assert r.status_code == 200, r.status_code
        out = []
        for line in b"".join(r.iter_content(chunk_size=None)).decode().splitlines():
            if line.startswith("data: {"):
                for c in json.loads(line[6:]).get("choices", []):
                    out.append(c.get("delta", {}).get("content") or "")
        return "".join(out)

system = {"role": "system", "content": "You are Cline, a highly skilled software engineer."}
task = [system, {"role": "user", "content": [{"type": "text", "text": "<task>fix the bug</task>"}]}]
task.append({"role": "assistant", "content": send(task)})
task.append({"role": "user", "content": "[read_file] Result: ..."})
task.append({"role": "assistant", "content": send(task)})
summary = send([
    {"role": "system", "content": "Summarize the provided coding session into a concise continuation note with detailed next steps."},
    {"role": "user", "content": "Summarize this session for continuation. Be concise and factual.\n\n## Goal\n...\n\nConversation:\n[user]: <task>fix the bug</task>"}])
resumed = [system, {"role": "user", "content": [{"type": "text", "text": "Context summary:\n\n" + summary}]},
           {"role": "user", "content": "[write_to_file] Result: done"}]
resumed.append({"role": "assistant", "content": send(resumed)})
resumed.append({"role": "user", "content": "[attempt_completion] Result: ok"})
send(resumed)
PY
stop_proxy
# compressed by default: zstd frames (the magic), read as always
assert_eq "$(head -c 4 "$T/p.ttrace" | od -An -tx1 | tr -d ' \n')" "28b52ffd" "zstd magic"
d=$(dump "$T/p.ttrace")
check_complete "$d" 5
st=$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map("\(.session):\(.turn):\(.compaction // "-")")|join(" ")')
assert_eq "$st" "1:1:- 1:2:- 1:3:summary 1:4:resumed 1:5:-" "one session, turns through"
"$TT_ANALYZE" summary "$T/p.ttrace" --by turn --format json >"$T/s.json" || fail "summary --by turn"
assert_eq "$(jq -c '[.groups[]|{t:.turn,n:.requests}]' "$T/s.json")" \
    '[{"t":"1","n":1},{"t":"2","n":1},{"t":"3","n":1},{"t":"4","n":1},{"t":"5","n":1}]' "requests per turn"

# a looping client: --max-requests 2 records 2, forwards all 4, says so
start_proxy "$T/cap.ttrace" --max-requests 2 --no-compress
for i in 1 2 3 4; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
        -d '{"model":"m","stream":true,"messages":[{"role":"user","content":"loop '$i'"}]}' \
        "$PXURL/v1/chat/completions")
    assert_eq "$code" 200 "request $i forwarded"
done
stop_proxy
[ "$(head -c 4 "$T/cap.ttrace" | od -An -tx1 | tr -d ' \n')" != "28b52ffd" ] || fail "--no-compress wrote zstd"
grep -q 'max-requests 2 reached: recording stopped' "$PXERR" || fail "not said on stderr: $(cat "$PXERR")"
d=$(dump "$T/cap.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|length')" 2 "recorded requests"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.recording_stopped) \(.unrecorded)"')" "--max-requests 2 2" "footer"
"$TT_ANALYZE" info "$T/cap.ttrace" | grepq -F 'recording stopped' || fail "info does not say so"

# --max-bytes: stops once the recorded bodies and chunks reach B
start_proxy "$T/capb.ttrace" --max-bytes 100
for i in 1 2 3; do
    curl -s -o /dev/null -H 'Content-Type: application/json' \
        -d '{"model":"m","stream":true,"messages":[{"role":"user","content":"loop '$i'"}]}' \
        "$PXURL/v1/chat/completions"
done
stop_proxy
grep -q 'max-bytes 100 reached: recording stopped' "$PXERR" || fail "max-bytes not said: $(cat "$PXERR")"
d=$(dump "$T/capb.ttrace")
assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|length')" 1 "recorded requests under --max-bytes"
assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.recording_stopped) \(.unrecorded)"')" "--max-bytes 100 2" "footer (bytes)"
echo ok
