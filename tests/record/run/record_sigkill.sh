#!/usr/bin/env bash
# A recorder killed with SIGKILL at any moment leaves a trace whose complete
# records all read back: check says intact or names the cut tail, and dump
# returns the header, requests and chunks written before the kill.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

start_replay --synthetic 'ttft=5ms,tpot=2ms,tokens=300,jitter=0.5'

# Each kill comes a set time after the first chunks reached the file, not
# after start: a loaded sanitizer build may take a second to get going.
for delay in 0 0.5 0.9; do
    out="$T/kill-$delay.ttrace"
    "$TT_RECORD" -q -u "$URL" -m a -m b -n 1000 -c 6 -o "$out" &
    pid=$!
    for _ in $(seq 600); do
        [ "$(stat -c %s "$out" 2>/dev/null || echo 0)" -ge 16384 ] && break
        sleep 0.05
    done
    sleep "$delay"
    kill -9 "$pid"
    set +e; wait "$pid" 2>/dev/null; set -e
    [ -s "$out" ] || fail "kill after $delay s: empty trace"
    set +e; "$TT_ANALYZE" check "$out" >"$out.check" 2>&1; rc=$?; set -e
    case $rc in
        0) grep -q ": OK" "$out.check" || fail "check exit 0 without OK: $(cat "$out.check")" ;;
        # no footer (killed between records) or a cut last record
        1) grep -qE "byte [0-9]+: record truncated|INCOMPLETE: no footer" "$out.check" ||
            fail "kill after $delay s: damaged, not just cut: $(cat "$out.check")"
           grep -qE "MALFORMED|malformed" "$out.check" && fail "malformed records: $(cat "$out.check")" ;;
        *) fail "check exit $rc" ;;
    esac
    set +e; "$TT_ANALYZE" dump "$out" >"$out.jsonl" 2>"$out.dumperr"; rc=$?; set -e
    [ "$rc" -le 1 ] || fail "dump exit $rc"
    assert_eq "$(count "$out.jsonl" header)" 1 "kill after $delay s: header"
    assert_eq "$(count "$out.jsonl" footer)" 0 "kill after $delay s: footer"
    [ "$(count "$out.jsonl" request)" -ge 6 ] || fail "kill after $delay s: requests missing"
    [ "$(count "$out.jsonl" chunk)" -ge 10 ] || fail "kill after $delay s: chunks missing"
    # every chunk read back belongs to a request read back before it
    assert_eq "$(jqs "$out.jsonl" '(map(select(.kind=="request")|.id)) as $ids | map(select(.kind=="chunk")|.request_id as $r|$ids|index($r)!=null)|all')" true "chunks have requests"
    # the analyzer still summarizes what is there
    "$TT_ANALYZE" summary "$out" >/dev/null 2>&1 || [ $? -le 1 ] || fail "summary of a killed trace failed"
done
echo ok
