# tests/lib/replay_lib.sh: helpers for the tokentrace-replay shell tests. Source
# after lib.sh. Requests go through real curl to the server start_replay ran.

# post PATH JSON OUT [curl args...]: POSTs JSON to $URL/PATH with curl -sN,
# body to OUT, headers to OUT.h; prints curl's exit code (never fails).
post() {
    local path=$1 json=$2 out=$3; shift 3
    set +e
    curl -sN -D "$out.h" -o "$out" -H 'Content-Type: application/json' \
        "$@" --data-binary "$json" "$URL$path"
    local rc=$?
    set -e
    echo "$rc"
}

# status_of OUT: the HTTP status of the response saved by post.
status_of() { awk 'NR==1 {print $2}' "$1.h"; }

# header_of OUT NAME: a response header's value (case-insensitive).
header_of() {
    awk -v n="$2" 'BEGIN{IGNORECASE=1} tolower($0) ~ "^" tolower(n) ":" {
        sub(/^[^:]*:[ ]*/, ""); sub(/\r$/, ""); print; exit }' "$1.h"
}

# data_json OUT: every SSE data payload except [DONE], one JSON per line.
data_json() { sed -n 's/\r$//; s/^data: //p' "$1" | grep -v '^\[DONE\]$' || true; }

# count_lines TEXT: number of non-empty lines.
count_lines() { grep -c . || true; }

# chat_template MODEL [extra JSON members]: a chat request body.
chat_body() {
    local model=$1 extra=${2:-}
    printf '{"model":"%s","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"Say something nice about the weather today."}]%s}' "$model" "$extra"
}

# stats: the server's /_replay/stats JSON.
stats() { curl -s "$URL/_replay/stats"; }

# wait_active N: waits (up to 5 s) until the server has N live streams.
wait_active() {
    local want=$1 got=""
    for _ in $(seq 1 100); do
        got=$(stats | jq .active_streams)
        [ "$got" = "$want" ] && return 0
        sleep 0.05
    done
    fail "active_streams is $got, want $want"
}

# sends_of FILE ID N: the --log-sends lines of request ID, waiting (up to
# 3 s) for the once-a-second flush to have written at least N of them.
sends_of() {
    local file=$1 id=$2 want=$3 n=0
    for _ in $(seq 1 30); do
        n=$(awk -F'\t' -v id="$id" '$1 == id' "$file" 2>/dev/null | grep -c . || true)
        [ "$n" -ge "$want" ] && break
        sleep 0.1
    done
    awk -F'\t' -v id="$id" '$1 == id' "$file"
}
