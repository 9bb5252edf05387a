#!/usr/bin/env bash
# deploy/: the Kubernetes Indexed Job and the Slurm batch script, checked
# offline and then run locally as their schedulers would run them.
# Kubernetes: every field and enum value of the manifests checked strictly
# (tests/deploy/k8s_strict.py; kubectl cannot validate strictly without a
# server), then what the Job must be (Indexed, completions = parallelism
# = TT_SHARDS, backoffLimitPerIndex 0 and no backoffLimit, restartPolicy
# Never, no fixed start date, an RWX claim), and kubectl's own decoding
# of the Job when kubectl is installed (`kubectl set env --local`). Then
# each pod's init step and recorder, $(VAR) expanded as the kubelet does,
# against tokentrace-replay; the shards are one run; the collect Job's
# script reads them, and fails naming the shard when one is missing.
# Slurm: the script with a stand-in srun that starts --ntasks tasks with
# SLURM_PROCID / SLURM_NTASKS set, as srun does (the real srun:
# deploy_slurm.sh).
. "${TT_SOURCE_DIR:?}/tests/lib/lib.sh"
D=$TT_SOURCE_DIR/deploy
python3 -c 'import yaml' 2>/dev/null || { echo "deploy_manifests: skipped (no python3-yaml)"; exit 0; }

start_replay --synthetic 'ttft=10ms,tpot=2ms,tokens=4'
mkdir -p "$T/bin"
ln -s "$TT_RECORD" "$T/bin/tokentrace-record"
ln -s "$TT_ANALYZE" "$T/bin/tokentrace-analyze"

# the manifests, strictly: every field and enum value known to the API
# (tests/deploy/k8s_strict.py: kubectl cannot validate strictly offline)
python3 "$TT_SOURCE_DIR/tests/deploy/k8s_strict.py" --self-test >/dev/null || fail "the strict checker accepts mistakes"
python3 "$TT_SOURCE_DIR/tests/deploy/k8s_strict.py" "$D"/kubernetes/*.yaml >"$T/strict.out" ||
    fail "manifests: $(cat "$T/strict.out")"

# what the Job must be, and each pod's init step and recorder as the
# kubelet would start them ($(VAR) of the spec expanded, $$ to $), as
# shell scripts against the replay server and a folder for the volume
python3 - "$D/kubernetes/tokentrace-shards.yaml" "$D/kubernetes/tokentrace-collect.yaml" "$URL" "$T" <<'PY' || fail "manifest"
import re, shlex, sys
import yaml
path, collect, url, tmp = sys.argv[1:5]
text = open(path).read()
docs = [d for d in yaml.safe_load_all(text) if d]
(job,) = [d for d in docs if d.get("kind") == "Job"]
s = job["spec"]
assert s["completionMode"] == "Indexed", "Indexed"
assert s["completions"] == s["parallelism"] >= 2, "completions = parallelism"
# one failed shard must not end the others: per index, no global limit
assert s.get("backoffLimitPerIndex") == 0, "backoffLimitPerIndex 0"
assert "backoffLimit" not in s, "a backoffLimit would fail the Job at the first failed pod"
pod = s["template"]["spec"]
assert pod["restartPolicy"] == "Never", "restartPolicy Never"
(c,) = pod["containers"]
(init,) = pod["initContainers"]
env = {e["name"]: e for e in c["env"]}
assert env["TT_SHARDS"]["value"] == str(s["completions"]), "TT_SHARDS = completions"
assert "fieldRef" in env["TT_RUN_ID"]["valueFrom"], "run id from the Job"
assert "secretKeyRef" in env["OPENAI_API_KEY"]["valueFrom"], "key from a secret"
# no fixed start date anywhere: an unedited manifest must run
assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", text), "a fixed --start-at date"
script = c["command"][2]
assert "--start-at" in script and "/start-at" in script, "the instant from the init step"
claims = [d for d in docs if d.get("kind") == "PersistentVolumeClaim"]
assert claims[0]["spec"]["accessModes"] == ["ReadWriteMany"], "RWX"
assert "storageClassName" in text, "the storage class is named (a comment at least)"
vols = {v["name"]: v for v in pod["volumes"]}
assert vols["traces"]["persistentVolumeClaim"]["claimName"] == claims[0]["metadata"]["name"]

def kubelet_expand(s, env, where):
    """$(NAME) of the container's env replaced, $$ -> $, as the kubelet
    does (k8s.io/kubernetes third_party expansion); a $(...) that is not
    a variable of the spec is a mistake here (the shell meant it)."""
    out, i = [], 0
    while i < len(s):
        if s[i] == "$" and i + 1 < len(s):
            n = s[i + 1]
            if n == "$":
                out.append("$"); i += 2; continue
            if n == "(":
                j = s.find(")", i + 2)
                name = s[i + 2:j] if j > 0 else ""
                assert name in env, "%s: the kubelet reads $(%s) as a variable" % (where, name)
                out.append(env[name]); i = j + 1; continue
            out.append("$" + n); i += 2; continue
        out.append(s[i]); i += 1
    return "".join(out)

fixed = list(c["args"])
fixed[fixed.index("-u") + 1] = url
fixed[fixed.index("--duration") + 1] = "1s"
fixed[fixed.index("-r") + 1] = "20"
vol = tmp + "/volume"
def sh_of(container, v, args):
    cmd = [kubelet_expand(x, v, container["name"]) for x in container["command"] + args]
    cmd = [x.replace("/traces", vol) for x in cmd]
    return " ".join(map(shlex.quote, cmd))
with open(tmp + "/init.sh", "w") as f, open(tmp + "/pods.sh", "w") as g:
    for i in range(s["completions"]):
        v = {"JOB_COMPLETION_INDEX": str(i), "TT_SHARDS": env["TT_SHARDS"]["value"],
             "TT_RUN_ID": "uid-1234", "TT_START_DELAY": "3"}
        e = "env " + " ".join("%s=%s" % kv for kv in v.items()) + " "
        f.write(e + sh_of(init, v, init.get("args", [])) + " &\n")
        g.write(e + sh_of(c, v, fixed) + " &\n")
    f.write("wait\n")
    g.write("wait\n")
with open(tmp + "/n", "w") as f:
    f.write("%d\n" % s["completions"])
# the collect Job: its script as its pod runs it
(cj,) = [d for d in yaml.safe_load_all(open(collect)) if d]
(cc,) = cj["spec"]["template"]["spec"]["containers"]
v = {"TT_RUN_ID": "uid-1234"}
with open(tmp + "/collect.sh", "w") as f:
    f.write("env TT_RUN_ID=uid-1234 " + sh_of(cc, v, cc.get("args", [])) + "\n")
PY
if command -v kubectl >/dev/null; then
    # kubectl's own decoding of the Job into its types, offline (not
    # strict: unknown fields pass it, hence k8s_strict.py above)
    python3 -c 'import yaml,sys,json; [print(json.dumps(d)) for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"]=="Job"]' \
        "$D/kubernetes/tokentrace-shards.yaml" >"$T/job.json"
    kubectl set env --local -f "$T/job.json" TT_CHECK=1 -o json >"$T/kubectl.json" 2>"$T/kubectl.err" ||
        fail "kubectl does not accept the Job: $(cat "$T/kubectl.err")"
    jq -e '.spec.backoffLimitPerIndex==0 and .spec.template.spec.restartPolicy=="Never" and (.spec.template.spec.containers|length)==1' "$T/kubectl.json" >/dev/null ||
        fail "kubectl read the Job differently"
else
    echo "deploy_manifests: kubectl not installed: the manifests are checked with k8s_strict.py only"
fi
mkdir -p "$T/volume"
PATH="$T/bin:$PATH" sh "$T/init.sh" >"$T/init.out" || fail "init steps: $(cat "$T/init.out")"
assert_eq "$(grep -c 'start at ' "$T/init.out")" "$(cat "$T/n")" "every pod's init step"
assert_eq "$(sed 's/.*start at //' "$T/init.out" | sort -u | wc -l)" 1 "one start instant for every pod"
PATH="$T/bin:$PATH" sh "$T/pods.sh" || fail "pods"
n=$(cat "$T/n")
"$TT_ANALYZE" summary --format json "$T"/volume/uid-1234/shard-*.ttrace >"$T/k8s.json" || fail "k8s summary"
jq -e --argjson n "$n" '.shards|length==1 and .[0].run_id=="uid-1234" and .[0].complete and .[0].one_run and .[0].count==$n' \
    "$T/k8s.json" >/dev/null || fail "k8s shards: $(jq -c .shards "$T/k8s.json")"
# the collect Job reads them; then with a gap (a failed index writes no
# trace) it fails and names the missing shard
PATH="$T/bin:$PATH" sh "$T/collect.sh" >"$T/collect.out" 2>&1 || fail "collect: $(cat "$T/collect.out")"
grep -q "^shards of run uid-1234: $n of $n read, complete" "$T/collect.out" || fail "collect: $(cat "$T/collect.out")"
jq -e '.shards[0].complete' "$T/volume/uid-1234/summary.json" >/dev/null || fail "collect's summary.json"
rm "$T/volume/uid-1234/shard-1.ttrace"
rc=0; PATH="$T/bin:$PATH" sh "$T/collect.sh" >"$T/gap.out" 2>&1 || rc=$?
assert_eq "$rc" 1 "collect's exit with a gap"
grep -q "missing: 1/$n" "$T/gap.out" || fail "the gap is not named: $(cat "$T/gap.out")"

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
