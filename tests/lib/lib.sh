# tests/lib/lib.sh: helpers shared by the end-to-end shell tests.
# Source it first: `. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"`. It sets -eu, makes a private
# scratch directory $T (removed on success, kept on failure), and kills every
# server started with start_replay when the test exits.
set -euo pipefail

: "${TT_RECORD:?}" "${TT_REPLAY:?}" "${TT_ANALYZE:?}" "${TT_SOURCE_DIR:?}" "${TT_GEN_TRACE:?}"
# The tests talk to 127.0.0.1 only: a proxy from the machine's environment
# would change what they measure (record_proxy sets its own).
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY
mkdir -p "${TT_TEST_TMP:-/tmp}"
T=$(mktemp -d "${TT_TEST_TMP:-/tmp}/$(basename "$0" .sh).XXXXXX")
TT_PIDS=()

tt_cleanup() {
    local rc=$?
    for p in "${TT_PIDS[@]:-}"; do
        [ -n "$p" ] && kill "$p" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    if [ "$rc" -eq 0 ]; then rm -rf "$T"; else echo "test files kept in $T" >&2; fi
    exit "$rc"
}
trap tt_cleanup EXIT

# grepq [GREP-FLAGS] PATTERN: grep -q on stdin that reads its input to the
# end. Use it after a pipe: grep -q leaves at the first match, so a writer
# whose output is over one stdio buffer (4 KiB; longer paths on another
# machine are enough) dies of SIGPIPE and pipefail fails the pipeline.
grepq() {
    local rc=0
    grep -q "$@" || rc=$?
    cat >/dev/null
    return "$rc"
}

# server_account DUMP PICK FIELDS: the server's own account of each request
# in DUMP (tokentrace-analyze dump's lines): its last data event for which
# the jq test PICK holds (e.g. '.timings != null'), parsed from the chunk
# bytes, as the line "ID FIELDS" (FIELDS a jq string body over $f, e.g.
# '\($f.timings.prompt_ms)'), sorted by id.
server_account() {
    jq -rs '[.[] | select(.kind == "chunk")] | group_by(.request_id)[] |
        (map(.data // "") | join("") | split("\n") | map(select(startswith("data: {")) | ltrimstr("data: ") | fromjson)
         | map(select('"$2"')) | last) as $f | "\(.[0].request_id) '"$3"'"' "$1" | sort -n
}

# fail MESSAGE: print and exit 1.
fail() { echo "FAIL: $*" >&2; exit 1; }

# wait_port_file PF PID ERR WHAT: waits up to 10 s for the server PID (WHAT,
# for the message) to write its port into the file PF; fails, showing its
# stderr file ERR, when it dies first or no port comes.
wait_port_file() {
    local pf=$1 pid=$2 err=$3 what=$4
    for _ in $(seq 1 200); do
        [ -s "$pf" ] && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$err" >&2; fail "$what died"; }
        sleep 0.05
    done
    [ -s "$pf" ] || { cat "$err" >&2; fail "$what did not report its port"; }
}

# start_replay ARGS...: starts tokentrace-replay on a free loopback port with
# the given arguments; sets PORT and URL (base URL) and REPLAY_PID.
start_replay() {
    local pf="$T/port.$RANDOM"
    "$TT_REPLAY" --listen 127.0.0.1:0 --port-file "$pf" "$@" >"$T/replay.out" 2>"$T/replay.err" &
    REPLAY_PID=$!
    TT_PIDS+=("$REPLAY_PID")
    wait_port_file "$pf" "$REPLAY_PID" "$T/replay.err" "replay server"
    PORT=$(cat "$pf")
    URL="http://127.0.0.1:$PORT"
}

# expect_exit CODE CMD...: runs CMD, fails unless it exits with CODE.
expect_exit() {
    local want=$1; shift
    set +e; "$@"; local got=$?; set -e
    [ "$got" -eq "$want" ] || fail "expected exit $want, got $got: $*"
}

# assert_eq GOT WANT WHAT
assert_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"; }

# tt_data PATH: the file PATH under tests/data (golden traces, expected
# outputs, check lists).
tt_data() { echo "$TT_SOURCE_DIR/tests/data/$1"; }

# jq_checks CHECKS JSON: every line of the file CHECKS is a jq expression
# that must be true of JSON (blank lines and lines starting with # are
# skipped). Adding a check is adding a line.
jq_checks() {
    local e
    [ -s "$1" ] || fail "no checks in $1"
    while IFS= read -r e || [ -n "$e" ]; do
        case $e in '' | '#'*) continue ;; esac
        jq -e "$e" "$2" >/dev/null ||
            fail "${1##*/tests/data/}: $e -> $(jq -c "$e" "$2" 2>&1 | head -c 300)"
    done <"$1"
}

# has_lines LINES FILE: every line of the file LINES occurs, as a fixed
# string, in FILE (blank lines and lines starting with # are skipped).
has_lines() {
    local s
    [ -s "$1" ] || fail "no lines in $1"
    while IFS= read -r s || [ -n "$s" ]; do
        case $s in '' | '#'*) continue ;; esac
        grep -qF -- "$s" "$2" || fail "${2##*/} lacks: $s (${1##*/tests/data/})"
    done <"$1"
}
