#!/usr/bin/env bash
# install_check: `cmake --install` of this build into a scratch prefix gives
# programs that work outside the build tree: the replay server serves,
# the recorder records (its prompts are built in), the analyzer summarizes
# and draws every chart (its templates are built in) and the HTML report.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
: "${TT_BUILD_DIR:?}"
cmake --install "$TT_BUILD_DIR" --prefix "$T/inst" >"$T/install.log" ||
    { cat "$T/install.log"; fail "cmake --install failed"; }
bin=$T/inst/bin
for p in tokentrace-record tokentrace-replay tokentrace-analyze tokentrace-proxy; do
    [ -x "$bin/$p" ] || fail "$p not installed in bin/"
    "$bin/$p" --version | grepq "^$p " || fail "$p --version"
done
cd "$T" # nothing from the source or build tree is reachable by path
TT_REPLAY=$bin/tokentrace-replay
start_replay -q --synthetic 'ttft=30ms,tpot=1ms,tokens=16'
"$bin/tokentrace-record" -u "$URL" -m m -n 1 -c 2 -o run.ttrace -q ||
    fail "installed recorder failed"
"$bin/tokentrace-analyze" summary run.ttrace --detail >summary.txt || fail "installed summary failed"
grep -q '3 requests (3 ok, 0 failed)' summary.txt || { cat summary.txt; fail "unexpected summary"; }
if command -v gnuplot >/dev/null; then
    "$bin/tokentrace-analyze" plot run.ttrace -o charts --html >/dev/null ||
        fail "installed plot failed"
    for c in ttft-cdf tpot itl latency-vs-tokens timeline throughput; do
        [ -s "charts/$c.png" ] || fail "chart $c.png missing"
    done
    grep -q '<svg' charts/report.html || fail "report without charts"
fi
echo "install_check: ok"
