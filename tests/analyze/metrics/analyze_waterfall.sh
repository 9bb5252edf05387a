#!/usr/bin/env bash
# analyze_waterfall: where the first token's time went, against known
# delays. An upstream sends its headers H ms after the request and the
# first token T ms after them; a gateway in front of it waits G ms and
# says the server's processing took P ms (tests/lib/timed_gateway.py).
# Each part of the attribution is within 2 ms of what was set (the best
# of the requests on a reused connection; a stall only adds): server =
# P, gateway/unaccounted before the headers = G + H - P, headers -> first
# token = T, client and network (loopback) under 2 ms; the parts add up to
# TTFT; a reused connection has no connect (null, not 0). Against
# llama-server's traces (TT_REAL_SERVER_TRACES): server processing is
# timings.prompt_ms and the rest is what the attribution calls unaccounted.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/gateway_lib.sh"
H=80 TT=60 G=50
start_py "$T/up.port" upstream $H $TT

# one gateway per way of saying P: openai-processing-ms, Server-Timing
check_gateway() { # KIND P
    local kind=$1 p=$2 want=$((G + H - $2)) attempt
    start_py "$T/$kind.port" gateway "$(cat "$T/up.port")" $G "$p" "$kind"
    for attempt in 1 2 3 4 5; do
        "$TT_RECORD" -u "http://127.0.0.1:$(cat "$T/$kind.port")" -m m -n 4 -c 1 \
            --classes short-short -o "$T/$kind.ttrace" -q --force 2>"$T/$kind.err" ||
            { cat "$T/$kind.err"; fail "record through the $kind gateway"; }
        "$TT_ANALYZE" requests "$T/$kind.ttrace" --format json >"$T/$kind.jsonl"
        # structure: every time, whatever the machine's load
        jq -se --argjson p "$p" '
            length == 4 and all(.ok) and all(.server_ms == $p) and
            all(.wf_role_chunks == 1 and .wf_comments == 1) and
            all(.tcp_rtt_ms != null and .tcp_rtt_ms > 0) and
            all(.clocks_disagree | not) and
            all((.ttft_client_ms + .ttft_network_ms + .server_ms +
                 .ttft_unaccounted_ms - .ttft_ms) | fabs < 1e-6) and
            .[0].wf_conn == "new" and .[0].wf_connect_ms != null and
            (.[1:] | all(.wf_conn == "reused" and .wf_connect_ms == null and
                         .wf_dns_ms == null))' "$T/$kind.jsonl" >/dev/null ||
            { cat "$T/$kind.jsonl"; fail "$kind: waterfall structure"; }
        # sleeps never come early: the lower bounds hold every time (a
        # gateway late to relay the headers moves time from after them to
        # before them, so after them only the sum is bounded)
        jq -se --argjson w "$want" --argjson t $TT '
            all(.ttft_gateway_ms > $w - 0.5 and
                .ttft_gateway_ms + .headers_to_token_ms > $w + $t - 0.5)' \
            "$T/$kind.jsonl" >/dev/null ||
            { cat "$T/$kind.jsonl"; fail "$kind: a part below what was set"; }
        # the upper bounds (2 ms), on the best of the reused connections:
        # a loaded machine wakes a sleeper late (which only adds time), a
        # bug moves every request; a miss is recorded again
        jq -se --argjson w "$want" --argjson t $TT '
            .[1:] | (map(.ttft_gateway_ms) | min) < $w + 2 and
                    (map(.headers_to_token_ms) | min) < $t + 2 and
                    (map(.ttft_client_ms) | min) < 2 and (map(.ttft_network_ms) | min) < 2' \
            "$T/$kind.jsonl" >/dev/null && return 0
        echo "analyze_waterfall: $kind attempt $attempt missed by more than 2 ms:" >&2
        jq -c '[.ttft_client_ms, .ttft_network_ms, .ttft_gateway_ms, .headers_to_token_ms]' "$T/$kind.jsonl" >&2
    done
    fail "$kind: a part more than 2 ms above what was set, 5 times"
}
check_gateway openai 80
check_gateway server-timing 70

# per model x class: summary --detail rows and JSON
"$TT_ANALYZE" summary "$T/openai.ttrace" --detail >"$T/detail.txt"
for row in "TTFT: client" "TTFT: network" "TTFT: server (reported)" \
    "TTFT: gateway/unaccounted" "headers -> first token" "TCP RTT (kernel)"; do
    grep -qF "$row" "$T/detail.txt" || { cat "$T/detail.txt"; fail "summary --detail lacks '$row'"; }
done
"$TT_ANALYZE" summary "$T/openai.ttrace" --format json |
    jq -e '.groups[0].ttft_server_ms.p50 == 80 and .groups[0].ttft_gateway_ms.n == 4' >/dev/null ||
    fail "summary JSON lacks the waterfall"

# the HTML report's stacked bars per model x class
"$TT_ANALYZE" plot "$T/openai.ttrace" -o "$T/charts" --html >/dev/null 2>&1 ||
    fail "plot --html"
grep -q '<h2 id="waterfall">Where TTFT went</h2>' "$T/charts/report.html" &&
    grep -q '<title>gateway/unaccounted ' "$T/charts/report.html" ||
    fail "report.html lacks the waterfall bars"

# compare says which part changed: a gateway 40 ms slower, the same
# server; the first request of each (a new connection) is warmup, and a
# stall (it moves the means) is recorded again
G=90 start_py "$T/slow.port" gateway "$(cat "$T/up.port")" 90 80 openai
for attempt in 1 2 3 4 5; do
    for side in openai slow; do
        "$TT_RECORD" -u "http://127.0.0.1:$(cat "$T/$side.port")" -m m -n 5 -c 1 --warmup 1 \
            --classes short-short -o "$T/cmp-$side.ttrace" -q --force 2>"$T/cmp.err" ||
            { cat "$T/cmp.err"; fail "record through the $side gateway"; }
    done
    "$TT_ANALYZE" compare "$T/cmp-openai.ttrace" "$T/cmp-slow.ttrace" >"$T/cmp.txt" 2>/dev/null
    # the line is wrapped to the width: read it joined
    tr -s ' \n' ' ' <"$T/cmp.txt" |
        grep -E "where: TTFT mean \+(3[5-9]|4[0-9])\.[0-9] ms: all before the response headers .*server processing unchanged" \
            >/dev/null && break
    echo "analyze_waterfall: compare attempt $attempt:" >&2
    grep "where:" "$T/cmp.txt" >&2
    [ "$attempt" = 5 ] && { cat "$T/cmp.txt"; fail "compare does not say the change was all before the headers"; }
done
"$TT_ANALYZE" compare "$T/cmp-openai.ttrace" "$T/cmp-slow.ttrace" --format json 2>/dev/null |
    jq -e '.comparisons[0].groups[0].waterfall | test("all before the response headers")' >/dev/null ||
    fail "compare JSON lacks the waterfall line"

# llama-server: server processing is timings.prompt_ms, the rest unaccounted
RS=${TT_REAL_SERVER_TRACES:-$TT_SOURCE_DIR/tests/data/real-server}
if [ -s "$RS/tt-c4.ttrace.zst" ]; then
    "$TT_ANALYZE" requests "$RS/tt-c4.ttrace.zst" --format json |
        jq -se 'map(select(.ok)) | length > 0 and
            all(.server_source == "timings.prompt_ms" and .server_ms == .server_prompt_ms and
                ((.ttft_ms - .server_ms - .ttft_client_ms - .ttft_network_ms -
                  .ttft_unaccounted_ms) | fabs < 1e-6) and
                .ttft_unaccounted_ms >= 0 and (.clocks_disagree | not))' >/dev/null ||
        fail "llama-server: server processing is not timings.prompt_ms, or the rest does not add up"
else
    echo "analyze_waterfall: no llama-server traces in $RS: that part skipped" >&2
fi
echo "analyze_waterfall: ok"
