#!/usr/bin/env bash
# replay_concurrency: thousands of concurrent streams on one server: 2000
# clients stream at once (500 of them hang up after their first token); all
# the others get complete streams, and the server frees every stream.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/replay_lib.sh"

# Quitters ask for a stream of 100000 tokens (10000 s at 100 ms a token):
# however late the loaded client hangs up, their streams cannot end on their
# own first, so every one of them must be seen aborted, and the server can
# only get back to 0 active streams by noticing them leave.
start_replay --synthetic 'ttft=300ms,tpot=20ms,tokens=30;model=long,tpot=100ms,tokens=100000' -q
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

python3 - "$PORT" >"$T/result" <<'PY'
import asyncio, sys, time

PORT = int(sys.argv[1])
N, QUITTERS = 2000, 500

def request(model):
    body = (b'{"model":"%s","stream":true,"messages":[{"role":"user",'
            b'"content":"hi"}]}' % model)
    return (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nConnection: close\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body

async def one(i, results):
    quit_early = i < QUITTERS
    for attempt in range(50):
        try:
            r, w = await asyncio.open_connection("127.0.0.1", PORT)
            break
        except OSError:
            await asyncio.sleep(0.05)
    else:
        results["connect_failed"] += 1
        return
    t0 = time.monotonic()
    w.write(request(b"long" if quit_early else b"m"))
    await w.drain()
    data = b""
    while True:
        chunk = await r.read(65536)
        if not chunk:
            break
        data += chunk
        if quit_early and b'"content":"' in data:
            w.transport.abort()  # hang up mid-stream
            results["quit"] += 1
            return
    w.close()
    if data.count(b'"content":"') == 30 and b"data: [DONE]" in data:
        results["complete"] += 1
        results["max_s"] = max(results["max_s"], time.monotonic() - t0)
    else:
        results["broken"] += 1

async def watch_lag(results):
    # the client's own lateness: how far past due a 50 ms sleep wakes up
    while True:
        t = time.monotonic()
        await asyncio.sleep(0.05)
        results["lag_s"] = max(results["lag_s"], time.monotonic() - t - 0.05)

async def main():
    results = {"complete": 0, "broken": 0, "quit": 0, "connect_failed": 0,
               "max_s": 0.0, "lag_s": 0.0}
    watcher = asyncio.ensure_future(watch_lag(results))
    await asyncio.gather(*(one(i, results) for i in range(N)))
    watcher.cancel()
    print(results["complete"], results["broken"], results["quit"],
          results["connect_failed"], "%.2f" % results["max_s"],
          "%.2f" % results["lag_s"])

asyncio.run(main())
PY
read -r complete broken quit cfail max_s lag_s <"$T/result"
assert_eq "$complete" 1500 "complete streams (broken $broken, connect failures $cfail)"
assert_eq "$quit" 500 "clients that hung up"
# 300 ms + 29 x 20 ms = 0.88 s per stream; with 2000 at once the Python
# client itself is the slow side, hence the generous bound, which also
# allows for the longest stall the client saw in its own event loop.
awk -v t="$max_s" -v lag="$lag_s" 'BEGIN {exit !(t < 10 + lag)}' ||
    fail "slowest stream took ${max_s}s (client stalled up to ${lag_s}s)"
wait_active 0
assert_eq "$(stats | jq .aborted_streams)" 500 "streams the server saw aborted"
# (the count includes the /_replay/stats polls themselves)
n=$(stats | jq .requests)
[ "$n" -ge 2000 ] && [ "$n" -le 2200 ] || fail "server counted $n requests"
kill -0 "$REPLAY_PID" || fail "server died"
echo "replay_concurrency: ok ($complete complete, slowest ${max_s}s, client lag ${lag_s}s)"
