#!/usr/bin/env bash
# TLS verification: against a local HTTPS server with a throwaway
# self-signed certificate, the default (verification on) records the
# request as kind tls naming verification; --insecure succeeds, warns on
# stderr (even with -q) and says so in the trace header and in `info`;
# --cacert with the certificate succeeds without a warning; a certificate
# for another host name fails even with --cacert (host check on). --check
# on a verification failure names --cacert FILE and --insecure as fixes,
# and passes --cacert / --insecure on in its "ready to record" line.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
. "$TT_SOURCE_DIR/tests/lib/record_lib.sh"

command -v openssl >/dev/null || fail "openssl CLI missing (make deps)"

# cert NAME SAN: a self-signed certificate and key in $T/NAME.{crt,key}
cert() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
        -nodes -days 2 -subj "/CN=tokentrace test" -addext "subjectAltName=$2" \
        -keyout "$T/$1.key" -out "$T/$1.crt" 2>"$T/openssl.err" ||
        fail "openssl: $(cat "$T/openssl.err")"
}
cert good IP:127.0.0.1
cert other DNS:other.invalid


# start_https NAME: serves (tests/lib/https_sse.py) with certificate NAME;
# sets HTTPS_URL
start_https() {
    local pf="$T/https.$1.port"
    python3 "$TT_SOURCE_DIR/tests/lib/https_sse.py" "$T/$1.crt" "$T/$1.key" "$pf" 2>"$T/https.$1.err" &
    TT_PIDS+=("$!")
    wait_port_file "$pf" "$!" "$T/https.$1.err" "https server"
    HTTPS_URL="https://127.0.0.1:$(cat "$pf")"
}
start_https good

WARN='WARNING: TLS certificate verification is OFF (--insecure)'
rec() { "$TT_RECORD" -u "$HTTPS_URL" -m m -n 1 --classes short-short "$@"; }
opt() { jqs "$1" ".[]|select(.kind==\"header\")|.options.$2"; }

# default: verification on, the self-signed certificate is refused
expect_exit 1 rec -o "$T/verify.ttrace" 2>"$T/verify.err"
d=$(dump "$T/verify.ttrace")
check_complete "$d" 1
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|.error_kind')" tls "default: kind"
jqs "$d" '.[]|select(.kind=="result")|.error_message' | grepq "certificate verification failed" ||
    fail "default: message does not name verification: $(jqs "$d" '.[]|select(.kind=="result")|.error_message')"
assert_eq "$(opt "$d" tls_verify)" true "default: header tls_verify"
grep -q "$WARN" "$T/verify.err" && fail "default: warned about --insecure"

# --insecure: works, warns loudly (even with -q), and the trace says so
rec -q --insecure -o "$T/insecure.ttrace" 2>"$T/insecure.err" ||
    fail "--insecure exit $?: $(cat "$T/insecure.err")"
grep -q "$WARN" "$T/insecure.err" || fail "--insecure: no warning: $(cat "$T/insecure.err")"
d=$(dump "$T/insecure.ttrace")
check_complete "$d" 1
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|"\(.error_kind) \(.http_status)"')" "null 200" "--insecure: result"
assert_eq "$(opt "$d" tls_verify)" false "--insecure: header tls_verify"
"$TT_ANALYZE" info "$T/insecure.ttrace" | grepq -F 'tls\_verify=false' ||
    fail "--insecure: info does not show tls_verify=false"
assert_eq "$("$TT_ANALYZE" summary --format json "$T/insecure.ttrace" | jq -c '[.overall.ok,.overall.output_tokens.max]')" \
    "[1,3]" "--insecure: the stream was read"

# --cacert with the server's certificate: verified, no warning
rec --cacert "$T/good.crt" -o "$T/cacert.ttrace" 2>"$T/cacert.err" ||
    fail "--cacert exit $?: $(cat "$T/cacert.err")"
grep -q "WARNING" "$T/cacert.err" && fail "--cacert: warned: $(cat "$T/cacert.err")"
d=$(dump "$T/cacert.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|"\(.error_kind) \(.http_status)"')" "null 200" "--cacert: result"
assert_eq "$(opt "$d" tls_verify) $(opt "$d" cacert)" "true $T/good.crt" "--cacert: header"

# a CA file that does not vouch for the server: refused
expect_exit 1 rec -q --cacert "$T/other.crt" -o "$T/wrongca.ttrace"
assert_eq "$(jqs "$(dump "$T/wrongca.ttrace")" '.[]|select(.kind=="result")|.error_kind')" tls "wrong CA: kind"

# the host name is checked: a trusted certificate for another name fails
start_https other
expect_exit 1 rec -q --cacert "$T/other.crt" -o "$T/host.ttrace"
d=$(dump "$T/host.ttrace")
assert_eq "$(jqs "$d" '.[]|select(.kind=="result")|.error_kind')" tls "host mismatch: kind"
# ... and --insecure skips that check too
rec -q --insecure -o "$T/host_insecure.ttrace" 2>/dev/null || fail "--insecure with another host name"

# --check: a verification failure names the fixes; a check that passes with
# --cacert / --insecure hands them on in its "ready to record" line
chk() { "$TT_RECORD" --check -u "$HTTPS_URL" -m m "$@"; }
start_https good
expect_exit 1 chk >"$T/check.out" 2>"$T/check.err"
grep -q "^m: FAIL tls: " "$T/check.out" || fail "--check: verdict: $(cat "$T/check.out")"
grep -q "fix: .*--cacert FILE.*--insecure skips verification (last resort" "$T/check.out" ||
    fail "--check: the fix names neither --cacert nor --insecure: $(cat "$T/check.out")"
chk --cacert "$T/good.crt" >"$T/check_ca.out" 2>"$T/check_ca.err" ||
    fail "--check --cacert exit $?: $(cat "$T/check_ca.out" "$T/check_ca.err")"
grep -qF "ready to record: tokentrace-record -u $HTTPS_URL --cacert $T/good.crt -m m -o first.ttrace" \
    "$T/check_ca.out" || fail "--check --cacert: hint: $(cat "$T/check_ca.out")"
chk --insecure >"$T/check_in.out" 2>"$T/check_in.err" ||
    fail "--check --insecure exit $?: $(cat "$T/check_in.out" "$T/check_in.err")"
grep -qF "ready to record: tokentrace-record -u $HTTPS_URL --insecure -m m -o first.ttrace" \
    "$T/check_in.out" ||
    fail "--check --insecure: hint: $(cat "$T/check_in.out")"

# usage errors
expect_exit 2 rec --cacert "$T/missing.crt" -o "$T/x.ttrace" 2>"$T/usage.err"
grep -q "cannot read" "$T/usage.err" || fail "missing CA file: $(cat "$T/usage.err")"
expect_exit 2 rec --insecure --cacert "$T/good.crt" -o "$T/x.ttrace" 2>/dev/null
echo ok
