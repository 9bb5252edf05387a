#!/usr/bin/env bash
# run_bench.sh: builds tokentrace (Release with debug info) and the bench
# helpers, raises the open-file limit, then runs bench.py.
#   tests/bench/run_bench.sh [--quick [--write-baseline]]
# Env: BENCH_BUILD (build dir, default build-bench), BENCH_WORK (scratch and
# results, default out/bench), BENCH_REPS (repetitions of the timestamp runs,
# default 5), BENCH_NICE (nice increment for everything measured, default 0;
# e.g. -10 as root to shield the runs from other work on a shared machine).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${BENCH_BUILD:-$root/build-bench}")
work=$(realpath -m "${BENCH_WORK:-$root/out/bench}")
mkdir -p "$work"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target tokentrace-record tokentrace-replay \
    tokentrace-analyze gen_trace >/dev/null
for h in raw_client stamp rusage; do
    cc -O2 -Wall -Wextra -Werror -o "$work/$h" "$root/tests/bench/$h.c"
done
# 2,000 streams need ~4,100 descriptors in the server and ~2,100 in a client
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
[ "$(ulimit -n)" -ge 8192 ] || echo "run_bench: warning: open-file limit $(ulimit -n) < 8192" >&2
python3 -c 'import requests' 2>/dev/null || { echo "run_bench: python3-requests is needed" >&2; exit 1; }
exec nice -n "${BENCH_NICE:-0}" python3 "$root/tests/bench/bench.py" \
    --build "$build" --work "$work" --reps "${BENCH_REPS:-5}" "$@"
