#!/usr/bin/env bash
# analyze_waterfall_netem: a link with a known RTT. Inside a network
# namespace of its own (unshare -rn) the test delays loopback by D ms each
# way (tc netem), records through the timed upstream
# (tests/lib/timed_gateway.py) and wants the kernel's RTT of the
# connection within 2 ms of 2D and the network part of TTFT (one RTT on a
# reused connection, and the connect on a new one) within 2 ms of it.
# Skips (77) with the reason where the machine allows no namespace or has
# no netem.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
D=10
if ! unshare -rn true 2>/dev/null; then
    echo "analyze_waterfall_netem: skipped: no user network namespace (unshare -rn)" >&2
    exit 77
fi
if ! unshare -rn sh -c "ip link set lo up && tc qdisc add dev lo root netem delay ${D}ms" 2>"$T/tc.err"; then
    echo "analyze_waterfall_netem: skipped: tc netem refused: $(head -c 200 "$T/tc.err")" >&2
    exit 77
fi
cat >"$T/inside.sh" <<INSIDE
set -e
ip link set lo up
tc qdisc add dev lo root netem delay ${D}ms
python3 "$TT_SOURCE_DIR/tests/lib/timed_gateway.py" upstream "$T/up.port" 20 10 &
up=\$!
for _ in \$(seq 1 100); do [ -s "$T/up.port" ] && break; sleep 0.05; done
"$TT_RECORD" -u "http://127.0.0.1:\$(cat "$T/up.port")" -m m -n 3 -c 1 \
    --classes short-short -o "$T/netem.ttrace" -q
kill \$up
INSIDE
unshare -rn bash "$T/inside.sh" || fail "record inside the namespace"
rtt=$((2 * D))
"$TT_ANALYZE" requests "$T/netem.ttrace" --format json >"$T/netem.jsonl"
jq -se --argjson r $rtt '
    length == 3 and all(.ok) and
    all(.tcp_rtt_ms > $r - 2 and .tcp_rtt_ms < $r + 2) and
    (.[1:] | all(.wf_conn == "reused" and
                 .ttft_network_ms > $r - 2 and .ttft_network_ms < $r + 2)) and
    (.[0] | .wf_conn == "new" and .ttft_network_ms > 2 * $r - 2 and
            .ttft_network_ms < 2 * $r + 4)' "$T/netem.jsonl" >/dev/null ||
    { cat "$T/netem.jsonl"; fail "the RTT or the network part is not what netem set"; }
echo "analyze_waterfall_netem: ok"
