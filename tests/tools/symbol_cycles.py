#!/usr/bin/env python3
"""symbol_cycles: finds file-level cycles of symbol references among object files.

Usage: symbol_cycles.py BUILD_DIR [SOURCE_PREFIX...]
Reads the object files of BUILD_DIR's targets with `nm` (build_objects.py),
links each undefined symbol to the object that defines it, and reports every
strongly connected component of more than one file (a cycle of files that
call each other). Only objects whose source path starts with a SOURCE_PREFIX
(default: common/, record/ and analyze/) are considered. Exit status: 0 when
there is no cycle, 1 when there is one, 2 on a usage error.
"""
import sys

from build_objects import objects, symbols


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
    prefixes = tuple(argv[2:] or ["common/", "record/", "analyze/"])
    objs = {}
    for rel, path in objects(argv[1]):
        # one program's object per source file is enough
        if rel.startswith(prefixes):
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
