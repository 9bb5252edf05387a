# tests/lib/doctor_lib.sh: helpers of the --check and Cline settings tests
# (sourced after lib.sh; not a test itself).

# rec NAME ARGS...: runs tokentrace-record ARGS with stdout in $T/NAME.out
# and stderr in $T/NAME.err; sets RC to its exit code (never fails).
rec() {
    local name=$1; shift
    set +e
    "$TT_RECORD" "$@" >"$T/$name.out" 2>"$T/$name.err"
    RC=$?
    set -e
}

# expect_rc WANT NAME: fails unless the last rec exited WANT.
expect_rc() {
    [ "$RC" -eq "$1" ] || fail "$2: exit $RC, want $1; stdout: $(cat "$T/$2.out"); stderr: $(cat "$T/$2.err")"
}

# has NAME.STREAM TEXT: fails unless $T/NAME.STREAM (out or err) contains
# TEXT (a fixed string).
has() {
    grep -qF -- "$2" "$T/$1" || fail "$1 lacks '$2': $(cat "$T/$1")"
}

# hasnt NAME.STREAM TEXT: the opposite.
hasnt() {
    if grep -qF -- "$2" "$T/$1"; then fail "$1 has '$2': $(cat "$T/$1")"; fi
}

# ttft_of NAME MODEL: the TTFT in ms (integer part) of MODEL's OK line.
ttft_of() {
    sed -n "s/^$2: OK: streams: TTFT \([0-9]*\)\.[0-9]* ms.*/\1/p" "$T/$1.out"
}

# between VALUE LOW HIGH WHAT: LOW <= VALUE < HIGH (integers).
between() {
    [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -lt "$3" ] ||
        fail "$4: '$1' not in [$2, $3)"
}

# tcp_helper MODE: starts tests/lib/doctor_tcp.py (backlog: a listening socket
# whose backlog is full, so connects time out; silent: accepts and never
# answers); sets HELPER_PORT.
tcp_helper() {
    local pf="$T/helper.$1.port"
    python3 "$TT_SOURCE_DIR/tests/lib/doctor_tcp.py" "$1" >"$pf" 2>"$T/helper.err" &
    TT_PIDS+=("$!")
    wait_port_file "$pf" "$!" "$T/helper.err" "tcp helper $1"
    HELPER_PORT=$(head -1 "$pf")
}
