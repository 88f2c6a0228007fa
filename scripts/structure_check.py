#!/usr/bin/env python3
"""The structure rules of docs/architecture.md, checked on a source tree.

usage: structure_check.py [--root DIR] [--build DIR]

  - no #include cycle between files, and none between modules (a module is
    X.c with X.h and its private X_int.h; a header without a .c of its own
    that includes X.h and is included by X.c, such as cpu/poptrie_walk.h,
    belongs to X);
  - core/ includes nothing outside core/; no library folder includes cli/;
  - no weak symbols (`weak` in a source, header or make file);
  - with --build (the objects of `make`): no call cycle between object
    files, core's objects call nothing defined outside core/, no library
    object calls the command layer.

Prints one line per fault and a summary; exit 1 on any fault, 0 otherwise.
Long functions and files are listed as information (the limits, 120 and
800 lines, are for new code)."""
import collections
import os
import re
import subprocess
import sys

LIBS = ("core", "mapper", "sim", "rtl_gen", "cpu", "gpu", "names", "models", "reports")
SRC = (".c", ".h", ".cu", ".cpp", ".hpp")
SKIP_DIRS = {".git", "tests", "fuzz", "obj_dir", "obj_dir_so"}


def sources(root):
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        for f in files:
            if f.endswith(SRC):
                yield os.path.normpath(os.path.join(rel, f))


def scc(graph):
    """Strongly connected components of two or more nodes."""
    sys.setrecursionlimit(100000)
    idx, low, st, on, res, n = {}, {}, [], set(), [], [0]

    def go(v):
        idx[v] = low[v] = n[0]
        n[0] += 1
        st.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in idx:
                go(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], idx[w])
        if low[v] == idx[v]:
            c = []
            while True:
                w = st.pop()
                on.discard(w)
                c.append(w)
                if w == v:
                    break
            if len(c) > 1:
                res.append(sorted(c))

    for v in sorted(graph):
        if v not in idx:
            go(v)
    return res


def folder(p):
    return p.split("/")[0] if "/" in p else "."


def include_graph(root, files):
    inc = collections.defaultdict(set)
    for f in files:
        text = open(os.path.join(root, f), errors="replace").read()
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            t = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
            if os.path.exists(os.path.join(root, t)) and t != f:
                inc[f].add(t)
    return inc


def modules(files, inc):
    fileset = set(files)
    base = lambda p: os.path.splitext(p)[0]
    mod = {}
    for f in files:
        b = base(f)
        mod[f] = b[:-4] if b.endswith("_int") and (b[:-4] + ".c") in fileset else b
    # a header-only helper of module X: includes X.h and X.c includes it
    for f in files:
        if not f.endswith(".h") or any((base(f) + e) in fileset for e in (".c", ".cu", ".cpp")):
            continue
        for t in inc.get(f, ()):
            m = mod[t]
            if any(f in inc.get(m + e, ()) for e in (".c", ".cu", ".cpp")):
                mod[f] = m
                break
    return mod


def check_includes(root, files, faults):
    inc = include_graph(root, files)
    for c in scc(inc):
        faults.append("include cycle between files: " + " <-> ".join(c))
    mod = modules(files, inc)
    mg = collections.defaultdict(set)
    for f, ts in inc.items():
        for t in ts:
            if mod[f] != mod[t]:
                mg[mod[f]].add(mod[t])
    for c in scc(mg):
        faults.append("include cycle between modules: " + " <-> ".join(c))
    for f, ts in sorted(inc.items()):
        for t in sorted(ts):
            if folder(f) == "core" and folder(t) != "core":
                faults.append(f"{f}: core includes {t}")
            if folder(f) in LIBS and folder(t) == "cli":
                faults.append(f"{f}: library folder {folder(f)}/ includes the command layer ({t})")
    return len(inc)


def check_weak(root, files, faults):
    mk = [p for p in ("Makefile",) if os.path.exists(os.path.join(root, p))]
    for d, dirs, fs in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS and not x.startswith("build")]
        mk += [os.path.relpath(os.path.join(d, f), root) for f in fs if f.endswith(".mk")]
    for f in list(files) + mk:
        for i, line in enumerate(open(os.path.join(root, f), errors="replace"), 1):
            if re.search(r"\bweak\b|__weak|weakref|#\s*pragma\s+weak", line):
                faults.append(f"{f}:{i}: weak symbol: {line.strip()}")


def check_calls(root, build, faults):
    objs = []
    for d, dirs, fs in os.walk(build):
        dirs[:] = [x for x in dirs if x not in ("tests", "fuzz", "test-logs")]
        for f in fs:
            if f.endswith(".o"):
                rel = os.path.relpath(os.path.join(d, f), build)[:-2]
                # only objects of sources that still exist (stale ones are not linked)
                if any(os.path.exists(os.path.join(root, rel + e)) for e in (".c", ".cu", ".cpp")):
                    objs.append((rel, os.path.join(d, f)))
    defs, undefs = {}, collections.defaultdict(set)
    for rel, o in objs:
        out = subprocess.run(["nm", o], capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "TDBRVWC":
                defs.setdefault(p[2], rel)
            elif len(p) == 2 and p[0] in "Uw":
                undefs[rel].add(p[1])
    g = collections.defaultdict(set)
    for o, syms in undefs.items():
        for s in syms:
            d = defs.get(s)
            if not d or d == o:
                continue
            g[o].add(d)
            if folder(o) == "core" and folder(d) != "core":
                faults.append(f"{o}.o: core calls {s} of {d}")
            if folder(o) in LIBS and folder(d) == "cli":
                faults.append(f"{o}.o: library calls {s} of the command layer ({d})")
    for c in scc(g):
        faults.append("call cycle between files: " + " <-> ".join(c))
    return len(objs)


def long_code(root, files, limit=120, file_limit=800):
    info = []
    for f in files:
        if not f.endswith((".c", ".cpp", ".cu")):
            continue
        src = open(os.path.join(root, f), errors="replace").read()
        n_lines = src.count("\n")
        if n_lines > file_limit:
            info.append(f"{f}: {n_lines} lines")
        s = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), src, flags=re.S)
        s = re.sub(r"//[^\n]*", "", s)
        s = re.sub(r"^[ \t]*#(.*\\\n)*.*$", lambda m: "\n" * m.group(0).count("\n"), s, flags=re.M)
        s = re.sub(r'"(\\.|[^"\\\n])*"', '""', s)
        s = re.sub(r"'(\\.|[^'\\\n])*'", "''", s)
        depth, line, start, name = 0, 1, None, None
        for i, ch in enumerate(s):
            if ch == "\n":
                line += 1
            elif ch == "{":
                if depth == 0:
                    j = max(s.rfind(";", 0, i), s.rfind("}", 0, i))
                    head = s[j + 1:i]
                    if re.search(r"\)\s*(const)?\s*$", head):
                        m = re.findall(r"([A-Za-z_][A-Za-z0-9_:~]*)\s*\(", head)
                        name, start = (m[0] if m else "?"), line
                    else:
                        start = None
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and start is not None:
                    if line - start + 1 > limit:
                        info.append(f"{f}:{start}: {name}: {line - start + 1} lines")
                    start = None
    return info


def main():
    args = sys.argv[1:]
    root, build = ".", None
    while args:
        a = args.pop(0)
        if a == "--root" and args:
            root = args.pop(0)
        elif a == "--build" and args:
            build = args.pop(0)
        else:
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
    files = sorted(sources(root))
    faults = []
    nf = check_includes(root, files, faults)
    check_weak(root, files, faults)
    no = check_calls(root, build, faults) if build else 0
    for f in faults:
        print("FAULT:", f)
    for i in long_code(root, files):
        print("long (information):", i)
    print(f"structure: {len(files)} files, {nf} with includes, {no} objects' calls: {len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
