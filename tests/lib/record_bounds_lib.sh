# tests/lib/record_bounds_lib.sh: helpers of the recorder tests that move many
# bytes (sourced after lib.sh; not a test itself).

# peak_kib OUT CMD...: runs CMD through tt_rusage ($TT_RUSAGE), returns its
# exit code and writes its peak RSS in KiB to OUT.
peak_kib() {
    local out=$1 rc; shift
    : "${TT_RUSAGE:?}"
    set +e; "$TT_RUSAGE" "$out.ru" "$@"; rc=$?; set -e
    awk '{print $4}' "$out.ru" >"$out"
    return "$rc"
}

# lean_dump TRACE: like dump (record_lib.sh) but without the chunk bytes,
# so checks over a trace of tens of MB read a small file. Prints the path.
lean_dump() {
    "$TT_ANALYZE" dump "$1" | jq -c 'del(.data)' >"$1.jsonl" || fail "dump $1 failed"
    echo "$1.jsonl"
}
