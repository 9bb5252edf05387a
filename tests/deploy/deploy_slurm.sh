#!/usr/bin/env bash
# deploy/slurm under a real Slurm: a private munged, slurmctld and slurmd
# on this one node (their own socket, ports, state and spool in $T), then
# `sbatch --wait` of the project's tokentrace-shards.sbatch with 2 tasks
# against tokentrace-replay: the tasks take their shard from
# SLURM_PROCID/SLURM_NTASKS and the run id from the job, and the merged
# run is one whole run with the job's id (job exit 0). Then the same job
# with task 1's recorder SIGKILLed mid-run: the merge names the cut shard
# and the job exits non-zero (a job with a dead shard is no success).
# Skipped (77) without slurm-wlm and munge, with the reason; under TT_CI=1
# (the deps target installs both) that fails instead.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
need() {
    if [ "${TT_CI:-}" = 1 ]; then fail "TT_CI=1 and $*"; fi
    echo "deploy_slurm: skipped: $*"
    exit 77
}
for t in munged munge slurmctld slurmd sbatch srun sinfo; do
    command -v "$t" >/dev/null || need "no $t (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" = 0 ] || need "not root (slurmd runs the tasks as their user, here from one account)"
D=$TT_SOURCE_DIR/deploy
S=$T/slurm
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log" "$T/bin"
chmod 700 "$S/munge"
head -c 1024 /dev/urandom >"$S/munge/munge.key"
chmod 600 "$S/munge/munge.key"
munged -F -f -S "$S/munge/sock" --key-file="$S/munge/munge.key" --log-file="$S/log/munged.log" \
    --pid-file="$S/munge/pid" --seed-file="$S/munge/seed" >"$S/log/munged.out" 2>&1 &
TT_PIDS+=($!)
for _ in $(seq 50); do [ -S "$S/munge/sock" ] && break; sleep 0.1; done
[ -S "$S/munge/sock" ] || fail "munged did not start: $(cat "$S/log/munged.log" 2>/dev/null)"
ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
read -r pctl pd <<<"$ports"
H=$(hostname)
cat >"$S/slurm.conf" <<EOF
ClusterName=tt
SlurmctldHost=$H
SlurmctldPort=$pctl
SlurmdPort=$pd
AuthType=auth/munge
AuthInfo=socket=$S/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$H CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=tt Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF=$S/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$S/log/ctld.out" 2>&1 &
TT_PIDS+=($!)
slurmd -D -f "$SLURM_CONF" >"$S/log/d.out" 2>&1 &
TT_PIDS+=($!)
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grepq idle && break; sleep 0.2; done
sinfo -h -o %T 2>/dev/null | grepq idle ||
    fail "slurm did not come up: $(tail -5 "$S/log/slurmctld.log" "$S/log/slurmd.log" 2>&1)"

start_replay --synthetic 'ttft=10ms,tpot=2ms,tokens=4'
ln -s "$TT_RECORD" "$T/bin/tokentrace-record"
ln -s "$TT_ANALYZE" "$T/bin/tokentrace-analyze"
# the job: 2 tasks on this one node (the script asks for 4 nodes: the
# command line's options win over its #SBATCH lines)
job() {
    (cd "$T" && PATH="$1:$PATH" TT_URL="$URL" TT_MODEL=a TT_ARGS="-r 20 --duration 2s --seed 7" \
        TT_START_DELAY=4 TT_OUT="$T/$2" sbatch --wait --export=ALL --nodes=1 --ntasks=2 \
        --ntasks-per-node=2 --cpus-per-task=1 --output="$T/$2.log" \
        "$D/slurm/tokentrace-shards.sbatch" >"$T/$2.sbatch")
}
job "$T/bin" whole || fail "the job failed: $(cat "$T/whole.log")"
id=$(grep -o '[0-9]*' "$T/whole.sbatch" | sed -n 1p)
assert_eq "$(ls "$T"/whole/shard-*.ttrace | wc -l)" 2 "two shard traces"
grep -q "^shards of run slurm-$id.0: 2 of 2 read, complete" "$T/whole.log" || fail "merge: $(cat "$T/whole.log")"
"$TT_ANALYZE" summary --format json "$T"/whole/shard-*.ttrace >"$T/whole.json" || fail "summary"
jq -e '.shards[0]|.one_run and .complete and ([.shards[]|.index]==[0,1])' "$T/whole.json" >/dev/null ||
    fail "shards: $(jq -c '.shards[0]|del(.shards)' "$T/whole.json")"
"$TT_ANALYZE" dump "$T/whole/shard-1.ttrace" | jq -r 'select(.kind=="header")|.options.shard_from' |
    grep -qx 'SLURM_PROCID/SLURM_NTASKS' || fail "shard not from srun's variables"

# task 1's recorder killed 1 s into the run: the job fails, naming it
mkdir -p "$T/kbin"
ln -s "$TT_ANALYZE" "$T/kbin/tokentrace-analyze"
cat >"$T/kbin/tokentrace-record" <<SH
#!/bin/bash
# task 1: SIGKILLed one second after its start instant (exec keeps the pid)
if [ "\$SLURM_PROCID" = 1 ]; then (sleep 4; kill -KILL \$\$) & fi
exec "$TT_RECORD" "\$@"
SH
chmod +x "$T/kbin/tokentrace-record"
rc=0; job "$T/kbin" dead || rc=$?
[ "$rc" -ne 0 ] || fail "a job with a killed shard reported success: $(cat "$T/dead.log")"
grep -q 'INCOMPLETE' "$T/dead.log" || fail "no INCOMPLETE: $(cat "$T/dead.log")"
grep -q 'shard 1/2 (.*) was cut' "$T/dead.log" || fail "the cut shard is not named: $(cat "$T/dead.log")"
echo ok
