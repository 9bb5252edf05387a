#!/usr/bin/env bash
# record_keep_awake: the recorder keeps its CPU awake by default (a
# SCHED_IDLE spinner pinned beside the loop, common/keep_awake.h; auto: not
# on a busy machine) and says so in the header; --keep-awake poll and
# --no-keep-awake say theirs; the
# footer carries the cross-CPU wake-up probe (record/run/wake_probe.h) and
# summary reports it. Inside a real cgroup with a CPU quota (when this
# machine lets the test make one) keep-awake turns itself off and the
# header, the recorder's note and summary say why.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"

start_replay --synthetic 'ttft=20ms,tpot=5ms,tokens=40'
rec() { "$TT_RECORD" -u "$URL" -m m -n 2 -c 2 --classes short-short "$@"; }
opt() { "$TT_ANALYZE" dump "$1" | jq -r "select(.kind==\"header\") | .options.$2 // \"-\""; }
foot() { "$TT_ANALYZE" dump "$1" | jq -r "select(.kind==\"footer\") | .$2 // \"-\""; }
ncpu=$(nproc)

# the default, auto: spin on a quiet machine, or off where tasks wait for
# CPUs (pressure) or more are runnable than there are CPUs, saying why in
# the header either way; its changes during the run in the footer
rec -q -o "$T/auto.ttrace"
assert_eq "$(opt "$T/auto.ttrace" keep_awake_asked)" auto "auto: keep_awake_asked"
opt "$T/auto.ttrace" keep_awake_why | grepq -E "^quiet: |CPU pressure|tasks runnable" ||
    fail "auto: keep_awake_why: $(opt "$T/auto.ttrace" keep_awake_why)"
case $(opt "$T/auto.ttrace" keep_awake) in
spin) [ "$(opt "$T/auto.ttrace" keep_awake_cpu)" -ge 0 ] || fail "auto: no CPU" ;;
off) opt "$T/auto.ttrace" keep_awake_off | grepq -E "CPU pressure|tasks runnable" ||
    fail "auto off without a reason: $(opt "$T/auto.ttrace" keep_awake_off)" ;;
*) fail "auto ran $(opt "$T/auto.ttrace" keep_awake)" ;;
esac
"$TT_ANALYZE" dump "$T/auto.ttrace" | jq -e 'select(.kind=="footer") |
    (.keep_awake_end | test("^(spin|off)$")) and
    (.keep_awake_log | fromjson | length) == ([.keep_awake_changes, 16] | min)' >/dev/null ||
    fail "auto: footer keep_awake_*: $(foot "$T/auto.ttrace" keep_awake_log)"
rec -q -o "$T/spin.ttrace" --keep-awake spin
assert_eq "$(opt "$T/spin.ttrace" keep_awake)" spin "spin mode"
cpu=$(opt "$T/spin.ttrace" keep_awake_cpu)
[ "$cpu" -ge 0 ] && [ "$cpu" -lt 4096 ] || fail "keep_awake_cpu: $cpu"
# the probe: one stamp per 5 ms over a run of >= 0.2 s (a loaded machine
# delays the helper: only a few are asked for)
n=$(foot "$T/spin.ttrace" wake_probe_samples)
[ "$n" != - ] && [ "$n" -ge 3 ] || fail "wake_probe_samples: $n"
"$TT_ANALYZE" dump "$T/spin.ttrace" | jq -e 'select(.kind=="footer") |
    .wake_probe_p50_ns >= 0 and .wake_probe_p99_ns >= .wake_probe_p50_ns and
    .wake_probe_max_ns >= .wake_probe_p99_ns' >/dev/null || fail "probe percentiles out of order"
"$TT_ANALYZE" summary --detail "$T/spin.ttrace" >"$T/spin.txt" 2>/dev/null
grep -q "woken from another CPU late by p50 .* ($n probes)" "$T/spin.txt" ||
    fail "no probe in the self-check line: $(grep recorder "$T/spin.txt")"
! grep -q "keep-awake: off" "$T/spin.txt" || fail "keep-awake reported off"
"$TT_ANALYZE" summary --format json "$T/spin.ttrace" 2>/dev/null >"$T/s.json"
assert_eq "$(jq '.traces[0].recorder_wake_probe_ms.n' "$T/s.json")" "$n" "JSON probe samples"
# the CPU of a pinned run is the spinner's too: given explicitly
rec -q -o "$T/cpu0.ttrace" --keep-awake spin --keep-awake-cpu 0
assert_eq "$(opt "$T/cpu0.ttrace" keep_awake_cpu)" 0 "--keep-awake-cpu 0"

rec -q -o "$T/poll.ttrace" --keep-awake poll
assert_eq "$(opt "$T/poll.ttrace" keep_awake)" poll "poll mode"
rec -q -o "$T/off.ttrace" --no-keep-awake
assert_eq "$(opt "$T/off.ttrace" keep_awake)" off "--no-keep-awake"
assert_eq "$(opt "$T/off.ttrace" keep_awake_cpu)" - "no CPU when off"
assert_eq "$(opt "$T/off.ttrace" keep_awake_off)" - "no reason when asked off"
assert_eq "$(foot "$T/off.ttrace" keep_awake_log)" - "no changes to tell when not auto"
"$TT_ANALYZE" summary --detail "$T/off.ttrace" 2>/dev/null | grepq "keep-awake: off (as asked" ||
    fail "summary does not say keep-awake is off"
# the probe works without keep-awake too
[ "$(foot "$T/off.ttrace" wake_probe_samples)" -ge 3 ] || fail "no probe when off"
# one allowed CPU: no probe (it could not cross CPUs), and summary says
# the self-check cannot be trusted
taskset -c 0 "$TT_RECORD" -u "$URL" -m m -n 2 -c 2 --classes short-short -q -o "$T/one.ttrace"
assert_eq "$(opt "$T/one.ttrace" wake_probe)" "off (one CPU allowed)" "one CPU: wake_probe option"
assert_eq "$(foot "$T/one.ttrace" wake_probe_samples)" - "one CPU: no probe samples"
"$TT_ANALYZE" summary --detail "$T/one.ttrace" 2>/dev/null | grepq "wake-up probe: off (one CPU allowed).*cannot be trusted" ||
    fail "summary does not say the probe is off"
[ "$ncpu" -lt 2 ] || assert_eq "$(opt "$T/spin.ttrace" wake_probe)" - "two CPUs: the probe runs"
expect_exit 2 rec -q -o "$T/bad.ttrace" --keep-awake sometimes 2>"$T/bad.err"
grep -q "not auto, spin, poll or off" "$T/bad.err" || fail "bad mode message: $(cat "$T/bad.err")"
expect_exit 2 rec -q -o "$T/bad.ttrace" --keep-awake-cpu -1 2>/dev/null
# an older trace (loop lag, no probe, no keep-awake keys) keeps its
# self-check from the loop lag
"$TT_GEN_TRACE" "$T/old.ttrace" 2 99 10 50 0 1 lag_us=20 >/dev/null
"$TT_ANALYZE" summary --detail "$T/old.ttrace" >"$T/old.txt" 2>/dev/null
grep -q "recorder self-check: event loop woke late" "$T/old.txt" || fail "no self-check for an older trace"
! grep -q "another CPU\|keep-awake" "$T/old.txt" || fail "an older trace shows a probe or keep-awake"

# A CPU quota: a cgroup of our own (v1 cpu controller or v2), when allowed.
cg=""
if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
    cg=/sys/fs/cgroup/cpu/tt_keep_awake_$$
    mkdir "$cg" 2>/dev/null && echo 50000 >"$cg/cpu.cfs_quota_us" 2>/dev/null || cg=""
elif [ -w /sys/fs/cgroup ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    cg=/sys/fs/cgroup/tt_keep_awake_$$
    mkdir "$cg" 2>/dev/null && echo "50000 100000" >"$cg/cpu.max" 2>/dev/null || cg=""
fi
if [ -z "$cg" ]; then
    echo "ok (no writable cgroup here: the quota case is left to keep_awake_test)"
    exit 0
fi
trap 'rmdir "$cg" 2>/dev/null || true; tt_cleanup' EXIT
sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
    "$TT_RECORD" -u "$URL" -m m -n 2 -c 2 --classes short-short -o "$T/quota.ttrace" 2>"$T/quota.err"
assert_eq "$(opt "$T/quota.ttrace" keep_awake)" off "mode under a quota"
opt "$T/quota.ttrace" keep_awake_off | grepq "CPU quota 50000 us per 100000 us" ||
    fail "no quota reason in the header: $(opt "$T/quota.ttrace" keep_awake_off)"
assert_eq "$(opt "$T/quota.ttrace" cpu_quota)" 50000/100000 "cpu_quota option"
grep -q "keep-awake off: CPU quota" "$T/quota.err" || fail "no note from the recorder: $(cat "$T/quota.err")"
# one short line, the whole reason in the header (issue 32: ~200 chars)
grep -qx 'tokentrace-record: keep-awake off: CPU quota 50000 us per 100000 us ([^)]*) (why: summary --detail)' "$T/quota.err" ||
    fail "keep-awake note: $(grep keep-awake "$T/quota.err")"
"$TT_ANALYZE" summary --detail "$T/quota.ttrace" 2>/dev/null | grepq "keep-awake: off: CPU quota" ||
    fail "summary does not say why keep-awake is off"
echo "ok: $n probes, quota case in $cg"
