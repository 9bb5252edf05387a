#!/usr/bin/env bash
# record_analyze_agree: the recorder and the analyzer never disagree on ok /
# failed. For EVERY fault kind tokentrace-replay knows (the list is read from
# the server itself, so a new fault is covered without touching this test)
# and each API kind, over real HTTP: the recorder's own counts (its summary
# line and the footer), each result record, the analyzer's requests rows
# (ok and error_kind), its summary JSON, its info, and the doctor (--check:
# OK exactly when the recorder's requests of that model were ok) agree.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

known=$("$TT_REPLAY" --fault no-such-fault 2>&1 || true)
faults=$(sed -n 's/.*(known: \([^)]*\)).*/\1/p' <<<"$known" | tr -d ',')
[ "$(wc -w <<<"$faults")" -ge 28 ] || fail "fault list not read: $known"

apis="openai-chat openai-completions anthropic openai-responses"
args=() models=(-m healthy)
for f in $faults; do
    args+=(--fault "$f@m-$f")
    models+=(-m "m-$f")
done
n=$(( ($(wc -w <<<"$faults") + 1) * 2 ))

# agree API URL: records every fault once for API and compares.
agree() {
    local api=$1 URL=$2 out="$T/$1.ttrace" d="$T/$1.jsonl" rc
    set +e
    "$TT_RECORD" -u "$URL" --api "$api" "${models[@]}" -n 2 --classes short-short \
        -c 80 --idle-timeout 1 --timeout 10 -o "$out" 2>"$T/$api.err"
    rc=$?
    set -e
    [ "$rc" -le 1 ] || fail "$api: recorder exit $rc: $(cat "$T/$api.err")"
    # the records without the chunks (endless-line's are 32 MiB)
    "$TT_ANALYZE" dump "$out" | jq -c 'select(.kind != "chunk")' >"$d" || fail "$api: dump"
    assert_eq "$(count "$d" result)" "$n" "$api: result records"

    # the recorder's own line and its footer
    line=$(sed -n 's/.*requests: \([0-9]*\) ok, \([0-9]*\) failed.*/\1 \2/p' "$T/$api.err")
    foot=$(jqs "$d" '.[]|select(.kind=="footer")|"\(.ok) \(.failed)"')
    assert_eq "$line" "$foot" "$api: recorder line vs footer"
    kinds=$(jqs "$d" 'map(select(.kind=="result"))|"\(map(select(.error_kind==null))|length) \(map(select(.error_kind!=null))|length)"')
    assert_eq "$kinds" "$foot" "$api: result records vs footer"

    # per request: the recorder's kind is the analyzer's, and so is ok
    jqs "$d" '(map(select(.kind=="request"))|map({key:(.id|tostring),value:.model})|from_entries) as $m
        | .[]|select(.kind=="result")|"\(.id) \($m[.id|tostring]) \(.error_kind // "ok")"' | sort -n >"$T/$api.rec"
    "$TT_ANALYZE" requests --format json "$out" >"$T/$api.req.json" || fail "$api: requests exit $?"
    jq -r '"\(.id) \(.model) \(if .ok then "ok" else .error_kind end)"' "$T/$api.req.json" | sort -n >"$T/$api.ana"
    diff "$T/$api.rec" "$T/$api.ana" >"$T/$api.diff" ||
        fail "$api: recorder and analyzer disagree (id model recorder | analyzer): $(cat "$T/$api.diff")"

    # the analyzer's totals: summary JSON and info
    s=$("$TT_ANALYZE" summary --format json "$out") || fail "$api: summary exit $?"
    assert_eq "$(jq -r '[.groups[]|select(.model != null and .class != null)]|"\(map(.ok)|add) \(map(.failed)|add)"' <<<"$s")" \
        "$foot" "$api: summary JSON vs footer"
    read -r ok failed <<<"$foot"
    "$TT_ANALYZE" info "$out" >"$T/$api.info" || fail "$api: info exit $?"
    grep -q "| requests | $n ($ok ok, $failed failed)" "$T/$api.info" ||
        fail "$api: info: $(grep '| requests' "$T/$api.info")"

    # the doctor: OK for a model exactly when its requests were ok
    set +e
    "$TT_RECORD" -u "$URL" --api "$api" "${models[@]}" --idle-timeout 1 --timeout 10 \
        --check >"$T/$api.check" 2>&1
    set -e
    for model in healthy $(printf 'm-%s ' $faults); do
        rec=$(awk -v m="$model" '$2==m{print ($3=="ok" ? "ok" : "failed")}' "$T/$api.rec" | sort -u | tr '\n' ' ')
        if grep -q "^$model: OK" "$T/$api.check"; then doc="ok "
        elif grep -q "^$model: FAIL" "$T/$api.check"; then doc="failed "
        else fail "$api: no verdict for $model: $(cat "$T/$api.check")"; fi
        assert_eq "$doc" "$rec" "$api: doctor vs recorder for $model"
    done
}

# one server per API kind (started here, so the cleanup stops them), the
# three compared at once: most of the time is spent waiting on timeouts
pids=() urls=()
for api in $apis; do
    start_replay --synthetic 'ttft=10ms,tpot=1ms,tokens=6' "${args[@]}"
    urls+=("$URL")
done
i=0
for api in $apis; do
    agree "$api" "${urls[$i]}" &
    pids+=($!)
    i=$((i + 1))
done
for p in "${pids[@]}"; do
    wait "$p" || fail "see above"
done
echo ok
