#!/usr/bin/env python3
"""symbol_cycles: finds file-level cycles of symbol references among object files.

Usage: symbol_cycles.py BUILD_DIR [SOURCE_PREFIX...]
Reads every object file under BUILD_DIR with `nm`, links each undefined
symbol to the object that defines it, and reports every strongly connected
component of more than one file (a cycle of files that call each other).
Only objects whose source path starts with a SOURCE_PREFIX (default: record/
and analyze/) are considered. Exit status: 0 when there is no cycle, 1 when
there is one, 2 on a usage error.
"""
import os
import subprocess
import sys


def objects(build_dir, prefixes):
    """Yields (source-relative name, object path) for the chosen objects."""
    for root, _dirs, files in os.walk(build_dir):
        for f in files:
            if not f.endswith(".c.o"):
                continue
            path = os.path.join(root, f)
            rel = path.split(".dir/", 1)[-1][:-2]
            if "tests/" in path.split(".dir/", 1)[0] or "fuzz" in path:
                continue
            if any(rel.startswith(p) or ("/" + p) in path for p in prefixes):
                yield rel, path


def symbols(path):
    """Returns (defined, undefined) global symbol sets of one object file."""
    out = subprocess.run(["nm", path], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBR":
            defined.add(parts[2])
    return defined, undefined


def sccs(graph):
    """Tarjan's algorithm: the strongly connected components of graph."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    prefixes = argv[2:] or ["record/", "analyze/"]
    objs = {}
    for rel, path in objects(argv[1], prefixes):
        # one program's object per source file is enough
        objs.setdefault(rel, path)
    if not objs:
        print("symbol_cycles: no object files under " + argv[1], file=sys.stderr)
        return 2
    defs, undefs, owner = {}, {}, {}
    for rel, path in objs.items():
        defs[rel], undefs[rel] = symbols(path)
        for s in defs[rel]:
            owner.setdefault(s, rel)
    graph = {rel: sorted({owner[s] for s in undefs[rel] if s in owner} - {rel})
             for rel in objs}
    cycles = [sorted(c) for c in sccs(graph) if len(c) > 1]
    for c in cycles:
        print("cycle: " + " <-> ".join(c))
    print("symbol_cycles: %d files, %d references, %d cycles"
          % (len(objs), sum(len(v) for v in graph.values()), len(cycles)))
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
