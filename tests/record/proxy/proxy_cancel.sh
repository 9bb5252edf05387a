#!/usr/bin/env bash
# A client that disconnects mid-stream cancels the upstream request (the
# replay server sees its stream end) and is recorded as client_cancelled;
# a slow client pauses the upstream transfer instead of growing the proxy's
# memory, and still gets every byte.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=10ms,tpot=20ms,tokens=500;model=big,ttft=0,tpot=0,tokens=50000' \
    --log-sends "$T/sends.tsv"
start_proxy "$T/p.ttrace" --client-buffer 65536
chat='{"model":"MODEL","stream":true,"messages":[{"role":"user","content":"hi"}]}'

# 1. the client goes after 0.5 s of a 10 s stream
set +e
curl -sN --max-time 0.5 -o "$T/cut" -H 'Content-Type: application/json' \
    --data-binary "${chat/MODEL/m}" "$PXURL/v1/chat/completions"
rc=$?
set -e
assert_eq "$rc" 28 "curl stopped by --max-time"
for _ in $(seq 1 100); do
    [ "$(curl -s "$URL/_replay/stats" | jq .active_streams)" = 0 ] && break
    sleep 0.05
done
assert_eq "$(curl -s "$URL/_replay/stats" | jq .active_streams)" 0 "the upstream stream was cancelled"
grep -q "#1 .*client_cancelled" "$PXERR" || fail "log: $(cat "$PXERR")"

# 2. a slow client: reads 16 KiB every 5 ms for 2 s, then all of it
rss() { awk '/^VmHWM/ {print $2}' "/proc/$PROXY_PID/status"; }
hwm0=$(rss)
python3 - "${PXURL#http://}" "${chat/MODEL/big}" >"$T/slow.n" <<'PY'
import socket, sys, time
host, port = sys.argv[1].split(":")
body = sys.argv[2].encode()
s = socket.create_connection((host, int(port)))
s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
raw = bytearray()
t0 = time.time()
while True:
    d = s.recv(16384 if time.time() - t0 < 2 else 1 << 20)
    if not d:
        break
    raw += d
    if time.time() - t0 < 2:
        time.sleep(0.005)
i = raw.index(b"\r\n\r\n") + 4
n_body = 0
while True:  # de-chunk
    j = raw.index(b"\r\n", i)
    n = int(raw[i:j], 16)
    if n == 0:
        break
    n_body += n
    i = j + 2 + n + 2
print(n_body)
PY
hwm1=$(rss)
stop_proxy
d=$(dump "$T/p.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="result" and .id==1)|.error_kind')" client_cancelled "recorded kind"
# the summary's failed line has the explanation whole at 80 columns (it
# wraps onto a second line), not cut at "the upstream"
"$TT_ANALYZE" summary --width 80 "$T/p.ttrace" >"$T/sum.txt"
grep -A1 '^failed: m ' "$T/sum.txt" | grepq 'the upstream request was cancelled$' ||
    fail "failed line cut: $(cat "$T/sum.txt")"
assert_eq "$(jqs "$d" '.[]|select(.kind=="result" and .id==1)|(.chunks > 5 and (.end_ns - .phases.total_ns) > 0)')" true "cancelled result"
assert_eq "$(jqs "$d" '(.[]|select(.kind=="request" and .id==1)|.start_ns) as $s | .[]|select(.kind=="result" and .id==1)|(.end_ns - $s) < 3000000000')" true "cancelled at once, not at the stream's end"
assert_eq "$(jqs "$d" '.[]|select(.kind=="result" and .id==2)|.error_kind // "ok"')" ok "slow client: complete"
total=$(jqs "$d" '.[]|select(.kind=="result" and .id==2)|.bytes')
[ "$total" -gt 8000000 ] || fail "the big stream is only $total bytes"
assert_eq "$(cat "$T/slow.n")" "$total" "slow client: every byte"
grep -q "#2 .*upstream paused for a slow client" "$PXERR" || fail "no pause: $(cat "$PXERR")"
# the proxy held far less than the stream (the kernel's socket buffers
# take some MiB; the rest waited upstream)
grow=$(((hwm1 - hwm0) / 1024))
echo "peak RSS grew by $grow MiB; stream $((total >> 20)) MiB" >&2
# (ASan's quarantine keeps freed memory: no bound there)
[ -n "${TT_SANITIZE:-}" ] || [ "$grow" -lt 8 ] ||
    fail "peak RSS grew by $grow MiB for a $((total >> 20)) MiB stream"
echo ok
