#!/usr/bin/env bash
# Each chunk leaves tokentrace-proxy for its client's socket within its own
# receive, before the proxy takes the next chunk of any stream: with 10
# streams at once through the proxy to tokentrace-replay, every handed
# record's handed time comes before the next receive (an order, not a
# duration: a chunk left for the loop's next turn is handed after the
# other streams' receives of this turn, as before the fix, and fails).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=5ms,tokens=40'
start_proxy "$T/p.ttrace"
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
echo ok
