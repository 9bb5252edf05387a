#!/usr/bin/env python3
"""k8s_strict.py: a strict offline check of deploy/kubernetes/*.yaml.

usage: k8s_strict.py MANIFEST...      (exit 0: valid; 1: the errors, one a line)
       k8s_strict.py --self-test      (the checker rejects known mistakes)

kubectl cannot validate strictly offline: `kubectl create --dry-run=client
--validate=strict` downloads the OpenAPI schema from a server, and `kubectl
set env --local` decodes a Job without rejecting unknown fields or bad enum
values (it accepted `completionMod:` and `restartPolicy: Nevr`). So this is
a field-set checker for the kinds and fields the project's manifests use:
each object's allowed keys (a subset of the Kubernetes API's fields, named
as the API names them: batch/v1 Job, core/v1 PodSpec, Container, EnvVar,
Volume, PersistentVolumeClaim), the types of their values and the enum
values the API allows. A key it does not know is an error, so a typo, or a
field added to a manifest without adding it here, fails the test.
"""
import sys

import yaml

STR, INT, BOOL = "str", "int", "bool"


def obj(**fields):
    return ("obj", fields)


def lst(item):
    return ("list", item)


def enum(*values):
    return ("enum", values)


def strmap():
    return ("map", STR)


METADATA = obj(name=STR, namespace=STR, labels=strmap(), annotations=strmap())
FIELD_REF = obj(fieldPath=STR, apiVersion=STR)
KEY_REF = obj(name=STR, key=STR, optional=BOOL)
ENV = obj(
    name=STR,
    value=STR,
    valueFrom=obj(fieldRef=FIELD_REF, secretKeyRef=KEY_REF, configMapKeyRef=KEY_REF),
)
QUANTITIES = ("map", ("quantity",))
CONTAINER = obj(
    name=STR,
    image=STR,
    imagePullPolicy=enum("Always", "IfNotPresent", "Never"),
    command=lst(STR),
    args=lst(STR),
    env=lst(ENV),
    resources=obj(requests=QUANTITIES, limits=QUANTITIES),
    volumeMounts=lst(obj(name=STR, mountPath=STR, readOnly=BOOL, subPath=STR)),
    workingDir=STR,
)
SELECTOR = obj(matchLabels=strmap())
AFFINITY_TERM = obj(topologyKey=STR, labelSelector=SELECTOR, namespaces=lst(STR))
AFFINITY = obj(
    podAntiAffinity=obj(
        preferredDuringSchedulingIgnoredDuringExecution=lst(
            obj(weight=INT, podAffinityTerm=AFFINITY_TERM)
        ),
        requiredDuringSchedulingIgnoredDuringExecution=lst(AFFINITY_TERM),
    )
)
POD_SPEC = obj(
    restartPolicy=enum("Always", "OnFailure", "Never"),
    affinity=AFFINITY,
    initContainers=lst(CONTAINER),
    containers=lst(CONTAINER),
    volumes=lst(
        obj(name=STR, persistentVolumeClaim=obj(claimName=STR, readOnly=BOOL))
    ),
    serviceAccountName=STR,
    nodeSelector=strmap(),
)
JOB = obj(
    apiVersion=enum("batch/v1"),
    kind=enum("Job"),
    metadata=METADATA,
    spec=obj(
        completionMode=enum("NonIndexed", "Indexed"),
        completions=INT,
        parallelism=INT,
        backoffLimit=INT,
        backoffLimitPerIndex=INT,
        maxFailedIndexes=INT,
        activeDeadlineSeconds=INT,
        ttlSecondsAfterFinished=INT,
        template=obj(metadata=METADATA, spec=POD_SPEC),
    ),
)
PVC = obj(
    apiVersion=enum("v1"),
    kind=enum("PersistentVolumeClaim"),
    metadata=METADATA,
    spec=obj(
        accessModes=lst(
            enum("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod")
        ),
        storageClassName=STR,
        resources=obj(requests=QUANTITIES),
    ),
)
KINDS = {"Job": JOB, "PersistentVolumeClaim": PVC}
REQUIRED = {  # fields the API requires, by path
    "Job": [("spec", "template", "spec", "containers")],
}


def check(schema, v, path, errors):
    kind = schema[0] if isinstance(schema, tuple) else schema
    if kind == "obj":
        if not isinstance(v, dict):
            errors.append("%s: an object expected, got %r" % (path, v))
            return
        for k, sub in v.items():
            if k not in schema[1]:
                errors.append("%s: unknown field %r" % (path, k))
            else:
                check(schema[1][k], sub, "%s.%s" % (path, k), errors)
    elif kind == "list":
        if not isinstance(v, list):
            errors.append("%s: a list expected" % path)
            return
        for i, item in enumerate(v):
            check(schema[1], item, "%s[%d]" % (path, i), errors)
    elif kind == "map":
        if not isinstance(v, dict):
            errors.append("%s: a map expected" % path)
            return
        for k, sub in v.items():
            check(schema[1], sub, "%s[%s]" % (path, k), errors)
    elif kind == "enum":
        if v not in schema[1]:
            errors.append("%s: %r is not one of %s" % (path, v, ", ".join(schema[1])))
    elif kind == "quantity":
        if not isinstance(v, (str, int)) or isinstance(v, bool):
            errors.append("%s: a quantity expected" % path)
    elif kind == STR:
        if not isinstance(v, str):
            errors.append("%s: a string expected, got %r" % (path, v))
    elif kind == INT:
        if not isinstance(v, int) or isinstance(v, bool):
            errors.append("%s: an integer expected, got %r" % (path, v))
    elif kind == BOOL:
        if not isinstance(v, bool):
            errors.append("%s: true or false expected" % path)


def check_doc(doc, where):
    errors = []
    kind = doc.get("kind") if isinstance(doc, dict) else None
    if kind not in KINDS:
        return ["%s: kind %r is not one this checker knows" % (where, kind)]
    check(KINDS[kind], doc, where + ":" + kind, errors)
    for req in REQUIRED.get(kind, []):
        v = doc
        for k in req:
            v = v.get(k) if isinstance(v, dict) else None
        if not v:
            errors.append("%s: %s is required" % (where, ".".join(req)))
    return errors


def check_file(path):
    errors = []
    for i, doc in enumerate(yaml.safe_load_all(open(path))):
        if doc:
            errors += check_doc(doc, "%s#%d" % (path, i))
    return errors


def self_test():
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "x"},
        "spec": {
            "completionMode": "Indexed",
            "template": {
                "spec": {"restartPolicy": "Never", "containers": [{"name": "a", "image": "b"}]}
            },
        },
    }
    assert check_doc(job, "ok") == [], check_doc(job, "ok")
    import copy

    bad = copy.deepcopy(job)
    bad["spec"]["completionMod"] = bad["spec"].pop("completionMode")
    assert any("unknown field 'completionMod'" in e for e in check_doc(bad, "b")), "completionMod"
    bad = copy.deepcopy(job)
    bad["spec"]["template"]["spec"]["restartPolicy"] = "Nevr"
    assert any("'Nevr' is not one of" in e for e in check_doc(bad, "b")), "Nevr"
    bad = copy.deepcopy(job)
    bad["spec"]["template"]["spec"]["containers"][0]["envv"] = []
    assert any("unknown field 'envv'" in e for e in check_doc(bad, "b")), "envv"
    bad = copy.deepcopy(job)
    bad["spec"]["completions"] = "4"
    assert any("an integer expected" in e for e in check_doc(bad, "b")), "a string count"
    bad = copy.deepcopy(job)
    del bad["spec"]["template"]["spec"]["containers"]
    assert any("containers is required" in e for e in check_doc(bad, "b")), "no containers"
    print("k8s_strict: self-test ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        sys.exit(0)
    errs = [e for p in sys.argv[1:] for e in check_file(p)]
    for e in errs:
        print(e)
    sys.exit(1 if errs else 0)
