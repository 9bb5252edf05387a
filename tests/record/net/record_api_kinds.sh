#!/usr/bin/env bash
# The recorder against the replay server for each API kind: a complete trace
# (header, every request with its result and chunks, footer), the right URL
# path and body shape, interleaved models and classes, X-Request-Id sent and
# echoed, timestamps that line up.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=30ms,tpot=2ms,tokens=12'

for api in openai-chat openai-completions anthropic openai-responses; do
    out="$T/$api.ttrace"
    # The trailing slash is removed with a warning.
    "$TT_RECORD" -u "$URL/" -m model-a -m model-b -n 2 -c 3 --api "$api" \
        -o "$out" 2>"$T/$api.err" || fail "$api: exit $? ($(cat "$T/$api.err"))"
    grep -q "warning: removed the trailing slash" "$T/$api.err" || fail "$api: no trailing-slash warning"
    grep -q "requests: 12 ok, 0 failed" "$T/$api.err" || fail "$api: summary: $(cat "$T/$api.err")"
    "$TT_ANALYZE" check "$out" >/dev/null || fail "$api: check failed"
    d=$(dump "$out")
    # 2 models x 3 classes x 2 requests
    check_complete "$d" 12
    assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.api')" "$api" "$api: header api"
    case $api in
        openai-chat) path=/v1/chat/completions ;;
        openai-completions) path=/v1/completions ;;
        anthropic) path=/v1/messages ;;
        openai-responses) path=/v1/responses ;;
    esac
    assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.url')" "$URL$path" "$api: url"
    assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.endpoint')" "$URL" "$api: endpoint"
    assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.models|join(",")')" "model-a,model-b" "$api: models"
    assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.workload')" builtin "$api: workload"
    assert_eq "$(jqs "$d" '.[]|select(.kind=="header")|.options.concurrency')" 3 "$api: concurrency option"
    # every request succeeded with a 200 event stream
    assert_eq "$(jqs "$d" 'map(select(.kind=="result")|select(.http_status==200 and .error_kind==null))|length')" 12 "$api: ok results"
    assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|"\(.ok) \(.failed) \(.interrupted) \(.reason)"')" "12 0 false complete" "$api: footer"
    # interleaving: A B A B within each class, classes round-robin
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map(.model[-1:])|join("")')" abababababab "$api: model order"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")]|sort_by(.id)|map(.class)|join(",")')" \
        "short-short,short-short,short-long,short-long,long-short,long-short,short-short,short-short,short-long,short-long,long-short,long-short" "$api: class order"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="request" and .class=="short-short")|.prompt_index]|join(",")')" "0,0,1,1" "$api: prompt order"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.max_tokens]|unique|join(",")')" "64,1024" "$api: max_tokens by class"
    assert_eq "$(jqs "$d" 'map(select(.kind=="request" and .class=="long-short" and .input_tokens_est > 3000))|length')" 4 "$api: long-short inputs"
    # X-Request-Id: <trace id>-<id>, echoed by the server
    tid=$(jqs "$d" '.[]|select(.kind=="header")|.trace_id')
    [[ $tid =~ ^[0-9a-f]{8}$ ]] || fail "$api: trace id '$tid'"
    assert_eq "$(jqs "$d" 'map(select(.kind=="request")|select(.request_id==("'"$tid"'-"+(.id|tostring))))|length')" 12 "$api: request ids"
    assert_eq "$(jqs "$d" 'map(select(.kind=="result")|select(.headers["x-request-id"]==("'"$tid"'-"+(.id|tostring))))|length')" 12 "$api: echoed request ids"
    # body shape per API kind
    case $api in
        openai-chat)
            assert_eq "$(jqs "$d" 'map(select(.kind=="request")|.body|fromjson|select(.stream==true and .stream_options.include_usage==true and (.messages|length)==1))|length')" 12 "chat bodies" ;;
        openai-completions)
            assert_eq "$(jqs "$d" 'map(select(.kind=="request")|.body|fromjson|select(.stream==true and .stream_options.include_usage==true and (.prompt|type)=="string" and .messages==null))|length')" 12 "completions bodies" ;;
        anthropic)
            assert_eq "$(jqs "$d" 'map(select(.kind=="request")|.body|fromjson|select(.stream==true and .stream_options==null and (.max_tokens|type)=="number"))|length')" 12 "anthropic bodies"
            assert_eq "$(jqs "$d" 'map(select(.kind=="chunk")|.data // ""|select(test("event: message_start")))|length>=12')" true "anthropic events" ;;
        openai-responses)
            assert_eq "$(jqs "$d" 'map(select(.kind=="request")|.body|fromjson|select(.stream==true and .stream_options==null and .messages==null and (.input|length)==1 and .input[0].role=="user" and (.max_output_tokens|type)=="number" and .max_tokens==null))|length')" 12 "responses bodies"
            assert_eq "$(jqs "$d" 'map(select(.kind=="chunk")|.data // ""|select(test("event: response.completed")))|length')" 12 "responses events" ;;
    esac
    # times: start <= first byte == first chunk <= every chunk <= end; closed loop
    assert_eq "$(jqs "$d" '
        (map(select(.kind=="request"))|map({key:(.id|tostring),value:.})|from_entries) as $rq
        | (map(select(.kind=="result"))|map({key:(.id|tostring),value:.})|from_entries) as $rs
        | (map(select(.kind=="chunk"))|group_by(.request_id)) as $g
        | $g|map(.[0].request_id|tostring) as $ids
        | [$g[] | . as $cs | ($cs[0].request_id|tostring) as $i
            | ($rq[$i].start_ns <= $cs[0].t_ns) and ($cs[0].t_ns == $rs[$i].first_byte_ns)
              and ($cs[-1].t_ns <= $rs[$i].end_ns)
              and ([$cs[].t_ns] == ([$cs[].t_ns]|sort))]
        | all and (length==12)')" true "$api: timestamps ordered"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.scheduled_ns]|unique|join(",")')" -1 "$api: closed loop has no schedule"
    assert_eq "$(jqs "$d" 'map(select(.kind=="result")|select(.phases.starttransfer_ns>0 and .phases.total_ns>=.phases.starttransfer_ns and .phases.tls_ns==-1 and .phases.posttransfer_ns==-1))|length')" 12 "$api: phase times"
done

# The analyzer reads what was recorded: 12 ok per trace, 20 tokens each.
"$TT_ANALYZE" summary "$T/openai-chat.ttrace" --format json >"$T/summary.json"
assert_eq "$(jq '.overall.ok' "$T/summary.json")" 12 "analyzed ok requests"
echo ok
