#!/usr/bin/env bash
# proxy_waterfall: a tokentrace-proxy trace splits the first token's time
# into the proxy's own parts and the upstream's (docs/proxy.md, "Where
# the first token's time went"). Behind the proxy, an upstream sends its
# headers H ms after the request and the first token T ms after them,
# behind a gateway that waits G ms and says the server took P ms
# (tests/lib/timed_gateway.py). Every request has the time inside the
# proxy before it went upstream and for the first token's chunk, and the
# upstream connection's kernel TCP RTT; on the best request on a reused
# connection the proxy's parts are under 2 ms and the upstream's within
# 2 ms of what was set (server = P, gateway = G + H - P, headers -> first
# token = T); the client's TTFT as the proxy saw it is its parts' sum,
# and within 2 ms of the TTFT the client itself measured (one host, one
# monotonic clock).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/proxy_lib.sh"
. "$TT_SOURCE_DIR/tests/lib/gateway_lib.sh"
H=80 TT=60 G=50 P=80
WANT=$((G + H - P))
start_py "$T/up.port" upstream $H $TT
start_py "$T/gw.port" gateway "$(cat "$T/up.port")" $G $P openai
URL="http://127.0.0.1:$(cat "$T/gw.port")"

for attempt in 1 2 3 4 5; do
    start_proxy "$T/p.ttrace"
    "$TT_RECORD" -u "$PXURL" -m m -n 4 -c 1 --classes short-short -q --force \
        -o "$T/client.ttrace" 2>"$T/rec.err" || fail "record: $(cat "$T/rec.err")"
    stop_proxy
    "$TT_ANALYZE" requests "$T/p.ttrace" --format json >"$T/p.jsonl"
    "$TT_ANALYZE" requests "$T/client.ttrace" --format json >"$T/c.jsonl"
    # structure: every time, whatever the machine's load
    jq -se --argjson p $P '
        length == 4 and all(.ok) and all(.server_ms == $p) and
        all(.wf_proxy_in_ms != null and .wf_proxy_in_ms >= 0) and
        all(.wf_proxy_out_ms != null and .wf_proxy_out_ms >= 0) and
        all(.tcp_rtt_ms != null and .tcp_rtt_ms > 0) and
        all((.wf_proxy_in_ms + .ttft_ms + .wf_proxy_out_ms -
             .wf_proxy_client_ttft_ms) | fabs < 1e-6) and
        all((.ttft_client_ms + .ttft_network_ms + .server_ms +
             .ttft_unaccounted_ms - .ttft_ms) | fabs < 1e-6) and
        (.[1:] | all(.wf_conn == "reused"))' "$T/p.jsonl" >/dev/null ||
        { cat "$T/p.jsonl"; fail "the proxy trace's waterfall lacks the proxy's side or the upstream's RTT"; }
    # sleeps never come early: the lower bounds hold every time
    jq -se --argjson w $WANT --argjson t $TT '
        all(.ttft_gateway_ms > $w - 0.5 and
            .ttft_gateway_ms + .headers_to_token_ms > $w + $t - 0.5)' \
        "$T/p.jsonl" >/dev/null || { cat "$T/p.jsonl"; fail "an upstream part below what was set"; }
    # the upper bounds (2 ms), on the best of the reused connections: a
    # loaded machine wakes a sleeper late (which only adds), a bug moves
    # every request; a miss is recorded again
    jq -se --argjson w $WANT --argjson t $TT --slurpfile c <(jq -s . "$T/c.jsonl") '
        ($c[0] | map(.ttft_ms)) as $cli |
        [range(1; length) as $i | .[$i] + {cli_ttft: $cli[$i]}] |
        (map(.wf_proxy_in_ms) | min) < 2 and (map(.wf_proxy_out_ms) | min) < 2 and
        (map(.ttft_gateway_ms) | min) < $w + 2 and
        (map(.headers_to_token_ms) | min) < $t + 2 and
        (map(.cli_ttft - .wf_proxy_client_ttft_ms) | min) < 2 and
        (map(.cli_ttft - .wf_proxy_client_ttft_ms) | min) > -1' \
        "$T/p.jsonl" >/dev/null && break
    echo "proxy_waterfall: attempt $attempt missed by more than 2 ms:" >&2
    jq -c '[.wf_proxy_in_ms, .wf_proxy_out_ms, .ttft_gateway_ms, .headers_to_token_ms, .wf_proxy_client_ttft_ms]' "$T/p.jsonl" >&2
    jq -c '.ttft_ms' "$T/c.jsonl" >&2
    [ "$attempt" = 5 ] && fail "a part more than 2 ms from what was set, 5 times"
done

# per model x class: summary --detail rows and JSON
"$TT_ANALYZE" summary "$T/p.ttrace" --detail >"$T/detail.txt"
for row in "TTFT: proxy, request in" "TTFT: proxy, first token out" "TCP RTT (kernel)"; do
    grep -qF "$row" "$T/detail.txt" || { cat "$T/detail.txt"; fail "summary --detail lacks '$row'"; }
done
"$TT_ANALYZE" summary "$T/p.ttrace" --format json |
    jq -e '.groups[0].ttft_proxy_in_ms.n == 4 and .groups[0].ttft_proxy_out_ms.n == 4' >/dev/null ||
    fail "summary JSON lacks the proxy's parts"
# the HTML report's bar starts and ends with the proxy's parts (it had
# the upstream's only: shorter than the TTFT the client saw)
"$TT_ANALYZE" plot "$T/p.ttrace" -o "$T/charts" --html >/dev/null 2>&1 || fail "plot --html"
for part in "proxy: request in" "proxy: first token out"; do
    grepq -F "<th class=\"n\">$part (ms)</th>" <"$T/charts/report.html" ||
        fail "report.html: no '$part' column"
done
grepq -E '<title>proxy: first token out [0-9.]+ ms</title>' <"$T/charts/report.html" ||
    fail "report.html: no bar part for the proxy's first token"
"$TT_ANALYZE" plot "$T/client.ttrace" -o "$T/ccharts" --html >/dev/null 2>&1 || fail "plot --html (client)"
! grepq -F "proxy: request in" <"$T/ccharts/report.html" ||
    fail "a recorder's report has the proxy's parts"
# a trace not from the proxy has none of them
"$TT_ANALYZE" summary "$T/client.ttrace" --format json |
    jq -e '.groups[0] | has("ttft_proxy_in_ms") | not' >/dev/null ||
    fail "a recorder's trace has proxy parts"
echo "proxy_waterfall: ok"
