#!/usr/bin/env python3
"""drift: fails when the tree has drifted from what its code and docs say.

Usage: drift.py BUILD_DIR
Run from anywhere; the tree is the repository this script is in, BUILD_DIR
a configured and built CMake tree of it. Every rule is computed from the
tree and the build, never from a list of names:

  static  a global symbol defined in common/, record/ or analyze/ that no
          other object file of the build references (nm): it must be
          static. Tests and fuzz targets are users: a function a test calls
          is the module's API even when one program calls it from inside
          its own file.
  dead    such a symbol that its own file does not use either (its name
          appears once in the source, comments and strings left out): remove
          it.
  path    a repository path named in a doc (docs/*.md, README.md) or a
          comment of a tracked .c/.h that does not exist: a path whose
          first part is a top-level entry of the tree (or, in a doc, a
          relative link), a folder-qualified path whose first part is a
          folder of record/ or analyze/ (net/retry.h: some tracked file ends
          with it),
          or a bare *.c / *.h name (some tracked or generated file has it).
          Parts in capitals (DIR/NAME.gp, but not README.md) and patterns
          (<x>, *, {}) are placeholders and not checked.
  name    a C name in backticks in docs/architecture.md (lower case with an
          underscore: `clock_now_ns`, `trace_writer_open()`) that no tracked
          .c/.h or CMakeLists.txt (library names) contains.

Not reported: main, and a definition that replaces a C library function
(rx_stamp.c's recv: libc's own dynamic symbols are the list). Prints one
line per finding and a count; exit status 0 when nothing drifted, 1 when
something did, 2 on a usage error.
"""
import os
import re
import subprocess
import sys

from build_objects import objects, repo_root, symbols

PRODUCT = ("common/", "record/", "analyze/")


def tracked(root):
    """The tracked files of the tree (git ls-files)."""
    res = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True,
                         text=True, check=True)
    return [f for f in res.stdout.split("\n") if f]


def libc_symbols():
    """Names libc exports (a definition of one is an interposition)."""
    try:
        lib = subprocess.run(["cc", "-print-file-name=libc.so.6"],
                             capture_output=True, text=True).stdout.strip()
        res = subprocess.run(["nm", "-D", "--defined-only", lib],
                             capture_output=True, text=True).stdout
    except OSError:
        return set()
    return {ln.split()[-1].split("@")[0] for ln in res.splitlines()
            if len(ln.split()) == 3}


_CODE_NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"'
                         r"|'(?:\\.|[^'\\\n])*'", re.S)


def uses_in_source(path, name):
    """How often name occurs in the C file at path, outside comments and
    string literals (the definition counts once)."""
    try:
        with open(path, errors="replace") as f:
            code = _CODE_NOISE.sub(" ", f.read())
    except OSError:
        return 2  # generated or unreadable: assume used
    return len(re.findall(r"\b%s\b" % re.escape(name), code))


def symbol_findings(build_dir, root):
    """The static and dead rules, over build_dir's objects."""
    defs, users = {}, {}
    for src, obj in objects(build_dir, root):
        d, u = symbols(obj)
        for s in d:
            defs.setdefault(s, set()).add(src)
        for s in u:
            users.setdefault(s, set()).add(src)
    skip = libc_symbols() | {"main"}
    out = []
    for sym in sorted(defs):
        mine = {s for s in defs[sym] if s.startswith(PRODUCT)}
        if not mine or sym in skip or users.get(sym, set()) - mine:
            continue
        for src in sorted(mine):
            if uses_in_source(os.path.join(root, src), sym) <= 1:
                out.append("dead: %s (%s) is used nowhere: remove it"
                           % (sym, src))
            else:
                out.append("static: %s (%s) has no user outside its file: "
                           "make it static" % (sym, src))
    return out


_PATH = re.compile(r"(?<![\w./<:$*{-])((?:\.{1,2}/)*(?:[\w.-]+/)*\w[\w.-]*\w)"
                   r"(?![\w<>*{}$-])")
_EXT = re.compile(r"\.(c|h|md|py|sh|gp|cmake|txt|yaml|sbatch|json|tsv)$")


def texts(root, files):
    """Yields (file, line, text) for every doc line and C comment."""
    for f in files:
        path = os.path.join(root, f)
        if f.endswith((".c", ".h")):
            with open(path, errors="replace") as fh:
                code = fh.read()
            for m in _CODE_NOISE.finditer(code):
                if m.group(0).startswith("/"):
                    yield f, code.count("\n", 0, m.start()) + 1, m.group(0)
        elif f == "README.md" or (f.startswith("docs/") and
                                  f.endswith(".md") and
                                  # history names files as they were then
                                  not f.endswith("-history.md")):
            with open(path, errors="replace") as fh:
                for i, line in enumerate(fh, 1):
                    yield f, i, line


def path_findings(root, files, build_dir):
    """The path rule."""
    have = set(files)
    for f in files:
        while "/" in f:
            f = f.rsplit("/", 1)[0]
            have.add(f)
    top = {f.split("/", 1)[0] for f in files}
    folders = {p.split("/")[1] for p in have
               if p not in have.intersection(files) and p.count("/") == 1
               and p.startswith(("record/", "analyze/"))}
    bases = {f.rsplit("/", 1)[-1] for f in files}
    suffixes = set()
    for p in have:
        parts = p.split("/")
        for i in range(1, len(parts)):
            suffixes.add("/".join(parts[i:]))
    for src, _obj in objects(build_dir, root):
        bases.add(src.rsplit("/", 1)[-1])
    for d, _dirs, fs in os.walk(build_dir):  # generated headers
        bases.update(x for x in fs if x.endswith((".c", ".h")))
    out = []
    for f, first, text in texts(root, files):
        for m in _PATH.finditer(text):
            line = first + text.count("\n", 0, m.start())
            tok = m.group(1).rstrip(".")
            parts = [p for p in tok.split("/") if p not in (".", "..")]
            if not parts or any(re.fullmatch(r"[A-Z0-9_]*[A-Z][A-Z0-9_]*",
                                             p.split(".")[0]) and
                                p not in bases for p in parts):
                continue  # a placeholder (DIR/NAME.gp)
            if tok.startswith(("./", "../")):
                if not f.endswith(".md") or not _EXT.search(tok):
                    continue  # a command (./build), not a link
                full = os.path.normpath(os.path.join(os.path.dirname(f),
                                                     tok))
                ok = full in have
            elif "/" in tok and parts[0] in top:
                # a folder, a file, or a program by its source's path
                ok = tok in have or any(x.startswith(tok + ".")
                                        for x in files)
            elif "/" in tok and parts[0] in folders and _EXT.search(tok):
                ok = tok in suffixes
            elif "/" not in tok and tok.endswith((".c", ".h")):
                ok = tok in bases
            else:
                continue
            if not ok:
                out.append("path: %s:%d names %s, which does not exist"
                           % (f, line, tok))
    return out


def name_findings(root, files, doc="docs/architecture.md"):
    """The name rule, over doc's backticked C names."""
    if doc not in files:
        return []
    words = set()
    for f in files:
        if f.endswith((".c", ".h", "CMakeLists.txt")):
            with open(os.path.join(root, f), errors="replace") as fh:
                words.update(re.findall(r"\b[a-z_][a-z0-9_]*\b", fh.read()))
    out = []
    with open(os.path.join(root, doc)) as fh:
        for i, line in enumerate(fh, 1):
            for m in re.finditer(r"`([a-z][a-z0-9]*_[a-z0-9_]*)(?:\(\))?`",
                                 line):
                if m.group(1) not in words:
                    out.append("name: %s:%d names `%s`, which no .c/.h or "
                               "CMakeLists.txt has"
                               % (doc, i, m.group(1)))
    return out


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = repo_root()
    build_dir = os.path.abspath(argv[1])
    files = [f for f in tracked(root) if os.path.exists(os.path.join(root, f))]
    if not objects(build_dir, root):
        print("drift: no object files under " + argv[1], file=sys.stderr)
        return 2
    found = (symbol_findings(build_dir, root) +
             path_findings(root, files, build_dir) +
             name_findings(root, files))
    for line in found:
        print(line)
    print("drift: %d findings (static, dead, path, name)" % len(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
