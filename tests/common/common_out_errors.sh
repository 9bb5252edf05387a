#!/usr/bin/env bash
# common_out_errors: an output file that cannot be written gets one sentence
# from every program (common/out_error.c, issue 32): "cannot write PATH: its
# directory DIR does not exist", "... A is not a directory", "... it is a
# directory", "... permission denied", never "input/output error" in front
# of the errno (record said "input/output error: No such file or directory",
# the proxy "input/output error" and nothing else).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
: "${TT_PROXY:?}"
unset OPENAI_BASE_URL OPENAI_API_KEY
U=http://127.0.0.1:1/v1 # never reached: the output is opened first
N=$T/nodir
: >"$T/file"
"$TT_GEN_TRACE" "$T/in.ttrace" 3 3 >/dev/null

# says CODE WANT CMD...: CMD exits with CODE and its stderr has the line
# "PROGRAM: error: WANT", and no "input/output error".
says() {
    local code=$1 want=$2
    shift 2
    expect_exit "$code" "$@" >"$T/out" 2>"$T/err"
    grep -qxF -- "$(basename "$1"): error: $want" "$T/err" ||
        fail "$*: want '$want', got: $(cat "$T/err")"
    ! grep -q "input/output error" "$T/err" || fail "$*: $(cat "$T/err")"
}

nodir="cannot write $N/x.ttrace: its directory $N does not exist"
says 1 "$nodir" "$TT_RECORD" -u $U -m a -n 1 -o "$N/x.ttrace"
says 1 "$nodir" "$TT_RECORD" --check -u $U -m a -o "$N/x.ttrace"
says 1 "$nodir" "$TT_PROXY" -u $U -o "$N/x.ttrace"
says 2 "share: $nodir" "$TT_ANALYZE" share "$T/in.ttrace" -o "$N/x.ttrace"
# --procs: each shard says it, and the join does not claim part files
# that were never written (it said "the part files ... are kept")
says 1 "--procs: joining the shards' traces failed: $nodir (no shard wrote its part file)" \
    "$TT_RECORD" -u $U -m a -n 2 -c 2 --procs 2 -o "$N/x.ttrace"
says 1 "cannot write $T/file/x.ttrace: $T/file is not a directory" \
    "$TT_RECORD" -u $U -m a -n 1 -o "$T/file/x.ttrace"
says 1 "cannot write $T: it is a directory" "$TT_RECORD" -u $U -m a -n 1 --force -o "$T"
says 1 "cannot write $T: it is a directory" "$TT_PROXY" -u $U -f -o "$T"
# an existing file: the same sentence everywhere (the proxy said "file
# exists (use --force to overwrite) (use -f to overwrite)")
exists="$T/file exists; use --force to overwrite it or -o to pick another name"
says 2 "$exists" "$TT_PROXY" -u $U -o "$T/file"
says 2 "$exists" "$TT_RECORD" -u $U -m a -n 1 -o "$T/file"

# the servers' port file and send log
says 1 "--port-file: cannot write $N/port: its directory $N does not exist" \
    "$TT_REPLAY" --listen 127.0.0.1:0 --synthetic tokens=3 --port-file "$N/port"
says 1 "--log-sends: cannot write $N/log: its directory $N does not exist" \
    "$TT_REPLAY" --listen 127.0.0.1:0 --synthetic tokens=3 --log-sends "$N/log"
says 1 "--port-file: cannot write $N/port: its directory $N does not exist" \
    "$TT_PROXY" -u $U --listen 127.0.0.1:0 -o "$T/p.ttrace" --port-file "$N/port"

# the charts' report: report.html taken by a directory is said, and not
# listed on stdout as written
mkdir -p "$T/plot/report.html"
says 1 "cannot write $T/plot/report.html: it is a directory" \
    "$TT_ANALYZE" plot "$T/in.ttrace" -o "$T/plot" --html
! grep -q 'report.html$' "$T/out" || fail "plot lists the report it could not write"

# a write that fails after the open (/dev/full: ENOSPC) says its errno too
# (the proxy said "cannot write the trace header: input/output error",
# share "/dev/full: input/output error")
if [ -w /dev/full ]; then
    says 2 "share: cannot write /dev/full: No space left on device" \
        "$TT_ANALYZE" share "$T/in.ttrace" --force -o /dev/full
    says 1 "/dev/full: cannot write the trace header: No space left on device" \
        "$TT_PROXY" -u $U --listen 127.0.0.1:0 -f -o /dev/full
    expect_exit 1 "$TT_RECORD" -u $U -m a -n 1 --force -o /dev/full 2>"$T/err"
    grepq -F "writing the trace /dev/full failed: No space left on device" <"$T/err" ||
        fail "record -o /dev/full: $(cat "$T/err")"
fi

# plot -o onto a file: said once, before any chart (it went on to six
# "cannot write FILE/x.dat" and listed the charts on stdout)
says 1 "$T/file: cannot create the directory: File exists" \
    "$TT_ANALYZE" plot "$T/in.ttrace" -o "$T/file"
[ "$(wc -l <"$T/err")" -eq 1 ] || fail "plot -o FILE: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "plot -o FILE lists: $(cat "$T/out")"

# permission (root writes anywhere: only as another user)
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$T/ro" && chmod 555 "$T/ro"
    says 1 "cannot write $T/ro/x.ttrace: permission denied in its directory $T/ro" \
        "$TT_RECORD" -u $U -m a -n 1 -o "$T/ro/x.ttrace"
    chmod 755 "$T/ro"
else
    echo "as root: the permission case is left to out_error_test"
fi
echo ok
