# tests/lib/record_lib.sh: helpers of the recorder's end-to-end tests (sourced
# after lib.sh; not a test itself).

# dump TRACE: writes the trace as JSON Lines to TRACE.jsonl (fails the test
# when the analyzer cannot read it) and prints that path.
dump() {
    "$TT_ANALYZE" dump "$1" >"$1.jsonl" || fail "dump $1 failed"
    echo "$1.jsonl"
}

# count JSONL KIND: the number of records of KIND.
count() { jq -s --arg k "$2" 'map(select(.kind==$k))|length' "$1"; }

# jqs JSONL FILTER: jq over the whole file as one array, raw output.
jqs() { jq -rs "$2" "$1"; }

# check_complete JSONL N: the trace has one header, N requests, N results
# (ids 1..N, each request with exactly one result), chunk counts and bytes
# that match the results, and a footer that agrees.
check_complete() {
    local d=$1 n=$2
    assert_eq "$(count "$d" header)" 1 "header records"
    assert_eq "$(count "$d" request)" "$n" "request records"
    assert_eq "$(count "$d" result)" "$n" "result records"
    assert_eq "$(count "$d" footer)" 1 "footer records"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="request")|.id]|sort==[range(1;'"$n"'+1)]')" true "request ids 1..$n"
    assert_eq "$(jqs "$d" '[.[]|select(.kind=="result")|.id]|sort==[range(1;'"$n"'+1)]')" true "one result per request"
    assert_eq "$(jqs "$d" '
        (map(select(.kind=="chunk"))|group_by(.request_id)|map({key:(.[0].request_id|tostring),value:{c:length,b:(map(.len)|add)}})|from_entries) as $c
        | map(select(.kind=="result") | (($c[.id|tostring] // {c:0,b:0}) as $x | $x.c==.chunks and $x.b==.bytes)) | all')" true "chunk records match result counts"
    assert_eq "$(jqs "$d" '.[]|select(.kind=="footer")|.requests')" "$n" "footer request count"
    assert_eq "$(jqs "$d" '(map(select(.kind=="chunk"))|length)==(.[]|select(.kind=="footer")|.chunks)')" true "footer chunk count"
}
