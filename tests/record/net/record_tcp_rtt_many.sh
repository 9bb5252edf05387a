#!/usr/bin/env bash
# record_tcp_rtt_many: past 256 connections every request still has its
# connection's kernel TCP RTT, from the recorder (300 at once) and from
# tokentrace-proxy (300 client streams, 300 upstream connections). The
# socket of a transfer was looked up in a list of the newest 256 sockets:
# the older connections' requests silently had no tcp_rtt_ns (768 of
# 3,000 had one at 1,000 streams).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"
N=300
start_replay -q --synthetic 'ttft=300ms,tpot=5ms,tokens=3'

# with_rtt TRACE: "requests with an RTT / requests"
with_rtt() {
    "$TT_ANALYZE" requests "$1" --format json |
        jq -rs '"\(map(select((.tcp_rtt_ms // 0) > 0)) | length)/\(length)"'
}

"$TT_RECORD" -q -u "$URL" -m m --classes short-short -n $N -c $N --force \
    -o "$T/r.ttrace" 2>"$T/r.err" || fail "record: $(cat "$T/r.err")"
assert_eq "$(with_rtt "$T/r.ttrace")" "$N/$N" "recorder: requests with a TCP RTT"

start_proxy "$T/p.ttrace"
"$TT_RECORD" -q -u "$PXURL" -m m --classes short-short -n $N -c $N --force \
    -o "$T/c.ttrace" 2>"$T/c.err" || fail "record through the proxy: $(cat "$T/c.err")"
stop_proxy
assert_eq "$(with_rtt "$T/p.ttrace")" "$N/$N" "proxy: requests with a TCP RTT"
echo "record_tcp_rtt_many: ok"
