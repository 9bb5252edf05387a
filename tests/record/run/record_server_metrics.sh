#!/usr/bin/env bash
# record_server_metrics: --server-metrics scrapes a Prometheus endpoint (a
# small python3 server, tests/lib/metrics_server.py, serving the vLLM
# samples of tests/data/server_metrics/, a new page per GET) before, during
# and after a run against tokentrace-replay, through real libcurl. The
# trace holds one record per scrape with only the families that matter; the
# key never goes to the metrics URL unless --server-metrics-send-key; a
# failing or unreachable endpoint is recorded with its kind, warned about
# once, and the run goes on; credentials in the URL are not stored.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

KEY=sk-tt-metrics-0123456789abcdef0123
SAMPLES=$(tt_data server_metrics)

# start_metrics NAME ARGS...: a metrics server; sets MURL and MLOG.
start_metrics() {
    local name=$1 pf
    shift
    pf="$T/$name.port"
    MLOG="$T/$name.log"
    python3 "$TT_SOURCE_DIR/tests/lib/metrics_server.py" "$pf" "$MLOG" "$@" \
        2>"$T/$name.err" &
    TT_PIDS+=("$!")
    wait_port_file "$pf" "$!" "$T/$name.err" "metrics server $name"
    MURL="http://127.0.0.1:$(cat "$pf")/metrics"
}

start_replay --synthetic 'ttft=40ms,tpot=4ms,tokens=20'
start_metrics vllm "$SAMPLES/vllm"

# 1. scrapes before, during, after; only the families that matter
OPENAI_API_KEY=$KEY "$TT_RECORD" -u "$URL" -m test -n 3 -c 1 -q \
    --server-metrics "$MURL" --server-metrics-interval 100ms \
    -o "$T/a.ttrace" 2>"$T/a.err" || { cat "$T/a.err" >&2; fail "record a"; }
d=$(dump "$T/a.ttrace")
check_complete "$d" 9
n=$(count "$d" server_metrics)
[ "$n" -ge 4 ] || fail "expected 4 or more scrapes (before, during..., after), got $n"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="server_metrics")|.when]|first')" before "first scrape"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="server_metrics")|.when]|last')" after "last scrape"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="server_metrics")|.when]|.[1:-1]|all(.=="during")')" true "scrapes between"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="server_metrics")|.http_status==200 and (.error_kind==null)]|all')" true "every scrape 200, no error"
assert_eq "$(jqs "$d" '[.[]|select(.kind=="server_metrics")|.url]|unique|.[0]')" "$MURL" "url stored"
# the before scrape is before the first request, the after one after the last
assert_eq "$(jqs "$d" '
    ([.[]|select(.kind=="request")|.start_ns]|min) as $s
    | ([.[]|select(.kind=="result")|.end_ns]|max) as $e
    | (map(select(.kind=="server_metrics"))) as $m
    | ($m[0].end_ns <= $s) and ($m[-1].start_ns >= $e)')" true "before/after bracket the requests"
# records come after the header, the "after" one before the footer
assert_eq "$(jqs "$d" 'map(.kind)|(index("server_metrics") > index("header")) and (rindex("server_metrics") < index("footer"))')" true "record order"
# kept: the families that matter (with their TYPE lines); not HELP, not
# python_gc / process_*, not the families left out
t=$(jqs "$d" '[.[]|select(.kind=="server_metrics")]|.[0].text')
for want in '# TYPE vllm:num_requests_running gauge' 'vllm:num_requests_waiting{' \
    'vllm:kv_cache_usage_perc{' 'vllm:time_to_first_token_seconds_bucket{' \
    'vllm:request_queue_time_seconds_sum{' 'vllm:generation_tokens_total{' \
    'vllm:request_success_total{'; do
    grep -qF -- "$want" <<<"$t" || fail "kept text lacks $want"
done
for not in '# HELP' python_gc process_open_fds vllm:cache_config_info \
    vllm:request_prompt_tokens_bucket vllm:prefix_cache_queries; do
    ! grep -qF -- "$not" <<<"$t" || fail "kept text has $not"
done
[ "$(jqs "$d" '[.[]|select(.kind=="server_metrics")]|.[0].lines_dropped')" -gt 0 ] ||
    fail "dropped lines not counted"
# the key never went to the metrics server, and is nowhere in the trace
! grep -q "authorization=yes" "$MLOG" || fail "the key went to the metrics URL"
! grep -qaF "$KEY" "$T/a.ttrace" || fail "the key is in the trace"
"$TT_ANALYZE" check "$T/a.ttrace" >"$T/a.check" || { cat "$T/a.check" >&2; fail "check"; }
grep -q "server metrics scrapes" "$T/a.check" || fail "check does not count the scrapes"

# 2. --server-metrics-send-key: the key goes there too
: >"$MLOG"
OPENAI_API_KEY=$KEY "$TT_RECORD" -u "$URL" -m test -n 1 -c 1 -q --classes short-short \
    --server-metrics "$MURL" --server-metrics-send-key -o "$T/b.ttrace" ||
    fail "record b"
grep -q "authorization=yes" "$MLOG" || fail "--server-metrics-send-key sent no key"
! grep -q "authorization=no" "$MLOG" || fail "a scrape without the key"

# 3. a failing endpoint (500 from the second GET) and an unreachable one:
# each failure recorded with its kind, one warning per URL and kind, the
# run unharmed
start_metrics failing "$SAMPLES/vllm" --fail-from 1
dead="http://127.0.0.1:1/metrics"
OPENAI_API_KEY=$KEY "$TT_RECORD" -u "$URL" -m test -n 3 -c 1 --progress never \
    --server-metrics "$MURL" --server-metrics "$dead" \
    --server-metrics-interval 100ms -o "$T/c.ttrace" 2>"$T/c.err" ||
    { cat "$T/c.err" >&2; fail "record c"; }
d=$(dump "$T/c.ttrace")
check_complete "$d" 9
assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.error_kind]|all(.==null)')" true "requests unharmed"
assert_eq "$(jqs "$d" "[.[]|select(.kind==\"server_metrics\" and .url==\"$MURL\")]|(.[0].error_kind==null) and (.[1:]|all(.error_kind==\"http_500\" and .text==\"\"))")" true "500s recorded"
assert_eq "$(jqs "$d" "[.[]|select(.kind==\"server_metrics\" and .url==\"$dead\")]|length>=2 and all(.error_kind==\"connect\")")" true "connect failures recorded"
assert_eq "$(grep -c 'scrape failed (http_500)' "$T/c.err")" 1 "one warning for the 500s"
assert_eq "$(grep -c 'scrape failed (connect)' "$T/c.err")" 1 "one warning for the dead URL"
grep -q -- "--server-metrics: .* scrapes failed" "$T/c.err" || fail "no count of failed scrapes"

# 4. credentials in the metrics URL are not stored
creds="http://scraper:s3cr3tpass@${MURL#http://}"
"$TT_RECORD" -u "$URL" -m test -n 1 -c 1 -q --classes short-short \
    --server-metrics "$creds" -o "$T/d.ttrace" 2>/dev/null || fail "record d"
! grep -qaF s3cr3tpass "$T/d.ttrace" || fail "the URL's password is in the trace"

# 5. share copies the scrapes as they are, and drops them when the models
# are anonymized (their labels name the model)
"$TT_ANALYZE" share "$T/a.ttrace" -o "$T/s.ttrace" 2>"$T/s.err" >/dev/null || fail "share"
assert_eq "$(count "$(dump "$T/s.ttrace")" server_metrics)" "$(count "$T/a.ttrace.jsonl" server_metrics)" "scrapes kept by share"
assert_eq "$(jqs "$T/s.ttrace.jsonl" '[.[]|select(.kind=="server_metrics")|.text]')" \
    "$(jqs "$T/a.ttrace.jsonl" '[.[]|select(.kind=="server_metrics")|.text]')" "scrape text unchanged"
"$TT_ANALYZE" share "$T/a.ttrace" -o "$T/s2.ttrace" --anonymize-models >"$T/s2.out" 2>&1 || fail "share --anonymize-models"
assert_eq "$(count "$(dump "$T/s2.ttrace")" server_metrics)" 0 "scrapes dropped with --anonymize-models"
grep -q "dropped: .* server metrics scrapes" "$T/s2.out" || fail "share does not say it dropped the scrapes"

# 6. usage errors
expect_exit 2 "$TT_RECORD" -u "$URL" -m test --server-metrics ftp://x/metrics -o "$T/e.ttrace"
expect_exit 2 "$TT_RECORD" -u "$URL" -m test --server-metrics "$MURL" \
    --server-metrics-interval 1ms -o "$T/e.ttrace"
"$TT_RECORD" --help >"$T/help"
grep -q -- "--server-metrics URL" "$T/help" || fail "--help lacks --server-metrics"
echo ok
