#!/usr/bin/env bash
# deploy/: the Kubernetes Indexed Job and the Slurm batch script, checked
# offline and then run locally as their schedulers would run them.
# Kubernetes: the manifest's required fields with python3-yaml (Indexed,
# completions = parallelism = TT_SHARDS, restartPolicy Never, backoffLimit
# 0, traces on a mounted volume), and kubectl's own decoding of the Job
# when kubectl is installed (`kubectl set env --local`: offline, no
# cluster; `create --dry-run=client` needs a server for discovery). Then
# each pod's command line, with $(VAR) expanded as the kubelet does,
# against tokentrace-replay, and the shards merged. Slurm: the script
# with a stand-in srun that starts --ntasks tasks with SLURM_PROCID /
# SLURM_NTASKS set, as srun does.
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
D=$TT_SOURCE_DIR/deploy
python3 -c 'import yaml' 2>/dev/null || { echo "deploy_manifests: skipped (no python3-yaml)"; exit 0; }

start_replay --synthetic 'ttft=10ms,tpot=2ms,tokens=4'
mkdir -p "$T/bin"
ln -s "$TT_RECORD" "$T/bin/tokentrace-record"
ln -s "$TT_ANALYZE" "$T/bin/tokentrace-analyze"

# the manifest: required fields, and the pods' commands for a local run
python3 - "$D/kubernetes/tokentrace-shards.yaml" "$URL" "$T" >"$T/pods.sh" <<'PY' || fail "manifest"
import re, shlex, sys
import yaml
path, url, tmp = sys.argv[1:4]
docs = [d for d in yaml.safe_load_all(open(path)) if d]
jobs = [d for d in docs if d.get("kind") == "Job"]
assert len(jobs) == 1, "one Job"
job = jobs[0]
assert job["apiVersion"] == "batch/v1"
s = job["spec"]
assert s["completionMode"] == "Indexed", "Indexed"
assert s["completions"] == s["parallelism"] >= 2, "completions = parallelism"
assert s["backoffLimit"] == 0, "backoffLimit 0"
pod = s["template"]["spec"]
assert pod["restartPolicy"] == "Never", "restartPolicy Never"
(c,) = [c for c in pod["containers"] if c["command"][0] == "tokentrace-record"]
env = {e["name"]: e for e in c["env"]}
assert env["TT_SHARDS"]["value"] == str(s["completions"]), "TT_SHARDS = completions"
assert "fieldRef" in env["TT_RUN_ID"]["valueFrom"], "run id from the Job"
assert "secretKeyRef" in env["OPENAI_API_KEY"]["valueFrom"], "key from a secret"
args = c["args"]
assert "--start-at" in args and "-o" in args
out = args[args.index("-o") + 1]
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
vols = {v["name"]: v for v in pod["volumes"]}
assert any(out.startswith(p + "/") and n in vols for n, p in mounts.items()), \
    "traces on a mounted volume"
assert "$(JOB_COMPLETION_INDEX)" in out, "one file per index"
claims = [d for d in docs if d.get("kind") == "PersistentVolumeClaim"]
assert any(v.get("persistentVolumeClaim", {}).get("claimName") ==
           cl["metadata"]["name"] for v in vols.values() for cl in claims)
# each pod as the kubelet would start it, against the replay server:
# -u the test's URL, the start instant soon, the volume a folder
start = "@START@"  # set when the pods are started
fixed = list(args)
fixed[fixed.index("-u") + 1] = url
fixed[fixed.index("--start-at") + 1] = start
fixed[fixed.index("--duration") + 1] = "1s"
fixed[fixed.index("-r") + 1] = "20"
for i in range(s["completions"]):
    v = {"JOB_COMPLETION_INDEX": str(i), "TT_SHARDS": env["TT_SHARDS"]["value"],
         "TT_RUN_ID": "uid-1234"}
    a = [re.sub(r"\$\((\w+)\)", lambda m: v[m.group(1)], x) for x in fixed]
    a = [x.replace("/traces/", tmp + "/volume/", 1) for x in a]
    print("env " + " ".join("%s=%s" % kv for kv in v.items()) +
          " tokentrace-record -q " + " ".join(map(shlex.quote, a[0:])) + " &")
print("wait")
print("echo %d" % s["completions"] + " >" + shlex.quote(tmp + "/n"))
PY
if command -v kubectl >/dev/null; then
    # kubectl's own decoding of the Job into its types, offline
    python3 -c 'import yaml,sys,json; [print(json.dumps(d)) for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"]=="Job"]' \
        "$D/kubernetes/tokentrace-shards.yaml" >"$T/job.json"
    kubectl set env --local -f "$T/job.json" TT_CHECK=1 -o json >"$T/kubectl.json" 2>"$T/kubectl.err" ||
        fail "kubectl does not accept the Job: $(cat "$T/kubectl.err")"
    jq -e '.spec.backoffLimit==0 and .spec.template.spec.restartPolicy=="Never" and (.spec.template.spec.containers|length)==1' "$T/kubectl.json" >/dev/null ||
        fail "kubectl read the Job differently"
else
    echo "deploy_manifests: kubectl not installed: the manifest is checked with python3-yaml only"
fi
mkdir -p "$T/volume/uid-1234"
sed -i "s/@START@/$(date -u -d '+3 sec' +%Y-%m-%dT%H:%M:%S.%NZ)/" "$T/pods.sh"
PATH="$T/bin:$PATH" bash "$T/pods.sh" || fail "pods"
n=$(cat "$T/n")
"$TT_ANALYZE" summary --format json "$T"/volume/uid-1234/shard-*.ttrace >"$T/k8s.json" || fail "k8s summary"
jq -e --argjson n "$n" '.shards|length==1 and .[0].run_id=="uid-1234" and .[0].complete and .[0].count==$n' \
    "$T/k8s.json" >/dev/null || fail "k8s shards: $(jq -c .shards "$T/k8s.json")"

# Slurm: bash syntax, one srun step of --ntasks=$SLURM_NTASKS, then run
# with a stand-in srun
bash -n "$D/slurm/tokentrace-shards.sbatch" || fail "sbatch syntax"
assert_eq "$(grep -c '^srun ' "$D/slurm/tokentrace-shards.sbatch")" 1 "one srun step"
grep -q '^#SBATCH --ntasks=' "$D/slurm/tokentrace-shards.sbatch" || fail "no --ntasks"
cat >"$T/bin/srun" <<'SH'
#!/usr/bin/env bash
# stand-in srun: --ntasks=N tasks of the command, SLURM_PROCID 0..N-1
n=1; while [ "${1#--}" != "$1" ]; do case $1 in --ntasks=*) n=${1#--ntasks=} ;; esac; shift; done
for i in $(seq 0 $((n - 1))); do SLURM_PROCID=$i SLURM_NTASKS=$n SLURM_STEP_ID=0 "$@" & done
wait
SH
chmod +x "$T/bin/srun"
(cd "$T" && PATH="$T/bin:$PATH" SLURM_JOB_ID=99 SLURM_NTASKS=3 SLURM_PROCID=0 TT_URL="$URL" TT_MODEL=a \
    TT_ARGS="-r 20 --duration 1s" TT_START_DELAY=4 TT_OUT="$T/slurm" \
    bash "$D/slurm/tokentrace-shards.sbatch" >"$T/slurm.out" 2>"$T/slurm.err") ||
    fail "sbatch script: $(cat "$T/slurm.err")"
assert_eq "$(ls "$T"/slurm/shard-*.ttrace | wc -l)" 3 "three shard traces"
grep -q '^shards of run slurm-99.0: 3 of 3 read' "$T/slurm.out" || fail "slurm merge: $(cat "$T/slurm.out")"
echo ok
