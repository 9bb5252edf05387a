#!/usr/bin/env bash
# record_proxy (issue 12 item 18): a proxy from the environment is never
# silent. With http_proxy set the recorder says "via proxy URL (from
# http_proxy)" (credentials never shown or stored), every request goes
# through it, and the trace (info) says so; --no-proxy and no_proxy go
# direct and say why; HTTP_PROXY (upper case) is ignored, as in curl; a dead
# proxy is a recorded connect failure naming the proxy; and --check says
# that a 502 may be the proxy's, not the gateway's.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=5ms,tpot=1ms,tokens=8'
R=(-u "$URL" -m m -n 3 --classes short-short --force)

# start_proxy NAME [--mode 502]: a tests/lib/http_proxy.py on a free port;
# sets PROXY (its base URL) and PLOG (its request log).
start_proxy() {
    local name=$1; shift
    PLOG="$T/$name.log"
    : >"$PLOG"
    python3 "$TT_SOURCE_DIR/tests/lib/http_proxy.py" "$T/$name.port" "$PLOG" "$@" &
    TT_PIDS+=("$!")
    for _ in $(seq 1 100); do [ -s "$T/$name.port" ] && break; sleep 0.05; done
    [ -s "$T/$name.port" ] || fail "proxy $name did not start"
    PROXY="http://127.0.0.1:$(cat "$T/$name.port")"
}

start_proxy fwd
FWD=$PROXY
P_AUTH="http://tester:pr0xy-pw@${PROXY#http://}"

# 1. via the proxy: said, used, stored, without its password
http_proxy=$P_AUTH "$TT_RECORD" "${R[@]}" -o "$T/via.ttrace" 2>"$T/via.err" >/dev/null ||
    fail "record via proxy: $(cat "$T/via.err")"
grep -qF "via proxy $PROXY (from http_proxy)" "$T/via.err" || fail "no proxy note: $(cat "$T/via.err")"
assert_eq "$(grep -c "^POST $URL/v1/chat/completions proxy-authorization=yes" "$PLOG")" 3 "requests through the proxy"
# info is markdown: "\_" is "_"
md_info() { "$TT_ANALYZE" info "$1" | sed 's/\\_/_/g'; }
md_info "$T/via.ttrace" >"$T/via.md"
grep -qF "| proxy | via $PROXY (from http_proxy) |" "$T/via.md" || fail "info: $(grep -i proxy "$T/via.md")"
"$TT_ANALYZE" summary "$T/via.ttrace" --format json | jq -e '.overall.ok == 3' >/dev/null || fail "via proxy: 3 ok"
for f in "$T/via.ttrace" "$T/via.err" "$T/via.md"; do
    ! grep -q 'pr0xy-pw' "$f" || fail "the proxy password is in $f"
done

# 2. --no-proxy: direct, and said
: >"$PLOG"
http_proxy=$PROXY "$TT_RECORD" "${R[@]}" --no-proxy -o "$T/np.ttrace" 2>"$T/np.err" >/dev/null
grep -qF "direct (--no-proxy)" "$T/np.err" || fail "--no-proxy note: $(cat "$T/np.err")"
assert_eq "$(grep -c . "$PLOG")" 0 "--no-proxy: nothing through the proxy"
md_info "$T/np.ttrace" | grepq -F "| proxy | direct (--no-proxy) |" || fail "info --no-proxy"

# 3. no_proxy exempts the host (an address in a CIDR range)
http_proxy=$PROXY no_proxy="example.com, 127.0.0.0/8" "$TT_RECORD" "${R[@]}" -o "$T/ex.ttrace" 2>"$T/ex.err" >/dev/null
grep -qF "direct (the host is in no_proxy)" "$T/ex.err" || fail "no_proxy note: $(cat "$T/ex.err")"
assert_eq "$(grep -c . "$PLOG")" 0 "no_proxy: nothing through the proxy"

# 4. HTTP_PROXY is never used (as in curl): no note, direct
HTTP_PROXY=$PROXY "$TT_RECORD" "${R[@]}" -o "$T/up.ttrace" 2>"$T/up.err" >/dev/null
grep -qE 'via proxy|direct \(' "$T/up.err" && fail "HTTP_PROXY: $(cat "$T/up.err")"
assert_eq "$(grep -c . "$PLOG")" 0 "HTTP_PROXY: nothing through the proxy"
md_info "$T/up.ttrace" | grepq '| proxy |' && fail "info: a proxy row without a proxy"

# 5. a dead proxy: connect failures, recorded, the run goes on; the proxy named
dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
set +e
all_proxy=http://127.0.0.1:$dead "$TT_RECORD" "${R[@]}" -o "$T/dead.ttrace" 2>"$T/dead.err" >/dev/null
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "dead proxy: exit $rc"
grep -qF "via proxy http://127.0.0.1:$dead (from all_proxy)" "$T/dead.err" || fail "dead proxy note"
"$TT_ANALYZE" summary "$T/dead.ttrace" --format json | jq -e '.overall.requests == 3 and .overall.ok == 0' >/dev/null ||
    fail "dead proxy: 3 failed requests recorded"

# 6. --check through a proxy that answers 502: the doctor names the proxy
start_proxy bad --mode 502
set +e
http_proxy=$PROXY "$TT_RECORD" --check -u "$URL" -m m >"$T/check.out" 2>&1
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "--check passed through a 502 proxy"
grep -qF "proxy: via proxy $PROXY (from http_proxy); --no-proxy connects directly" "$T/check.out" ||
    fail "--check: no proxy line: $(cat "$T/check.out")"
grep -qF "note: requests go via proxy $PROXY (from http_proxy): this failure may be the proxy's" "$T/check.out" ||
    fail "--check: the 502 not put on the proxy: $(cat "$T/check.out")"
# and --check --no-proxy goes direct and passes
http_proxy=$PROXY "$TT_RECORD" --check --no-proxy -u "$URL" -m m >"$T/check2.out" 2>&1 ||
    fail "--check --no-proxy: $(cat "$T/check2.out")"
grep -qF "proxy: direct (--no-proxy)" "$T/check2.out" || fail "--check --no-proxy line"
grep -q "hint: .*--no-proxy" "$T/check2.out" || fail "--check --no-proxy: the record hint keeps --no-proxy"
# and --check through a working proxy passes, saying its time is included
http_proxy=$FWD "$TT_RECORD" --check -u "$URL" -m m >"$T/check3.out" 2>&1 ||
    fail "--check via a working proxy: $(cat "$T/check3.out")"
grep -qF "note: requests go via proxy $FWD (from http_proxy): these times include the proxy's" "$T/check3.out" ||
    fail "--check OK through a proxy: $(cat "$T/check3.out")"
echo ok
