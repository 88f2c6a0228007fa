#!/usr/bin/env python3
"""For tests/e2e/docs_check.sh: records of gpu-cpu-builds made up from
docs/results-gpu.md's own table (same memory, mismatches and detail, other
timings), and two edited copies of the doc: a timing cell that is no
number (nonum.md) and a changed memory cell (mem.md).

    docs_timing_fixture.py DOC DIR"""
import json
import os
import re
import sys

doc, out = sys.argv[1], sys.argv[2]
lines = open(doc, encoding="utf-8").read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("<!-- report-table") and "gpu-cpu-builds" in l)
recs = {}
for l in lines[i + 3:]:
    if not l.startswith("|"):
        break
    c = [x.strip() for x in l.strip().strip("|").split("|")]
    r = recs.setdefault(c[0], {"experiment": "gpu-cpu-builds", "params": {"table": c[0]}, "metrics": {}, "rows": []})
    r["rows"].append({"engine": c[1], "memory_bytes": float(c[2]) * 1048576, "mismatches": int(c[3]),
                      "detail": c[4], "build_s": 9.5, "lookups_per_s": 7.0e6 * (len(r["rows"]) + 1)})
os.makedirs(os.path.join(out, "records", "gpu-cpu-builds"), exist_ok=True)
for k, r in enumerate(recs.values()):
    json.dump(r, open(os.path.join(out, "records", "gpu-cpu-builds", "%d.json" % k), "w"))
row = lines[i + 3]
edits = {"nonum": re.sub(r"\| [0-9.]+ \|$", "| - |", row),
         "mem": re.sub(r"^(\| [^|]+\| [^|]+\| )[0-9.]+", r"\g<1>1.0", row)}
for name, new in edits.items():
    open(os.path.join(out, name + ".md"), "w", encoding="utf-8").write("\n".join(lines[:i + 3] + [new] + lines[i + 4:]))
