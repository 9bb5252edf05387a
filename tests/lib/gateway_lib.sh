# gateway_lib.sh: starts tests/lib/timed_gateway.py roles (an upstream with
# known header and first-token delays, a gateway with a known delay and a
# reported processing time). Sourced after lib.sh.
GW="$TT_SOURCE_DIR/tests/lib/timed_gateway.py"

# start_py PORT_FILE ROLE ARGS...: a timed_gateway.py role in the
# background, its port in PORT_FILE once it listens (lib.sh's
# wait_port_file: fails when it dies or never reports its port).
start_py() {
    local pf=$1
    shift
    python3 "$GW" "$1" "$pf" "${@:2}" 2>"$pf.err" &
    TT_PIDS+=("$!")
    wait_port_file "$pf" "$!" "$pf.err" "timed_gateway $1"
}
