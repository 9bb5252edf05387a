# tests/lib/proxy_lib.sh: helpers of the tokentrace-proxy tests (sourced
# after lib.sh and record_lib.sh). The proxy forwards to the replay server
# start_replay ran ($URL).
: "${TT_PROXY:?}"

# start_proxy TRACE ARGS...: starts tokentrace-proxy on a free loopback
# port, forwarding to $URL and recording to TRACE; sets PXURL, PROXY_PID
# and PXERR (its stderr).
start_proxy() {
    local trace=$1; shift
    local pf="$T/pxport.$RANDOM"
    PXERR="$trace.err"
    "$TT_PROXY" --listen 127.0.0.1:0 --port-file "$pf" -u "$URL" -o "$trace" -f "$@" 2>"$PXERR" &
    PROXY_PID=$!
    TT_PIDS+=("$PROXY_PID")
    wait_port_file "$pf" "$PROXY_PID" "$PXERR" "proxy"
    PXURL="http://127.0.0.1:$(cat "$pf")"
}

# stop_proxy: SIGINT, and waits for it to write its footer and exit 0.
stop_proxy() {
    kill -INT "$PROXY_PID"
    local rc=0
    wait "$PROXY_PID" || rc=$?
    [ "$rc" -eq 0 ] || { cat "$PXERR" >&2; fail "proxy exited $rc"; }
}

# chunk_bytes JSONL ID OUT: the body bytes the proxy received from the
# upstream for request ID (its chunk records, in order) into OUT.
chunk_bytes() {
    python3 - "$1" "$2" "$3" <<'PY'
import base64, json, sys
with open(sys.argv[1]) as f, open(sys.argv[3], "wb") as out:
    for line in f:
        r = json.loads(line)
        if r["kind"] == "chunk" and r["request_id"] == int(sys.argv[2]):
            out.write(r["data"].encode() if "data" in r else base64.b64decode(r["data_b64"]))
PY
}

# sent_bytes SENDS RR: the body bytes the replay server wrote for its
# request rr-RR (the last cumulative count of its --log-sends lines).
sent_bytes() {
    awk -F'\t' -v id="$2" '$1 == id {n=$5} END {print n+0}' "$1"
}
