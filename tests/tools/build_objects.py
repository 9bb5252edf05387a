"""build_objects: the object files of a CMake build tree and their sources.

Shared by symbol_cycles.py and drift.py. The list comes from each target's
CMakeFiles/<target>.dir/DependInfo.cmake (Makefile generator), so objects
left behind by a renamed or removed source are not read; without those
files (another generator), every *.c.o is taken and its source guessed
from its path (CMake writes ".." as "__").
"""
import os
import re
import subprocess

_PAIR = re.compile(r'^\s*"([^"]+\.c)"\s+"([^"]+\.c\.o)"', re.M)


def repo_root():
    """The repository this script belongs to (tests/tools/ is two down)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))


def objects(build_dir, root=None):
    """Returns [(source path relative to root, object path)], sorted; a
    source generated in the build tree is named relative to build_dir."""
    root = root or repo_root()
    build_abs = os.path.abspath(build_dir)
    out = set()
    for d, _dirs, files in os.walk(build_dir):
        if "DependInfo.cmake" not in files or not d.endswith(".dir"):
            continue
        with open(os.path.join(d, "DependInfo.cmake")) as f:
            for src, obj in _PAIR.findall(f.read()):
                obj = os.path.join(build_dir, obj)
                if not (os.path.exists(obj) and os.path.exists(src)):
                    continue
                # a generated source is named as if it were in the tree
                base = build_abs if src.startswith(build_abs + "/") else root
                out.add((os.path.relpath(src, base), obj))
    if out:
        return sorted(out)
    for d, _dirs, files in os.walk(build_dir):
        for f in files:
            if not f.endswith(".c.o") or ".dir" not in d:
                continue
            path = os.path.join(d, f)
            pre, rel = path.split(".dir/", 1)
            base = os.path.relpath(pre.split("CMakeFiles")[0] or ".",
                                   build_dir)
            rel = "/".join(".." if c == "__" else c
                           for c in rel[:-2].split("/"))
            src = os.path.normpath(os.path.join(base, rel))
            if os.path.exists(os.path.join(root, src)):
                out.add((src, path))
    return sorted(out)


def symbols(path):
    """Returns (defined, undefined) global symbol sets of one object file."""
    res = subprocess.run(["nm", path], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in res.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRCVW":
            defined.add(parts[2])
    return defined, undefined
