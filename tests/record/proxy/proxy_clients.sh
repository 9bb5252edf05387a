#!/usr/bin/env bash
# Real clients through tokentrace-proxy: tokentrace-record itself (each API
# kind) and Python requests (streaming). Each gets the bytes the proxy
# received from the upstream, byte for byte, and the proxy's trace has the
# client's request bodies.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=15ms,tpot=1ms,tokens=16' --fault split-utf8@m-utf8
start_proxy "$T/p.ttrace"
# its start line is a URL to paste as the client's base URL (issue 32: it
# said "listening on 127.0.0.1:0 (port N)"); the note follows the port
# file, so wait for it
for _ in $(seq 100); do grep -q 'listening on' "$PXERR" && break; sleep 0.05; done
grep -q "^tokentrace-proxy: listening on ${PXURL}/v1, forwarding to " "$PXERR" ||
    fail "start line: $(cat "$PXERR")"

# the recorder: 2 requests per API kind; its trace's bytes per request
# are the proxy's for the same request
for api in openai-chat openai-completions anthropic; do
    "$TT_RECORD" -u "$PXURL" -m m -m m-utf8 -n 1 -c 1 --classes short-short --api "$api" \
        -o "$T/rec.$api.ttrace" -q 2>"$T/rec.$api.err" || fail "$api: $(cat "$T/rec.$api.err")"
done
# python requests, streaming
python3 - "$PXURL" >"$T/py.out" <<'PY'
import sys, requests
body = {"model": "m-utf8", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
with requests.post(sys.argv[1] + "/v1/chat/completions", json=body, stream=True,
                   headers={"X-Request-Id": "py-1"}) as r:
    assert r.status_code == 200, r.status_code
    data = b"".join(r.iter_content(chunk_size=None))
sys.stdout.buffer.write(data)
PY
stop_proxy
d=$(dump "$T/p.ttrace")
check_complete "$d" 7
id=0
for api in openai-chat openai-completions anthropic; do
    r=$(dump "$T/rec.$api.ttrace")
    for rid in 1 2; do
        id=$((id + 1))
        chunk_bytes "$r" "$rid" "$T/client.$id"
        chunk_bytes "$d" "$id" "$T/proxy.$id"
        cmp "$T/client.$id" "$T/proxy.$id" || fail "$api request $rid: the recorder got other bytes than the proxy"
        # the proxy stored the body the recorder sent
        assert_eq "$(jqs "$r" ".[]|select(.kind==\"request\" and .id==$rid)|.body")" \
            "$(jqs "$d" ".[]|select(.kind==\"request\" and .id==$id)|.body")" "$api request $rid: body"
        assert_eq "$(jqs "$d" ".[]|select(.kind==\"request\" and .id==$id)|.api")" "$api" "$api: request api"
    done
    assert_eq "$(jqs "$r" '.[]|select(.kind=="footer")|"\(.ok) \(.failed)"')" "2 0" "$api: recorder ok"
done
chunk_bytes "$d" 7 "$T/proxy.7"
cmp "$T/py.out" "$T/proxy.7" || fail "python requests got other bytes than the proxy"
"$TT_ANALYZE" summary "$T/p.ttrace" >/dev/null || fail "summary of the proxy trace"
echo ok
