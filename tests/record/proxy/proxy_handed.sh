#!/usr/bin/env bash
# Each chunk leaves tokentrace-proxy for its client's socket within its own
# receive, before the proxy takes the next chunk of any stream: with 10
# streams at once through the proxy to tokentrace-replay, every handed
# record's handed time comes before the next receive (an order, not a
# duration: a chunk left for the loop's next turn is handed after the
# other streams' receives of this turn, as before the fix, and fails).
# The order is of hand-over times (--chunk-time user); with the default
# kernel times a chunk's receive is when it reached the host, before the
# proxy took it, so there only handed >= received holds, and the header
# and footer say the times are the kernel's.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=5ms,tokens=40'
start_proxy "$T/p.ttrace" --chunk-time user
"$TT_RECORD" -u "$PXURL" -m m -n 20 -c 10 --classes short-short -q \
    -o "$T/client.ttrace" 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"
stop_proxy
d=$(dump "$T/p.ttrace")
check_complete "$d" 20
python3 - "$d" <<'PY' || fail "chunks waited inside the proxy for other streams' receives"
import json, sys
hs = sorted((r["recv_ns"], r["handed_ns"], r["request_id"], r["chunk"])
            for r in map(json.loads, open(sys.argv[1])) if r["kind"] == "handed")
late = [(a, b) for a, b in zip(hs, hs[1:]) if a[1] > b[0]]
print(f"{len(hs)} handed records, {len(late)} handed after the next receive")
for a, b in late[:5]:
    print(f"  request {a[2]} chunk {a[3]} handed {(a[1] - b[0]) / 1e3:.1f} us after "
          f"request {b[2]} chunk {b[3]} was received")
assert len(hs) > 200 and not late
PY

start_proxy "$T/k.ttrace"
"$TT_RECORD" -u "$PXURL" -m m -n 20 -c 10 --classes short-short -q \
    -o "$T/client2.ttrace" 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"
stop_proxy
d=$(dump "$T/k.ttrace")
check_complete "$d" 20
python3 - "$d" <<'PY' || fail "kernel times: handed before received, or not kernel times"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
hs = [r for r in recs if r["kind"] == "handed"]
hdr = next(r for r in recs if r["kind"] == "header")
ft = next(r for r in recs if r["kind"] == "footer")
assert hdr["options"]["chunk_time"] == "kernel", hdr["options"]
assert ft["receive_lag_samples"] == ft["chunks"], ft
assert len(hs) > 200 and all(h["handed_ns"] >= h["recv_ns"] for h in hs)
PY
expect_exit 2 "$TT_PROXY" --listen 127.0.0.1:0 -u "$URL" --chunk-time soon 2>"$T/bad.err"
grep -q "chunk-time: 'soon' is not kernel or user" "$T/bad.err" || fail "bad --chunk-time: $(cat "$T/bad.err")"
echo ok
