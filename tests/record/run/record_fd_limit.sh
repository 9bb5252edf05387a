#!/usr/bin/env bash
# record_fd_limit: the recorder raises its soft open-file limit to the
# hard one by itself, and says so, with the numbers, when even that does
# not cover -c (issue 29: 10,000 streams need 10,000 descriptors).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=3'
rec() { "$TT_RECORD" -u "$URL" -m m -n 2 --classes short-short --progress never "$@"; }
# soft 100, hard 400: raised to 400, which covers -c 300 (no warning)
(ulimit -Sn 100 && ulimit -Hn 400 && rec -c 300 -o "$T/a.ttrace") 2>"$T/a.err"
! grep -q "open-file limit" "$T/a.err" || fail "warned though the hard limit covers -c 300: $(cat "$T/a.err")"
# hard 200: -c 300 cannot be had, and the warning names the limits
(ulimit -n 200 && rec -c 300 -o "$T/b.ttrace") 2>"$T/b.err"
grep -q -- "-c 300 is above what the open-file limit allows (136 streams: soft limit 200, raised to the hard limit 200" "$T/b.err" ||
    fail "no warning naming the limits: $(cat "$T/b.err")"
assert_eq "$("$TT_ANALYZE" dump "$T/b.ttrace" | jq -r 'select(.kind=="footer") | .ok')" 2 "requests ok"
echo ok
